package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// playedTo plays the random games rg's match of seed until turn turn has
// begun and some commands were played in it, and returns the game, its
// log and the state at the start of each turn (kept by the test itself).
func playedTo(t *testing.T, rg randomGames, seed uint64, turn int) (*Game, []Entry, map[int]*state.State) {
	t.Helper()
	g, err := NewGame(rg.setup(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, rg.stream))
	starts := map[int]*state.State{}
	var log []Entry
	for step := 0; step < 5000; step++ {
		if g.State.Phase == state.PhaseOver {
			t.Fatalf("seed %d: the match ended before turn %d", seed, turn)
		}
		if g.State.Turn >= turn && log[len(log)-1].Cmd.Name() != "end" {
			return g, log, starts
		}
		before := g.State.Turn
		seat, c := rg.move(g, r)
		e, _, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("seed %d: %#v: %v", seed, c, err)
		}
		log = append(log, e)
		if g.State.Turn != before {
			starts[g.State.Turn] = g.State.Clone()
		}
	}
	t.Fatalf("seed %d: turn %d not reached", seed, turn)
	return nil, nil, nil
}

// sameBut reports whether two states are the same but for the generator.
func sameBut(a, b *state.State) bool {
	a, b = a.Clone(), b.Clone()
	a.RNG, b.RNG = state.RNG{}, state.RNG{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// TestRollbackRules: who may roll back, to which turns, and what a
// rollback restores (the start of the turn, but for the generator).
func TestRollbackRules(t *testing.T) {
	for _, tt := range []struct {
		name  string
		rg    randomGames
		turn  func(g *Game) int // the turn to go back to
		seat  int
		prep  func(t *testing.T, g *Game) *Game // changes the game first
		code  Code                              // the refusal, if any
		other error                             // a refusal that is not a rule's
	}{
		{name: "classic: back to turn 3", rg: classicGames, turn: func(*Game) int { return 3 }, seat: Host},
		{name: "classic: the turn in progress starts again", rg: classicGames, turn: func(g *Game) int { return g.State.Turn }, seat: Host},
		{name: "capitals: back to turn 2", rg: capitalsGames, turn: func(*Game) int { return 2 }, seat: Host},
		{name: "simultaneous: back to round 2", rg: simultaneousGames, turn: func(*Game) int { return 2 }, seat: Host},
		{name: "a player may not", rg: classicGames, turn: func(*Game) int { return 3 }, seat: 0, code: ErrNotHost},
		{name: "turn 0 is the setup", rg: classicGames, turn: func(*Game) int { return 0 }, seat: Host, code: ErrBadCommand},
		{name: "a turn to come", rg: classicGames, turn: func(g *Game) int { return g.State.Turn + 1 }, seat: Host, code: ErrBadCommand},
		{name: "a turn just begun", rg: classicGames, turn: func(g *Game) int { return g.State.Turn }, seat: Host, code: ErrNothingToUndo,
			prep: func(t *testing.T, g *Game) *Game {
				for turn := g.State.Turn; g.State.Turn == turn; {
					seat, c := classicGames.move(g, rand.New(rand.NewPCG(1, 2)))
					if _, _, err := g.Apply(seat, c); err != nil {
						t.Fatal(err)
					}
				}
				return g
			}},
		{name: "a finished match", rg: classicGames, turn: func(*Game) int { return 1 }, seat: Host, code: ErrGameOver,
			prep: func(t *testing.T, g *Game) *Game {
				g.State.Phase, g.State.Winner = state.PhaseOver, 0
				return g
			}},
		{name: "a clone knows no turn's start", rg: classicGames, turn: func(*Game) int { return 3 }, seat: Host, other: ErrNoHistory,
			prep: func(t *testing.T, g *Game) *Game { return g.Clone() }},
		{name: "a snapshot knows no earlier turn's start", rg: classicGames, turn: func(*Game) int { return 3 }, seat: Host, other: ErrNoHistory,
			prep: func(t *testing.T, g *Game) *Game {
				b, err := json.Marshal(g)
				if err != nil {
					t.Fatal(err)
				}
				d, err := DecodeGame(b)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, _, starts := playedTo(t, tt.rg, 3, 5)
			if tt.prep != nil {
				g = tt.prep(t, g)
			}
			turn := tt.turn(g)
			before := g.State.Clone()
			version := g.Version
			e, ev, err := g.Apply(tt.seat, Rollback{Turn: turn})
			switch {
			case tt.code != 0 || tt.other != nil:
				if tt.code != 0 && !isCode(err, tt.code) || tt.other != nil && !errors.Is(err, tt.other) {
					t.Fatalf("got %v, want the refusal %v%v", err, tt.code, tt.other)
				}
				if !sameBut(g.State, before) || g.State.RNG != before.RNG || g.Version != version {
					t.Fatal("a refused rollback changed the game")
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if e.Seat != Host || len(e.Rand) != 0 || e.Cmd != (Rollback{Turn: turn}) {
				t.Errorf("got the entry %+v, want the host's rollback to %d drawing nothing", e, turn)
			}
			if !sameBut(g.State, starts[turn]) {
				t.Errorf("the state is not that of the start of turn %d", turn)
			}
			if g.State.RNG != before.RNG {
				t.Errorf("got the generator at %v, want it where it was, %v: dice seen would come again", g.State.RNG, before.RNG)
			}
			if g.Version != version+1 {
				t.Errorf("got version %d, want %d", g.Version, version+1)
			}
			rb, ok := ev[0].(RolledBack)
			if len(ev) != 1 || !ok || rb.Turn != turn || rb.From != before.Turn || rb.Undone < 1 {
				t.Errorf("got the events %+v, want one RolledBack to %d from %d", ev, turn, before.Turn)
			}
			for i := range g.State.Seats {
				if g.CanUndo(i) {
					t.Errorf("seat %d can undo after the rollback", i)
				}
			}
			// A state alone cannot be rolled back.
			if _, err := Apply(g.State.Clone(), 0, Rollback{Turn: 1}); !isCode(err, ErrUnsupported) {
				t.Errorf("Apply on a state: got %v, want %v", err, ErrUnsupported)
			}
		})
	}
}

// TestRollbackEntryJSON: a rollback's entry encodes and decodes.
func TestRollbackEntryJSON(t *testing.T) {
	b, err := json.Marshal(Entry{Seat: Host, Cmd: Rollback{Turn: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"seat":-1,"cmd":{"type":"rollback","turn":4}}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil || e.Cmd != (Rollback{Turn: 4}) || e.Seat != Host {
		t.Errorf("got %+v, %v; want the host's rollback to 4", e, err)
	}
	if _, err := UnmarshalCommand([]byte(`{"type":"rollback","turn":2,"from":1}`)); err == nil {
		t.Error("a rollback with a from field decoded")
	}
}

// TestRollbackRandomGames plays random games of every rule set and mode
// in which the host rolls back, now and then, to a random turn: each
// rollback restores the turn's start as the test kept it (hands, deck,
// eliminations and all), but for the generator, which goes on; and the
// whole log replays to the same game, verifies against the seed's
// commitment, ranks, and rebuilds from a snapshot and its tail.
func TestRollbackRandomGames(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, tt := range []struct {
		rg    randomGames
		games int
		short int
		steps int
	}{
		{classicGames, 50, 12, 2500},
		{capitalsGames, 40, 10, 2500},
		{simultaneousGames, 25, 8, 3000},
	} {
		t.Run(tt.rg.name, func(t *testing.T) {
			t.Parallel()
			n := tt.games
			if testing.Short() {
				n = tt.short
			}
			var rollbacks, revived, refunds, finished int
			for seed := range uint64(n) {
				st := rollbackGame(t, tt.rg, seed, tt.steps)
				rollbacks += st.rollbacks
				revived += st.revived
				refunds += st.cards
				if st.over {
					finished++
				}
			}
			t.Logf("%d games, %d finished; %d rollbacks, %d brought a seat back, %d gave back cards", n, finished, rollbacks, revived, refunds)
			if rollbacks < n {
				t.Errorf("got %d rollbacks in %d games, want one a game at least", rollbacks, n)
			}
			if revived == 0 {
				t.Error("no rollback brought an eliminated seat back")
			}
			if finished == 0 {
				t.Error("no game with rollbacks finished")
			}
		})
	}
}

type rollbackStats struct {
	rollbacks, revived, cards int
	over                      bool
}

// rollbackGame plays one random game with rollbacks and checks it.
func rollbackGame(t *testing.T, rg randomGames, seed uint64, steps int) rollbackStats {
	t.Helper()
	var st rollbackStats
	g, err := NewGame(rg.setup(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, rg.stream+100))
	starts := map[int]*state.State{}
	var log []Entry
	out := false // the last command put a seat out: half the time, undo it
	for step := 0; step < steps && g.State.Phase != state.PhaseOver; step++ {
		s := g.State
		undoOut := out && r.IntN(2) == 0 && st.revived < 3
		if s.Turn >= 1 && (r.IntN(150) == 0 && st.rollbacks < 6 || undoOut) {
			turn := max(1, s.Turn-r.IntN(4))
			if undoOut {
				turn = max(1, s.Turn-1) // (a round's elimination began the next round)
			}
			before := s.Clone()
			e, ev, err := g.Apply(Host, Rollback{Turn: turn})
			if isCode(err, ErrNothingToUndo) {
				continue
			}
			if err != nil {
				t.Fatalf("seed %d step %d: rollback to %d at turn %d: %v", seed, step, turn, s.Turn, err)
			}
			log = append(log, e)
			st.rollbacks++
			if !sameBut(g.State, starts[turn]) {
				t.Fatalf("seed %d step %d: the rollback to %d did not restore the turn's start", seed, step, turn)
			}
			if g.State.RNG != before.RNG {
				t.Fatalf("seed %d step %d: the rollback moved the generator from %v to %v", seed, step, before.RNG, g.State.RNG)
			}
			if err := g.State.Check(); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			for i := range before.Seats {
				if !before.Seats[i].Alive() && g.State.Seats[i].Alive() {
					st.revived++
				}
				if g.State.Seats[i].Hand.Len() > before.Seats[i].Hand.Len() {
					st.cards++
				}
			}
			if rb := ev[0].(RolledBack); rb.Turn != turn || rb.From != before.Turn {
				t.Fatalf("seed %d step %d: got %+v, want a rollback to %d from %d", seed, step, rb, turn, before.Turn)
			}
			for k := range starts {
				if k > turn {
					delete(starts, k)
				}
			}
			continue
		}
		seat, c := rg.move(g, r)
		turn := s.Turn
		e, ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("seed %d step %d: legal %#v by seat %d refused: %v", seed, step, c, seat, err)
		}
		_, out = hasEvent[Eliminated](ev)
		log = append(log, e)
		if err := g.State.Check(); err != nil {
			t.Fatalf("seed %d step %d after %#v: %v", seed, step, c, err)
		}
		if g.State.Turn != turn {
			starts[g.State.Turn] = g.State.Clone()
		}
	}
	st.over = g.State.Phase == state.PhaseOver
	if st.over {
		if _, _, err := g.Apply(Host, Rollback{Turn: 1}); !isCode(err, ErrGameOver) {
			t.Fatalf("seed %d: a rollback of a finished match: got %v, want %v", seed, err, ErrGameOver)
		}
	}
	rec := Record{Setup: g.Setup, Log: log, Commitment: g.Commitment()}
	wantRecordReplays(t, seed, g, log)
	v, err := Verify(clone(t, rec), rec.Commitment)
	if err != nil || !v.OK() {
		t.Fatalf("seed %d: the rolled-back match does not verify: %v\n%v", seed, err, v)
	}
	if _, err := rec.Ranking(); err != nil {
		t.Fatalf("seed %d: ranking: %v", seed, err)
	}
	if _, err := rec.Turns(); err != nil {
		t.Fatalf("seed %d: turns: %v", seed, err)
	}
	if _, err := RoundStart(rec.Setup, rec.Log); err != nil {
		t.Fatalf("seed %d: round start: %v", seed, err)
	}
	wantSnapshotOrHistory(t, seed, g, log)
	return st
}

// wantSnapshotOrHistory resumes g's log from a snapshot at each quarter
// of it, as a store loads a match: the tail replays to g, or stops at a
// rollback to a turn that began before the snapshot with ErrNoHistory
// (the store then replays the whole log).
func wantSnapshotOrHistory(t *testing.T, seed uint64, g *Game, log []Entry) {
	t.Helper()
	want, _ := json.Marshal(g)
	full, err := Replay(g.Setup, log)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	for cut := len(log) / 4; cut < len(log); cut += max(1, len(log)/4) {
		mid, err := Replay(g.Setup, log[:cut])
		if err != nil {
			t.Fatal(err)
		}
		snap, _ := json.Marshal(mid)
		resumed, err := DecodeGame(snap)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		stopped := false
		for _, e := range log[cut:] {
			if _, err := resumed.Replay(e); err != nil {
				if !errors.Is(err, ErrNoHistory) {
					t.Fatalf("seed %d: from the snapshot at %d: %v", seed, cut, err)
				}
				stopped = true
				break
			}
		}
		if got, _ := json.Marshal(resumed); !stopped && !bytes.Equal(got, want) {
			t.Fatalf("seed %d: the snapshot at %d and its tail differ from the game", seed, cut)
		}
	}
	if got, _ := json.Marshal(full); !bytes.Equal(got, want) {
		t.Fatalf("seed %d: the full replay differs from the game", seed)
	}
}

// TestRollbackRanking: a seat eliminated after the turn rolled back to is
// back in the match, and ranked as playing (by its territories), not as
// out.
func TestRollbackRanking(t *testing.T) {
	// (Seed 94 is the first of these games to bring back a seat that
	// holds more than another.)
	for seed := uint64(90); seed < 400; seed++ {
		setup := classicGames.setup(seed)
		if setup.Options.Teams > 0 {
			continue
		}
		g, err := NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 5))
		var log []Entry
		out := -1
		for g.State.Phase != state.PhaseOver && len(log) < 5000 && out < 0 {
			seat, c := classicGames.move(g, r)
			e, ev, err := g.Apply(seat, c)
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, e)
			if x, ok := hasEvent[Eliminated](ev); ok && g.State.Phase != state.PhaseOver {
				out = x.Seat
			}
		}
		if out < 0 {
			continue
		}
		e, _, err := g.Apply(Host, Rollback{Turn: g.State.Turn})
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
		s := g.State
		weaker := -1 // a seat playing with fewer territories than the one back
		for i := range s.Seats {
			if i != out && s.Seats[i].Alive() && s.Owned(i) < s.Owned(out) {
				weaker = i
			}
		}
		if weaker < 0 {
			continue
		}
		places, err := Record{Setup: g.Setup, Log: log}.Ranking()
		if err != nil {
			t.Fatal(err)
		}
		if places[out].Place >= places[weaker].Place {
			t.Fatalf("seed %d: seat %d, back with %d territories, placed %d; seat %d with %d placed %d", seed,
				out, s.Owned(out), places[out].Place, weaker, s.Owned(weaker), places[weaker].Place)
		}
		return
	}
	t.Fatal("no seat was brought back with more territories than another")
}

// TestRoundStartAfterARollback: the orders given in a round that a
// rollback to an earlier round left unresolved are not before the round
// start the API serves the log up to (RoundStart): they stay secret.
func TestRoundStartAfterARollback(t *testing.T) {
	for seed := range uint64(10) {
		g, log, _ := playedTo(t, simultaneousGames, seed, 4)
		first, err := RoundStart(g.Setup, log) // round 4's first order
		if err != nil {
			t.Fatal(err)
		}
		if first == len(log) || g.State.Phase != state.PhaseOrders {
			continue // (a surrender resolved round 3: round 4 has no orders yet)
		}
		e, _, err := g.Apply(Host, Rollback{Turn: 3})
		if err != nil {
			t.Fatal(err)
		}
		n, err := RoundStart(g.Setup, append(log, e))
		if err != nil {
			t.Fatal(err)
		}
		if n > first {
			t.Errorf("the log is served to %d, past the orders of round 4 from %d, which never resolved", n, first)
		}
		return
	}
	t.Fatal("no game with orders in round 4")
}

// BenchmarkReplayWithTurnStarts replays a whole random 6-player classic
// log (a game's log of classicGames, seed 8, to its end) per op, and
// reports the heap a replayed game holds: its state and undo base, and
// the start of every turn of its line of play, which a rollback needs.
func BenchmarkReplayWithTurnStarts(b *testing.B) {
	var g *Game
	var log []Entry
	for seed := uint64(8); ; seed++ {
		if g, log = classicGames.play(b, seed, 5000); g.State.Phase == state.PhaseOver && len(g.State.Seats) == 6 {
			break
		}
	}
	b.ReportAllocs()
	var held uint64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := Replay(g.Setup, log)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(r)
	}
	b.ReportMetric(float64(len(log)), "commands")
	b.ReportMetric(float64(g.State.Turn), "turns")
	b.ReportMetric(float64(held), "held-B")
}
