package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// TestBoardFog: the board the clickable map reads (GET /web/board) is the
// viewer's view of a match with fog of war: Ann's browser, asking as Ann,
// gets her sight and nothing beyond (no owner, no armies out of it); as
// Bob, whom her browser does not play, or from a browser that plays no
// one, the public's; and her moves only hers, on her turn.
func TestBoardFog(t *testing.T) {
	e := newEnv(t, Config{})
	const ch = "boardfog"
	for _, l := range []string{"Ann: /risk new fog:on", "Bob: /risk join", "Ann: /risk addbot level:easy",
		"Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, ch, who, line)
	}
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("claim Ann: %d %s", status, body)
	}
	stranger := openPage(t, e)
	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		t.Fatal(err)
	}
	full := m.Game.State
	annSeat := full.SeatByID(userID("Ann"))
	for _, c := range []struct {
		name   string
		client *http.Client
		as     string
		viewer int
		sight  state.Sight
	}{
		{"Ann as Ann", ann.client, "Ann", annSeat, full.Sight(annSeat)},
		{"Ann as Bob", ann.client, "Bob", -1, full.PublicSight()},
		{"a stranger as Ann", stranger.client, "Ann", -1, full.PublicSight()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b boardJSON
			getJSON(t, c.client, fmt.Sprintf("%s/web/board?channel=%s&as=%s", e.ts.URL, ch, c.as), &b)
			if b.Viewer != c.viewer || b.Match != m.ID || len(b.Territories) != len(full.Terr) {
				t.Fatalf("viewer %d of match %d with %d territories, want %d of %d with %d", b.Viewer, b.Match, len(b.Territories), c.viewer, m.ID, len(full.Terr))
			}
			hidden := 0
			for i, got := range b.Territories {
				want := boardTerr{Owner: full.Terr[i].Owner, Armies: full.Terr[i].Armies}
				if !c.sight.Has(i) {
					want = boardTerr{Owner: state.Neutral, Fog: true}
					hidden++
				}
				if got != want {
					t.Errorf("%s: got %+v, want %+v", full.Map.TerritoryName(i), got, want)
				}
			}
			if hidden == 0 {
				t.Errorf("nothing is in the fog: the test shows nothing")
			}
			mine := c.viewer >= 0 && full.Current == c.viewer
			if got := len(b.Moves.Place) > 0 || len(b.Moves.Attack) > 0; got != mine {
				t.Errorf("moves %+v; want some: %v", b.Moves, mine)
			}
		})
	}
}

// TestClassicMoves: the board's moves are the engine's legal commands on
// the viewer's view, read for clicks: where to place and how many, what
// each territory may attack, where it may move armies and how many, the
// move owed after a conquest.
func TestClassicMoves(t *testing.T) {
	e := newEnv(t, Config{})
	startMatch(t, e, "moves")
	m, err := e.db.Active(context.Background(), Prefix+"moves")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Game.State
	seat := s.SeatByID(userID("Ann"))
	if s.Phase != state.PhaseSetup {
		t.Fatalf("phase %s, want setup", s.Phase)
	}
	mv := classicMoves(s.View(seat), seat)
	var mine []int
	for i, tr := range s.Terr {
		if tr.Owner == seat {
			mine = append(mine, i)
		}
	}
	if !slices.Equal(mv.Place, mine) || mv.Reserve != s.Seats[seat].Reserve {
		t.Errorf("setup: place on %v up to %d, want %v up to %d", mv.Place, mv.Reserve, mine, s.Seats[seat].Reserve)
	}
	e.do(t, "moves", "Ann", "/risk place")
	m, _ = e.db.Active(context.Background(), Prefix+"moves")
	s = m.Game.State
	if s.Current != seat {
		t.Fatalf("Ann does not play first: seat %d plays", s.Current)
	}
	e.do(t, "moves", "Ann", "/risk place")
	m, _ = e.db.Active(context.Background(), Prefix+"moves")
	s = m.Game.State
	mv = classicMoves(s.View(seat), seat)
	if len(mv.Attack) == 0 || len(mv.Fortify) == 0 || !mv.End || len(mv.Place) != 0 {
		t.Fatalf("attack phase: %+v", mv)
	}
	for _, a := range mv.Attack {
		for _, to := range a.To {
			if !engine.Covers(engine.Legal(s, seat), engine.Blitz{From: a.From, To: to, Keep: 1}) {
				t.Errorf("attack %d -> %d is not legal", a.From, to)
			}
		}
	}
	for _, f := range mv.Fortify {
		if f.Max != engine.Movable(s, f.From) {
			t.Errorf("fortify from %d: most %d, want %d", f.From, f.Max, engine.Movable(s, f.From))
		}
		for _, to := range f.To {
			if !engine.Covers(engine.Legal(s, seat), engine.Fortify{From: f.From, To: to, Armies: f.Max}) {
				t.Errorf("fortify %d -> %d is not legal", f.From, to)
			}
		}
	}
}

