package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// randomSetup varies the player count and every option with the seed.
func randomSetup(seed uint64) Setup {
	r := rand.New(rand.NewPCG(seed, 99))
	seats := randomSeats(r)
	o := state.DefaultOptions()
	o.Cards = state.CardMode(r.IntN(2))
	o.Fortify = state.FortifyMode(r.IntN(2))
	o.Victory = state.Victory(r.IntN(2))
	o.Rounds = randomRounds(r)
	o.Fog = r.IntN(4) == 0
	// Drawn last, so that every setup draws what it drew before missions
	// existed: a third of the setups with three seats or more play them.
	if len(seats) >= MinMissionSeats && r.IntN(3) == 0 {
		o.Victory = state.Missions
	}
	// Drawn after everything else, for the same reason.
	randomTeams(r, &o, seats)
	return Setup{Options: o, Seats: seats, Seed: seed}
}

// randomTeams puts half the setups of 4 or 6 seats (without missions,
// played alone) in teams of 2 or, with 6 seats, 3, the seats drawn into
// the teams at random.
func randomTeams(r *rand.Rand, o *state.Options, seats []SeatInfo) {
	n := len(seats)
	if n != 4 && n != 6 || r.IntN(2) == 0 || o.Victory == state.Missions {
		return
	}
	o.Teams = 2
	if n == 6 && r.IntN(2) == 0 {
		o.Teams = 3
	}
	for i, p := range r.Perm(n) {
		seats[p].Team = 1 + i/o.Teams
	}
}

// randomRounds gives a fifth of the games a round limit of 1 to 40.
func randomRounds(r *rand.Rand) int {
	if r.IntN(5) > 0 {
		return 0
	}
	return 1 + r.IntN(40)
}

// randomSeats makes 2 to 6 seats, as many as r draws.
func randomSeats(r *rand.Rand) []SeatInfo {
	seats := make([]SeatInfo, 2+r.IntN(5))
	for i := range seats {
		seats[i] = SeatInfo{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("P%d", i)}
	}
	return seats
}

// randomMove picks a random legal command for a random seat that may act,
// sometimes an undo, rarely a surrender. Army counts are drawn across the
// whole legal range.
func randomMove(g *Game, r *rand.Rand) (int, Command) {
	s := g.State
	seat := s.Current
	if s.Phase == state.PhaseSetup {
		var ready []int
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				ready = append(ready, i)
			}
		}
		seat = ready[r.IntN(len(ready))]
	}
	if g.CanUndo(seat) && r.IntN(10) == 0 {
		return seat, Undo{}
	}
	moves := Legal(s, seat)
	// Half the time prefer an attack, so that games end within the cap and
	// conquests, eliminations and victories are exercised.
	if s.Phase == state.PhaseAttack && r.IntN(2) == 0 {
		var attacks []Command
		for _, c := range moves {
			switch c := c.(type) {
			case Attack:
				attacks = append(attacks, c)
			case Blitz:
				if s.Terr[c.From].Armies > s.Terr[c.To].Armies {
					attacks = append(attacks, c, c, c)
				}
			}
		}
		if len(attacks) > 0 {
			moves = attacks
		}
	}
	if s.Phase == state.PhaseFortify && r.IntN(2) == 0 && Covers(moves, EndTurn{}) {
		return seat, EndTurn{}
	}
	for {
		c := moves[r.IntN(len(moves))]
		if _, ok := c.(Surrender); ok && r.IntN(500) != 0 {
			continue
		}
		return seat, widen(moves, c, r)
	}
}

