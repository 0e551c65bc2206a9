package bot

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage/postgres"
)

// The load test: N bot processes (the fleet's) against one PostgreSQL,
// many matches, clients sending commands without pause, maps rendered for
// every /risk map and every turn's news; one process killed halfway. Off
// unless -load.procs is given:
//
//	RISK_TEST_POSTGRES=postgres://... go test ./bot -run TestLoad -v -timeout 30m \
//	    -load.procs 3 -load.matches 10000 -load.seconds 60 -load.clients 12
var (
	loadProcs   = flag.Int("load.procs", 0, "the load test's bot processes (0: no load test)")
	loadMatches = flag.Int("load.matches", 1000, "the load test's matches")
	loadSeconds = flag.Int("load.seconds", 30, "the load test's duration")
	loadClients = flag.Int("load.clients", 8, "the load test's clients, each sending commands one after another")
	loadKill    = flag.Bool("load.kill", true, "kill one process halfway (with 2 processes or more)")
)

// loadResult is what one command of the load test gave.
type loadResult struct {
	command string
	ms      float64
	ok      bool
}

func TestLoad(t *testing.T) {
	if *loadProcs == 0 {
		t.Skip("the load test runs with -load.procs N")
	}
	f := startFleet(t, fleetOptions{procs: *loadProcs, lease: 5 * time.Second, tick: time.Second, render: true})
	ctx := context.Background()

	// The matches are set up by a bot in this process, many at once: two
	// people each, placed, in play.
	start := time.Now()
	pool, err := pgxpool.New(ctx, f.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	setupDB, err := postgres.Open(ctx, f.addr, postgres.MaxConns(16))
	if err != nil {
		t.Fatal(err)
	}
	defer setupDB.Close()
	setup, err := New(Standard(Config{Store: setupDB, Poster: &fleetChat{pool: pool, name: "setup"}, Instance: "setup", Scope: "fleet:",
		Log: slog.New(slog.DiscardHandler)}))
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	current := make([]string, *loadMatches) // who plays now, by match
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range work {
				ch := fmt.Sprintf("fleet:%d", i)
				for _, c := range []struct{ who, cmd string }{{"Ann", "new"}, {"Bob", "join"}, {"Ann", "start"}, {"Ann", "autoplace"}, {"Bob", "autoplace"}} {
					var got chat.Message
					req := chat.Request{Channel: ch, User: chat.User{ID: "fleet:" + strings.ToLower(c.who), Name: c.who}, Command: c.cmd, Key: fmt.Sprintf("setup-%d-%s", i, c.cmd+c.who)}
					if err := setup.Handle(ctx, req, chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil })); err != nil || got.Refused {
						t.Errorf("setup %s %s: %v %q", ch, c.cmd, err, got.Text)
					}
				}
				who, _, _ := f.seatToAct(ch)
				current[i] = who
			}
		})
	}
	for i := range *loadMatches {
		work <- i
	}
	close(work)
	wg.Wait()
	setup.Close()
	if t.Failed() {
		return
	}
	t.Logf("set up %d matches in %v", *loadMatches, time.Since(start).Round(time.Second))

	// The load: each client plays its share of the matches, one command
	// after another, each to a process picked at random (as a load
	// balancer would): the map (rendered), the status, or a turn (place,
	// then end: the turn's news is posted with its map).
	var (
		mu       sync.Mutex
		results  []loadResult
		lost     atomic.Int64 // commands sent to the killed process and never answered
		repeated atomic.Int64 // interactions delivered twice: both answered, applied once
		doubled  atomic.Int64
		key      atomic.Int64
	)
	deadline := time.Now().Add(time.Duration(*loadSeconds) * time.Second)
	killAt := time.Now().Add(time.Duration(*loadSeconds) * time.Second / 2)
	var killed string
	if *loadKill && *loadProcs > 1 {
		go func() {
			time.Sleep(time.Until(killAt))
			victim := f.procs[len(f.procs)-1]
			killed = victim.name
			f.kill(victim)
		}()
	}
	send := func(r *rand.Rand, ch, who, command string, opts map[string]string) (fleetReply, bool) {
		live := f.live()
		c := fleetCommand{Channel: ch, User: who, Command: command, Options: opts, Key: fmt.Sprintf("load-%d", key.Add(1))}
		if command == "end" && r.IntN(20) == 0 {
			// Delivered twice, to two processes: applied once.
			a, b := f.send(live[r.IntN(len(live))], c), f.send(live[r.IntN(len(live))], c)
			ra, oka := <-a
			rb, okb := <-b
			if oka && okb {
				repeated.Add(1)
				if strings.Contains(ra.Text, "ended turn") && strings.Contains(rb.Text, "ended turn") {
					doubled.Add(1)
				}
			}
			if oka && strings.Contains(ra.Text, "ended turn") {
				return ra, true
			}
			return rb, okb
		}
		rep, ok := f.do(live[r.IntN(len(live))], c)
		if !ok {
			lost.Add(1)
		}
		return rep, ok
	}
	began := time.Now()
	for c := range *loadClients {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(c), 9))
			var mine []int
			for i := c; i < *loadMatches; i += *loadClients {
				mine = append(mine, i)
			}
			record := func(command string, rep fleetReply, ok bool) {
				mu.Lock()
				defer mu.Unlock()
				results = append(results, loadResult{command, rep.Ms, ok && rep.Err == ""})
			}
			for time.Now().Before(deadline) {
				i := mine[r.IntN(len(mine))]
				ch := fmt.Sprintf("fleet:%d", i)
				who := current[i]
				if who == "" {
					continue
				}
				switch p := r.IntN(10); {
				case p < 4:
					rep, ok := send(r, ch, who, "map", nil)
					record("map", rep, ok)
				case p < 6:
					rep, ok := send(r, ch, who, "status", nil)
					record("status", rep, ok)
				default:
					rep, ok := send(r, ch, who, "autoplace", nil)
					record("autoplace", rep, ok)
					rep, ok = send(r, ch, who, "end", nil)
					record("end", rep, ok)
					if ok && strings.Contains(rep.Text, "ended turn") {
						current[i] = map[string]string{"Ann": "Bob", "Bob": "Ann"}[who]
					} else if w, _, ok := f.seatToAct(ch); ok {
						current[i] = w // the answer was lost: ask the database
					}
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	f.quiet(2 * time.Minute)
	got := f.check()

	byCommand := map[string][]float64{}
	var all []float64
	failed := 0
	for _, r := range results {
		if !r.ok {
			failed++
			continue
		}
		byCommand[r.command] = append(byCommand[r.command], r.ms)
		all = append(all, r.ms)
	}
	pct := func(xs []float64, p float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		slices.Sort(xs)
		return xs[min(len(xs)-1, int(p*float64(len(xs))))]
	}
	t.Logf("%d processes, %d matches, %d clients, %v: %d commands answered (%.1f/s), p50 %.1f ms, p99 %.1f ms; %d unanswered (sent to %s, killed at %v)",
		*loadProcs, *loadMatches, *loadClients, elapsed.Round(time.Second), len(all), float64(len(all))/elapsed.Seconds(),
		pct(all, .5), pct(all, .99), lost.Load()+int64(failed), orNone(killed), killAt.Sub(began).Round(time.Second))
	for _, c := range []string{"map", "status", "autoplace", "end"} {
		xs := byCommand[c]
		t.Logf("  %-9s %6d  p50 %6.1f ms  p99 %6.1f ms", c, len(xs), pct(xs, .5), pct(xs, .99))
	}
	t.Logf("double applies: %d of %d interactions delivered twice; news queued %d, posts made %d, sent %d (%d sent again, made once by their key); lost or doubled posts: see above (none reported means none)",
		doubled.Load(), repeated.Load(), got.news, got.posts, got.attempts, got.attempts-got.posts)
	if doubled.Load() > 0 {
		t.Errorf("%d interactions delivered twice were applied twice", doubled.Load())
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
