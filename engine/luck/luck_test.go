package luck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// board is a bare state of three seats on territories holding troops.
func board(rules state.Rules, troops ...int) *state.State {
	s := &state.State{Options: state.Options{Rules: rules}}
	for _, n := range []string{"Ann", "Bob", "Cid"} {
		s.Seats = append(s.Seats, state.Seat{Name: n})
	}
	for _, n := range troops {
		s.Terr = append(s.Terr, state.Terr{Armies: n})
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// want is a Player's numbers, written as fractions worked out by hand.
type want struct {
	rolls, killed, lost, strikes, luck int
	won, expWon, expKilled, expLost    float64
	variance                           float64
}

func check(t *testing.T, who string, got Player, w want) {
	t.Helper()
	if got.Rolls != w.rolls || got.Killed != w.killed || got.Lost != w.lost || got.Strikes != w.strikes || got.LuckSum != w.luck ||
		!near(got.Won, w.won) || !near(got.ExpectedWon, w.expWon) || !near(got.ExpectedKilled, w.expKilled) ||
		!near(got.ExpectedLost, w.expLost) || !near(got.Variance, w.variance) {
		t.Errorf("%s: got %+v\nwant %+v", who, got, w)
	}
}

// Hand-computed rolls (docs/NOTES: one roll's exact odds). 1 die against 1:
// the attacker wins with 15 of 36 faces, 5/12. 3 against 2: the defender
// loses 2 with 2890/7776, one each 2611/7776, the attacker 2 with 2275/7776.
func TestRolls(t *testing.T) {
	const n = 7776.0
	mean32 := (2611 + 2*2890) / n // the defender's expected loss, 3 v 2
	var32 := 4 * ((2611+4*2890)/n - mean32*mean32)
	tests := []struct {
		name     string
		rolls    []engine.Rolled
		ann, bob want
	}{
		{
			name:  "1 v 1, the attacker wins",
			rolls: []engine.Rolled{{Seat: 0, Defender: 1, NA: 1, ND: 1, DefenderLost: 1}},
			// Killed-Lost is +1 or -1: variance 4·(5/12)·(7/12) = 35/36.
			ann: want{rolls: 1, won: 1, expWon: 5.0 / 12, killed: 1, expKilled: 5.0 / 12, expLost: 7.0 / 12, variance: 35.0 / 36},
			bob: want{rolls: 1, won: 0, expWon: 7.0 / 12, lost: 1, expKilled: 7.0 / 12, expLost: 5.0 / 12, variance: 35.0 / 36},
		},
		{
			name:  "3 v 2, one each",
			rolls: []engine.Rolled{{Seat: 0, Defender: 1, NA: 3, ND: 2, AttackerLost: 1, DefenderLost: 1}},
			ann:   want{rolls: 1, won: 0.5, expWon: (2890 + 2611/2.0) / n, killed: 1, lost: 1, expKilled: mean32, expLost: 2 - mean32, variance: var32},
			bob:   want{rolls: 1, won: 0.5, expWon: (2275 + 2611/2.0) / n, killed: 1, lost: 1, expKilled: 2 - mean32, expLost: mean32, variance: var32},
		},
		{
			name: "Bob attacks twice, 2 v 1 then 1 v 2, and loses both",
			// 2 v 1: the attacker wins 125/216. 1 v 2: 55/216.
			rolls: []engine.Rolled{
				{Seat: 1, Defender: 0, NA: 2, ND: 1, AttackerLost: 1},
				{Seat: 1, Defender: 0, NA: 1, ND: 2, AttackerLost: 1},
			},
			ann: want{rolls: 2, won: 2, expWon: 91.0/216 + 161.0/216, killed: 2, expKilled: 91.0/216 + 161.0/216, expLost: 125.0/216 + 55.0/216,
				variance: 4*(125.0/216)*(91.0/216) + 4*(55.0/216)*(161.0/216)},
			bob: want{rolls: 2, won: 0, expWon: 125.0/216 + 55.0/216, lost: 2, expKilled: 125.0/216 + 55.0/216, expLost: 91.0/216 + 161.0/216,
				variance: 4*(125.0/216)*(91.0/216) + 4*(55.0/216)*(161.0/216)},
		},
		{
			name:  "a neutral defender counts for nobody",
			rolls: []engine.Rolled{{Seat: 0, Defender: state.Neutral, NA: 1, ND: 1, AttackerLost: 1}},
			ann:   want{rolls: 1, won: 0, expWon: 5.0 / 12, lost: 1, expKilled: 5.0 / 12, expLost: 7.0 / 12, variance: 35.0 / 36},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := board(state.Classic, 5, 5)
			r := New(s)
			var ev []engine.Event
			for _, e := range tt.rolls {
				ev = append(ev, e)
			}
			if err := r.Add(s, ev); err != nil {
				t.Fatal(err)
			}
			check(t, "Ann", r.Players[0], tt.ann)
			check(t, "Bob", r.Players[1], tt.bob)
			check(t, "Cid", r.Players[2], want{})
		})
	}
	// 1 v 1 won: Net = (1 - 5/12) + 7/12 = 7/6; Z = (7/6)/sqrt(35/36).
	p := Player{Rolls: 1, Won: 1, Killed: 1, ExpectedKilled: 5.0 / 12, ExpectedLost: 7.0 / 12, Variance: 35.0 / 36}
	if !near(p.Net(), 7.0/6) || !near(p.Z(), 7.0/math.Sqrt(35)) {
		t.Errorf("Net %v, Z %v; want 7/6 and 7/sqrt(35)", p.Net(), p.Z())
	}
}

func TestBadRolls(t *testing.T) {
	s := board(state.Classic, 5, 5)
	for _, e := range []engine.Rolled{
		{Seat: 0, Defender: 1, NA: 4, ND: 1, DefenderLost: 1},
		{Seat: 0, Defender: 1, NA: 2, ND: 2, DefenderLost: 1},
		{Seat: 0, Defender: 1, NA: 1, ND: 1, DefenderLost: 2, AttackerLost: -1},
	} {
		if err := New(s).Add(s, []engine.Event{e}); err == nil {
			t.Errorf("%+v: no error", e)
		}
	}
	if err := New(s).Add(s, []engine.Event{engine.Struck{To: 7}}); err == nil {
		t.Error("a strike off the map: no error")
	}
}

// Capitals: (attack - defence) of 10 power units gives a damage of
// floor(luck/100): 8 for luck 800-899, 9, 10, 11 for the next hundreds (100
// values each) and 12 for 1200 alone, out of 401.
func TestStrikes(t *testing.T) {
	atk, def := 12*state.PowerUnit, 2*state.PowerUnit
	mean := (8*100 + 9*100 + 10*100 + 11*100 + 12.0) / 401
	variance := (64*100+81*100+100*100+121*100+144.0)/401 - mean*mean
	// With 9 troops on the target, damage above 9 takes 9: 8 for a
	// hundred lucks, 9 for the other 301.
	cappedMean := (8*100 + 9*301.0) / 401
	cappedVar := (64*100+81*301.0)/401 - cappedMean*cappedMean

	s := board(state.Capitals, 50, 9, 30)
	r := New(s)
	err := r.Add(s, []engine.Event{
		engine.Struck{Seat: 0, Defender: 1, From: 2, To: 0, Attack: atk, Defence: def, Luck: 1150, Damage: 11, Left: 39},
		engine.Struck{Seat: 0, Defender: 1, From: 2, To: 1, Attack: atk, Defence: def, Luck: 1150, Damage: 11, Left: 0},
		engine.Struck{Seat: 2, Defender: 0, From: 0, To: 2, Attack: atk, Defence: def, Luck: 812, Damage: 8, Left: 22},
	})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "Ann", r.Players[0], want{strikes: 2, luck: 2300, killed: 20, expKilled: mean + cappedMean, lost: 8, expLost: mean,
		variance: variance + cappedVar + variance})
	check(t, "Bob", r.Players[1], want{lost: 20, expLost: mean + cappedMean, variance: variance + cappedVar})
	check(t, "Cid", r.Players[2], want{strikes: 1, luck: 812, killed: 8, expKilled: mean, variance: variance})
	got := r.String()
	for _, line := range []string{
		"Luck: each attack's luck factor against its mean of 1.000\n",
		fmt.Sprintf("Ann: 2 attacks at luck 1.150 on average, killed 20 (expected %.1f), lost 8 (expected %.1f): %+.1f troops, ",
			mean+cappedMean, mean, 20-(mean+cappedMean)-(8-mean)),
		"Cid: 1 attack at luck 0.812 on average, killed 8 (expected 9.5), lost 0 (expected 0.0): -1.5 troops, unlucky (-1.3σ)\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("the report lacks %q:\n%s", line, got)
		}
	}
}

