package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// What a newcomer met trying every command (issue 43, item 7), one test a
// thing seen.

// risk with no command is a mistake, answered on standard error with exit
// 2 (it exited 0, so a script running risk $CMD with CMD empty went on);
// risk help and -h are asked for, and exit 0.
func TestNoCommand(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		code       int
		out, errs  string
		noOut, noE bool
	}{
		{args: nil, code: 2, errs: "risk: say which command\n\nrisk: Risk matches in chat.", noOut: true},
		{args: []string{"help"}, code: 0, out: "Usage: risk COMMAND", noE: true},
		{args: []string{"-h"}, code: 0, out: "Usage: risk COMMAND", noE: true},
	} {
		t.Run(strings.Join(append([]string{"risk"}, tt.args...), " "), func(t *testing.T) {
			code, stdout, stderr := runWith(tt.args, nil)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(stdout, tt.out) || (tt.noOut && stdout != "") {
				t.Errorf("stdout %q, want %q", stdout, tt.out)
			}
			if !strings.HasPrefix(stderr, tt.errs) || (tt.noE && stderr != "") {
				t.Errorf("stderr %q, want %q", stderr, tt.errs)
			}
		})
	}
}

// An error is prefixed with its command once: risk tournament's came back
// from package tournament as "tournament: ...", and read "risk tournament:
// tournament: ai: unknown level"; an unknown level is a usage error of
// --players.
func TestTournamentMessages(t *testing.T) {
	for _, tt := range []struct {
		players string
		code    int
		want    string
	}{
		{"normal,grandmaster", 2, `risk tournament: --players: unknown level "grandmaster": want random, easy, normal, hard, reference (the yardstick), or exec:COMMAND` + "\n"},
		{"normal,exec: ", 2, `risk tournament: --players: unknown level "exec: "`},
		{"normal", 1, "risk tournament: want 2 to 6 players, not 1\n"},
	} {
		t.Run(tt.players, func(t *testing.T) {
			code, _, stderr := runWith([]string{"tournament", "--quiet", "--games", "1", "--players", tt.players}, nil)
			if code != tt.code || !strings.HasPrefix(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
			if strings.Contains(stderr, "tournament: tournament") {
				t.Errorf("stderr %q says tournament twice", stderr)
			}
		})
	}
}

// --palette takes the names its usage line gives, standard and colorblind:
// default was taken without a word while pink was refused.
func TestPaletteNames(t *testing.T) {
	for _, tt := range []struct {
		palette string
		want    string
	}{
		{"default", `risk render: --palette "default": the default is called standard; want standard or colorblind`},
		{"pink", `risk render: --palette "pink": want standard or colorblind`},
		{"colourblind", `risk render: --palette "colourblind": want standard or colorblind`},
	} {
		for _, cmd := range [][]string{
			{"render", "--match", "m.json", "--out", "m.png"},
			{"replay", "--match", "m.json", "--out", "m.gif"},
			{"console"},
		} {
			t.Run(tt.palette+" "+cmd[0], func(t *testing.T) {
				code, _, stderr := runWith(append(cmd, "--palette", tt.palette), nil)
				want := strings.Replace(tt.want, "risk render", "risk "+cmd[0], 1)
				if code != 2 || !strings.HasPrefix(stderr, want) {
					t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
				}
			})
		}
	}
}

// risk migrate into a database that holds matches says how many, in
// words: it printed "(it has 7 open ones; <nil>)".
func TestMigrateIntoAHeldDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src.db"), filepath.Join(dir, "dst.db")
	for _, f := range []struct {
		path     string
		channels []string
	}{{src, []string{"console:a"}}, {dst, []string{"console:b", "console:c", "web:d"}}} {
		db, err := sqlite.Open(ctx, f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range f.channels {
			if _, err := db.Create(ctx, ch, json.RawMessage(`{"host":"console:ann"}`), storetest.T0); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
	}
	code, _, stderr := runRisk(t, "", "migrate", "--from", src, "--to", dst)
	want := "risk migrate: the destination must hold no match, and it holds 3 open matches: give --to a new file or an empty PostgreSQL database\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	for _, tt := range []struct {
		open, ended int
		want        string
	}{
		{1, 0, "1 open match"},
		{0, 1, "1 ended match"},
		{7, 2, "7 open matches and 2 ended matches"},
	} {
		if got := matchCount(tt.open, tt.ended); got != tt.want {
			t.Errorf("matchCount(%d, %d) = %q, want %q", tt.open, tt.ended, got, tt.want)
		}
	}
}

// risk export lists the stored matches, and finds a channel by the name the
// console or the page gives it, without the prefix it is stored under
// (console:, web:), which the README never mentioned.
func TestExportFindsMatches(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"console:quickstart", "web:caps", "console:both", "web:both"} {
		if _, err := db.Create(ctx, ch, json.RawMessage(`{"host":"console:ann"}`), storetest.T0); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, stderr := runRisk(t, "", "export", "--db", path, "--list")
	if code != 0 {
		t.Fatalf("--list: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"match", "channel", "    1  console:quickstart  lobby", "    2  web:caps", "    4  web:both"} {
		if !strings.Contains(out, w) {
			t.Errorf("--list lacks %q:\n%s", w, out)
		}
	}
	for _, tt := range []struct {
		channel string
		code    int
		want    string // the exported channel, or the error
	}{
		{"quickstart", 0, "console:quickstart"},
		{"#caps", 0, "web:caps"},
		{"console:quickstart", 0, "console:quickstart"},
		{"both", 2, "risk export: --channel both: there are matches in console:both and in web:both: say which"},
		{"nowhere", 1, "risk export: channel nowhere has no match (risk export --list lists the matches)"},
	} {
		t.Run(tt.channel, func(t *testing.T) {
			code, out, stderr := runRisk(t, "", "export", "--db", path, "--channel", tt.channel)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if tt.code != 0 {
				if !strings.HasPrefix(stderr, tt.want) {
					t.Errorf("stderr %q, want %q", stderr, tt.want)
				}
				return
			}
			var x struct{ Channel string }
			if err := json.Unmarshal([]byte(out), &x); err != nil || x.Channel != tt.want {
				t.Errorf("exported channel %q (%v), want %q", x.Channel, err, tt.want)
			}
		})
	}
	if code, _, stderr := runRisk(t, "", "export", "--list", "--match", "1"); code != 2 || !strings.Contains(stderr, "--list lists the matches: give it alone") {
		t.Errorf("--list --match: exit %d, %q", code, stderr)
	}
}

// The console's player, when --name is not given, has a name the bot can
// speak of: it was "You", and the bot said "You chooses first".
func TestConsoleDefaultName(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no login", nil, nil, "🟥 Player chooses first"},
		{"login", map[string]string{"USER": "ann"}, nil, "🟥 Ann chooses first"},
		{"login not a name", map[string]string{"USER": "a<b>", "LOGNAME": "bob"}, nil, "🟥 Bob chooses first"},
		{"--name", map[string]string{"USER": "ann"}, []string{"--name", "Cat"}, "🟥 Cat chooses first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var out, errb bytes.Buffer
			code := runEnv(context.Background(), env{
				args:   append([]string{"console", "--db", filepath.Join(dir, "risk.db"), "--seed", "1"}, tt.args...), // the person chooses first
				stdin:  strings.NewReader("/risk new rules:capitals map:small\n/risk host addbot\n/risk start\n"),
				stdout: &out, stderr: &errb, getenv: func(k string) string { return tt.env[k] },
			})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if !strings.Contains(out.String(), tt.want) || strings.Contains(out.String(), "You chooses") {
				t.Errorf("the start does not say %q:\n%s", tt.want, out.String())
			}
		})
	}
	code, _, stderr := runWith([]string{"console", "--name", "A<>"}, nil)
	if code != 2 || !strings.Contains(stderr, `--name "A<>": a player name has letters`) {
		t.Errorf("--name A<>: exit %d, %q", code, stderr)
	}
}