// widen replaces a listed army count by a random count in the legal range.
func widen(moves []Command, c Command, r *rand.Rand) Command {
	key, _, ok := SetAmount(c, 0)
	if !ok {
		return c
	}
	lo, hi := 1<<30, -1
	for _, m := range moves {
		if k, n, ok := SetAmount(m, 0); ok && k == key {
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	n := lo + r.IntN(hi-lo+1)
	switch c := c.(type) {
	case Place:
		c.Armies = n
		return c
	case Occupy:
		c.Armies = n
		return c
	case Fortify:
		c.Armies = n
		return c
	case Blitz:
		c.Keep = n
		return c
	case Assault:
		c.Armies = n
		return c
	}
	return c
}

// randomGames is how random games of one rule set are played: a setup
// that varies with the seed, a random legal move, the second seed of the
// moves' generator, a random command of any kind (mostly illegal), and, if
// set, the checks of each command beyond State.Check.
type randomGames struct {
	name    string
	setup   func(seed uint64) Setup
	move    randomMover
	stream  uint64
	command func(r *rand.Rand, s *state.State) Command
	steps   func(g *Game) stepCheck
}

// randomMover picks a random legal command and the seat to play it.
type randomMover func(g *Game, r *rand.Rand) (int, Command)

// stepCheck checks one command of a game, from the state before it to the
// state after it and its events.
type stepCheck func(t testing.TB, seed uint64, step int, before, after *state.State, ev []Event)

// randomSimultaneousCommand is randomCommand with attack orders too.
func randomSimultaneousCommand(r *rand.Rand, s *state.State) Command {
	if r.IntN(8) == 0 {
		t := func() int { return r.IntN(s.Map.Len()+4) - 2 }
		return Assault{t(), t(), r.IntN(12) - 2}
	}
	return randomCommand(r, s)
}

var (
	classicGames  = randomGames{"classic", randomSetup, randomMove, 7, randomCommand, nil}
	capitalsGames = randomGames{"capitals", randomCapitalsSetup, randomCapitalsMove, 8, randomCapitalsCommand, capitalsSteps}
)

// play plays up to maxSteps random legal commands, checking the invariants
// after each, and returns the game and its log.
func (rg randomGames) play(t testing.TB, seed uint64, maxSteps int) (*Game, []Entry) {
	t.Helper()
	g, err := NewGame(rg.setup(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, rg.stream))
	var check stepCheck
	if rg.steps != nil {
		check = rg.steps(g)
	}
	var log []Entry
	for step := 0; step < maxSteps && g.State.Phase != state.PhaseOver; step++ {
		seat, c := rg.move(g, r)
		var before *state.State
		if check != nil {
			before = g.State.Clone()
		}
		e, ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("seed %d step %d: legal %#v by seat %d refused: %v", seed, step, c, seat, err)
		}
		log = append(log, e)
		if err := g.State.Check(); err != nil {
			t.Fatalf("seed %d step %d after %#v: %v", seed, step, c, err)
		}
		if check != nil {
			check(t, seed, step, before, g.State, ev)
		}
		checkRounds(t, seed, step, g.State, ev)
		checkFog(t, seed, step, g.State)
		checkMissionSteps(t, seed, step, g.State, ev)
		checkTeamSteps(t, seed, step, g.State, ev)
	}
	return g, log
}

// checkTeamSteps checks a match with teams after each command: nobody
// strikes, takes from or eliminates a teammate; a victory names the
// winner's team, and, unless a share of the map or the round limit
// decided it, leaves one team playing.
func checkTeamSteps(t testing.TB, seed uint64, step int, s *state.State, ev []Event) {
	t.Helper()
	if s.Options.Teams == 0 {
		return
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d step %d: "+format, append([]any{seed, step}, args...)...)
	}
	for _, e := range ev {
		switch e := e.(type) {
		case Rolled:
			if s.Sides().Teammates(e.Seat, e.Defender) {
				fail("seat %d attacked its teammate %d", e.Seat, e.Defender)
			}
		case Struck:
			if s.Sides().Teammates(e.Seat, e.Defender) {
				fail("seat %d struck its teammate %d", e.Seat, e.Defender)
			}
		case Conquered:
			if s.Sides().Teammates(e.Seat, e.Defender) {
				fail("seat %d took a territory of its teammate %d", e.Seat, e.Defender)
			}
		case Seized:
			if s.Sides().Teammates(e.Seat, e.Victim) {
				fail("seat %d seized a territory of its teammate %d", e.Seat, e.Victim)
			}
		case Eliminated:
			if e.By >= 0 && s.Sides().Teammates(e.Seat, e.By) {
				fail("seat %d eliminated its teammate %d", e.By, e.Seat)
			}
		case Won:
			if e.Team != s.Sides().Team(e.Seat) || e.Team == 0 {
				fail("%#v: seat %d is in team %d", e, e.Seat, s.Sides().Team(e.Seat))
			}
			if !EndedAtRoundLimit(s) && s.Sides().Alive() > 1 && s.Sides().Owned(e.Seat) < s.VictoryTarget() {
				fail("team %d won with %d territories and %d teams playing", e.Team, s.Sides().Owned(e.Seat), s.Sides().Alive())
			}
		}
	}
}

// checkMissionSteps checks a missions match after each command: no view shows
// another seat's mission while the match is on; no seat playing has its
// mission done unless the match is over (a mission is looked at after
// every command); a match won by a mission says so, and one that ends with
// several seats playing, not at its round limit, was won by a mission.
func checkMissionSteps(t testing.TB, seed uint64, step int, s *state.State, ev []Event) {
	t.Helper()
	if s.Options.Victory != state.Missions {
		return
	}
	fulfilled := eventsOf[MissionFulfilled](ev)
	if s.Phase != state.PhaseOver {
		// Every view at every fourth step: a view shows what View makes of
		// the state, whatever the step (and every step costs CI time).
		for v := -1; v < len(s.Seats) && step%4 == 0; v++ {
			for i, seat := range s.View(v).Seats {
				if i != v && seat.Mission != state.MissionHidden {
					t.Fatalf("seed %d step %d: seat %d's view shows seat %d's mission %v", seed, step, v, i, seat.Mission)
				}
			}
		}
		for i := range s.Seats {
			if s.Phase != state.PhaseSetup && s.Seats[i].Alive() && MissionDone(s, i) {
				t.Fatalf("seed %d step %d: seat %d's mission %v is done and the match goes on", seed, step, i, s.Seats[i].Mission)
			}
		}
		if len(fulfilled) > 0 {
			t.Fatalf("seed %d step %d: %v and the match goes on", seed, step, fulfilled)
		}
		return
	}
	if len(eventsOf[Won](ev)) == 0 {
		return
	}
	switch {
	case len(fulfilled) > 1:
		t.Fatalf("seed %d step %d: %v", seed, step, fulfilled)
	case len(fulfilled) == 1 && (fulfilled[0].Seat != s.Winner || !MissionDone(s, s.Winner)):
		t.Fatalf("seed %d step %d: %v, winner %d", seed, step, fulfilled, s.Winner)
	case len(fulfilled) == 0 && s.AliveSeats() > 1 && len(eventsOf[RoundLimit](ev)) == 0:
		t.Fatalf("seed %d step %d: won by seat %d with %d seats playing, neither by a mission nor at the limit", seed, step, s.Winner, s.AliveSeats())
	}
}

// checkRounds checks the round count against the turns and the round
// limit: a match with a limit ends by it, announced, at the limit at the
// latest.
func checkRounds(t testing.TB, seed uint64, step int, s *state.State, ev []Event) {
	t.Helper()
	if s.Turn > 0 && (s.Round < 1 || s.Round > s.Turn) {
		t.Fatalf("seed %d step %d: round %d at turn %d", seed, step, s.Round, s.Turn)
	}
	if s.Options.Turns == state.Simultaneous && s.Round != s.Turn {
		t.Fatalf("seed %d step %d: round %d is not the turn %d", seed, step, s.Round, s.Turn)
	}
	limit := s.Options.Rounds
	if limit > 0 && s.Round > limit {
		t.Fatalf("seed %d step %d: round %d past the limit %d", seed, step, s.Round, limit)
	}
	atLimit, won := false, false
	for _, e := range ev {
		if e, ok := e.(RoundLimit); ok && (e.Round != limit || s.Phase != state.PhaseOver || s.Winner != RoundLimitWinner(s)) {
			t.Fatalf("seed %d step %d: %+v with the limit %d, phase %s, winner %d", seed, step, e, limit, s.Phase, s.Winner)
		}
		switch e.(type) {
		case RoundLimit:
			atLimit = true
		case Won:
			won = true
		}
	}
	if won && EndedAtRoundLimit(s) != atLimit {
		t.Fatalf("seed %d step %d: EndedAtRoundLimit says %v after the events %v", seed, step, !atLimit, ev)
	}
}

// checkFog checks every view of a match with fog of war: a seat sees
// exactly its territories and their neighbours (by sea from its ports) as
// they are, the rest as bare fog, the totals of every seat, and the public
// what every player sees; at the end, everything.
func checkFog(t testing.TB, seed uint64, step int, s *state.State) {
	t.Helper()
	if !s.Options.Fog || seed >= 200 { // some 50 games of each kind are enough, and cheaper
		return
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d step %d: "+format, append([]any{seed, step}, args...)...)
	}
	// A seat sees what it and its teammates hold, and what borders it.
	sees := func(seat, i int) bool {
		for n := range s.Terr {
			if o := s.Terr[n].Owner; o >= 0 && s.Sides().Same(o, seat) && (n == i || s.Map.Adjacent(n, i) || s.Terr[n].Port && s.Map.SeaLinked(n, i)) {
				return true
			}
		}
		return false
	}
	fogNow := s.Phase != state.PhaseOver && (s.Phase != state.PhaseSetup || s.Options.Rules == state.Classic)
	for seat := -1; seat < len(s.Seats); seat++ {
		v := s.View(seat)
		if err := v.Check(); err != nil {
			fail("seat %d's view: %v", seat, err)
		}
		for i, tr := range s.Terr {
			in := !fogNow
			switch {
			case in:
			case seat >= 0 && s.Seats[seat].Alive():
				in = sees(seat, i)
			default:
				in = true
				for p := range s.Seats {
					in = in && (!s.Seats[p].Alive() || sees(p, i))
				}
			}
			got := v.Terr[i]
			if in && got.Fog || !in && got != (state.Terr{Owner: state.Neutral, Fog: true}) {
				fail("seat %d sees %s as %+v (in sight: %v; it is %+v)", seat, s.Map.TerritoryName(i), got, in, tr)
			}
			if in && (got.Owner != tr.Owner || got.Armies != tr.Armies && !(s.Phase == state.PhaseSetup && tr.Owner != seat)) {
				fail("seat %d sees %s as %+v, not %+v", seat, s.Map.TerritoryName(i), got, tr)
			}
		}
		for i := range s.Seats {
			// Others' placements are hidden during the classic setup, fog
			// or not (State.View).
			placing := s.Phase == state.PhaseSetup && i != seat
			if v.Owned(i) != s.Owned(i) || v.Armies(i) != s.Armies(i) && !placing {
				fail("seat %d's view counts seat %d's %d territories and %d armies as %d and %d", seat, i, s.Owned(i), s.Armies(i), v.Owned(i), v.Armies(i))
			}
		}
	}
}

// games is the number of random games: 1000, short under -short.
func games(short int) int {
	if testing.Short() {
		return short
	}
	return 1000
}

// TestReplayReproducesRandomGames plays many random games of each rule set
// with random options, checks the invariants after every command, and
// replays each log, after a round trip through JSON, to the same final
// state bit for bit.
func TestReplayReproducesRandomGames(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, tt := range []struct {
		games     randomGames
		short     int // the number of games under -short
		steps     int // the step cap of a game
		finishPct int // the share of games that must finish within it (one at least)
	}{
		{classicGames, 100, 1500, 0},
		{capitalsGames, 60, 2500, 50},
		{simultaneousGames, 40, 3000, 40},
	} {
		t.Run(tt.games.name, func(t *testing.T) {
			t.Parallel() // the three kinds share nothing: CI's full run takes the longest's time
			n, finished, limited, steps := games(tt.short), 0, 0, 0
			missions, byMission, teams, teamWins, fogTeams := 0, 0, 0, 0, 0
			for seed := range uint64(n) {
				g, log := tt.games.play(t, seed, tt.steps)
				steps += len(log)
				s := g.State
				if s.Options.Victory == state.Missions {
					missions++
				}
				if s.Phase == state.PhaseOver {
					finished++
					if s.Options.Rounds > 0 && s.Round == s.Options.Rounds && s.AliveSeats() > 1 {
						limited++
					}
					if s.Options.Victory == state.Missions && MissionDone(s, s.Winner) {
						byMission++
					}
				}
				if s.Options.Teams > 0 {
					teams++
					if s.Options.Fog && seed < 200 { // checkFog's games
						fogTeams++
					}
					if s.Phase == state.PhaseOver {
						teamWins++
						wantTeamRanked(t, seed, Record{Setup: g.Setup, Log: log})
					}
				}
				wantRecordReplays(t, seed, g, log)
			}
			t.Logf("%d games, %d commands, %d finished within the step cap, %d by the round limit; %d with missions, %d won by one; %d with teams, %d won, %d with fog checked",
				n, steps, finished, limited, missions, byMission, teams, teamWins, fogTeams)
			if teamWins == 0 {
				t.Error("no game with teams was won")
			}
			if fogTeams == 0 && tt.games.name != simultaneousGames.name {
				t.Error("no game with fog and teams was checked")
			}
			if limited == 0 {
				t.Error("no game ended at its round limit")
			}
			if tt.games.name != capitalsGames.name && byMission == 0 {
				t.Error("no game was won by a mission")
			}
			if want := max(1, n*tt.finishPct/100); finished < want {
				t.Errorf("only %d of %d random games finished, want %d: the end of the match is too rarely exercised", finished, n, want)
			}
		})
	}
}

// wantTeamRanked checks the ranking of a finished match with teams: the
// winner's team, all of it, is first, and nobody else.
func wantTeamRanked(t *testing.T, seed uint64, r Record) {
	t.Helper()
	places, err := r.Ranking()
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	g, err := r.Game(-1)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	for _, f := range places {
		if won := g.State.Won(f.Seat); won != (f.Place == 1) {
			t.Fatalf("seed %d: seat %d of team %d placed %d (team %d won)", seed, f.Seat, g.State.Sides().Team(f.Seat), f.Place, g.State.Sides().Team(g.State.Winner))
		}
	}
}

// wantRecordReplays encodes g's record (its setup and log) to JSON and
// back and replays it: the game must come out the same, bit for bit.
func wantRecordReplays(t *testing.T, seed uint64, g *Game, log []Entry) {
	t.Helper()
	data, err := json.Marshal(Record{Setup: g.Setup, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("seed %d: decode record: %v", seed, err)
	}
	g2, err := back.Game(-1)
	if err != nil {
		t.Fatalf("seed %d: replay: %v", seed, err)
	}
	want, _ := json.Marshal(g)
	got, _ := json.Marshal(g2)
	if !bytes.Equal(want, got) {
		t.Fatalf("seed %d: replay differs from the game\n got %s\nwant %s", seed, got, want)
	}
}

// A snapshot taken mid-game, decoded and continued, ends where the full
// game ends: loading is snapshot + tail.
func TestSnapshotThenTailEqualsFullReplay(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, tt := range []struct {
		games randomGames
		n     uint64 // games
		steps int
	}{
		{classicGames, 40, 800},
		{capitalsGames, 30, 1000},
		{simultaneousGames, 30, 1000},
	} {
		t.Run(tt.games.name, func(t *testing.T) {
			for seed := range tt.n {
				g, log := tt.games.play(t, seed, tt.steps)
				wantSnapshotThenTail(t, seed, g, log)
			}
		})
	}
}

// wantSnapshotThenTail replays the first half of g's log, encodes that
// game as a snapshot, decodes it and replays the rest of the log on it: it
// must end where g ends.
func wantSnapshotThenTail(t *testing.T, seed uint64, g *Game, log []Entry) {
	t.Helper()
	cut := len(log) / 2
	mid, err := Replay(g.Setup, log[:cut])
	if err != nil {
		t.Fatal(err)
	}
	snap, err := json.Marshal(mid)
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := DecodeGame(snap)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	for _, e := range log[cut:] {
		if _, err := resumed.Replay(e); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	want, _ := json.Marshal(g)
	got, _ := json.Marshal(resumed)
	if !bytes.Equal(want, got) {
		t.Fatalf("seed %d: snapshot + tail differs from the full game", seed)
	}
}

// The log keeps the outcomes (dice, and capitals' luck, drawn from the
// match's generator): a replay with a recorded value changed follows the
// record, not the generator, so an engine that draws differently still
// replays old matches as they were played, and a changed value changes the
// outcome.
func TestReplayUsesRecordedOutcomes(t *testing.T) {
	for _, tt := range []struct {
		games        randomGames
		first, count uint64 // the seeds of the games
		steps        int
		cmd          string // the command whose recorded values are changed
		span         int32  // the values lie in [0, span)
		change       func(v int32) int32
	}{
		{classicGames, 3, 1, 400, "attack", 6, func(v int32) int32 { return (v + 1) % 6 }},
		{capitalsGames, 0, 50, 3000, "launch", LuckSpan, func(v int32) int32 { return LuckSpan - 1 - v }},
	} {
		t.Run(tt.games.name, func(t *testing.T) {
			for seed := tt.first; seed < tt.first+tt.count; seed++ {
				g, log := tt.games.play(t, seed, tt.steps)
				for i, e := range log {
					if e.Cmd.Name() != tt.cmd || len(e.Rand) == 0 {
						continue
					}
					for _, v := range e.Rand {
						if v < 0 || v >= tt.span {
							t.Fatalf("seed %d: %s recorded %d, out of [0,%d)", seed, tt.cmd, v, tt.span)
						}
					}
					changed := append([]Entry(nil), log[:i+1]...)
					rnd := append([]int32(nil), e.Rand...)
					rnd[0] = tt.change(rnd[0])
					changed[i].Rand = rnd
					a, err := Replay(g.Setup, log[:i+1])
					if err != nil {
						t.Fatal(err)
					}
					b, err := Replay(g.Setup, changed)
					if err != nil {
						t.Fatal(err)
					}
					if a.State.RNG != b.State.RNG {
						t.Fatal("the generator must advance the same way")
					}
					ja, _ := json.Marshal(a.State.Terr)
					jb, _ := json.Marshal(b.State.Terr)
					if !bytes.Equal(ja, jb) {
						return // the recorded value decided the outcome
					}
					// The change may not alter the outcome (same
					// comparison); try the next one.
				}
			}
			t.Fatalf("no change of a recorded %s altered an outcome", tt.cmd)
		})
	}
}

func TestReplayRejectsTamperedLogs(t *testing.T) {
	g, log := classicGames.play(t, 5, 300)
	for i, e := range log {
		if len(e.Rand) == 0 {
			continue
		}
		short := append([]Entry(nil), log[:i+1]...)
		short[i].Rand = e.Rand[:len(e.Rand)-1]
		if _, err := Replay(g.Setup, short); err == nil {
			t.Error("a log with a missing outcome replayed")
		}
		long := append([]Entry(nil), log[:i+1]...)
		long[i].Rand = append(append([]int32(nil), e.Rand...), 0)
		if _, err := Replay(g.Setup, long); err == nil {
			t.Error("a log with an extra outcome replayed")
		}
		bad := append([]Entry(nil), log[:i+1]...)
		bad[i].Rand = append([]int32{99}, e.Rand[1:]...)
		if _, err := Replay(g.Setup, bad); err == nil {
			t.Error("a log with an out-of-range outcome replayed")
		}
		return
	}
	t.Fatal("no random command in the log")
}

// TestLegalMovesAreAccepted: every listed move is accepted, and random
// commands that Legal does not list are refused with a rule error, without
// changing anything.
func TestLegalMovesAreAccepted(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, tt := range []struct {
		games randomGames
		rng   [2]uint64 // the seeds of the game lengths' and the commands' generator
		steps int       // each game is cut after fewer steps than this
		tries int       // random commands per seat
		kinds []string  // commands listed at least once
	}{
		{classicGames, [2]uint64{1, 2}, 600, 200, nil},
		{capitalsGames, [2]uint64{3, 4}, 500, 300, []string{"capital", "reinforce", "capture", "port", "plan", "launch", "move", "end"}},
		{simultaneousGames, [2]uint64{5, 6}, 600, 200, []string{"place", "trade", "assault", "fortify", "end"}},
	} {
		t.Run(tt.games.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.rng[0], tt.rng[1]))
			checked, refused := 0, 0
			kinds := map[string]int{}
			for seed := range uint64(60) {
				g, _ := tt.games.play(t, seed, r.IntN(tt.steps))
				s := g.State
				for seat := range s.Seats {
					legal := Legal(s, seat)
					for _, c := range legal {
						cl := s.Clone()
						if _, err := Apply(cl, seat, c); err != nil {
							t.Fatalf("seed %d: listed %#v refused for seat %d: %v", seed, c, seat, err)
						}
						checked++
						kinds[c.Name()]++
					}
					before, _ := json.Marshal(s)
					for range tt.tries {
						c := tt.games.command(r, s)
						if Covers(legal, c) {
							continue
						}
						cl := s.Clone()
						if _, err := Apply(cl, seat, c); err == nil {
							t.Fatalf("seed %d: unlisted %#v accepted for seat %d in phase %s", seed, c, seat, s.Phase)
						} else if _, ok := IsRule(err); !ok {
							t.Fatalf("seed %d: %#v refused with a non-rule error: %v", seed, c, err)
						}
						after, _ := json.Marshal(cl)
						if !bytes.Equal(before, after) {
							t.Fatalf("seed %d: refused %#v changed the state", seed, c)
						}
						refused++
					}
				}
			}
			t.Logf("%d listed moves accepted (%v), %d unlisted refused", checked, kinds, refused)
			for _, k := range tt.kinds {
				if kinds[k] == 0 {
					t.Errorf("no %q command was ever listed", k)
				}
			}
		})
	}
}

