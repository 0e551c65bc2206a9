package sqlite_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// The tests here run the test binary again as child processes that write
// to the same database file. childEnv names the child's role.
const (
	childEnv = "RISK_STORAGE_CHILD"
	dbEnv    = "RISK_STORAGE_DB"
	seedEnv  = "RISK_STORAGE_SEED"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		if err := child(role); err != nil {
			fmt.Fprintf(os.Stderr, "child %s: %v\n", role, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(role string) error {
	seed, _ := strconv.ParseUint(os.Getenv(seedEnv), 10, 64)
	path := os.Getenv(dbEnv)
	switch role {
	case "crash":
		return crashChild(path, seed)
	case "race":
		return raceChild(path, seed, os.Stdin, os.Stdout)
	}
	return fmt.Errorf("unknown role")
}

// startChild starts the test binary as a child in role, killed if the test
// process dies.
func startChild(t *testing.T, role, path string, seed int) (*exec.Cmd, io.WriteCloser, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+role, dbEnv+"="+path, seedEnv+"="+strconv.Itoa(seed))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, in, bufio.NewScanner(out)
}

func entryHash(e engine.Entry) string {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// crashChild plays on the match of channel crash:1 as fast as it can,
// printing "ack MATCH VERSION SEQ HASH" for every log entry of every save
// that returned, until it is killed (or after a minute, should the parent
// be gone). Finished games make way for new ones.
func crashChild(path string, seed uint64) error {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.SnapshotEvery(7))
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 0))
	now := storetest.T0.Add(time.Duration(seed) * time.Hour)
	var l *storage.Loaded
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		if l == nil {
			if l, err = db.Active(ctx, "crash:1"); errors.Is(err, storage.ErrNotFound) {
				var m *storage.Match
				if m, err = db.Create(ctx, "crash:1", nil, now); err == nil {
					setup := storetest.NewSetup(2+r.IntN(5), r.Uint64())
					if _, err = db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup}, now); err == nil {
						l, err = db.Load(ctx, m.ID)
					}
				}
			}
			if err != nil {
				return err
			}
		}
		var batch []engine.Entry
		for k := r.IntN(3) / 2; k >= 0; k-- { // mostly one entry, sometimes two
			e, err := storetest.Move(l.Game, r)
			if errors.Is(err, storetest.ErrOver) {
				break
			}
			if err != nil {
				return err
			}
			batch = append(batch, e)
		}
		c := storage.Change{Entries: batch, Game: l.Game, Timers: &storage.Timers{Deadline: now.Add(time.Hour)}}
		if len(batch) == 0 {
			c = storage.Change{Status: storage.Finished}
		}
		v, err := db.Save(ctx, l.ID, l.Version, c, now)
		if err != nil {
			return err
		}
		for i, e := range batch {
			fmt.Printf("ack %d %d %d %s\n", l.ID, v, l.Game.Version-len(batch)+i+1, entryHash(e))
		}
		l.Version = v
		if len(batch) == 0 {
			l = nil
		}
	}
	return db.Close()
}

type ack struct {
	match, version int64
	seq            int
	hash           string
}

func parseAck(line string) (ack, bool) {
	var a ack
	n, err := fmt.Sscanf(line, "ack %d %d %d %s", &a.match, &a.version, &a.seq, &a.hash)
	return a, err == nil && n == 4 && len(a.hash) == 64
}

// TestCrash kills a writer with SIGKILL at random moments, 50 times, and
// checks after each that the file is sound, that every save the writer saw
// succeed is there, and that the log replays to the loaded game.
func TestCrash(t *testing.T) {
	rounds := 50
	if testing.Short() {
		rounds = 10
	}
	path := filepath.Join(t.TempDir(), "risk.db")
	r := rand.New(rand.NewPCG(1, 1))
	var acked []ack
	total := 0
	for round := range rounds {
		cmd, _, out := startChild(t, "crash", path, round)
		lines := make(chan string)
		go func() {
			for out.Scan() {
				lines <- out.Text()
			}
			close(lines)
		}()
		// Most rounds kill after some acknowledged saves, at a random
		// point of the next; some kill while the child opens the file.
		var timer <-chan time.Time
		wantAcks := 1 + r.IntN(60)
		if r.IntN(8) == 0 {
			wantAcks, timer = -1, time.After(time.Duration(r.IntN(30))*time.Millisecond)
		}
		got := 0
		timeout := time.After(30 * time.Second)
	wait:
		for got != wantAcks {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("round %d: the child stopped by itself: %v", round, cmd.Wait())
				}
				if a, ok := parseAck(l); ok {
					acked = append(acked, a)
					got++
				}
			case <-timer:
				break wait
			case <-timeout:
				t.Fatalf("round %d: no acknowledgement in 30 s", round)
			}
		}
		time.Sleep(time.Duration(r.IntN(500)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for l := range lines { // acknowledged before the kill
			if a, ok := parseAck(l); ok {
				acked = append(acked, a)
				got++
			}
		}
		if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("round %d: child: %v, want killed", round, err)
		}
		total += got
		checkAfterCrash(t, round, path, acked)
	}
	t.Logf("%d rounds, %d acknowledged commands, all there", rounds, total)
}

