package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// A backup taken while another goroutine writes is a database of its own:
// it opens, passes the integrity check, and its match replays from its log
// to the state its snapshot holds (snapshots are taken every 5 commands,
// so a copy that caught a change half way would disagree). Each copy is the
// database at one moment between the call and its return: it holds every
// command saved before Backup was called, and none saved after it
// returned.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "risk.db"), sqlite.SnapshotEvery(5))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Six players and random moves: a game that lasts longer than the test.
	l := storetest.Start(t, db, "console:main", 6, 1)

	// saved is the number of commands in the log, once committed.
	var saved atomic.Int64
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		r := rand.New(rand.NewPCG(2, 2))
		g, v := l.Game, l.Version
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			e, err := storetest.Move(g, r)
			if err != nil {
				done <- fmt.Errorf("move %d: %w", i+1, err)
				return
			}
			if v, err = db.Save(ctx, l.ID, v, storage.Change{Entries: []engine.Entry{e}, Game: g}, storetest.T0.Add(time.Duration(i)*time.Second)); err != nil {
				done <- fmt.Errorf("save move %d: %w", i+1, err)
				return
			}
			saved.Store(int64(g.Version))
		}
	}()

	type backup struct {
		path          string
		before, after int64
	}
	var copies []backup
	for i := range 8 {
		// Let the writer get ahead between copies.
		for n := saved.Load(); saved.Load() < n+3; {
			select {
			case err := <-done:
				t.Fatalf("the writer stopped: %v", err)
			case <-time.After(time.Millisecond):
			}
		}
		b := backup{path: filepath.Join(dir, fmt.Sprintf("backup-%d.db", i)), before: saved.Load()}
		err := db.Backup(ctx, b.path)
		b.after = saved.Load()
		if err != nil {
			close(stop)
			<-done
			t.Fatalf("backup %d: %v", i, err)
		}
		copies = append(copies, b)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("the writer: %v", err)
	}

	for _, b := range copies {
		t.Run(filepath.Base(b.path), func(t *testing.T) {
			c, err := sqlite.Open(ctx, b.path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Check(ctx); err != nil {
				t.Fatal(err)
			}
			got, err := c.Load(ctx, l.ID)
			if err != nil {
				t.Fatal(err)
			}
			if n := int64(got.Commands); n < b.before || n > b.after {
				t.Errorf("the copy holds %d commands; %d were saved when the backup began, %d when it ended", n, b.before, b.after)
			}
			storetest.SameGame(t, "the copy's snapshot and log", got.Game, storetest.Replayed(t, c, l.ID))
		})
	}
}

// A backup never overwrites a file.
func TestBackupRefusesAnExistingFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	path := filepath.Join(dir, "there.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(ctx, path); !errors.Is(err, fs.ErrExist) {
		t.Errorf("backup onto an existing file: %v, want fs.ErrExist", err)
	}
}