// randomCommand makes a command of any type with plausible or silly fields.
func randomCommand(r *rand.Rand, s *state.State) Command {
	t := func() int { return r.IntN(s.Map.Len()+4) - 2 }
	n := func() int { return r.IntN(12) - 2 }
	card := func() state.Card { return state.Card(r.IntN(s.Map.NumCards() + 3)) }
	switch r.IntN(10) {
	case 0:
		return Place{t(), n()}
	case 1:
		return AutoPlace{}
	case 2:
		return Trade{[3]state.Card{card(), card(), card()}}
	case 3:
		return Attack{t(), t(), n()}
	case 4:
		return Blitz{t(), t(), n()}
	case 5:
		return Occupy{n()}
	case 6:
		return Fortify{t(), t(), n()}
	case 7:
		return Discard{card()}
	case 8:
		return EndTurn{}
	}
	return Undo{}
}

func TestViewHidesCardsAndGenerator(t *testing.T) {
	g, _ := classicGames.play(t, 11, 900)
	s := g.State
	for seat := range s.Seats {
		v := s.View(seat)
		if v.RNG != (state.RNG{}) || !v.Hidden || v.Viewer != seat {
			t.Fatalf("view of seat %d shows the generator or is not marked", seat)
		}
		if !v.Deck.Empty() || v.DeckSize() != s.DeckSize() {
			t.Errorf("view shows the deck (%d) or miscounts it", v.Deck.Len())
		}
		for i := range s.Seats {
			if v.HandSize(i) != s.HandSize(i) {
				t.Errorf("view of %d: seat %d holds %d, want %d", seat, i, v.HandSize(i), s.HandSize(i))
			}
			if i != seat && !v.Seats[i].Hand.Empty() {
				t.Errorf("view of %d shows seat %d's cards", seat, i)
			}
		}
		if v.Seats[seat].Hand != s.Seats[seat].Hand {
			t.Errorf("view of %d hides its own hand", seat)
		}
		if err := v.Check(); err != nil {
			t.Errorf("view is inconsistent: %v", err)
		}
		if _, err := Apply(v, seat, EndTurn{}); err == nil {
			t.Error("a view was played")
		}
	}
}

