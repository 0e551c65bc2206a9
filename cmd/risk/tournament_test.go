package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func tournamentArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runEnv(context.Background(), env{args: args, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func TestTournamentJSON(t *testing.T) {
	code, out, errs := tournamentArgs("tournament", "--rules", "classic", "--players", "normal,easy,random", "--games", "3", "--seed", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Games    int `json:"games"`
		Draws    *int
		Seed     uint64           `json:"seed"`
		MaxTurns int              `json:"max_turns"`
		Wall     *float64         `json:"wall_seconds"`
		Players  []map[string]any `json:"players"`
		Ratings  []map[string]any `json:"ratings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if res.Games != 3 || res.Draws == nil || len(res.Players) != 3 {
		t.Fatalf("got %s", out)
	}
	if res.Seed != 5 || res.MaxTurns != 600 || res.Wall == nil || *res.Wall <= 0 {
		t.Errorf("seed %d, turn cap %d, wall time %v; want 5, 600, > 0", res.Seed, res.MaxTurns, res.Wall)
	}
	if len(res.Ratings) != 3 { // three kinds of player
		t.Errorf("ratings %v, want 3", res.Ratings)
	}
	for _, k := range []string{"seat", "name", "wins", "win_rate", "ci_low", "ci_high", "mean_decision_ms", "max_decision_ms"} {
		if _, ok := res.Players[0][k]; !ok {
			t.Errorf("player lacks %q: %v", k, res.Players[0])
		}
	}
	if !strings.Contains(errs, "3/3 games") {
		t.Errorf("no progress bar on stderr: %q", errs)
	}
	// The same seed, the same results.
	_, again, _ := tournamentArgs("tournament", "--players", "normal,easy,random", "--games", "3", "--seed", "5", "--json")
	strip := func(s string) string {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "decision_ms") && !strings.Contains(l, "wall_seconds") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	if strip(out) != strip(again) {
		t.Errorf("same seed, different output:\n%s\n%s", out, again)
	}
}

func TestTournamentTable(t *testing.T) {
	code, out, errs := tournamentArgs("tournament", "--players", "easy,random", "--games", "2", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "95% CI") || errs != "" {
		t.Errorf("stdout %q, stderr %q", out, errs)
	}
}

func TestTournamentUsage(t *testing.T) {
	tests := [][]string{
		{"tournament"},
		{"tournament", "--players", "normal,bogus"},
		{"tournament", "--players", "normal,easy", "--rules", "chess"},
		{"tournament", "--players", "normal,easy", "extra"},
		{"tournament", "--players", "normal,easy", "--fortify", "teleport"},
		{"tournament", "--players", "normal,easy", "--rules", "capitals", "--size", "huge"},
		{"tournament", "--players", "normal,easy", "--rounds", "-1"},
		{"tournament", "--players", "normal,easy", "--rounds", "1001"},
	}
	for _, args := range tests {
		if code, _, _ := tournamentArgs(args...); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
}

func TestTournamentCapitals(t *testing.T) {
	for _, size := range []string{"small", "normal", "large"} {
		code, out, errs := tournamentArgs("tournament", "--rules", "capitals", "--size", size, "--players", "normal,easy,random", "--games", "3", "--quiet")
		if code != 0 {
			t.Fatalf("--size %s: exit %d: %s", size, code, errs)
		}
		if !strings.Contains(out, "capitals rules, "+size+" map") {
			t.Errorf("--size %s: %q", size, out)
		}
	}
}

func TestTournamentRoundLimit(t *testing.T) {
	for _, rules := range []string{"classic", "capitals"} {
		code, out, errs := tournamentArgs("tournament", "--rules", rules, "--rounds", "2", "--players", "easy,easy,random,random", "--games", "4", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", rules, code, errs)
		}
		// Four players cannot win in two rounds: every game ends at the limit,
		// with a winner.
		if !strings.Contains(out, "0 capped at the turn cap") || !strings.Contains(out, "4 decided at the round limit (2)") {
			t.Errorf("%s: %q", rules, out)
		}
	}
}

// Issue 44: risk tournament --map FILE plays the computer players on a
// drawn map, a .map with its images or a zip, every game to its end.
func TestTournamentDrawnMap(t *testing.T) {
	for _, path := range []string{"../../examples/maps/fjords/fjords.map", "../../examples/maps/nowhere.map"} {
		code, out, errs := tournamentArgs("tournament", "--players", "normal,easy", "--games", "2", "--map", path, "--json", "--quiet")
		if strings.Contains(path, "nowhere") {
			if code == 0 || !strings.Contains(errs, "no such file") {
				t.Errorf("a missing map: exit %d, stderr %q; want a refusal saying why", code, errs)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var res struct{ Games, Draws int }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if res.Games != 2 || res.Draws != 0 {
			t.Errorf("%d games, %d draws; want 2 games, every one ended", res.Games, res.Draws)
		}
	}
}