// playAs runs lines typed by players ("Ann: /risk ...") in channel ch.
func playAs(t *testing.T, e *testEnv, ch string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, ch, who, line)
	}
}

// matchState is the whole state of channel ch's match.
func matchState(t *testing.T, e *testEnv, ch string) *state.State {
	t.Helper()
	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		t.Fatal(err)
	}
	return m.Game.State
}

// clickable lists what a board's capitals moves offer, one line each
// ("plan 3 7"), as legalClicks lists the engine's.
func clickable(m movesJSON) []string {
	var out []string
	for _, t := range m.Capital {
		out = append(out, fmt.Sprint("capital ", t))
	}
	for _, t := range m.Reinforce {
		out = append(out, fmt.Sprint("reinforce ", t))
	}
	for _, c := range m.Capture {
		for _, to := range c.To {
			out = append(out, fmt.Sprint("capture ", c.From, " ", to))
		}
	}
	for _, p := range m.Plan {
		for _, to := range p.To {
			out = append(out, fmt.Sprint("plan ", p.From, " ", to.To))
		}
	}
	for _, t := range m.Port {
		out = append(out, fmt.Sprint("port ", t))
	}
	if m.Launch > 0 {
		out = append(out, "launch")
	}
	for _, mv := range m.Move {
		for _, to := range mv.To {
			out = append(out, fmt.Sprint("move ", mv.From, " ", to))
			if mv.Hero {
				out = append(out, fmt.Sprint("move-hero ", mv.From, " ", to))
			}
		}
	}
	if m.Item != nil && m.Item.Use {
		out = append(out, "use")
	}
	if m.End {
		out = append(out, "end")
	}
	slices.Sort(out)
	return out
}