func TestUndo(t *testing.T) {
	s := board(t, annAttacks+"\nphase: reinforce\nreserve Ann: 3")
	g := &Game{State: s}
	g.checkpoint()
	ann, bob := 0, 1
	mustApply := func(seat int, c Command) []Event {
		t.Helper()
		_, ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("%#v: %v", c, err)
		}
		return ev
	}
	mustApply(ann, Place{T("Alaska"), 2})
	mustApply(ann, Place{T("Alberta"), 1})
	expect(t, g.State, "phase: attack\nAlaska: Ann 7\nAlberta: Ann 4")
	ev := mustApply(ann, Undo{})
	if u, ok := ev[0].(Undone); !ok || u.Command != (Place{T("Alberta"), 1}) {
		t.Errorf("undo events = %#v", ev)
	}
	expect(t, g.State, "phase: reinforce\nreserve Ann: 1\nAlberta: Ann 3\nAlaska: Ann 7")
	if _, _, err := g.Apply(bob, Undo{}); err == nil {
		t.Error("Bob undid Ann's move")
	}
	mustApply(ann, Undo{})
	expect(t, g.State, "reserve Ann: 3\nAlaska: Ann 5")
	if _, _, err := g.Apply(ann, Undo{}); !isCode(err, ErrNothingToUndo) {
		t.Errorf("undo with nothing left: %v", err)
	}
	// A roll is a point of no return.
	mustApply(ann, Place{T("Alaska"), 3})
	mustApply(ann, Attack{T("Alaska"), T("Kamchatka"), 3})
	if _, _, err := g.Apply(ann, Undo{}); !isCode(err, ErrNothingToUndo) {
		t.Errorf("undo after a roll: %v", err)
	}
	// Fortifications undo.
	mustApply(ann, Fortify{T("Alaska"), T("Northwest Territory"), 1})
	mustApply(ann, Undo{})
	if g.State.Phase != state.PhaseAttack || g.State.Fortified != 0 {
		t.Errorf("after undoing the fortification: phase %s, fortified %d", g.State.Phase, g.State.Fortified)
	}
}

