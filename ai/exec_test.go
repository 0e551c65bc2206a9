package ai

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// fakeBotLevel is the level of the test binary acting as an outside bot.
func fakeBotLevel(mode string) string { return ExecPrefix + os.Args[0] + " " + fakeBotFlag + mode }

func TestExecGoodBot(t *testing.T) {
	s := newMatch(t, 3, 4, state.DefaultOptions())
	ps := []Player{
		mustNew(t, fakeBotLevel("good"), Options{Timeout: 5 * time.Second}),
		mustNew(t, "easy", Options{Seed: 1}),
		mustNew(t, "easy", Options{Seed: 2}),
	}
	playMatch(t, s, ps, 40)
	if f := Faults(ps[0]); f != 0 {
		t.Errorf("a well-behaved bot lost %d decisions", f)
	}
}

// TestExecFaults: a bot that misbehaves loses the decision, the seat plays
// the safe default, and the match goes on.
func TestExecFaults(t *testing.T) {
	tests := []struct {
		mode    string
		timeout time.Duration
		faults  bool
	}{
		{"slow", 150 * time.Millisecond, true},
		{"deaf", 150 * time.Millisecond, true},
		{"crash", time.Second, true},
		{"garbage", time.Second, true},
		{"illegal", time.Second, true},
		{"unknown", time.Second, true},
		{"stale", time.Second, false},
		{"spawn", 150 * time.Millisecond, true},
		{"chatty", 150 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			s := setupDone(t, 3, 6)
			p := mustNew(t, fakeBotLevel(tt.mode), Options{Timeout: tt.timeout, Startup: time.Millisecond})
			seat := s.Current
			for k := range 4 {
				if s.Current != seat || s.Phase == state.PhaseOver {
					break
				}
				start := time.Now()
				c, err := p.Act(context.Background(), s.View(seat), seat)
				if err != nil {
					t.Fatalf("decision %d: %v", k, err)
				}
				if took := time.Since(start); took > tt.timeout+2*time.Second {
					t.Fatalf("decision %d took %v, the bot has %v", k, took, tt.timeout)
				}
				if _, err := engine.Apply(s, seat, c); err != nil {
					t.Fatalf("decision %d: %s is not legal: %v", k, engine.Describe(s.Map, c), err)
				}
			}
			if got := Faults(p) > 0; got != tt.faults {
				t.Errorf("faults = %d, want some: %v", Faults(p), tt.faults)
			}
			// Closing never hangs, whatever the bot (and its children) do.
			start := time.Now()
			if err := Close(p); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("Close took %v", took)
			}
		})
	}
}

// TestExecStartupAllowance: the first decision of a run of the program
// has its timeout plus the start-up allowance, so that a program slow to
// start (700 ms here, against 300 ms a decision) loses nothing; with too
// short an allowance it loses its first decision.
func TestExecStartupAllowance(t *testing.T) {
	tests := []struct {
		name      string
		startup   time.Duration
		decisions int
		faults    int
	}{
		{"allowance covers the start", 2 * time.Second, 3, 0},
		{"allowance too short", time.Millisecond, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := setupDone(t, 3, 6)
			p := mustNew(t, fakeBotLevel("slowstart"), Options{Timeout: 300 * time.Millisecond, Startup: tt.startup})
			defer Close(p)
			seat := s.Current
			for k := 0; k < tt.decisions && s.Current == seat && s.Phase != state.PhaseOver; k++ {
				c, err := p.Act(context.Background(), s.View(seat), seat)
				if err != nil {
					t.Fatalf("decision %d: %v", k, err)
				}
				if _, err := engine.Apply(s, seat, c); err != nil {
					t.Fatalf("decision %d: %v", k, err)
				}
			}
			if got := Faults(p); got != tt.faults {
				t.Errorf("faults = %d, want %d", got, tt.faults)
			}
		})
	}
}

// TestExecCrashRestarts: a crashing bot is started again a few times, then
// given up on; Close leaves no process behind.
func TestExecCrashRestarts(t *testing.T) {
	s := setupDone(t, 3, 9)
	p := mustNew(t, fakeBotLevel("crash"), Options{Timeout: time.Second})
	x := p.(*guarded).p.(*execBot)
	for range maxRestarts + 3 {
		if _, err := p.Act(context.Background(), s.View(s.Current), s.Current); err != nil {
			t.Fatal(err)
		}
	}
	if x.starts != maxRestarts+1 {
		t.Errorf("started %d times, want %d", x.starts, maxRestarts+1)
	}
	if Faults(p) != maxRestarts+3 {
		t.Errorf("faults = %d, want %d", Faults(p), maxRestarts+3)
	}
	if err := Close(p); err != nil {
		t.Fatal(err)
	}
}

func TestExecMissingProgram(t *testing.T) {
	s := setupDone(t, 3, 2)
	p := mustNew(t, ExecPrefix+filepath.Join(t.TempDir(), "no-such-bot"), Options{})
	c, err := p.Act(context.Background(), s.View(s.Current), s.Current)
	if err != nil || c == nil || Faults(p) != 1 {
		t.Fatalf("Act = %v, %v with %d faults; want the safe default", c, err, Faults(p))
	}
}

// TestExampleBot builds the sample bot of examples/bot and plays a match
// with it: the protocol as documented is enough to play.
func TestExampleBot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "bot")
	out, err := exec.Command("go", "build", "-o", bin, "../examples/bot").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, opt := range []state.Options{state.DefaultOptions(), {Rules: state.Classic, Map: "classic", Cards: state.Fixed, Fortify: state.Adjacent}} {
		s := newMatch(t, 3, 5, opt)
		ps := []Player{mustNew(t, ExecPrefix+bin, Options{}), mustNew(t, "easy", Options{Seed: 1}), mustNew(t, "random", Options{Seed: 2})}
		playMatch(t, s, ps, 200)
		if f := Faults(ps[0]); f != 0 {
			t.Errorf("the sample bot lost %d decisions", f)
		}
	}
}
