package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// risk backup copies a SQLite file, never over another file, and sends
// PostgreSQL's operators to pg_dump.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Start(t, db, "console:main", 3, 1)
	db.Close()
	there := filepath.Join(dir, "there.db")
	if err := os.WriteFile(there, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", []string{"--db", path}, 2, "want one FILE"},
		{"two files", []string{"--db", path, "a.db", "b.db"}, 2, "want one FILE"},
		{"postgres", []string{"--db", "postgres://riskbot:secret@db.internal/riskbot", "x.db"}, 2, "pg_dump -Fc 'postgres://riskbot:xxxxx@db.internal/riskbot' > x.db"},
		{"over a file", []string{"--db", path, there}, 1, "file already exists"},
		{"no database", []string{"--db", filepath.Join(dir, "typo.db"), filepath.Join(dir, "b.db")}, 1, "no database at"},
		{"flags after the file", []string{filepath.Join(dir, "copy.db"), "--db", path}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runRisk(t, "", append([]string{"backup"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
	if data, err := os.ReadFile(there); err != nil || string(data) != "mine" {
		t.Errorf("the file backed up over: %q, %v", data, err)
	}
	c, err := sqlite.Open(ctx, filepath.Join(dir, "copy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ms, err := c.History(ctx, "console:main"); err != nil || len(ms) != 1 {
		t.Errorf("the copy's console:main: %v, %v; want its match", ms, err)
	}
}