func TestUndoDuringSimultaneousSetup(t *testing.T) {
	g, err := NewGame(Setup{Options: state.DefaultOptions(), Seats: []SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	own := func(seat int) int {
		for i, tr := range g.State.Terr {
			if tr.Owner == seat {
				return i
			}
		}
		return -1
	}
	a, b := own(0), own(1)
	for _, step := range []struct {
		seat int
		c    Command
	}{{0, Place{a, 2}}, {1, Place{b, 3}}, {0, Place{a, 4}}} {
		if _, _, err := g.Apply(step.seat, step.c); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := g.Apply(1, Undo{}); err != nil {
		t.Fatal(err)
	}
	if got := g.State.Terr[b].Armies; got != 1 {
		t.Errorf("Bob's territory has %d armies after his undo, want 1", got)
	}
	if got := g.State.Terr[a].Armies; got != 7 {
		t.Errorf("Ann's territory has %d armies after Bob's undo, want 7", got)
	}
}

func isCode(err error, c Code) bool {
	e, ok := IsRule(err)
	return ok && e.Code == c
}

// TestCloneIsIndependent: a clone and its original play on apart, undo
// steps included (they would share a backing array if Clone did not clip
// it): the original plays on as its twin that was never cloned.
func TestCloneIsIndependent(t *testing.T) {
	start := func() *Game {
		g := &Game{State: board(t, annAttacks+"\nphase: reinforce\nreserve Ann: 3")}
		g.checkpoint()
		if _, _, err := g.Apply(0, Place{T("Alaska"), 1}); err != nil {
			t.Fatal(err)
		}
		return g
	}
	g, twin := start(), start()
	c := g.Clone()
	for _, cmd := range []Command{Place{T("Alberta"), 1}, Undo{}, Place{T("Alaska"), 2}, Attack{T("Alaska"), T("Kamchatka"), 3}} {
		if _, _, err := c.Apply(0, cmd); err != nil {
			t.Fatalf("the clone: %#v: %v", cmd, err)
		}
	}
	for _, x := range []*Game{g, twin} {
		for _, cmd := range []Command{Place{T("Alberta"), 2}, Undo{}} {
			if _, _, err := x.Apply(0, cmd); err != nil {
				t.Fatalf("%#v: %v", cmd, err)
			}
		}
	}
	got, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(twin)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the original changed with its clone:\ngot  %s\nwant %s", got, want)
	}
}
