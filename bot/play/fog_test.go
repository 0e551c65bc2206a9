package play

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The fog property of issue 42 ("nothing a seat may not see can be derived
// from anything served to it"), for what a player is answered rather than
// the log (engine/audience_test.go has the log's): for many random
// positions of matches with fog of war, of both rule sets, and each seat
// still playing, a twin position that differs from the truth only in what
// that seat cannot see (who holds the territories out of its sight and with
// how many, where another's hero stands out of sight, another's cards, the
// kind of another's item) must give that seat the very same answers: the
// refusal or outcome of every command that draws no randomness, the
// commands the rules list, the suggestions as it types, the examples of the
// usage texts, the plan's preview and the warning before a move empties its
// capital. The twins are made from the rules of fog (state.View): a twin
// whose view differs from the truth's is not one.

// fogModes are the kinds of matches the property is checked in.
func fogModes() []struct {
	name  string
	setup func(seed uint64) engine.Setup
} {
	seats := func(n, teams int) []engine.SeatInfo {
		var out []engine.SeatInfo
		for i := range n {
			s := engine.SeatInfo{ID: fmt.Sprintf("test:p%d", i), Name: fmt.Sprintf("P%d", i)}
			if teams > 0 {
				s.Team = 1 + i%(n/teams)
			}
			out = append(out, s)
		}
		return out
	}
	classic := func(turns state.TurnMode, n, teams int) func(uint64) engine.Setup {
		return func(seed uint64) engine.Setup {
			o := state.DefaultOptions()
			o.Fog, o.Turns, o.Teams = true, turns, teams
			return engine.Setup{Options: o, Seed: seed, Seats: seats(n, teams)}
		}
	}
	capitals := func(size string, n, teams int) func(uint64) engine.Setup {
		return func(seed uint64) engine.Setup {
			o := state.CapitalsOptions()
			o.Map, o.Fog, o.Teams = size, true, teams
			return engine.Setup{Options: o, Seed: seed, Seats: seats(n, teams)}
		}
	}
	return []struct {
		name  string
		setup func(seed uint64) engine.Setup
	}{
		{"classic", classic(state.Sequential, 3, 0)},
		{"classic teams", classic(state.Sequential, 4, 2)},
		{"classic rounds", classic(state.Simultaneous, 3, 0)},
		{"capitals small", capitals("small", 3, 0)},
		{"capitals normal", capitals("normal", 4, 0)},
		{"capitals teams", capitals("small", 4, 2)},
	}
}

// fogPositions plays a random match of setup, choosing among the kinds of
// commands the rules list (never a surrender) and returns copies of its
// positions every few commands while it is played.
func fogPositions(t *testing.T, setup engine.Setup, steps int) []*state.State {
	t.Helper()
	s, err := engine.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(setup.Seed, 42))
	var out []*state.State
	for step := range steps {
		acting := hosted.ToAct(s)
		if len(acting) == 0 || s.Phase == state.PhaseOver {
			break
		}
		seat := acting[r.IntN(len(acting))]
		byKind := map[string][]engine.Command{}
		var kinds []string
		for _, c := range engine.Legal(s, seat) {
			if _, ok := c.(engine.Surrender); ok {
				continue
			}
			if byKind[c.Name()] == nil {
				kinds = append(kinds, c.Name())
			}
			byKind[c.Name()] = append(byKind[c.Name()], c)
		}
		if len(kinds) == 0 {
			break
		}
		// Ending the turn less often than the rest, so that turns have
		// plans, attacks and moves in them.
		kind := kinds[r.IntN(len(kinds))]
		if kind == "end" && len(kinds) > 1 && r.IntN(3) > 0 {
			kind = kinds[r.IntN(len(kinds))]
		}
		cs := byKind[kind]
		if _, err := engine.Apply(s, seat, cs[r.IntN(len(cs))]); err != nil {
			t.Fatalf("seed %d step %d: a listed command refused: %v", setup.Seed, step, err)
		}
		if step%7 == 6 && s.Phase != state.PhaseOver && s.HasFog() {
			out = append(out, s.Clone())
		}
	}
	return out
}

