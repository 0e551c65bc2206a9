package voice

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// sample is one thing the voice says, worded by a voice of some language.
type sample struct {
	name string
	say  func(v Voice) string
}

// message is a chat message as a reader takes it in: its text, its embed,
// its buttons' labels.
func message(m chat.Message) string {
	var b strings.Builder
	b.WriteString(m.Text)
	if m.Embed != nil {
		b.WriteString("\n" + embed(m.Embed))
	}
	for _, row := range m.Buttons {
		for _, btn := range row {
			fmt.Fprintf(&b, "\n[%s]", btn.Label)
		}
	}
	return b.String()
}

func embed(e *chat.Embed) string {
	lines := []string{"# " + e.Title, e.Description}
	for _, f := range e.Fields {
		lines = append(lines, "## "+f.Name, f.Value)
	}
	if e.Footer != "" {
		lines = append(lines, "_"+e.Footer+"_")
	}
	return strings.Join(lines, "\n")
}

func buttons(rows [][]chat.Button) string {
	var labels []string
	for _, row := range rows {
		for _, b := range row {
			labels = append(labels, "["+b.Label+"]")
		}
	}
	return strings.Join(labels, " ")
}

// classicMatch is a hosted classic match of Ann, Bob and Cid (with
// options changed by opts), after its initial placement.
func classicMatch(t *testing.T, opts func(*state.Options)) (*hosted.Match, Voice) {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}, {ID: "test:cid", Name: "Cid"}}
	o := state.DefaultOptions()
	if opts != nil {
		opts(&o)
	}
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for g.State.Phase == state.PhaseSetup {
		for seat := range g.State.Seats {
			if g.State.Seats[seat].Reserve > 0 {
				if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	m := &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 1, Channel: "test:voice", Status: storage.Active}, Game: g}}
	for _, s := range seats {
		m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name})
	}
	return m, New([]string{"red", "cyan", "yellow"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
}

// frontier is a territory of seat's with armies to attack from, and an
// enemy's next to it.
func frontier(t *testing.T, s *state.State, seat int) (from, to int) {
	t.Helper()
	for f := range s.Terr {
		if s.Terr[f].Owner != seat {
			continue
		}
		for _, n := range s.Map.Territories[f].Adj {
			if s.Terr[n].Owner != seat {
				return f, n
			}
		}
	}
	t.Fatal("no frontier")
	return -1, -1
}

// samples are what the voice says of this package's private half: the
// replies, the capitals' questions, the games list, the lobby's card, every
// mission card, the orders of a round, a rollback, the teams.
func samples(t *testing.T) []sample {
	t.Helper()
	var out []sample
	add := func(name string, say func(v Voice) string) { out = append(out, sample{name, say}) }

	// A classic match at Ann's (seat Current's) reinforcements, then her
	// attacks.
	m, _ := classicMatch(t, nil)
	s := m.Game.State
	cur := s.Current
	add("classic next step, reinforcing", func(v Voice) string { return v.Replies().NextStep(m, cur) })
	add("classic reply with an item collected", func(v Voice) string {
		return message(v.Replies().Next(m, cur)(Said{Lines: []string{"➕ a line"}}))
	})
	att := s.Clone()
	am := &hosted.Match{Loaded: &storage.Loaded{Match: m.Match, Game: &engine.Game{State: att}}, Meta: m.Meta}
	from, to := frontier(t, att, cur)
	att.Phase, att.Seats[cur].Reserve = state.PhaseAttack, 0
	att.Terr[from].Armies, att.Terr[to].Armies = 9, 3
	add("attack reply", func(v Voice) string {
		return message(v.Replies().Attack(am, cur, from, to, Said{Lines: []string{"⚔️ a battle"}}))
	})
	add("next step, attacking", func(v Voice) string { return v.Replies().NextStep(am, cur) })
	add("odds", func(v Voice) string { return v.Replies().Odds(engine.Odds{Win: 0.81, AttackerLeft: 5}) })
	add("a blitz stopped", func(v Voice) string { return v.Replies().Blitz(att, from, to, 3) })
	occ := att.Clone()
	occ.Phase, occ.Occupy = state.PhaseOccupy, state.Occupy{From: from, To: to, Min: 3, Max: 8}
	om := &hosted.Match{Loaded: &storage.Loaded{Match: m.Match, Game: &engine.Game{State: occ}}, Meta: m.Meta}
	add("occupy reply", func(v Voice) string { return message(v.Replies().Attack(om, cur, from, to, Said{})) })
	add("next step, occupying", func(v Voice) string { return v.Replies().NextStep(om, cur) })
	rein := s.Clone()
	for c := range 5 {
		rein.Seats[cur].Hand = rein.Seats[cur].Hand.Add(state.Card(c))
	}
	rm := &hosted.Match{Loaded: &storage.Loaded{Match: m.Match, Game: &engine.Game{State: rein}}, Meta: m.Meta}
	add("next step, five cards", func(v Voice) string { return v.Replies().NextStep(rm, cur) })
	add("cards", func(v Voice) string {
		return v.Teller().Cards(s.Map, []state.Card{0, 1, 2, state.Card(len(s.Map.Territories))})
	})
	add("colours", func(v Voice) string {
		var names []string
		for i := range 4 {
			names = append(names, v.ColorName(i))
		}
		return strings.Join(names, ", ") + "; " + v.Who(s, -1)
	})
	add("fit lines", func(v Voice) string {
		return v.Replies().Fit(slices.Repeat([]string{strings.Repeat("x", 60)}, 40), 400)
	})

	// A capitals match: its next steps, its questions, its plan.
	cm, _ := capitalsMatch(t)
	cs := cm.Game.State
	add("capitals next step", func(v Voice) string { return v.Replies().NextStep(cm, cs.Current) })
	add("capitals: pass with troops unsent", func(v Voice) string {
		r := v.Asks().PassUnsent(cm, cs.Current)
		return r.Msg + "\n" + buttons(r.Buttons)
	})
	capA := cs.Capital(0)
	nb := cs.Map.Territories[capA].Adj[0]
	add("capitals: the move's shares", func(v Voice) string { return message(v.Replies().MoveChoice(cm, 0, capA, nb, 2, false)) })
	add("capitals: a move empties the capital", func(v Voice) string {
		after := cs.Clone()
		after.Terr[nb].Armies += after.Terr[capA].Armies
		after.Terr[capA].Armies = 0
		r := v.Asks().EmptyCapital(cm, 0, engine.Move{From: capA, To: nb, Quarters: 4}, after)
		return r.Msg + "\n" + buttons(r.Buttons)
	})
	threatened := -1
	for i := range cs.Terr {
		if threatened < 0 && Speaking(lang.English).Asks().Threat(cs, i) != "" {
			threatened = i
		}
	}
	add("capitals: threat", func(v Voice) string { return v.Asks().Threat(cs, threatened) })
	add("capitals: end of turn notes", func(v Voice) string {
		return v.Asks().DroppedNote(1) + v.Asks().DroppedNote(2) + v.Asks().LapseNote(1) + v.Asks().LapseNote(3)
	})
	add("items", func(v Voice) string {
		var lines []string
		for it := state.Item(1); int(it) < state.NumItems; it++ {
			lines = append(lines, v.Replies().ItemEffect(it))
		}
		return strings.Join(lines, "\n")
	})
	pm, _ := capitalsMatch(t)
	ps := pm.Game.State
	pa, pb := ps.Capital(0), ps.Capital(1)
	for i := range ps.Terr {
		ps.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1, Port: ps.Terr[i].Port}
	}
	ps.Terr[pa] = state.Terr{Owner: 0, Armies: 10}
	ps.Terr[pb] = state.Terr{Owner: 1, Armies: 10}
	target := -1
	for _, n := range ps.Map.Territories[pa].Adj {
		if n != pb && target < 0 {
			target = n
		}
	}
	ps.Terr[target].Owner = 1
	ps.Current, ps.Phase, ps.Seats[0].Reserve = 0, state.PhaseAction, 0
	add("capitals: the action", func(v Voice) string { return v.Replies().NextStep(pm, 0) })
	planned := ps.Clone()
	if _, err := engine.Apply(planned, 0, engine.Plan{From: pa, To: target}); err != nil {
		t.Fatal(err)
	}
	plm := &hosted.Match{Loaded: &storage.Loaded{Match: pm.Match, Game: &engine.Game{State: planned}}, Meta: pm.Meta}
	add("capitals: the plan", func(v Voice) string { return message(v.Replies().Plan(plm, 0, Said{Lines: []string{"🎯 planned"}})) })

	// The games list.
	deadline := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	add("games", func(v Voice) string {
		return message(v.Status().Games([]Game{
			{Channel: "c1", Turn: 4, Yours: true, Deadline: deadline},
			{Channel: "c2", Yours: true, Others: []string{"Bob", "Cat", "Dan"}},
			{Channel: "c3", Turn: 2, Others: []string{"Bob"}, Deadline: deadline},
			{Channel: "c4", Turn: 2, Bot: "Napoleon"},
			{Channel: "c5", Damaged: true},
			{Channel: "c6", Turn: 3},
		}, 2, "here"))
	})
	add("no games", func(v Voice) string { return message(v.Status().Games(nil, 0, "here")) })

	// The lobby: seats, a bot, an invitation, teams; two players.
	meta := hosted.Meta{Host: "test:ann", Seats: []hosted.Seat{
		{ID: "test:ann", Name: "Ann", Team: 1}, {ID: "bot:1", Name: "Napoleon", Level: "easy"}, {ID: "test:bob", Name: "Bob", Team: 2},
	}, Invites: []hosted.Invite{{ID: "test:cid", Until: deadline}}}
	meta.Settings.Options = state.DefaultOptions()
	meta.Settings.Options.Teams = 2
	add("lobby card", func(v Voice) string { return message(v.Lobby().Post(7, meta, "Ann opened a lobby.").Message) })
	add("lobby invitation", func(v Voice) string { return message(v.Lobby().Invite(7, meta, []string{"test:cid"}, "Ann").Message) })
	rematch := meta
	rematch.Rematch = 3
	add("lobby rematch", func(v Voice) string {
		return message(v.Lobby().Invite(7, rematch, []string{"test:cid"}, "Ann").Message)
	})
	add("lobby started", func(v Voice) string { return message(v.Lobby().Started(7, meta).Message) })
	two := hosted.Meta{Host: "test:ann", Seats: meta.Seats[:2]}
	two.Settings.Options = state.DefaultOptions()
	add("lobby of two", func(v Voice) string { return message(v.Lobby().Post(7, two, "").Message) })
	twoTeams := meta
	twoTeams.Invites = nil
	twoTeams.Seats = append(slices.Clone(meta.Seats), hosted.Seat{ID: "test:cid", Name: "Cid"})
	twoTeams.Settings.Options.Teams = 2
	add("lobby of two teams", func(v Voice) string { return v.Lobby().TwoPlayerHint(twoTeams) })
	add("lobby closed", func(v Voice) string { return message(v.Lobby().Closed(7, two, "closed").Message) })

	// Every mission card, and the destroy cards whose colour is gone.
	mm, _ := classicMatch(t, func(o *state.Options) { o.Victory = state.Missions })
	ms := mm.Game.State
	for i := range state.MissionCards {
		add(fmt.Sprintf("mission card %d", i), func(v Voice) string {
			s := ms.Clone()
			m := state.MissionCard(i)
			if c, ok := m.Target(); ok && (c == 0 || c >= len(s.Seats)) {
				m = m.Fallback() // as the deal gives it
			}
			s.Seats[0].Mission = m
			return v.Missions().Line(s, 0)
		})
	}
	for _, c := range []struct {
		name   string
		colour int
		prep   func(s *state.State)
	}{
		{"own colour", 0, nil},
		{"nobody plays it", 5, nil},
		{"surrendered", 1, func(s *state.State) { s.Seats[1].Status = state.Surrendered }},
		{"eliminated", 2, nil},
	} {
		add("mission gone: "+c.name, func(v Voice) string {
			s := ms.Clone()
			s.Seats[0].Mission = state.DestroyMission(c.colour).Fallback()
			if c.prep != nil {
				c.prep(s)
			}
			return v.Missions().Line(s, 0)
		})
	}
	add("missions revealed", func(v Voice) string { return strings.Join(v.Missions().revealed(ms), "\n") })

	// A round of simultaneous orders.
	rdm, _ := classicMatch(t, func(o *state.Options) { o.Turns = state.Simultaneous })
	rs := rdm.Game.State
	if rs.Phase != state.PhaseOrders {
		t.Fatalf("a simultaneous match after its placement: %s", rs.Phase)
	}
	rf, rt := frontier(t, rs, 0)
	orders := []state.Order{
		{Kind: state.OrderPlace, To: rf, Armies: 3},
		{Kind: state.OrderPlace, To: rf, Armies: 2, Bonus: true},
		{Kind: state.OrderAttack, From: rf, To: rt, Armies: 1},
		{Kind: state.OrderAttack, From: rf, To: rt, Armies: 4},
		{Kind: state.OrderMove, From: rf, To: rf, Armies: 2},
	}
	add("orders", func(v Voice) string {
		var lines []string
		for _, o := range orders {
			lines = append(lines, v.Teller().Order(rs, o))
		}
		for _, e := range []engine.Event{
			engine.Ordered{Seat: 0, Order: orders[2]}, engine.Unordered{Seat: 0, Order: orders[3]},
			engine.Committed{Seat: 0, Round: 1}, engine.RoundResolved{Round: 1, Order: []int{1, 0, 2}},
			engine.OrderSkipped{Seat: 0, Order: orders[3], Why: engine.SkipSourceLost},
			engine.OrderSkipped{Seat: 0, Order: orders[3], Why: engine.SkipNoArmies},
			engine.OrderSkipped{Seat: 0, Order: orders[3], Why: engine.SkipTargetLost},
			engine.Transferred{Seat: 0, From: rf, To: rt, Armies: 1, Attack: true},
			engine.Transferred{Seat: 0, From: rf, To: rt, Armies: 5},
		} {
			line, _ := v.Teller().orders(rs, e)
			lines = append(lines, line)
		}
		return strings.Join(lines, "\n")
	})
	add("orders: reply with a reserve", func(v Voice) string {
		return message(v.Replies().Orders(rdm, 0, chat.Message{Text: "📝 a line"}, false))
	})
	placed := rs.Clone()
	placed.Seats[0].Reserve = 0
	placed.Orders = append(placed.Orders, state.Order{Seat: 0, Kind: state.OrderAttack, From: rf, To: rt, Armies: 2})
	pdm := &hosted.Match{Loaded: &storage.Loaded{Match: rdm.Match, Game: &engine.Game{State: placed}}, Meta: rdm.Meta}
	add("orders: reply, all placed", func(v Voice) string {
		return message(v.Replies().Orders(pdm, 0, chat.Message{Text: "📝 a line"}, false))
	})
	ready := placed.Clone()
	ready.Seats[0].Ready = true
	add("orders: ready", func(v Voice) string { return v.Replies().NextOrders(ready, 0) })
	five := rs.Clone()
	for c := range 5 {
		five.Seats[0].Hand = five.Seats[0].Hand.Add(state.Card(c))
	}
	add("orders: five cards", func(v Voice) string { return v.Replies().NextOrders(five, 0) })
	add("orders: resolved", func(v Voice) string { return message(v.Replies().Orders(rdm, 0, chat.Message{}, true)) })

	// A rollback, of a classic match and of a round.
	before := s.Clone()
	before.Turn = 5
	after := s.Clone()
	after.Turn = 3
	for i := range 4 {
		after.Terr[i].Owner = (after.Terr[i].Owner + 1) % 3
	}
	before.Seats[2].Status = state.Surrendered
	bm := &hosted.Match{Loaded: &storage.Loaded{Match: m.Match, Game: &engine.Game{State: before}}, Meta: m.Meta}
	add("rollback question", func(v Voice) string { return v.Asks().RollbackQuestion(bm, after, 3, 12, deadline) })
	add("rollback note", func(v Voice) string { return v.Asks().RollbackNote(before, after, "Ann", "the host", 3, 1) })
	add("rollback, this turn", func(v Voice) string { return v.Asks().RollbackLoss(before, before.Clone(), 2) })
	add("rollback lines", func(v Voice) string {
		return strings.Join([]string{
			v.Teller().rolledBack(before, engine.RolledBack{Turn: 3, Undone: 12}),
			v.Teller().again(before, engine.RolledBack{Turn: 3, Seat: 1, Armies: 5}),
			v.Teller().again(cs, engine.RolledBack{Turn: 3, Seat: 1, Armies: 5}),
			v.Teller().again(rs, engine.RolledBack{Turn: 3, Seat: -1}),
			v.Asks().RollbackLoss(rs, func() *state.State { r := rs.Clone(); r.Turn = 0; return r }(), 3),
		}, "\n")
	})

	// Teams.
	tm, _ := classicMatch(t, func(o *state.Options) {})
	ts := tm.Game.State.Clone()
	ts.Seats = append(ts.Seats, ts.Seats[2])
	ts.Seats[3].Name, ts.Seats[3].ID = "Dan", "test:dan"
	for i := range ts.Seats {
		ts.Seats[i].Team = i%2 + 1
	}
	ts.Options.Teams = 2
	add("teams", func(v Voice) string {
		return strings.Join([]string{v.Lobby().TeamsLine(ts), v.Lobby().WhoPlays(ts, 1), v.Lobby().teams(meta), v.Lobby().teamsHelp(state.Classic), v.Lobby().teamsHelp(state.Capitals),
			v.Lobby().TeamPlan(ts.View(0), 0), v.Lobby().TeamPlan(ts.View(1), 1)}, "\n")
	})
	return out
}

