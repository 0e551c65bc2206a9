package clock

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Computers play their turns as soon as they are due, in the background,
// until a person is to play or the match ends; a computers-only match
// runs to its end.
func TestComputersPlay(t *testing.T) {
	e := newEnv(t)
	const ch = "test:bots"
	e.started(ch, []string{"Ann"}, "easy")
	if s := e.load(ch).Game.State; s.Seats[s.SeatByID("bot:1")].Reserve != 0 {
		t.Fatal("the computer did not place its armies")
	}
	e.do(ch, "Ann", "autoplace")
	m := e.load(ch)
	if s := m.Game.State; m.Status == storage.Active && s.Seats[s.Current].Name != "Ann" {
		t.Fatalf("turn %d is %s's: the computer did not play its turn", s.Turn, s.Seats[s.Current].Name)
	}
	if e.store.Leased("bots:"+ch) != "" {
		t.Error("the lease on the computers outlived their turns")
	}

	const solo = "test:solo"
	e.setPlayer(aiPlayer) // players that win
	e.open()
	e.do(solo, "Ann", "new")
	e.do(solo, "Ann", "host addbot", "level:easy")
	e.do(solo, "Ann", "host addbot", "level:normal")
	e.do(solo, "Ann", "leave")
	e.do(solo, "Ann", "start")
	if m := e.load(solo); m.Status != storage.Finished || m.Game.State.Phase != state.PhaseOver {
		t.Fatalf("a computers-only match stopped at turn %d (%s)", m.Game.State.Turn, m.Status)
	}
}

// A computer that breaks a rule plays the safe default instead.
func TestComputerBreakingARule(t *testing.T) {
	e := newEnv(t)
	e.setPlayer(func(string, uint64) Player { return cheat{} })
	e.open()
	const ch = "test:cheat"
	e.started(ch, []string{"Ann"}, "easy")
	e.do(ch, "Ann", "autoplace")
	if s := e.load(ch).Game.State; s.Seats[s.Current].Name != "Ann" {
		t.Fatalf("turn %d is %s's: the cheat's turn did not end", s.Turn, s.Seats[s.Current].Name)
	}
}

// cheat attacks from a territory it does not own.
type cheat struct{}

func (cheat) Act(_ context.Context, s *state.State, seat int) (engine.Command, error) {
	for t := range s.Terr {
		if s.Terr[t].Owner != seat && s.Terr[t].Owner >= 0 {
			return engine.Attack{From: t, To: s.Map.Territories[t].Adj[0], Dice: 3}, nil
		}
	}
	return nil, nil
}

// Issue 12, fault 1: a process that stopped while computer players had to
// play (killed during their turn, or before the computers' initial
// placement was saved) left the match waiting for them. Every process
// start resumes them: RunTimers first, and Resume.
func TestStartResumesComputerPlayers(t *testing.T) {
	t.Run("initial placement, the timer loop", func(t *testing.T) {
		e := newEnv(t)
		const ch = "test:resume-setup"
		e.setPlayer(func(string, uint64) Player { return stuck{} })
		e.noWait = true
		e.open()
		e.started(ch, []string{"Ann"}, "easy")
		e.do(ch, "Ann", "autoplace")
		e.setPlayer(nil)
		e.noWait = false
		e.open() // killed: the computer's placement was never saved
		if s := e.load(ch).Game.State; s.Phase != state.PhaseSetup {
			t.Fatalf("phase %s before the restart's loop, want the setup", s.Phase)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { e.clock.RunTimers(ctx, time.Hour); close(done) }()
		for end := time.Now().Add(20 * time.Second); e.load(ch).Game.State.Phase == state.PhaseSetup; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatal("gave up waiting for the computer to place its armies")
			}
		}
		cancel()
		<-done
	})
	t.Run("a computer's turn, Resume", func(t *testing.T) {
		e := newEnv(t)
		const ch = "test:resume-turn"
		e.started(ch, []string{"Ann"}, "easy")
		e.do(ch, "Ann", "autoplace")
		e.setPlayer(func(string, uint64) Player { return stuck{} })
		e.noWait = true
		e.open()
		e.do(ch, "Ann", "autoplace")
		e.do(ch, "Ann", "end")
		e.setPlayer(nil)
		e.noWait = false
		e.open() // killed while the computer played
		turn := e.load(ch).Game.State.Turn
		if err := e.clock.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.clock.Wait()
		if s := e.load(ch).Game.State; s.Turn == turn || s.Seats[s.Current].Name != "Ann" {
			t.Fatalf("turn %d is %s's, want Ann's again after turn %d", s.Turn, s.Seats[s.Current].Name, turn)
		}
	})
}

// A channel's computer turns are played by the process holding their
// lease. While a process that died holds it, the others leave them; they
// take over once its lease has ended, at a tick, without a restart.
func TestComputerTurnsOfADeadProcessAreTakenOver(t *testing.T) {
	e := newEnv(t)
	const ch = "test:dead"
	e.do(ch, "Ann", "new")
	e.do(ch, "Ann", "host addbot", "level:easy")
	dead := storage.Claim{Holder: "dead", Started: t0, Now: t0, Until: t0.Add(lease)}
	if ok, err := e.store.Lease(context.Background(), "bots:"+ch, dead); err != nil || !ok {
		t.Fatalf("lease: %v, %v", ok, err)
	}
	e.do(ch, "Ann", "start")
	reserve := func() int { s := e.load(ch).Game.State; return s.Seats[s.SeatByID("bot:1")].Reserve }
	if reserve() == 0 {
		t.Fatal("the computer placed while another process held its lease")
	}
	e.tick()
	if reserve() == 0 {
		t.Fatal("the computer placed while another process held its lease")
	}
	e.Advance(lease)
	e.tick()
	if r := reserve(); r != 0 {
		t.Fatalf("the computer has %d armies left to place after the dead process's lease ended", r)
	}
}

