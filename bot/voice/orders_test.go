package voice

import (
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// roundTold is a classic match of simultaneous rounds between Ann and Bob
// (with fog of war if fog) told by the channel's voice from its start to
// the end of round 1, in which Ann traded a set showing a territory of
// hers (4 armies, and 2 on it) and placed everything there, and Bob
// placed his armies and committed last.
type roundTold struct {
	v          Voice // the channel's
	g          *engine.Game
	ann, bob   int
	bonus      string   // the territory of Ann's card bonus
	underway   []string // what the round's record held after each change before it resolved
	tradedThen int      // the most armies its record counted as traded then
	record     news.TurnRecord
	last       []engine.Event // the events of the change that resolved the round
	lastAt     Position
}

func tellRound(t *testing.T, fog bool) roundTold {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}
	o := state.DefaultOptions()
	o.Turns, o.Fog = state.Simultaneous, fog
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	v := New([]string{"red", "cyan"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
	if fog {
		v = v.Fogged()
	}
	r := roundTold{v: v, g: g, ann: g.State.SeatByID("test:ann"), bob: g.State.SeatByID("test:bob")}
	var ch news.Chronicle
	do := func(seat int, c engine.Command) {
		t.Helper()
		at := PositionOf(g.State)
		_, ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("seat %d %#v: %v", seat, c, err)
		}
		_, closed := v.Teller().Tell(g.State, at, ev, &ch)
		for _, rec := range closed {
			if rec.Turn == 1 {
				r.record, r.last, r.lastAt = rec, ev, at
			}
		}
		if g.State.Phase == state.PhaseOrders && g.State.Turn == 1 {
			r.underway = append(r.underway, ch.Lines...)
			r.tradedThen = max(r.tradedThen, ch.Stats.Traded)
		}
	}
	for seat := range g.State.Seats {
		do(seat, engine.AutoPlace{})
	}
	s := g.State
	if s.Phase != state.PhaseOrders || s.Turn != 1 {
		t.Fatalf("after the initial placement: %s, round %d; want orders, round 1", s.Phase, s.Turn)
	}
	// Cards t, t+1 and t+2 are of three kinds, a set; t shows Ann's t.
	own := slices.IndexFunc(s.Terr, func(x state.Terr) bool { return x.Owner == r.ann })
	set := [3]state.Card{state.Card(own), state.Card(own + 1), state.Card(own + 2)}
	for _, c := range set {
		s.Deck = s.Deck.Remove(c)
		s.Seats[r.ann].Hand = s.Seats[r.ann].Hand.Add(c)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	r.bonus = s.Map.TerritoryName(own)
	do(r.ann, engine.Trade{Cards: set})
	do(r.ann, engine.Place{Territory: own, Armies: g.State.Seats[r.ann].Reserve})
	do(r.bob, engine.AutoPlace{})
	do(r.ann, engine.EndTurn{})
	do(r.bob, engine.EndTurn{})
	if r.last == nil {
		t.Fatalf("round 1 did not resolve: %s, round %d", g.State.Phase, g.State.Turn)
	}
	return r
}

// index returns the index of the first line containing part, or -1.
func index(lines []string, part string) int {
	return slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, part) })
}

// A round's trades are secret until it resolves (docs/rules.md, "Hidden
// orders"); then its post tells each of them, with the placements they
// paid for, and counts the armies they brought. A round's post told none,
// even once it had resolved (bot/console's simultaneous transcript:
// "Napoleon receives 3 armies", then "Napoleon placed 9 on South
// Africa", with nothing for the 6 more).
func TestAResolvedRoundsPostTellsItsTrades(t *testing.T) {
	r := tellRound(t, false)
	if i := index(r.underway, "traded"); i >= 0 || r.tradedThen != 0 {
		t.Errorf("while round 1 was under way its record told %q and counted %d armies traded, want nothing", r.underway[max(i, 0)], r.tradedThen)
	}
	lines := r.record.Lines
	ready, traded, placed := index(lines, "everyone is ready"), index(lines, "Ann traded"), index(lines, "Ann placed")
	if traded < 0 {
		t.Fatalf("round 1's record lacks Ann's trade:\n%s", strings.Join(lines, "\n"))
	}
	if want := "for 4 armies (+2 on " + r.bonus + ")"; !strings.HasSuffix(lines[traded], want) {
		t.Errorf("got %q, want it to end %q", lines[traded], want)
	}
	if !(ready < traded && traded < placed) {
		t.Errorf("the trade is line %d, want it after the round resolved (line %d) and before Ann's placements (line %d):\n%s",
			traded, ready, placed, strings.Join(lines, "\n"))
	}
	if got := r.record.Stats.Traded; got != 4 {
		t.Errorf("round 1's record counts %d armies traded, want 4", got)
	}
}

// With fog of war, the cards traded and their bonus territory are the
// trader's (docs/rules.md, "Fog of war"): the channel's post of a round
// tells no trade, even once it has resolved; the trader is told theirs
// with the round's resolution, the others not.
func TestAFoggedRoundsTradesAreToldToTheTraderOnly(t *testing.T) {
	r := tellRound(t, true)
	if i := index(r.underway, "traded"); i >= 0 {
		t.Errorf("while round 1 was under way the channel was told %q", r.underway[i])
	}
	if i := index(r.record.Lines, "traded"); i >= 0 {
		t.Errorf("the channel's record of round 1 tells %q, want no trade", r.record.Lines[i])
	}
	for _, tt := range []struct {
		name string
		seat int
		want bool
	}{{"Ann", r.ann, true}, {"Bob", r.bob, false}} {
		t.Run(tt.name, func(t *testing.T) {
			var ch news.Chronicle
			lines, _ := r.v.As(tt.seat).Teller().Tell(r.g.State, r.lastAt, r.last, &ch)
			if got := index(lines, "Ann traded") >= 0; got != tt.want {
				t.Errorf("told Ann's trade with the resolution: %v, want %v:\n%s", got, tt.want, strings.Join(lines, "\n"))
			}
		})
	}
}
