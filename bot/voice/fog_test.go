package voice

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// roundWithFog is a classic match with fog of war and simultaneous turns
// as a round just resolved: Ann took Argentina, Bob's last territory, and
// eliminated him; Cid had placed 13 armies on Ural, which only Ann and
// Cid saw, and 4 on Yakutsk, which only Cid saw. Ann holds the Americas,
// Europe and Africa, Cid Asia and Australia.
func roundWithFog(t *testing.T) (*state.State, []engine.Event, Voice) {
	t.Helper()
	m, err := engine.LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	o := state.DefaultOptions()
	o.Fog, o.Turns = true, state.Simultaneous
	s := &state.State{Map: m, Options: o, Phase: state.PhaseOrders, Turn: 4, Round: 4, Winner: -1,
		Seats: []state.Seat{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob", Status: state.Eliminated}, {ID: "test:cid", Name: "Cid"}},
		Terr:  make([]state.Terr, m.Len()), Deck: state.FullDeck(m.NumCards())}
	owner := map[string]int{"North America": 0, "South America": 0, "Europe": 0, "Africa": 0, "Asia": 2, "Australia": 2}
	for _, c := range m.Continents {
		for _, t := range c.Territories {
			s.Terr[t] = state.Terr{Owner: owner[c.Name], Armies: 3}
		}
	}
	id := func(name string) int {
		t.Helper()
		n, err := m.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	events := []engine.Event{
		engine.RoundResolved{Round: 3, Order: []int{0, 1, 2}},
		engine.Placed{Seat: 2, Territory: id("Ural"), Armies: 13},
		engine.Placed{Seat: 2, Territory: id("Yakutsk"), Armies: 4},
		engine.Conquered{Seat: 0, Defender: 1, From: id("Brazil"), To: id("Argentina"), Armies: 3},
		engine.Eliminated{Seat: 1, By: 0},
		engine.RoundStarted{Round: 4},
	}
	v := New([]string{"red", "cyan", "yellow"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
	return s, events, v
}

// A round's placements are told as they were seen when they were made
// (issue 42, item 7: the channel's post counted placements made in the
// fog, which an elimination later in the round brought into sight).
func TestARoundsPlacementsAreJudgedByWhatWasSeenThen(t *testing.T) {
	s, events, v := roundWithFog(t)
	for _, tt := range []struct {
		name string
		v    Voice
		want string // the placement told, or ""
	}{
		{"the channel", v.Fogged(), ""},
		{"Ann", v.Fogged().As(0), "placed 13 on Ural"},
		{"Cid", v.Fogged().As(2), "placed 13 on Ural, 4 on Yakutsk"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, l := range tt.v.Teller().Describe(s, events) {
				if strings.Contains(l, "placed") {
					got = l
				}
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasSuffix(got, tt.want) {
				t.Errorf("told %q, want %q", got, tt.want)
			}
		})
	}
}

// The ping of a simultaneous round, posted when it starts and edited as
// it is played, says what each player has to place as the round began:
// what they have left would tell who has placed before the round resolves
// (issue 42, item 7).
func TestARoundsPingShowsNoOneHasPlaced(t *testing.T) {
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}
	o := state.DefaultOptions()
	o.Turns = state.Simultaneous
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range g.State.Seats {
		if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	m := &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 1, Channel: "test:voice", Status: storage.Active}, Game: g}}
	for _, s := range seats {
		m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name})
	}
	v := New([]string{"red", "cyan"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
	ping := func() string {
		t.Helper()
		p, ok := v.Turns().Ping(m)
		if !ok {
			t.Fatal("no ping")
		}
		return p.Text
	}
	before := ping()
	ann := g.State.SeatByID("test:ann")
	var own int
	for t := range g.State.Terr {
		if g.State.Terr[t].Owner == ann {
			own = t
		}
	}
	if _, _, err := g.Apply(ann, engine.Place{Territory: own, Armies: 2}); err != nil {
		t.Fatal(err)
	}
	if after := ping(); after != before {
		t.Errorf("Ann placed 2 armies, and the round's ping changed:\n%s\nto\n%s", before, after)
	}
}

// A trade in a simultaneous round is an order: told to its author, not in
// the channel's record of the round (which would tell who has traded
// before the round resolves, and for how much).
func TestARoundsTradesAreTheTradersOwn(t *testing.T) {
	s, _, v := roundWithFog(t)
	s.Options.Fog = false
	ev := []engine.Event{engine.Traded{Seat: 0, Cards: [3]state.Card{1, 2, 3}, Armies: 4, BonusTerritory: -1}}
	var ch news.Chronicle
	lines, _ := v.Teller().Tell(s, PositionOf(s), ev, &ch)
	if len(lines) != 1 || !strings.Contains(lines[0], "traded") {
		t.Errorf("Ann is told %q, want her trade", lines)
	}
	if len(ch.Lines) != 0 || ch.Stats.Traded != 0 {
		t.Errorf("the round's record holds %q and %d armies traded, want nothing", ch.Lines, ch.Stats.Traded)
	}
}

// With fog of war a plan is checked against the defence its planner sees
// (engine's plan, issue 42): the planner is told that defence, as such,
// and the launch's rule; the others, who see another part of the board,
// are told the plan without its numbers.
func TestAPlanInTheFogIsToldAsItsPlannerSawIt(t *testing.T) {
	m, v := capitalsMatch(t)
	s := m.Game.State
	s.Options.Fog = true
	capA, capB := s.Capital(0), s.Capital(1)
	// Ann plans from her capital on a neighbour of Bob's (1 troop) that
	// borders, out of her sight, another of Bob's with 30.
	to, hidden := -1, -1
	for _, n := range s.Map.Territories[capA].Adj {
		for _, h := range s.Map.Territories[n].Adj {
			if n != capB && h != capA && !s.Map.Adjacent(capA, h) && to < 0 {
				to, hidden = n, h
			}
		}
	}
	if to < 0 {
		t.Fatal("no territory to plan on")
	}
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1, Port: s.Terr[i].Port}
	}
	s.Terr[capA] = state.Terr{Owner: 0, Armies: 10}
	s.Terr[capB] = state.Terr{Owner: 1, Armies: 10}
	s.Terr[to].Owner = 1
	s.Terr[hidden] = state.Terr{Owner: 1, Armies: 30}
	s.Current, s.Phase, s.Seats[0].Reserve = 0, state.PhaseAction, 0
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	ev, err := engine.Apply(s, 0, engine.Plan{From: capA, To: to})
	if err != nil {
		t.Fatal(err)
	}
	told := func(v Voice) string { return strings.Join(v.Teller().Describe(s, ev), "\n") }
	for _, tt := range []struct {
		name      string
		got       string
		want, not []string
	}{
		{"Ann's line", told(v.Fogged().As(0)), []string{"total 10 against 1 in sight"}, []string{"31"}},
		{"Ann's next step", v.Fogged().Replies().NextStep(m, 0), []string{"total 10 against 1 in sight", "the launch counts the whole of it"}, []string{"31"}},
		{"Bob's line", told(v.Fogged().As(1)), []string{"planned attack 1"}, []string{"against", "total"}},
		{"the channel's line", told(v.Fogged()), nil, []string{"against", "total"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, w := range tt.want {
				if !strings.Contains(tt.got, w) {
					t.Errorf("got %q, want it to say %q", tt.got, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(tt.got, n) {
					t.Errorf("got %q, which says %q", tt.got, n)
				}
			}
		})
	}
}