var (
	chatMarkup = regexp.MustCompile(`\{\{(channel|time|mention):[^}]*\}\}`)
	keyAsText  = regexp.MustCompile(`\b(voice|n|place|list)\.[a-z-]+(\.[a-z0-9-]+)*\b`)
)

// TestFrenchReplies: everything of the voice's private half has its French,
// whole: no placeholder, no key left as text, no English left where the
// French differs; the French reads as testdata/replies.fr.golden (read it
// for tone; -update rewrites it).
func TestFrenchReplies(t *testing.T) {
	samples := samples(t)
	v := New([]string{"red", "cyan", "yellow", "violet"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
	var golden strings.Builder
	for _, smp := range samples {
		en := smp.say(v.In(lang.English))
		fr := smp.say(v.In(lang.French))
		t.Run(smp.name, func(t *testing.T) {
			if en == "" {
				t.Fatalf("says nothing")
			}
			bare := chatMarkup.ReplaceAllString(fr, "")
			for _, bad := range []string{"{{", "}}", "<no value>", "%!"} {
				if strings.Contains(bare, bad) {
					t.Errorf("the French has %q: %q", bad, fr)
				}
			}
			if k := keyAsText.FindString(fr); k != "" {
				t.Errorf("the French shows the key %q: %q", k, fr)
			}
			if fr == en {
				t.Errorf("the French is the English: %q", fr)
			}
		})
		fmt.Fprintf(&golden, "== %s\n%s\n\n", smp.name, fr)
	}
	path := filepath.Join("testdata", "replies.fr.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./bot/voice -run TestFrenchReplies -update writes it)", err)
	}
	if got := golden.String(); got != string(want) {
		t.Errorf("the French differs from %s (-update rewrites it, then read the diff):\n%s", path, firstDiff(got, string(want)))
	}
}

// firstDiff shows the first line where got and want part.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}

// TestZeroVoiceIsEnglish checks that the zero Voice, which speaks for the
// posts of no match's colours, words what it says as the English voice.
func TestZeroVoiceIsEnglish(t *testing.T) {
	m, v := classicMatch(t, nil)
	s := m.Game.State
	en := v.In(lang.English)
	var zero Voice
	meta := hosted.Meta{Host: "test:ann", Seats: m.Meta.Seats}
	meta.Settings.Options = state.DefaultOptions()
	for _, c := range []struct{ name, zero, voice string }{
		{"PlanText", zero.Replies().PlanText(s), en.Replies().PlanText(s)},
		{"OddsText", zero.Replies().Odds(engine.Odds{Win: 0.5, AttackerLeft: 2}), en.Replies().Odds(engine.Odds{Win: 0.5, AttackerLeft: 2})},
		{"TurnWord", zero.Asks().TurnWord(s), en.Asks().TurnWord(s)},
		{"MissionGoal", zero.Missions().Goal(state.MissionAsiaAfrica), en.Missions().Goal(state.MissionAsiaAfrica)},
		{"SeatList", zero.Lobby().SeatList(meta), en.Lobby().SeatList(meta)},
		{"LobbyEmbed", embed(zero.Lobby().Embed(meta)), embed(en.Lobby().Embed(meta))},
		{"ItemWhat", zero.Replies().ItemWhat(state.ItemFat), en.Replies().ItemWhat(state.ItemFat)},
		{"CardList", zero.Teller().Cards(s.Map, []state.Card{0, 1}), en.Teller().Cards(s.Map, []state.Card{0, 1})},
		{"FitLines", zero.Replies().Fit(slices.Repeat([]string{"xxxxxxxxxx"}, 50), 200), en.Replies().Fit(slices.Repeat([]string{"xxxxxxxxxx"}, 50), 200)},
	} {
		if c.zero != c.voice {
			t.Errorf("%s: the zero voice says %q, the English voice %q", c.name, c.zero, c.voice)
		}
	}
	if got, want := zero.Teller().Cards(s.Map, []state.Card{0, state.Card(len(s.Map.Territories))}), s.Map.CardName(0)+", wild"; got != want {
		t.Errorf("CardList: got %q, want %q", got, want)
	}
	if got, want := en.Missions().Goal(state.MissionNorthAmericaAfrica), "conquer North America and Africa"; got != want {
		t.Errorf("MissionGoal: got %q, want %q", got, want)
	}
}

// TestNoEnglishInsideFrench: the parts one job borrows from another
// speak the voice's language too: the teams' paragraph of the French
// rules, the lobby's card in a French recap (started, not closed).
func TestNoEnglishInsideFrench(t *testing.T) {
	m, v := classicMatch(t, nil)
	fr := v.In(lang.French)
	rules := fr.Status().Help(command.Specs([]string{"normal"}), state.Classic, "rules")
	text := rules.Text
	if rules.Embed != nil {
		text += embed(rules.Embed)
	}
	if strings.Contains(text, "Teams") || !strings.Contains(text, "Équipes") {
		t.Errorf("the French rules' teams paragraph is not French: %.300q", text)
	}
	posts := fr.Recap().Posts(m, nil, 0)
	var card string
	for _, p := range posts {
		if p.Embed != nil {
			card = p.Embed.Title
			break
		}
	}
	if !strings.Contains(card, "partie lancée") {
		t.Errorf("the French recap's lobby card: %q, want it started, in French", card)
	}
}