// legalClicks lists the engine's legal capitals commands as clickable
// does: a move once for each way, whatever its share.
func legalClicks(v *state.State, seat int) []string {
	var out []string
	for _, c := range engine.Legal(v, seat) {
		var l string
		switch c := c.(type) {
		case engine.Capital:
			l = fmt.Sprint("capital ", c.Territory)
		case engine.Reinforce:
			l = fmt.Sprint("reinforce ", c.Territory)
		case engine.Capture:
			l = fmt.Sprint("capture ", c.From, " ", c.To)
		case engine.Plan:
			l = fmt.Sprint("plan ", c.From, " ", c.To)
		case engine.BuildPort:
			l = fmt.Sprint("port ", c.Territory)
		case engine.Launch:
			l = "launch"
		case engine.Move:
			l = fmt.Sprint("move ", c.From, " ", c.To)
			if c.Hero {
				l = fmt.Sprint("move-hero ", c.From, " ", c.To)
			}
		case engine.UseItem:
			l = "use"
		case engine.EndTurn:
			l = "end"
		default:
			continue
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// TestCapitalsMoves: the board's capitals moves are the engine's legal
// commands on the viewer's view, all of them and only them, through a
// match's phases (the capital chosen, the reinforcements, the action, the
// move) and on a turn made to hold every kind at once (a plan already
// made, a plan, a port, the hero, an item), with each plan's numbers as
// the bot words them; another player's board offers nothing.
func TestCapitalsMoves(t *testing.T) {
	e := newEnv(t, Config{})
	const ch = "capmoves"
	playAs(t, e, ch, "Ann: /risk new rules:capitals map:small neutral:3", "Bob: /risk join", "Ann: /risk start")
	s := matchState(t, e, ch)
	names := map[int]string{s.SeatByID(userID("Ann")): "Ann", s.SeatByID(userID("Bob")): "Bob"}
	type moment struct {
		name string
		s    *state.State
		want string // a kind of click it must offer
	}
	var moments []moment
	// The capitals: the first player's anywhere, the second's where the
	// rules let it.
	for range 2 {
		s = matchState(t, e, ch)
		moments = append(moments, moment{"capital of " + names[s.Current], s, "capital"})
		var spot int
		for _, c := range engine.Legal(s, s.Current) {
			if c, ok := c.(engine.Capital); ok {
				spot = c.Territory
				break
			}
		}
		playAs(t, e, ch, names[s.Current]+": /risk place territory:"+s.Map.TerritoryName(spot))
	}
	s = matchState(t, e, ch)
	first := s.Current
	moments = append(moments, moment{"reinforcements", s, "reinforce"})
	capital := s.Capital(first)
	playAs(t, e, ch, names[first]+": /risk place territory:"+s.Map.TerritoryName(capital))
	s = matchState(t, e, ch)
	moments = append(moments, moment{"action", s, "capture"})

	// Every kind at once: a plan made, an enemy next door to plan on, a
	// port to build, the hero on the capital, an item kept.
	all := s.Clone()
	other := 1 - first
	near, coast := -1, -1
	for _, n := range all.Map.Territories[capital].Adj {
		if all.Terr[n].Owner == state.Neutral && near < 0 {
			near = n
		}
	}
	for i, tr := range all.Map.Territories {
		if tr.Coast && all.Terr[i].Owner == state.Neutral && i != near {
			coast = i
			break
		}
	}
	if near < 0 || coast < 0 {
		t.Fatalf("no neutral territory by %s, or no coast: %d, %d", all.Map.TerritoryName(capital), near, coast)
	}
	all.Terr[near] = state.Terr{Owner: other, Armies: 1}
	all.Terr[coast] = state.Terr{Owner: first, Armies: 4}
	all.Seats[first].Capitals.Hero = int16(capital + 1)
	all.Seats[first].Capitals.HeroWon = true
	all.Seats[first].Capitals.Item = state.ItemFullPower
	moments = append(moments, moment{"every kind", all, "move-hero"})
	planned := all.Clone()
	planned.Cap.Plan[0] = state.Planned{From: int16(capital), To: int16(near)}
	planned.Cap.NPlan = 1
	moments = append(moments, moment{"a plan made", planned, "launch"})

	playAs(t, e, ch, names[first]+": /risk attack from:"+s.Map.TerritoryName(capital)+" to:"+s.Map.TerritoryName(s.Map.Territories[capital].Adj[0]))
	s = matchState(t, e, ch)
	moments = append(moments, moment{"move", s, "move"})

	en := voice.Speaking(lang.English)
	for _, m := range moments {
		t.Run(m.name, func(t *testing.T) {
			seat := m.s.Current
			v := m.s.View(seat)
			got := capitalsMoves(v, seat, en)
			clicks, want := clickable(got), legalClicks(v, seat)
			if !slices.Equal(clicks, want) {
				t.Errorf("the board offers %v,\nthe engine allows %v", clicks, want)
			}
			if !slices.ContainsFunc(clicks, func(c string) bool { return strings.HasPrefix(c, m.want+" ") || c == m.want }) {
				t.Errorf("no %s offered: %v", m.want, clicks)
			}
			if o := capitalsMoves(m.s.View(1-seat), 1-seat, en); len(clickable(o)) != 0 {
				t.Errorf("the other player's board offers %v", clickable(o))
			}
			pv := engine.PlanningView(v, seat)
			n := int(v.Cap.NPlan) + 1
			for _, p := range got.Plan {
				for _, to := range p.To {
					a, d := pv.AttackTotal(p.From, to.To, n).Total, pv.DefenceTotal(to.To)
					want := planTarget{To: to.To, Attack: state.FormatPower(a), Defence: state.FormatPower(d), Lo: engine.Damage(a, d, engine.LuckMin),
						Hi: engine.Damage(a, d, engine.LuckMin+engine.LuckSpan-1), Troops: pv.Terr[to.To].Armies}
					if to != want {
						t.Errorf("plan %d -> %d: got %+v, want %+v", p.From, to.To, to, want)
					}
				}
			}
			if it := m.s.Seats[seat].Capitals.Item; it.Kept() {
				want := &itemJSON{Title: it.Title(), What: en.Replies().ItemWhat(it), Use: true}
				if got.Item == nil || *got.Item != *want {
					t.Errorf("item %+v, want %+v", got.Item, want)
				}
			}
		})
	}
	// The plan's attacks are arrows for everyone who sees them.
	if got, want := arrows(planned.View(-1)), []arrowJSON{{Kind: "plan", From: capital, To: near}}; !slices.Equal(got, want) {
		t.Errorf("the plan's arrows %+v, want %+v", got, want)
	}
}

// TestOrdersMoves: in a simultaneous round the board offers the engine's
// orders (placements, attack orders with the armies that may go, move
// orders, undo, commit) and draws the viewer's orders, never another
// player's, until the viewer commits (Ready).
func TestOrdersMoves(t *testing.T) {
	e := newEnv(t, Config{})
	const ch = "ordmoves"
	playAs(t, e, ch, "Ann: /risk new turns:simultaneous", "Bob: /risk join", "Ann: /risk start", "Ann: /risk place", "Bob: /risk place")
	s := matchState(t, e, ch)
	if s.Phase != state.PhaseOrders {
		t.Fatalf("phase %s, want orders", s.Phase)
	}
	ann, bob := s.SeatByID(userID("Ann")), s.SeatByID(userID("Bob"))
	mv := classicMoves(s.View(ann), ann)
	if len(mv.Place) == 0 || mv.Reserve != s.Seats[ann].Reserve || mv.End || len(mv.Assault) == 0 {
		t.Fatalf("the round's start: %+v", mv)
	}
	playAs(t, e, ch, "Ann: /risk place", "Bob: /risk place")
	s = matchState(t, e, ch)
	mv = classicMoves(s.View(ann), ann)
	if !mv.End || len(mv.Place) != 0 || len(mv.Assault) == 0 {
		t.Fatalf("all placed: %+v", mv)
	}
	for _, a := range mv.Assault {
		if want := engine.Projected(s, ann, a.From) - 1; a.Max != want {
			t.Errorf("attack orders from %d: most %d, want %d", a.From, a.Max, want)
		}
		for _, to := range a.To {
			if !engine.Covers(engine.Legal(s, ann), engine.Assault{From: a.From, To: to, Armies: a.Max}) {
				t.Errorf("attack order %d -> %d of %d is not legal", a.From, to, a.Max)
			}
		}
	}
	// An attack order each, of one army.
	var a targetsJSON
	for _, who := range []string{"Ann", "Bob"} {
		seat := s.SeatByID(userID(who))
		for _, o := range classicMoves(s.View(seat), seat).Assault {
			if o.Max > 1 {
				if who == "Ann" {
					a = o
				}
				playAs(t, e, ch, fmt.Sprintf("%s: /risk attack from:%q to:%q armies:1", who, s.Map.TerritoryName(o.From), s.Map.TerritoryName(o.To[0])))
				break
			}
		}
	}
	if a.Max < 2 {
		t.Fatal("Ann has no territory to order an attack from")
	}
	s = matchState(t, e, ch)
	annOrders := arrows(s.View(ann))
	var placed, attacks int
	for _, o := range annOrders {
		switch o.Kind {
		case "place":
			placed += o.Armies
		case "attack":
			attacks++
		}
	}
	if attacks != 1 || placed == 0 || annOrders[len(annOrders)-1] != (arrowJSON{Kind: "attack", From: a.From, To: a.To[0], Armies: 1}) {
		t.Errorf("Ann's arrows %+v: want her placements and her one attack order last", annOrders)
	}
	if got := arrows(s.View(-1)); len(got) != 0 {
		t.Errorf("the public sees the orders %+v", got)
	}
	bobs := arrows(s.View(bob))
	if len(bobs) != len(s.OrdersOf(bob)) || bobs[len(bobs)-1].Kind != "attack" || bobs[len(bobs)-1].From == a.From {
		t.Errorf("Bob's arrows %+v, want his %d orders, his attack last", bobs, len(s.OrdersOf(bob)))
	}
	if mv := classicMoves(s.View(ann), ann); !mv.Undo {
		t.Errorf("no undo after an order: %+v", mv)
	}
	playAs(t, e, ch, "Ann: /risk end")
	s = matchState(t, e, ch)
	if mv := classicMoves(s.View(ann), ann); mv.End || len(mv.Assault) != 0 || mv.Undo || !s.View(ann).Seats[ann].Ready {
		t.Errorf("after Ann's commit: moves %+v, ready %v", mv, s.View(ann).Seats[ann].Ready)
	}
}
