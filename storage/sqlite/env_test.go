package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// isolatedEnv names the test a child process runs in a private mount
// namespace.
const isolatedEnv = "RISK_STORAGE_ISOLATED"

// isolated reports whether this process is the child that runs test t in a
// private mount namespace, where root may mount file systems that vanish
// with it. In the parent it runs the child, reports its result and returns
// false: the parent's test is then done.
func isolated(t *testing.T) bool {
	t.Helper()
	if os.Getenv(isolatedEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), isolatedEnv+"="+t.Name())
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.CombinedOutput()
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("cannot make a mount namespace: %v", err)
	}
	if err == nil && strings.Contains(string(out), "--- SKIP: "+t.Name()) {
		t.Skipf("in a private mount namespace:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("in a private mount namespace: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "_test.go:") {
			t.Log(strings.TrimSpace(l))
		}
	}
	return false
}

// mount mounts a file system, for a test running isolated.
func mount(t *testing.T, source, target, fstype string, flags uintptr, data string) {
	t.Helper()
	if err := syscall.Mount(source, target, fstype, flags, data); errors.Is(err, syscall.EPERM) {
		t.Skipf("mount %s on %s: %v", source, target, err)
	} else if err != nil {
		t.Fatalf("mount %s on %s: %v", source, target, err)
	}
	if flags&syscall.MS_REMOUNT == 0 {
		t.Cleanup(func() { syscall.Unmount(target, syscall.MNT_DETACH) })
	}
}

// makeReadOnly makes dir read-only, to its owner too: with chmod for an
// ordinary user, with a read-only bind mount for root (who ignores
// permissions), in a child process of its own.
func makeReadOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	mount(t, dir, dir, "", syscall.MS_BIND, "")
	mount(t, "", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, "")
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil {
		f.Close()
		t.Fatal("the directory is still writable")
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 && !isolated(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	existing := filepath.Join(dir, "risk.db")
	games := newMatches(t, existing, 12)
	makeReadOnly(t, dir)
	before := dirState(t, dir)

	_, err := sqlite.Open(ctx, filepath.Join(dir, "new.db"))
	if sqliteCode(err) != sqlite3.ErrCantOpen || !strings.Contains(err.Error(), "writable") {
		t.Fatalf("open a new database: got %v, want a clear error", err)
	}
	t.Logf("new database: %v", err)
	db, err := sqlite.Open(ctx, existing)
	if err == nil {
		// If SQLite managed to open it read-only, writing must fail clearly
		// and reading must still give the games.
		l, err := db.Active(ctx, "test:1")
		if err == nil {
			storetest.SameGame(t, "read-only", l.Game, games[0])
			_, err = db.Save(ctx, l.ID, l.Version, storage.Change{Meta: json.RawMessage(`1`)}, storetest.T0)
		}
		db.Close()
		if err == nil {
			t.Fatal("saved in a read-only directory")
		}
	}
	if c := sqliteCode(err); c != sqlite3.ErrCantOpen && c != sqlite3.ErrReadonly || !strings.Contains(err.Error(), "writable") && !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("existing database: got %v, want a clear error", err)
	}
	t.Logf("existing database: %v", err)
	if after := dirState(t, dir); after != before {
		t.Fatalf("the directory changed:\n%s\nwas\n%s", after, before)
	}
}

// fill plays on a match until a save fails with a full disk. It returns the
// game as last saved.
func fill(t *testing.T, db *sqlite.DB, channel string) *engine.Game {
	t.Helper()
	ctx := context.Background()
	l := storetest.Start(t, db, channel, 4, 5)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 100000 {
		before, err := json.Marshal(l.Game)
		if err != nil {
			t.Fatal(err)
		}
		e, err := storetest.Move(l.Game, r)
		if err != nil {
			t.Fatal(err)
		}
		v, err := db.Save(ctx, l.ID, l.Version, storage.Change{Entries: []engine.Entry{e}, Game: l.Game}, storetest.T0)
		if err == nil {
			l.Version = v
			continue
		}
		if sqliteCode(err) != sqlite3.ErrFull || !strings.Contains(err.Error(), "disk is full") {
			t.Fatalf("save %d: got %v, want a clear error about a full disk", i, err)
		}
		t.Logf("after %d commands: %v", i, err)
		after, err := db.Load(ctx, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != l.Version || after.Commands != i {
			t.Fatalf("the failed save changed the match: version %d, %d commands; want %d, %d", after.Version, after.Commands, l.Version, i)
		}
		want, err := engine.DecodeGame(before)
		if err != nil {
			t.Fatal(err)
		}
		storetest.SameGame(t, "after the failed save", after.Game, want)
		return want
	}
	t.Fatal("the disk never filled")
	return nil
}

// checkFull checks a database that just refused a save for want of space:
// it reopens with room to grow, everything saved is there, and play goes
// on.
func checkFull(t *testing.T, path string, want *engine.Game, opts ...sqlite.Option) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := db.Active(ctx, "test:full")
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "after the disk filled", l.Game, want)
	g := storetest.Play(t, db, l.ID, 50, rand.New(rand.NewPCG(6, 6)))
	storetest.SameGame(t, "played on", storetest.Replayed(t, db, l.ID), g)
}

func TestSizeLimit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path, sqlite.MaxSize(128<<10), sqlite.SnapshotEvery(20))
	if err != nil {
		t.Fatal(err)
	}
	g := fill(t, db, "test:full")
	// Other writes fail the same way; reads go on.
	if _, err := db.Create(ctx, "test:other", json.RawMessage(`"`+strings.Repeat("x", 64<<10)+`"`), storetest.T0); sqliteCode(err) != sqlite3.ErrFull {
		t.Fatalf("create: got %v, want a full disk", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	checkFull(t, path, g)
}

func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small file system")
	}
	if !isolated(t) {
		return
	}
	ctx := context.Background()
	dir := t.TempDir()
	mount(t, "tmpfs", dir, "tmpfs", 0, "size=512k")
	path := filepath.Join(dir, "risk.db")
	db, err := sqlite.Open(ctx, path, sqlite.SnapshotEvery(20))
	if err != nil {
		t.Fatal(err)
	}
	g := fill(t, db, "test:full")
	if err := db.Close(); err != nil {
		t.Logf("close on a full disk: %v", err)
	}
	mount(t, "", dir, "", syscall.MS_REMOUNT, "size=4m")
	checkFull(t, path, g)
}