func viewJSON(t *testing.T, s *state.State, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fogTwin returns a copy of s changed in what seat cannot see (a few random
// changes, each kept only if seat's view stays the same), and whether it
// differs from s.
func fogTwin(t *testing.T, s *state.State, seat int, r *rand.Rand) (*state.State, bool) {
	t.Helper()
	want := viewJSON(t, s, seat)
	sight := s.Sight(seat)
	var hidden []int
	for i := range s.Terr {
		if !sight.Has(i) {
			hidden = append(hidden, i)
		}
	}
	// Territories a change must leave alone: capitals, heroes, items,
	// the current seat's plans and conquest (they must stay its own).
	fixed := map[int]bool{}
	if s.Phase == state.PhaseOccupy {
		fixed[s.Occupy.From], fixed[s.Occupy.To] = true, true
	}
	for i := range s.Seats {
		fixed[s.Capital(i)], fixed[s.Hero(i)] = true, true
	}
	for _, p := range s.Cap.Planned() {
		fixed[int(p.From)], fixed[int(p.To)] = true, true
	}
	for i, tr := range s.Terr {
		if tr.Item != state.NoItem {
			fixed[i] = true
		}
	}
	other := func(i int) bool { return i != seat && !s.Sides().Same(i, seat) && s.Seats[i].Alive() }
	tw := s.Clone()
	changed := false
	for range 16 {
		c := tw.Clone()
		switch r.IntN(5) {
		case 0: // two territories change hands, with their armies
			if len(hidden) < 2 {
				continue
			}
			t1, t2 := hidden[r.IntN(len(hidden))], hidden[r.IntN(len(hidden))]
			if t1 == t2 || fixed[t1] || fixed[t2] {
				continue
			}
			a, b := &c.Terr[t1], &c.Terr[t2]
			a.Owner, b.Owner = b.Owner, a.Owner
			a.Armies, b.Armies = b.Armies, a.Armies
		case 1: // armies move between two territories of one owner
			if len(hidden) < 2 {
				continue
			}
			t1, t2 := hidden[r.IntN(len(hidden))], hidden[r.IntN(len(hidden))]
			least := 1
			if s.Options.Rules == state.Capitals {
				least = 0
			}
			if t1 == t2 || c.Terr[t1].Owner != c.Terr[t2].Owner || c.Terr[t1].Armies <= least || fixed[t1] && c.Terr[t1].Owner >= 0 {
				continue
			}
			k := 1 + r.IntN(c.Terr[t1].Armies-least)
			c.Terr[t1].Armies -= k
			c.Terr[t2].Armies += k
		case 2: // another's hero stands elsewhere out of sight
			i := r.IntN(len(c.Seats))
			h := c.Hero(i)
			if !other(i) || h < 0 || sight.Has(h) {
				continue
			}
			to := hidden[r.IntN(len(hidden))]
			if c.Terr[to].Owner != i {
				continue
			}
			c.Seats[i].Capitals.Hero = int16(to + 1)
		case 3: // another holds another card
			i := r.IntN(len(c.Seats))
			hand := c.Seats[i].Hand
			if i == seat || hand.Empty() || c.Deck.Empty() {
				continue
			}
			c1, c2 := hand.Nth(r.IntN(hand.Len())), c.Deck.Nth(r.IntN(c.Deck.Len()))
			c.Seats[i].Hand = hand.Remove(c1).Add(c2)
			c.Deck = c.Deck.Remove(c2).Add(c1)
		case 4: // another's item is of another kind
			i := r.IntN(len(c.Seats))
			it := c.Seats[i].Capitals.Item
			if i == seat || !it.Kept() {
				continue
			}
			c.Seats[i].Capitals.Item = state.ItemDistant + (it-state.ItemDistant+1+state.Item(r.IntN(3)))%4
		}
		if viewJSON(t, c, seat) == want {
			tw, changed = c, true
		}
	}
	return tw, changed && viewJSON(t, tw, seat) == want && !slices.Equal(answersOf(t, tw), answersOf(t, s))
}

// answersOf is a fingerprint of a whole state, to tell a twin from the
// truth.
func answersOf(t *testing.T, s *state.State) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fogMatch wraps s as a hosted match, for the voice.
func fogMatch(s *state.State) *hosted.Match {
	return &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 1}, Game: &engine.Game{State: s}}}
}