// counting is a computer player that counts those thinking at once.
type counting struct {
	mu        *sync.Mutex
	now, most *int
}

func (p counting) Act(ctx context.Context, view *state.State, seat int) (engine.Command, error) {
	p.mu.Lock()
	*p.now++
	*p.most = max(*p.most, *p.now)
	p.mu.Unlock()
	time.Sleep(time.Millisecond)
	p.mu.Lock()
	*p.now--
	p.mu.Unlock()
	return nil, ctx.Err()
}

// Issue 12, fault 3, the core's part: computer turns are the heaviest
// work; however many channels have computers to play, only Thinkers of
// them think at once.
func TestComputerTurnsAreBounded(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now, most := 0, 0
	e.setPlayer(func(string, uint64) Player { return counting{mu: &mu, now: &now, most: &most} })
	e.configure = func(c *Config) { c.Thinkers = 2 }
	e.open()
	const channels = 4
	for i := range channels {
		ch := fmt.Sprintf("test:bounded%d", i)
		e.do(ch, "Ann", "new")
		e.do(ch, "Ann", "host addbot")
		e.do(ch, "Ann", "host addbot")
		e.do(ch, "Ann", "leave")
	}
	ctx := context.Background()
	for i := range channels {
		ch := fmt.Sprintf("test:bounded%d", i)
		res, err := e.lobby.Start(ctx, call(e, ch, "Ann", ""))
		if err != nil || !res.Bots {
			t.Fatalf("start %s: %v, bots to play %v", ch, err, res.Bots)
		}
	}
	for i := range channels {
		e.clock.Later(fmt.Sprintf("test:bounded%d", i))
	}
	// Let them play until two think at once (a busy machine may take a
	// while to overlap them), a little longer, then stop them: computers
	// that play the safe default never win.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		enough := most >= 2
		mu.Unlock()
		if enough {
			break
		}
	}
	time.Sleep(50 * time.Millisecond)
	e.clock.Close()
	mu.Lock()
	defer mu.Unlock()
	if most != 2 {
		t.Errorf("%d computer players thought at once, want 2 (of %d channels with computers to play)", most, channels)
	}
}

// TestOrderedPlayer: standing orders bend a computer's choices: no attack
// when so ordered (the turn ends instead), reinforcements to the weakest
// border of the continent to defend.
func TestOrderedPlayer(t *testing.T) {
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seed: 3,
		Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.State.Seats {
		if _, _, err := g.Apply(i, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	s := g.State
	seat := s.Current
	var continent string
	for _, c := range s.Map.Continents {
		if defendWhere(s, seat, c.Name) >= 0 {
			continent = c.Name
			break
		}
	}
	if continent == "" {
		t.Fatal("no continent of the seat borders an enemy")
	}
	weakest := defendWhere(s, seat, continent)
	if s.Terr[weakest].Owner != seat {
		t.Fatalf("defend at %d, which the seat does not own", weakest)
	}
	for _, tt := range []struct {
		name   string
		inner  engine.Command
		orders people.Orders
		want   engine.Command
	}{
		{"an attack, no attacks ordered", engine.Attack{From: 1, To: 2, Dice: 3}, people.Orders{NoAttack: true}, engine.EndTurn{}},
		{"an attack allowed", engine.Attack{From: 1, To: 2, Dice: 3}, people.Orders{}, engine.Attack{From: 1, To: 2, Dice: 3}},
		{"a placement, to defend", engine.Place{Territory: 99, Armies: 3}, people.Orders{Defend: continent}, engine.Place{Territory: weakest, Armies: 3}},
		{"a placement, nothing to defend", engine.Place{Territory: 99, Armies: 3}, people.Orders{}, engine.Place{Territory: 99, Armies: 3}},
		{"a reinforcement, to defend", engine.Reinforce{Territory: 99}, people.Orders{Defend: continent}, engine.Reinforce{Territory: weakest}},
		{"a continent unknown", engine.Reinforce{Territory: 99}, people.Orders{Defend: "Atlantis"}, engine.Reinforce{Territory: 99}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := orderedPlayer{Player: scripted{tt.inner}, orders: tt.orders}
			got, err := p.Act(context.Background(), s, seat)
			if err != nil || got != tt.want {
				t.Errorf("got %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
	setup := s.Clone()
	setup.Phase = state.PhaseSetup
	if got := defendWhere(setup, seat, continent); got != -1 {
		t.Errorf("a placement in the setup defends %d, want none", got)
	}
}

// scripted is a computer player that always answers one command.
type scripted struct{ c engine.Command }

func (p scripted) Act(context.Context, *state.State, int) (engine.Command, error) { return p.c, nil }

// A lease the store cannot give leaves the computers for later (their
// deadline brings them back); no turn is played without it.
func TestComputersWithoutTheirLease(t *testing.T) {
	e := newEnv(t)
	const ch = "test:nolease"
	e.store.Fail(func(m string) error {
		if m == "Lease" {
			return fmt.Errorf("disk on fire")
		}
		return nil
	})
	e.started(ch, []string{"Ann"}, "easy")
	if s := e.load(ch).Game.State; s.Seats[s.SeatByID("bot:1")].Reserve == 0 {
		t.Fatal("the computer placed without its lease")
	}
	e.store.Fail(nil)
	e.Advance(25 * time.Hour)
	e.tick()
	if s := e.load(ch).Game.State; s.Seats[s.SeatByID("bot:1")].Reserve != 0 {
		t.Error("the computer did not place at its deadline once the store was back")
	}
}
