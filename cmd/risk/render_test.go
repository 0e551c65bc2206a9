package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// exportedMatch plays a few turns and writes the match as 'risk export'
// does; it returns the file and the number of commands.
func exportedMatch(t *testing.T) (string, int) {
	t.Helper()
	return exportedMatchOf(t, state.DefaultOptions())
}

// exportedMatchOf is exportedMatch with the match options given.
func exportedMatchOf(t *testing.T, o state.Options) (string, int) {
	t.Helper()
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 9,
		Seats: []engine.SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Chloé"}}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var log []engine.Entry
	for len(log) < 120 && g.State.Phase != state.PhaseOver {
		seat := g.State.Current
		if g.State.Phase == state.PhaseSetup && o.Rules == state.Classic {
			for i, st := range g.State.Seats {
				if st.Reserve > 0 {
					seat = i
					break
				}
			}
		}
		var moves []engine.Command
		for _, c := range engine.Legal(g.State, seat) {
			if _, ok := c.(engine.Surrender); !ok {
				moves = append(moves, c)
			}
		}
		en, _, err := g.Apply(seat, moves[rng.IntN(len(moves))])
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, en)
	}
	data, err := json.Marshal(storage.Export{Channel: "console:main", Status: storage.Active,
		Record: engine.Record{Setup: g.Setup, Log: log}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "match.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file, len(log)
}

func riskRender(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), env{args: append([]string{"render"}, args...), stdin: strings.NewReader(""),
		stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func TestRender(t *testing.T) {
	file, n := exportedMatch(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want string // in the summary line
	}{
		{"latest", []string{"--width", "800"}, "after 120 of 120 commands"},
		{"at", []string{"--width", "800", "--at", "30", "--palette", "colorblind"}, "after 30 of 120 commands"},
		{"start", []string{"--width", "800", "--at", "0"}, "turn 0, after 0 of"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".png")
			code, stdout, stderr := riskRender(t, append([]string{"--match", file, "--out", out}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, tt.want) {
				t.Errorf("output %q, want %q", stdout, tt.want)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if w := img.Bounds().Dx(); w != 800 {
				t.Errorf("width %d, want 800", w)
			}
		})
	}
	if n != 120 {
		t.Fatalf("the match has %d commands", n)
	}
}

// A capitals match renders as it stood at any command, on its generated
// map.
func TestRenderCapitals(t *testing.T) {
	o := state.CapitalsOptions()
	o.Map = "small"
	file, n := exportedMatchOf(t, o)
	dir := t.TempDir()
	for _, at := range []int{0, 3, n / 2, n} {
		out := filepath.Join(dir, fmt.Sprintf("at%d.png", at))
		code, stdout, stderr := riskRender(t, "--match", file, "--out", out, "--at", fmt.Sprint(at))
		if code != 0 {
			t.Fatalf("--at %d: exit %d: %s", at, code, stderr)
		}
		if !strings.Contains(stdout, fmt.Sprintf("after %d of %d commands", at, n)) {
			t.Errorf("--at %d: output %q", at, stdout)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil || len(data) > 800<<10 {
			t.Errorf("--at %d: %d bytes, %v", at, len(data), err)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	file, _ := exportedMatch(t)
	out := filepath.Join(t.TempDir(), "x.png")
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"format":1,"options":{},"seats":[],"seed":1,"log":[]}`), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no match", []string{"--out", out}, 2, "--match is required"},
		{"no out", []string{"--match", file}, 2, "--out is required"},
		{"bad at", []string{"--match", file, "--out", out, "--at", "-4"}, 2, "--at"},
		{"at past the end", []string{"--match", file, "--out", out, "--at", "500"}, 1, "not 500"},
		{"bad palette", []string{"--match", file, "--out", out, "--palette", "neon"}, 2, "palette"},
		{"bad width", []string{"--match", file, "--out", out, "--width", "100"}, 1, "width 100"},
		{"missing file", []string{"--match", file + ".nope", "--out", out}, 1, "no such file"},
		{"zero players", []string{"--match", bad, "--out", out}, 1, "players"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := riskRender(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed render wrote its output file")
	}
}
