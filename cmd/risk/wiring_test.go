package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// export, import, stats and backup use risk.db in the data directory when
// --db is not given, as console, web and discord do.
func TestDefaultDatabase(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	run := func(args ...string) (code int, stdout, stderr string) {
		var out, errb bytes.Buffer
		code = runEnv(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			getenv: func(k string) string {
				if k == "XDG_DATA_HOME" {
					return data
				}
				return ""
			}})
		return code, out.String(), errb.String()
	}
	path := filepath.Join(data, "riskbot", "risk.db")
	backup := filepath.Join(data, "backup.db")

	// Before there is one, the commands that read it say where they looked.
	for _, args := range [][]string{
		{"export", "--match", "1"},
		{"stats", "--record"},
		{"backup", backup},
	} {
		code, _, stderr := run(args...)
		if want := "no database at " + path; code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", args, code, stderr, want)
		}
	}

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	l := startHosted(t, db, "console:main", 3)
	storetest.Play(t, db, l.ID, 30, rand.New(rand.NewPCG(3, 3)))
	db.Close()

	file := filepath.Join(data, "match.json")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--full", "--channel", "console:main"}, `"channel":"console:main"`},
		{[]string{"import", "--channel", "console:copy", file}, "imported match 2 into console:copy"},
		{[]string{"stats", "--record"}, "recorded the results of 0 finished matches"},
		{[]string{"backup", backup}, "backed up " + path + " to " + backup},
	} {
		code, stdout, stderr := run(tt.args...)
		if code != 0 || !strings.Contains(stdout, tt.want) {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q; want 0 and %q", tt.args, code, stdout, stderr, tt.want)
		}
		if tt.args[0] == "export" {
			if err := os.WriteFile(file, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The copy holds the match imported into the default database.
	c, err := sqlite.Open(ctx, backup)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ms, err := c.History(ctx, "console:copy"); err != nil || len(ms) != 1 {
		t.Errorf("the backup's console:copy: %v, %v; want the match imported", ms, err)
	}
}