// told is everything seat is answered in s, as lines: the property
// compares them between the truth and its twins.
func told(t *testing.T, s *state.State, seat int) []string {
	t.Helper()
	v := voice.New(nil, nil, nil).Fogged()
	var out []string
	say := func(what string, a ...any) { out = append(out, fmt.Sprintf(what, a...)) }
	text := func(err error) string {
		if err == nil {
			return "ok"
		}
		return "refused: " + err.Error()
	}
	// The territories commands name: all as targets, and as sources those
	// in sight with a few out of sight (those are refused alike).
	sight := s.Sight(seat)
	var froms []int
	for i := range s.Terr {
		if sight.Has(i) || i%7 == 0 {
			froms = append(froms, i)
		}
	}
	// answer is what seat is told of command c: the refusal, or what it
	// did (its events and the next step) if it drew no randomness.
	scratch := new(state.State)
	answer := func(c engine.Command) string {
		if err := inSight(s, seat, c); err != nil {
			return text(err)
		}
		after := s.CopyInto(scratch)
		ev, err := engine.Apply(after, seat, c)
		switch {
		case err != nil:
			return text(err)
		case after.RNG != s.RNG:
			return "accepted, with dice"
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("accepted: %s%s", b, v.Replies().NextStep(fogMatch(after), seat))
	}
	do := func(c engine.Command) { say("%#v: %s", c, answer(c)) }
	capitals := s.Options.Rules == state.Capitals
	for _, c := range engine.Legal(s, seat) {
		say("legal %#v", c)
	}
	for to := range s.Terr {
		if capitals {
			do(engine.Capital{Territory: to})
			do(engine.Reinforce{Territory: to})
			do(engine.BuildPort{Territory: to})
		} else {
			do(engine.Place{Territory: to, Armies: 1})
		}
		for _, from := range froms {
			if capitals {
				do(engine.Capture{From: from, To: to})
				do(engine.Plan{From: from, To: to})
				say("attack %d→%d: %s", from, to, answer(attackCommand(s, seat, from, to)))
				do(engine.Move{From: from, To: to, Quarters: 2})
				say("move %d→%d: %s", from, to, text(checkMove(s, seat, from, to)))
				for q := 1; q <= 4; q++ {
					mv := engine.Move{From: from, To: to, Quarters: q, Hero: s.Hero(seat) == from}
					if err := inSight(s, seat, mv); err == nil {
						say("%#v: %s", mv, text(emptyCapitalAsk(v, fogMatch(s), seat, mv)))
					}
				}
				continue
			}
			do(engine.Attack{From: from, To: to, Dice: 1})
			do(engine.Fortify{From: from, To: to, Armies: 1})
			do(engine.Assault{From: from, To: to, Armies: 1})
			if s.Phase == state.PhaseAttack && s.Current == seat {
				cmds, err := untilRolls(s, seat, from, to, 2)
				say("until 2 %d→%d: %d rolls, %s", from, to, len(cmds), text(err))
			}
		}
	}
	// The suggestions as seat types.
	name := s.Map.TerritoryName
	ask := func(command, focused, from string) {
		req := chat.Request{Command: command, Options: map[string]string{focused: "", "from": from}}
		say("%s.%s from %q: %v", command, focused, from, choices(s, seat, req, focused))
	}
	type option struct{ command, focused string }
	var opts, fromOpts []option
	if capitals {
		opts = []option{{"place", "territory"}, {"port", "territory"}, {"attack", "from"}, {"fortify", "from"}}
		fromOpts = []option{{"attack", "to"}, {"fortify", "to"}}
	} else {
		opts = []option{{"place", "territory"}, {"attack", "from"}, {"fortify", "from"}, {"trade", "cards"}, {"end", "discard"}}
		fromOpts = []option{{"attack", "to"}, {"attack", "until"}, {"fortify", "to"}, {"show odds", "to"}}
	}
	for _, o := range opts {
		ask(o.command, o.focused, "")
	}
	for _, o := range fromOpts {
		ask(o.command, o.focused, "")
		for _, from := range froms {
			ask(o.command, o.focused, name(from))
		}
	}
	// The usage texts' examples, and the next step with its preview.
	for _, u := range []option{{"attack", "to"}, {"fortify", "to"}, {"port", "territory"}} {
		if capitals {
			text, _ := voice.Speaking(lang.English).Status().CapitalsUsage(s, seat, u.command, u.focused)
			say("usage %s: %s", u.command, text)
		} else {
			text, _ := voice.Speaking(lang.English).Status().ClassicUsage(s, seat, u.command, u.focused, "")
			say("usage %s: %s", u.command, text)
		}
	}
	say("next: %s", v.Replies().NextStep(fogMatch(s), seat))
	return out
}

// TestFogTellsEachSeatOnlyWhatItSees checks the property over random
// positions of matches with fog of war: 2 matches of each mode and a twin
// of each position and seat under -short, one match under the race
// detector (ten times slower here: CI runs the whole test without it),
// 4 matches and 2 twins otherwise.
func TestFogTellsEachSeatOnlyWhatItSees(t *testing.T) {
	games, each := 4, 2
	switch {
	case racetest.Enabled:
		games, each = 1, 1
	case testing.Short():
		games, each = 2, 1
	}
	for _, m := range fogModes() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			twins, leaks := 0, 0
			kinds := map[string]int{} // the leaks by what told them: each kind's first is shown
			for g := range uint64(games) {
				setup := m.setup(700 + g)
				r := rand.New(rand.NewPCG(setup.Seed, 7))
				for k, s := range fogPositions(t, setup, 160) {
					for seat := range s.Seats {
						if !s.Seats[seat].Alive() {
							continue
						}
						var truth []string
						for range each {
							tw, ok := fogTwin(t, s, seat, r)
							if !ok {
								continue
							}
							if truth == nil {
								truth = told(t, s, seat)
							}
							twins++
							got := told(t, tw, seat)
							if i := firstDiff(truth, got); i >= 0 {
								leaks++
								kind := strings.FieldsFunc(line(truth, i), func(r rune) bool { return r == ' ' || r == '{' || r == ':' })[0]
								kinds[kind]++
								if kinds[kind] == 1 {
									t.Errorf("seed %d position %d (%s, turn %d, %s to play), seat %s is answered differently in a twin that differs only in what it cannot see:\n  truth %s\n  twin  %s",
										setup.Seed, k, s.Phase, s.Turn, s.Seats[s.Current].Name, s.Seats[seat].Name, line(truth, i), line(got, i))
								}
								break
							}
						}
					}
				}
			}
			t.Logf("%d twins compared, %d told the seat more than it sees %v", twins, leaks, kinds)
			if twins == 0 {
				t.Error("no twin was compared")
			}
		})
	}
}

