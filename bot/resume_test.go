package bot

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, fault 1: a process that stopped while computer players had to
// play (killed during their turn, or after the last person's initial
// placement and before the computers' was saved) left the match waiting
// for them: until the setup's deadline a day later on Discord, forever in
// the console. Every process start resumes them.
func TestStartResumesComputerPlayers(t *testing.T) {
	t.Run("initial placement, Discord's timer loop", func(t *testing.T) {
		h := newHarness(t)
		const ch = "test:resume-setup"
		h.stuck = true
		h.restart()
		h.do(ch, "Ann", "new")
		h.do(ch, "Ann", "addbot", "level:easy")
		wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
		wantPrivate(t, h.do(ch, "Ann", "autoplace"), "placed")
		h.close() // killed: the computer's placement was never saved
		h.stuck = false
		h.open()
		if s := h.load(ch).Game.State; s.Phase != state.PhaseSetup {
			t.Fatalf("phase %s before the restart's loop, want the setup", s.Phase)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go h.bot.RunTimers(ctx, time.Hour)
		h.await("the computer placing its armies", func() bool { return h.load(ch).Game.State.Phase != state.PhaseSetup })
	})
	t.Run("a computer's turn, Resume", func(t *testing.T) {
		h := newHarness(t)
		const ch = "test:resume-turn"
		h.started(ch, []string{"Ann"}, "easy")
		h.do(ch, "Ann", "autoplace")
		h.bot.Wait()
		m := h.load(ch)
		if s := m.Game.State; s.Seats[s.Current].Name != "Ann" || m.Status != storage.Active {
			t.Fatalf("turn %d is %s's (%s), want Ann's", s.Turn, s.Seats[s.Current].Name, m.Status)
		}
		h.stuck = true
		h.restart()
		h.do(ch, "Ann", "autoplace")
		wantDone(t, h.do(ch, "Ann", "end"), "ended turn")
		h.close() // killed while the computer played
		h.stuck = false
		h.open()
		turn := h.load(ch).Game.State.Turn
		if err := h.bot.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
		h.bot.Wait()
		m = h.load(ch)
		if s := m.Game.State; m.Status == storage.Active && (s.Turn == turn || s.Seats[s.Current].Name != "Ann") {
			t.Fatalf("turn %d is %s's, want Ann's again after turn %d", s.Turn, s.Seats[s.Current].Name, turn)
		}
	})
}

// A bot looks after the timers, queued news and computer players of its
// own channels only: a console sharing the Discord bot's database must not
// play (or print) a Discord match's deadlines, nor the other way round.
func TestScopeLeavesOtherChannelsAlone(t *testing.T) {
	h := newHarness(t)
	for _, ch := range []string{"discord:1", "console:main", "console:main2"} {
		h.started(ch, []string{"Ann", "Bob"})
	}
	h.takePosts()
	h.scope = "console:main"
	h.restart()
	h.advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.bot.Wait()
	for ch, fired := range map[string]bool{"discord:1": false, "console:main": true, "console:main2": false} {
		if got := h.load(ch).Game.State.Phase != state.PhaseSetup; got != fired {
			t.Errorf("%s: deadline handled %v, want %v", ch, got, fired)
		}
	}
	for _, p := range h.takePosts() {
		if p.channel != "console:main" {
			t.Errorf("posted to %s: %.60q", p.channel, all(p.msg))
		}
	}
}

// countingPlayer counts the computer players thinking at once.
type countingPlayer struct {
	clock.Player
	mu          *sync.Mutex
	now, most   *int
	thinkAwhile time.Duration
}

func (p countingPlayer) Act(ctx context.Context, view *state.State, seat int) (engine.Command, error) {
	p.mu.Lock()
	*p.now++
	*p.most = max(*p.most, *p.now)
	p.mu.Unlock()
	time.Sleep(p.thinkAwhile)
	defer func() { p.mu.Lock(); *p.now--; p.mu.Unlock() }()
	return p.Player.Act(ctx, view, seat)
}

// Issue 12, fault 3, the core's part: computer turns are the heaviest
// work; however many channels have computers to play, only Thinkers of
// them think at once, so that people's commands are not starved.
func TestComputerTurnsAreBounded(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	now, most := 0, 0
	h.configure = func(c *Config) {
		c.Thinkers = 2
		c.NewPlayer = func(level string, seed uint64) (clock.Player, error) {
			p, err := StandardPlayer(level, seed)
			return countingPlayer{Player: p, mu: &mu, now: &now, most: &most, thinkAwhile: time.Millisecond}, err
		}
	}
	h.restart()
	const channels = 4
	for i := range channels {
		ch := fmt.Sprintf("test:bounded%d", i)
		h.do(ch, "Ann", "new")
		h.do(ch, "Ann", "addbot", "level:random")
		h.do(ch, "Ann", "addbot", "level:random")
		h.do(ch, "Ann", "leave")
	}
	for i := range channels {
		h.do(fmt.Sprintf("test:bounded%d", i), "Ann", "start")
	}
	// Let them play until two think at once (random players take long to
	// finish; a busy machine may take a while to overlap them), then stop.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		enough := most >= 2
		mu.Unlock()
		if enough {
			break
		}
	}
	time.Sleep(50 * time.Millisecond)
	h.close()
	if most != 2 {
		t.Errorf("%d computer players thought at once, want 2 (of %d channels with computers to play)", most, channels)
	}
}
