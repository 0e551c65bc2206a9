package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/storetest"
)

// The fleet: bot processes sharing one PostgreSQL database, as several
// Discord gateway shards or HTTP endpoints behind a load balancer would.
// Each is this test binary run again (fleetChild), hosting matches with
// the real bot, store, computer players (and, for the load test, renderer)
// and taking commands on its standard input, one JSON line each, answering
// each on its standard output. Their chat is two tables of the database:
// chat_messages keeps a post with a key once, as Discord's enforce_nonce
// does, and chat_attempts every sending.

// fleetEnv names the child's settings.
const (
	fleetEnv       = "RISK_FLEET_CHILD" // the process's name
	fleetDBEnv     = "RISK_FLEET_DB"
	fleetLeaseEnv  = "RISK_FLEET_LEASE_MS"
	fleetTickEnv   = "RISK_FLEET_TICK_MS"
	fleetDelayEnv  = "RISK_FLEET_POST_MS"  // how long a post takes
	fleetRenderEnv = "RISK_FLEET_RENDER"   // "1": posts and replies render their maps
	fleetThinkEnv  = "RISK_FLEET_THINKERS" // Config.Thinkers
)

func TestMain(m *testing.M) {
	if name := os.Getenv(fleetEnv); name != "" {
		if err := fleetChild(name); err != nil {
			fmt.Fprintf(os.Stderr, "fleet child %s: %v\n", name, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fleetCommand is a command sent to a child.
type fleetCommand struct {
	ID      int               `json:"id"`
	Channel string            `json:"channel"`
	User    string            `json:"user"`
	Command string            `json:"command"`
	Options map[string]string `json:"options,omitempty"`
	Key     string            `json:"key,omitempty"`
}

// fleetReply is a child's answer to a command.
type fleetReply struct {
	ID      int     `json:"id"`
	Private bool    `json:"private"`
	Refused bool    `json:"refused"`
	Text    string  `json:"text"`
	Ms      float64 `json:"ms"` // from reading the command to the reply
	Err     string  `json:"err,omitempty"`
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// fleetChild is one bot process of the fleet, until its standard input
// closes or it is killed.
func fleetChild(name string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	addr := os.Getenv(fleetDBEnv)
	db, err := postgres.Open(ctx, addr, postgres.MaxConns(8))
	if err != nil {
		return err
	}
	defer db.Close()
	pool, err := pgxpool.New(ctx, addr)
	if err != nil {
		return err
	}
	defer pool.Close()
	render := os.Getenv(fleetRenderEnv) == "1"
	poster := &fleetChat{pool: pool, name: name, delay: time.Duration(envInt(fleetDelayEnv, 0)) * time.Millisecond, render: render}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})).With("instance", name)
	b, err := New(Standard(Config{Store: db, Poster: poster, Instance: name, Scope: "fleet:", Log: log,
		Lease: time.Duration(envInt(fleetLeaseEnv, 2000)) * time.Millisecond, Thinkers: envInt(fleetThinkEnv, 0)}))
	if err != nil {
		return err
	}
	defer b.Close()
	go b.RunTimers(ctx, time.Duration(envInt(fleetTickEnv, 100))*time.Millisecond)
	var mu sync.Mutex
	out := json.NewEncoder(os.Stdout)
	var wg sync.WaitGroup
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	for in.Scan() {
		var c fleetCommand
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			return err
		}
		read := time.Now()
		wg.Go(func() {
			req := chat.Request{Channel: c.Channel, User: chat.User{ID: "fleet:" + strings.ToLower(c.User), Name: c.User}, Command: c.Command, Options: c.Options, Key: c.Key}
			var got chat.Message
			var answered time.Duration
			err := b.Handle(ctx, req, chat.ReplierFunc(func(ctx context.Context, m chat.Message) error {
				got = m
				defer func() { answered = time.Since(read) }()
				if render && m.Image != nil {
					_, err := m.Image.PNG(ctx)
					return err
				}
				return nil
			}))
			// The answer's time is until the reply is out (its map
			// rendered), not until the news after it is posted.
			r := fleetReply{ID: c.ID, Private: got.Private, Refused: got.Refused, Text: got.Text, Ms: float64(answered.Microseconds()) / 1000}
			if err != nil {
				r.Err = err.Error()
			}
			mu.Lock()
			defer mu.Unlock()
			out.Encode(r)
		})
	}
	wg.Wait()
	return in.Err()
}

// fleetChat is the fleet's chat: a post with a key is created once (as
// Discord's enforce_nonce does); every sending is counted.
type fleetChat struct {
	pool   *pgxpool.Pool
	name   string
	delay  time.Duration
	render bool
}

func (c *fleetChat) Post(ctx context.Context, channel string, m chat.Message) (string, error) {
	time.Sleep(c.delay)
	if c.render && m.Image != nil {
		if _, err := m.Image.PNG(ctx); err != nil {
			return "", err
		}
	}
	if _, err := c.pool.Exec(ctx, `INSERT INTO chat_attempts (key, channel, instance) VALUES ($1, $2, $3)`, m.Key, channel, c.name); err != nil {
		return "", err
	}
	text := m.Text
	if m.Embed != nil {
		text += "\n" + m.Embed.Text()
	}
	_, err := c.pool.Exec(ctx, `INSERT INTO chat_messages (key, channel, text, instance) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
		m.Key, channel, text, c.name)
	return "", err
}

// fleetSchema is what the parent adds to the bot's schema: the chat, and
// an audit of every news queued (to tell a lost post).
const fleetSchema = `
CREATE TABLE chat_messages (
	id       bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
	key      text NOT NULL,
	channel  text NOT NULL,
	text     text NOT NULL,
	instance text NOT NULL
);
CREATE UNIQUE INDEX chat_messages_key ON chat_messages (key) WHERE key <> '';
CREATE TABLE chat_attempts (key text NOT NULL, channel text NOT NULL, instance text NOT NULL);
CREATE TABLE news_audit (match_id bigint NOT NULL, version bigint NOT NULL);
CREATE FUNCTION audit_news() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO news_audit (match_id, version) VALUES (NEW.match_id, NEW.version);
	RETURN NEW;
END $$;
CREATE TRIGGER audit_news AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION audit_news();
`

// fleet is the parent's handle on its bot processes.
type fleet struct {
	t    testing.TB
	addr string
	// tag tells this fleet's database sessions from any other's: the
	// processes' sessions are named tag-NAME (session).
	tag   string
	db    *postgres.DB
	procs []*fleetProc

	mu      sync.Mutex
	next    int
	waiting map[int]chan fleetReply
	sentTo  map[int]*fleetProc // the process each waiting command went to
	raw     *pgxpool.Pool
}

// fleetProc is one child process.
type fleetProc struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	mu   sync.Mutex // guards in
	dead bool
}

// fleetOptions configure the children.
type fleetOptions struct {
	procs    int
	lease    time.Duration
	tick     time.Duration
	post     time.Duration
	render   bool
	thinkers int
}

// newFleet starts the children on a new database of the test server.
func startFleet(t testing.TB, o fleetOptions) *fleet {
	t.Helper()
	addr := pgtest.URL(t)
	db, err := postgres.Open(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	pgtest.Exec(t, addr, fleetSchema)
	u, err := url.Parse(addr)
	if err != nil {
		t.Fatal(err)
	}
	f := &fleet{t: t, addr: addr, tag: u.Query().Get("search_path"), db: db, waiting: map[int]chan fleetReply{}, sentTo: map[int]*fleetProc{}}
	for i := range o.procs {
		f.start(fmt.Sprintf("p%d", i+1), o)
	}
	return f
}

func (f *fleet) start(name string, o fleetOptions) {
	f.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	render := "0"
	if o.render {
		render = "1"
	}
	// Its database sessions carry its name, so that the parent can tell
	// when they are gone (settle).
	u, err := url.Parse(f.addr)
	if err != nil {
		f.t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", f.session(name))
	u.RawQuery = q.Encode()
	cmd.Env = append(os.Environ(), fleetEnv+"="+name, fleetDBEnv+"="+u.String(),
		fleetLeaseEnv+"="+strconv.Itoa(int(o.lease.Milliseconds())), fleetTickEnv+"="+strconv.Itoa(int(o.tick.Milliseconds())),
		fleetDelayEnv+"="+strconv.Itoa(int(o.post.Milliseconds())), fleetRenderEnv+"="+render, fleetThinkEnv+"="+strconv.Itoa(o.thinkers))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	in, err := cmd.StdinPipe()
	if err != nil {
		f.t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		f.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	p := &fleetProc{name: name, cmd: cmd, in: in}
	f.procs = append(f.procs, p)
	go func() {
		s := bufio.NewScanner(out)
		s.Buffer(make([]byte, 1<<16), 1<<20)
		for s.Scan() {
			var r fleetReply
			if err := json.Unmarshal(s.Bytes(), &r); err != nil {
				continue
			}
			f.mu.Lock()
			ch := f.waiting[r.ID]
			delete(f.waiting, r.ID)
			delete(f.sentTo, r.ID)
			f.mu.Unlock()
			if ch != nil {
				ch <- r
			}
		}
	}()
	f.t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
}

// session is the application_name of process name's database sessions.
func (f *fleet) session(name string) string { return f.tag + "-" + name }

// send sends a command to process p and returns where its reply will come
// (closed without one if the process dies).
func (f *fleet) send(p *fleetProc, c fleetCommand) <-chan fleetReply {
	f.mu.Lock()
	f.next++
	c.ID = f.next
	ch := make(chan fleetReply, 1)
	f.waiting[c.ID] = ch
	f.sentTo[c.ID] = p
	f.mu.Unlock()
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead {
		f.drop(c.ID)
		return ch
	}
	p.in.Write(append(b, '\n'))
	return ch
}

// drop gives up waiting for the reply to command id: its channel closes,
// as a connection to a dead process would.
func (f *fleet) drop(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ch, ok := f.waiting[id]; ok {
		close(ch)
		delete(f.waiting, id)
		delete(f.sentTo, id)
	}
}

// do sends a command and waits for its reply; ok is false if the process
// died first.
func (f *fleet) do(p *fleetProc, c fleetCommand) (fleetReply, bool) {
	select {
	case r, ok := <-f.send(p, c):
		return r, ok
	case <-time.After(60 * time.Second):
		return fleetReply{}, false
	}
}

// pool returns the parent's own connections to the database.
func (f *fleet) pool() *pgxpool.Pool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.raw == nil {
		var err error
		if f.raw, err = pgxpool.New(context.Background(), f.addr); err != nil {
			f.t.Fatal(err)
		}
		f.t.Cleanup(f.raw.Close)
	}
	return f.raw
}

// kill kills process p with SIGKILL: no cleanup, its claims left as they
// are; the commands it had not answered are dropped.
func (f *fleet) kill(p *fleetProc) {
	p.mu.Lock()
	p.dead = true
	p.mu.Unlock()
	p.cmd.Process.Signal(syscall.SIGKILL)
	// Its unanswered commands fail at once, as a load balancer's
	// connection to it would.
	f.mu.Lock()
	var ids []int
	for id, q := range f.sentTo {
		if q == p {
			ids = append(ids, id)
		}
	}
	f.mu.Unlock()
	for _, id := range ids {
		f.drop(id)
	}
	// What it sent the database before it died may still be carried out:
	// a COMMIT sent is committed by its session all the same, a moment
	// after the kill. Until then what the database says (whose turn it
	// is) can still change under the test (TestFleetKilledWhileCommitting).
	f.settle(p)
}

// settle waits until process p has exited and the database holds none of
// its sessions: a session whose client died ends once it has done what
// it was sent. It fails the test (without stopping it: kill may run in a
// goroutine) if that takes more than 30 s.
func (f *fleet) settle(p *fleetProc) {
	pool := f.pool()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		err := pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, f.session(p.name)).Scan(&n)
		if err != nil {
			f.t.Errorf("sessions of %s: %v", p.name, err)
			return
		}
		if n == 0 && exited(p.cmd.Process.Pid) {
			return
		}
		if time.Now().After(end) {
			f.t.Errorf("%s was killed 30 s ago, and %d of its database sessions are still there", p.name, n)
			return
		}
	}
}

// exited reports whether process pid has exited: it is gone, or a zombie
// waiting to be reaped (cmd.Wait, at the end of the test, does that).
func exited(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command's name, which is in parentheses.
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// live returns the processes not killed.
func (f *fleet) live() []*fleetProc {
	var out []*fleetProc
	for _, p := range f.procs {
		p.mu.Lock()
		if !p.dead {
			out = append(out, p)
		}
		p.mu.Unlock()
	}
	return out
}

// claimsOf counts the claims a process holds now: leases on computer
// turns, queued posts and due timers (a timer's claim holds while its
// match is at the version it was taken at: a command releases it).
func (f *fleet) claimsOf(name string) int {
	f.t.Helper()
	pool := f.pool()
	now := time.Now().UnixMilli()
	var n int
	err := pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM leases WHERE holder = $1 AND until > $2) +
		(SELECT count(*) FROM outbox WHERE claim_holder = $1 AND claim_until > $2) +
		(SELECT count(*) FROM matches m JOIN heads h ON h.match_id = m.id
			WHERE claim_holder = $1 AND claim_until > $2 AND claim_version = h.version)`, name, now).Scan(&n)
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// fleetCheck is what the parent checks once the fleet is quiet: every
// match's log replays to the game it loads, nothing is left queued, every
// news queued was posted, and no post was made twice.
type fleetCheck struct {
	matches, news, posts, attempts int
}

func (f *fleet) check() fleetCheck {
	f.t.Helper()
	ctx := context.Background()
	var out fleetCheck
	open, err := f.db.OpenMatches(ctx, "fleet:")
	if err != nil {
		f.t.Fatal(err)
	}
	closed, err := f.db.Finished(ctx, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, m := range append(open, closed...) {
		out.matches++
		l, err := f.db.Load(ctx, m.ID)
		if err != nil {
			f.t.Fatalf("load match %d: %v", m.ID, err)
		}
		if l.Game == nil {
			continue
		}
		storetest.SameGame(f.t, fmt.Sprintf("match %d loaded and replayed from its log", m.ID), l.Game, storetest.Replayed(f.t, f.db, m.ID))
	}
	pool, err := pgxpool.New(ctx, f.addr)
	if err != nil {
		f.t.Fatal(err)
	}
	defer pool.Close()
	var queued int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM outbox`).Scan(&queued); err != nil {
		f.t.Fatal(err)
	}
	if queued != 0 {
		f.t.Errorf("%d posts still queued", queued)
	}
	// Keys are base 36 (Message.Key): compared here.
	keys := map[string]int{}
	krows, err := pool.Query(ctx, `SELECT key, count(*) FROM chat_messages WHERE key <> '' GROUP BY key`)
	if err != nil {
		f.t.Fatal(err)
	}
	for krows.Next() {
		var k string
		var n int
		if err := krows.Scan(&k, &n); err != nil {
			f.t.Fatal(err)
		}
		keys[k] = n
		out.posts += n
		if n != 1 {
			f.t.Errorf("post %s was made %d times", k, n)
		}
	}
	krows.Close()
	prefixes := map[string]bool{}
	for k := range keys {
		parts := strings.Split(k, ".")
		prefixes[parts[0]+"."+parts[1]] = true
	}
	arows, err := pool.Query(ctx, `SELECT DISTINCT match_id, version FROM news_audit`)
	if err != nil {
		f.t.Fatal(err)
	}
	var lost []string
	for arows.Next() {
		var m, v int64
		if err := arows.Scan(&m, &v); err != nil {
			f.t.Fatal(err)
		}
		out.news++
		p := "n" + strconv.FormatInt(m, 36) + "." + strconv.FormatInt(v, 36)
		if !prefixes[p] {
			lost = append(lost, fmt.Sprintf("match %d version %d", m, v))
		}
	}
	arows.Close()
	if len(lost) > 0 {
		f.t.Errorf("the news of %d changes was never posted: %v", len(lost), lost)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM chat_attempts WHERE key <> ''`).Scan(&out.attempts); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// quiet waits until nothing is queued, no claim runs and no computer is
// due to play, or fails the test.
func (f *fleet) quiet(within time.Duration) {
	f.t.Helper()
	pool, err := pgxpool.New(context.Background(), f.addr)
	if err != nil {
		f.t.Fatal(err)
	}
	defer pool.Close()
	for end := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		var busy int
		now := time.Now().UnixMilli()
		err := pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM outbox) +
			(SELECT count(*) FROM leases WHERE until > $1) +
			(SELECT count(*) FROM matches WHERE status = 2 AND (deadline_at <= $1 OR remind_at <= $1))`, now).Scan(&busy)
		if err != nil {
			f.t.Fatal(err)
		}
		if busy == 0 {
			return
		}
		if time.Now().After(end) {
			f.t.Fatalf("the fleet is still busy after %v (%d queued posts, live leases and due timers)", within, busy)
		}
	}
}

// seatToAct returns the user name whose turn it is in a match ("" if a
// computer is to play or the match is over) and its phase.
func (f *fleet) seatToAct(channel string) (string, string, bool) {
	f.t.Helper()
	l, err := f.db.Active(context.Background(), channel)
	if err != nil || l.Game == nil {
		return "", "", false
	}
	s := l.Game.State
	id := s.Seats[s.Current].ID
	name, ok := strings.CutPrefix(id, "fleet:")
	return name, s.Phase.String(), ok
}

// personToAct returns a match among the first channels where a person is
// to act, and who.
func (f *fleet) personToAct(channels int) (ch, who string) {
	f.t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			f.t.Fatal("no person to act in any match")
		}
		for i := range channels {
			ch := fmt.Sprintf("fleet:%d", i)
			if w, _, ok := f.seatToAct(ch); ok {
				return ch, w
			}
		}
	}
}

// waitClaim waits until process name holds a claim and returns how many it
// holds, or returns 0 once its reply has come and a second has passed
// without one.
func (f *fleet) waitClaim(name string, reply <-chan fleetReply) int {
	f.t.Helper()
	var replied time.Time
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if n := f.claimsOf(name); n > 0 {
			return n
		}
		if replied.IsZero() {
			select {
			case <-reply:
				replied = time.Now()
			default:
			}
		} else if time.Since(replied) > time.Second {
			return 0
		}
	}
	return 0
}

// Three bot processes share one PostgreSQL database. Commands race on the
// same match from different processes (clicks twice, one interaction
// delivered to two processes, everyone placing at once); one process is
// killed with SIGKILL while it holds claims. Then: every match's log
// replays to the game it loads, every command was applied once, every news
// queued was posted and none twice, and nothing is left queued.
func TestFleet(t *testing.T) {
	pgtest.Server(t)
	if testing.Short() {
		t.Skip("starts three processes")
	}
	f := startFleet(t, fleetOptions{procs: 3, lease: 1500 * time.Millisecond, tick: 100 * time.Millisecond, post: 100 * time.Millisecond})
	channels := 6
	rounds := 8
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() *fleetProc { l := f.live(); return l[r.IntN(len(l))] }
	key := 0
	newKey := func() string { key++; return "k" + strconv.Itoa(key) }
	must := func(ch, who, command string, opts map[string]string) fleetReply {
		t.Helper()
		rep, ok := f.do(pick(), fleetCommand{Channel: ch, User: who, Command: command, Options: opts, Key: newKey()})
		if !ok {
			t.Fatalf("%s /risk %s in %s: no reply", who, command, ch)
		}
		if rep.Err != "" {
			t.Fatalf("%s /risk %s in %s: %s", who, command, ch, rep.Err)
		}
		return rep
	}
	for i := range channels {
		ch := fmt.Sprintf("fleet:%d", i)
		must(ch, "Ann", "new", map[string]string{"turn-hours": "1"})
		must(ch, "Bob", "join", nil)
		must(ch, "Ann", "addbot", map[string]string{"level": "easy"})
		if rep := must(ch, "Ann", "start", nil); !strings.Contains(rep.Text, "has started") {
			t.Fatalf("start: %q", rep.Text)
		}
	}
	// Everyone places at once, each on another process than the other:
	// the same match, written from two processes.
	var wg sync.WaitGroup
	for i := range channels {
		ch := fmt.Sprintf("fleet:%d", i)
		for j, who := range []string{"Ann", "Bob"} {
			p := f.procs[(i+j)%len(f.procs)]
			wg.Go(func() {
				rep, ok := f.do(p, fleetCommand{Channel: ch, User: who, Command: "autoplace", Key: fmt.Sprintf("place-%d-%s", i, who)})
				if !ok || rep.Err != "" || !strings.Contains(rep.Text, "placed") {
					t.Errorf("%s autoplace in %s: %+v (replied: %v)", who, ch, rep, ok)
				}
			})
		}
	}
	wg.Wait()
	var killed *fleetProc
	applied, doubled := 0, 0
	for round := range rounds {
		if round == rounds/2 {
			// Kill a process while it holds claims: it ends a turn, which
			// queues news (its to post, slowly) and hands the turn to a
			// computer (its to play); it dies before it is done. Its
			// claims wait for their leases, then others take them over.
			// (It may die while its end is still being committed: kill
			// returns once the database has settled what it was sent.)
			victim := f.procs[1]
			var reply <-chan fleetReply
			held := 0
			// Under heavy load the victim may be done (news posted, the
			// computer's turn played, claims released) before a poll sees
			// a claim: then it ends another turn, a few times at most.
			for attempt := 1; held == 0; attempt++ {
				if attempt > 5 {
					t.Fatal("the victim never held a claim in five turns")
				}
				ch, who := f.personToAct(channels)
				f.do(victim, fleetCommand{Channel: ch, User: who, Command: "autoplace", Key: newKey()})
				reply = f.send(victim, fleetCommand{Channel: ch, User: who, Command: "end", Key: newKey()})
				held = f.waitClaim(victim.name, reply)
			}
			f.kill(victim)
			killed = victim
			select {
			case <-reply:
			case <-time.After(time.Second):
			}
			t.Logf("round %d: killed %s holding %d claims", round, victim.name, held)
		}
		for i := range channels {
			ch := fmt.Sprintf("fleet:%d", i)
			// Wait for the computers to play.
			var who, phase string
			var ok bool
			for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				who, phase, ok = f.seatToAct(ch)
				if ok || who == "" && phase == "" {
					break
				}
				if time.Now().After(end) {
					t.Fatalf("%s: the computer never played (%s)", ch, phase)
				}
			}
			if !ok {
				continue // the match is over
			}
			if rep, ok := f.do(pick(), fleetCommand{Channel: ch, User: who, Command: "autoplace", Key: newKey()}); ok && rep.Err != "" {
				t.Fatalf("%s autoplace: %s", who, rep.Err)
			}
			// "End turn" clicked twice, on two processes; one of the
			// clicks also delivered twice (the same key, on two more).
			live := f.live()
			k := newKey()
			var replies [3]<-chan fleetReply
			replies[0] = f.send(live[0], fleetCommand{Channel: ch, User: who, Command: "end", Key: k})
			replies[1] = f.send(live[1%len(live)], fleetCommand{Channel: ch, User: who, Command: "end", Key: k})
			replies[2] = f.send(live[2%len(live)], fleetCommand{Channel: ch, User: who, Command: "end", Key: newKey()})
			ended := 0
			var said []string
			for _, c := range replies {
				rep, ok := <-c
				if !ok {
					said = append(said, "(no reply)")
					continue
				}
				said = append(said, strconv.Quote(rep.Text))
				if rep.Err != "" {
					t.Errorf("%s end: %s", who, rep.Err)
				}
				if !rep.Refused && strings.Contains(rep.Text, "ended turn") {
					ended++
				}
			}
			applied++
			if ended != 1 {
				doubled++
				t.Errorf("%s, round %d: %d of three racing ends of %s (%s) applied, want 1: %s", ch, round, ended, who, phase, strings.Join(said, ", "))
			}
		}
	}
	f.quiet(60 * time.Second)
	got := f.check()
	t.Logf("%d matches; %d racing triples, %d applied more than once; %d news queued, %d posts made, %d sent (%d sent again and made once by their key); killed %s",
		got.matches, applied, doubled, got.news, got.posts, got.attempts, got.attempts-got.posts, killed.name)
	if got.news == 0 || got.posts == 0 {
		t.Fatal("nothing was posted")
	}
}

// slowCommit makes the commit of the request with key 'late-end' take a
// second: a deferred trigger sleeps in it.
const slowCommit = `
CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_sleep(1);
	RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON requests DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (NEW.key = 'late-end') EXECUTE FUNCTION slow_commit();
`

// TestFleet failed once in 25 runs with "round 4: 0 of three racing ends
// applied, want 1", in the round with the kill. The victim is killed as
// soon as it holds a claim, and it may hold one (another match's computer
// turn or news) before its own /risk end is done: killed after sending
// that end's COMMIT, it leaves a session that commits it all the same, a
// moment later. The test asked whose turn it was in that moment, was told
// the ender's, and sent that player's three racing ends; the late commit
// ended the turn, so all three were refused ("Not your turn"), rightly:
// the turn ended once, by the dead process's command. The code was right;
// the test read a database that had not settled, and kill now waits for
// it. Here the commit is made slow on purpose and the process killed
// inside it: once kill returns, the end is in, and the three racing ends
// are refused.
func TestFleetKilledWhileCommitting(t *testing.T) {
	pgtest.Server(t)
	if testing.Short() {
		t.Skip("starts two processes")
	}
	f := startFleet(t, fleetOptions{procs: 2, lease: 1500 * time.Millisecond, tick: 100 * time.Millisecond})
	var check string
	if err := f.pool().QueryRow(context.Background(), `SELECT coalesce(current_setting('client_connection_check_interval', true), '0')`).Scan(&check); err != nil {
		t.Fatal(err)
	}
	if check != "0" {
		t.Skipf("the server ends a session whose client is gone while it works (client_connection_check_interval %s): no late commit to test", check)
	}
	victim, other := f.procs[0], f.procs[1]
	const ch = "fleet:0"
	key := 0
	must := func(who, command string, opts map[string]string) fleetReply {
		t.Helper()
		key++
		rep, ok := f.do(other, fleetCommand{Channel: ch, User: who, Command: command, Options: opts, Key: "k" + strconv.Itoa(key)})
		if !ok || rep.Err != "" {
			t.Fatalf("%s /risk %s: %+v (replied: %v)", who, command, rep, ok)
		}
		return rep
	}
	must("Ann", "new", map[string]string{"turn-hours": "1"})
	must("Bob", "join", nil)
	must("Ann", "addbot", map[string]string{"level": "easy"})
	must("Ann", "start", nil)
	must("Ann", "autoplace", nil)
	must("Bob", "autoplace", nil)
	// Wait for the computer's setup (and its first turn, if it is first).
	var who string
	for end := time.Now().Add(30 * time.Second); who == ""; time.Sleep(20 * time.Millisecond) {
		if l, err := f.db.Active(context.Background(), ch); err == nil && l.Game != nil && l.Game.State.Phase != state.PhaseSetup {
			who, _ = strings.CutPrefix(l.Game.State.Seats[l.Game.State.Current].ID, "fleet:")
			if who == l.Game.State.Seats[l.Game.State.Current].ID {
				who = "" // the computer's
			}
		}
		if time.Now().After(end) {
			t.Fatal("no person to act")
		}
	}
	must(who, "autoplace", nil)

	pgtest.Exec(t, f.addr, slowCommit)
	ended := f.send(victim, fleetCommand{Channel: ch, User: who, Command: "end", Key: "late-end"})
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		var n int
		// In the slow commit's sleep: a COMMIT, or the one statement a
		// PostgreSQL save of a command is (its own transaction, whose
		// deferred trigger runs as it commits).
		err := f.pool().QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE application_name = $1 AND state = 'active' AND wait_event = 'PgSleep'`, f.session(victim.name)).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		select {
		case rep := <-ended:
			t.Fatalf("the victim answered its end before committing it: %+v", rep)
		default:
		}
		if time.Now().After(end) {
			t.Fatal("the victim never committed its end")
		}
	}
	f.kill(victim)

	if _, err := f.db.Applied(context.Background(), "late-end"); err != nil {
		t.Fatalf("the end the victim was committing when killed: %v (kill returned before the database settled)", err)
	}
	if w, _, _ := f.seatToAct(ch); w == who {
		t.Fatalf("%s is still to act after their end was committed", who)
	}
	// TestFleet's racing ends, sent now, are all refused: the turn ended.
	k := "racing-end"
	for i, c := range []<-chan fleetReply{
		f.send(other, fleetCommand{Channel: ch, User: who, Command: "end", Key: k}),
		f.send(other, fleetCommand{Channel: ch, User: who, Command: "end", Key: k}),
		f.send(other, fleetCommand{Channel: ch, User: who, Command: "end", Key: "racing-end-2"}),
	} {
		if rep, ok := <-c; !ok || rep.Err != "" || !rep.Refused || strings.Contains(rep.Text, "ended turn") {
			t.Errorf("racing end %d after the late commit: %+v (replied: %v), want refused", i+1, rep, ok)
		}
	}
}