func TestString(t *testing.T) {
	r := &Report{Rules: state.Classic, Players: []Player{
		{Seat: 0, Name: "Ann", Rolls: 1, Won: 1, ExpectedWon: 5.0 / 12, Killed: 1, ExpectedKilled: 5.0 / 12, ExpectedLost: 7.0 / 12, Variance: 35.0 / 36},
		{Seat: 1, Name: "Bob"},
		{Seat: 2, Name: "Cid", Rolls: 40, Won: 12.5, ExpectedWon: 20, Killed: 10, ExpectedKilled: 20, Lost: 30, ExpectedLost: 20, Variance: 40},
	}}
	want := "Luck: every roll of the dice against its exact odds\n" +
		"Ann: won 1 of 1 roll (expected 0.4), killed 1 (expected 0.4), lost 0 (expected 0.6): +1.2 armies, lucky (+1.2σ)\n" +
		"Cid: won 12.5 of 40 rolls (expected 20.0), killed 10 (expected 20.0), lost 30 (expected 20.0): -20.0 armies, very unlucky (-3.2σ)\n" +
		"Bob: no battles\n"
	if got := r.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// playRandom plays random legal moves (no surrender) and returns the record.
func playRandom(t *testing.T, o state.Options, seed uint64, steps int) engine.Record {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Cid"}}
	g, err := engine.NewGame(engine.Setup{Options: o, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.Record{Setup: g.Setup}
	rng := rand.New(rand.NewPCG(seed, 1))
	for range steps {
		s := g.State
		if s.Phase == state.PhaseOver {
			break
		}
		seat := s.Current
		if s.Phase == state.PhaseSetup && o.Rules == state.Classic {
			for i := range s.Seats {
				if s.Seats[i].Reserve > 0 {
					seat = i
					break
				}
			}
		}
		var moves []engine.Command
		for _, c := range engine.Legal(s, seat) {
			switch c.(type) {
			case engine.Surrender:
			case engine.Blitz, engine.Launch:
				moves = append(moves, c, c, c) // battles, please
			default:
				moves = append(moves, c)
			}
		}
		e, _, err := g.Apply(seat, moves[rng.IntN(len(moves))])
		if err != nil {
			t.Fatal(err)
		}
		rec.Log = append(rec.Log, e)
	}
	return rec
}

// Over whole matches, what one side kills the other loses, every roll
// counts for both sides, and a sealed record gives the same report.
func TestOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    state.Options
	}{
		{"classic", state.DefaultOptions()},
		{"capitals", func() state.Options { o := state.CapitalsOptions(); o.Map = "small"; return o }()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := playRandom(t, tt.o, 4, 600)
			r, err := Of(rec)
			if err != nil {
				t.Fatal(err)
			}
			var killed, lost, rolls, strikes int
			var expKilled, expLost, expWon float64
			for _, p := range r.Players {
				killed += p.Killed
				lost += p.Lost
				rolls += p.Rolls
				strikes += p.Strikes
				expKilled += p.ExpectedKilled
				expLost += p.ExpectedLost
				expWon += p.ExpectedWon
			}
			if killed == 0 || killed != lost || math.Abs(expKilled-expLost) > 1e-6 {
				t.Errorf("killed %d, lost %d; expected %v and %v", killed, lost, expKilled, expLost)
			}
			if tt.o.Rules == state.Classic && (rolls == 0 || math.Abs(expWon-float64(rolls)/2) > 1e-6) {
				t.Errorf("%d rolls counted, expected wins %v", rolls, expWon)
			}
			if tt.o.Rules == state.Capitals && strikes == 0 {
				t.Error("no strikes")
			}
			sealed, err := rec.Seal()
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(sealed)
			if err != nil {
				t.Fatal(err)
			}
			var back engine.Record
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			r2, err := Of(back)
			if err != nil {
				t.Fatal(err)
			}
			if r.String() != r2.String() {
				t.Errorf("the sealed record's report differs:\n%s\n%s", r, r2)
			}
			t.Logf("\n%s", r)
		})
	}
}