// firstDiff is the index of the first line where a and b differ, or -1.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func line(ls []string, i int) string {
	if i >= len(ls) {
		return "(nothing)"
	}
	return strings.TrimSpace(ls[i])
}

// An attack on a territory in the fog of war (the distant attack reaches
// it) is planned, whoever holds it: a capture of a neutral one would tell
// the player it is neutral.
func TestAnAttackIntoTheFogIsPlanned(t *testing.T) {
	o := state.CapitalsOptions()
	o.Map, o.Fog = "small", true
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 1, Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	for g.State.Phase == state.PhaseSetup {
		if _, _, err := g.Apply(g.State.Current, engine.Legal(g.State, g.State.Current)[0]); err != nil {
			t.Fatal(err)
		}
	}
	s := g.State
	seat := s.Current
	from, sight := s.Capital(seat), s.Sight(seat)
	for to := range s.Terr {
		if sight.Has(to) || s.IsCapital(to) {
			continue
		}
		for _, owner := range []int{state.Neutral, 1 - seat} {
			s.Terr[to].Owner = owner
			if got, want := attackCommand(s, seat, from, to), (engine.Plan{From: from, To: to}); got != want {
				t.Errorf("%s held by %d, out of sight: got %#v, want %#v", s.Map.TerritoryName(to), owner, got, want)
			}
		}
		s.Terr[to].Owner = state.Neutral
		return
	}
	t.Fatal("no territory out of sight")
}