// checkAfterCrash reopens the database after a crash and checks it.
func checkAfterCrash(t *testing.T, round int, path string, acked []ack) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("round %d: reopen: %v", round, err)
	}
	defer db.Close()
	if err := db.Check(ctx); err != nil {
		t.Fatalf("round %d: %v", round, err)
	}
	ms, err := db.History(ctx, "crash:1")
	if err != nil {
		t.Fatal(err)
	}
	logs := map[int64][]engine.Entry{}
	versions := map[int64]int64{}
	for _, m := range ms {
		x, err := db.Export(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		logs[m.ID], versions[m.ID] = x.Record.Log, m.Version
		if m.Setup == nil {
			continue
		}
		l, err := db.Load(ctx, m.ID)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		g, err := engine.Replay(x.Record.Setup, x.Record.Log)
		if err != nil {
			t.Fatalf("round %d: match %d does not replay: %v", round, m.ID, err)
		}
		storetest.SameGame(t, fmt.Sprintf("round %d, match %d", round, m.ID), l.Game, g)
	}
	for _, a := range acked {
		log := logs[a.match]
		if a.seq > len(log) || entryHash(log[a.seq-1]) != a.hash || versions[a.match] < a.version {
			t.Fatalf("round %d: acknowledged command %d of match %d (version %d) is lost: the match has %d commands, version %d",
				round, a.seq, a.match, a.version, len(log), versions[a.match])
		}
	}
}

// raceChild serves the parent of TestProcessRace over stdin and stdout:
//
//	load        loads the match and picks a move: "ready VERSION"
//	save        saves it at the version loaded: "won VERSION HASH" or "lost"
//	free N      plays until the match is at version N, reloading after each
//	            conflict: "won VERSION HASH" for each save won, then
//	            "done CONFLICTS"
func raceChild(path string, seed uint64, in io.Reader, out io.Writer) error {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(seed, 7))
	var l *storage.Loaded
	var e engine.Entry
	load := func() error {
		var err error
		if l, err = db.Active(ctx, "race:1"); err != nil {
			return err
		}
		e, err = storetest.Move(l.Game, r)
		return err
	}
	save := func() (int64, error) {
		return db.Save(ctx, l.ID, l.Version, storage.Change{Entries: []engine.Entry{e}, Game: l.Game}, storetest.T0)
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 1 && f[0] == "load":
			if err := load(); err != nil {
				return err
			}
			fmt.Fprintf(out, "ready %d\n", l.Version)
		case len(f) == 1 && f[0] == "save":
			v, err := save()
			switch {
			case err == nil:
				fmt.Fprintf(out, "won %d %s\n", v, entryHash(e))
			case errors.Is(err, storage.ErrConflict):
				fmt.Fprintln(out, "lost")
			default:
				return err
			}
		case len(f) == 2 && f[0] == "free":
			target, _ := strconv.ParseInt(f[1], 10, 64)
			conflicts := 0
			for {
				if err := load(); err != nil {
					return err
				}
				if l.Version >= target {
					break
				}
				v, err := save()
				switch {
				case err == nil:
					fmt.Fprintf(out, "won %d %s\n", v, entryHash(e))
				case errors.Is(err, storage.ErrConflict):
					conflicts++
				default:
					return err
				}
			}
			fmt.Fprintf(out, "done %d\n", conflicts)
		default:
			return fmt.Errorf("unknown command %q", sc.Text())
		}
	}
	return sc.Err()
}

// TestProcessRace has two processes write to one match: in lockstep (both
// load the same version, then both save: exactly one wins), then freely.
// Every version has exactly one winner and the log is the winners' entries.
func TestProcessRace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := storetest.Start(t, db, "race:1", 3, 99)
	type proc struct {
		in  io.WriteCloser
		out *bufio.Scanner
	}
	var procs []proc
	for i := range 2 {
		_, in, out := startChild(t, "race", path, i)
		procs = append(procs, proc{in, out})
	}
	send := func(p proc, s string) {
		if _, err := fmt.Fprintln(p.in, s); err != nil {
			t.Fatal(err)
		}
	}
	recv := func(p proc) string {
		if !p.out.Scan() {
			t.Fatalf("child stopped: %v", p.out.Err())
		}
		return p.out.Text()
	}
	won := map[int64]string{} // version -> entry hash
	record := func(line string) {
		var v int64
		var h string
		if _, err := fmt.Sscanf(line, "won %d %s", &v, &h); err != nil {
			t.Fatalf("child said %q", line)
		}
		if _, dup := won[v]; dup {
			t.Fatalf("version %d won twice", v)
		}
		won[v] = h
	}
	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		for _, p := range procs {
			send(p, "load")
		}
		var ready []string
		for _, p := range procs {
			ready = append(ready, recv(p))
		}
		if ready[0] != ready[1] {
			t.Fatalf("round %d: children loaded %q and %q", round, ready[0], ready[1])
		}
		for _, p := range procs {
			send(p, "save")
		}
		wins := 0
		for _, p := range procs {
			if l := recv(p); l != "lost" {
				record(l)
				wins++
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d processes won, want exactly 1", round, wins)
		}
	}
	target := start.Version + int64(rounds) + 60
	for _, p := range procs {
		send(p, fmt.Sprintf("free %d", target))
	}
	conflicts := 0
	for _, p := range procs {
		for {
			l := recv(p)
			if n, ok := strings.CutPrefix(l, "done "); ok {
				c, _ := strconv.Atoi(n)
				conflicts += c
				break
			}
			record(l)
		}
	}
	x, err := db.Export(ctx, start.ID)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(x.Record.Log)) != target-start.Version || len(won) != len(x.Record.Log) {
		t.Fatalf("%d commands in the log, %d saves won, want %d", len(x.Record.Log), len(won), target-start.Version)
	}
	for i, e := range x.Record.Log {
		if v := start.Version + int64(i) + 1; won[v] != entryHash(e) {
			t.Fatalf("log entry %d is not what the save that won version %d stored", i+1, v)
		}
	}
	l, err := db.Load(ctx, start.ID)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "after the race", l.Game, storetest.Replayed(t, db, start.ID))
	t.Logf("%d saves won by two processes, %d conflicts in the free race", len(won), conflicts)
}
