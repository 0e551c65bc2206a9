package bot

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/state"
)

var quickstart = flag.Bool("quickstart", false, "rewrite ../examples/quickstart.txt (a whole match that Ann, played by a computer, wins)")

// quickstartSeed is the match seed of the quickstart; the README's command
// passes it to the console.
const quickstartSeed = 5

// TestGenerateQuickstart writes the quickstart transcript when asked to
// with -quickstart: Ann plays against two easy bots, her moves chosen by a
// normal computer player and typed as chat commands. Rerun it when the
// computer players change, check that Ann still wins (bot/console's
// TestQuickstartIsAWholeMatch does), and read the result.
func TestGenerateQuickstart(t *testing.T) {
	if !*quickstart {
		t.Skip("run with -quickstart to rewrite examples/quickstart.txt")
	}
	h := newHarness(t)
	h.seed = quickstartSeed - 1
	const ch = "console:main"
	var lines []string
	say := func(cmd string, opts map[string]string) {
		line := "Ann: /risk " + cmd
		for _, k := range []string{"level", "territory", "from", "to", "dice", "until", "armies", "cards", "discard"} {
			if v, ok := opts[k]; ok {
				if strings.Contains(v, " ") {
					v = `"` + v + `"`
				}
				line += fmt.Sprintf(" %s:%s", k, v)
			}
		}
		if r := h.doOpts(ch, "Ann", cmd, opts); r.refused {
			t.Fatalf("%s: %s", line, r.Text)
		}
		h.bot.Wait()
		lines = append(lines, line)
	}
	say("new", nil)
	say("addbot", map[string]string{"level": "easy"})
	say("addbot", map[string]string{"level": "easy"})
	say("start", nil)
	say("autoplace", nil)
	mind, err := ai.New("normal", ai.Options{Seed: 1, Style: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for range 400 {
		s := h.load(ch).Game.State
		if s.Phase == state.PhaseOver {
			break
		}
		c, err := mind.Act(context.Background(), s.View(s.Current), s.Current)
		if err != nil {
			t.Fatal(err)
		}
		say(chatCommand(s, s.Current, c))
	}
	s := h.load(ch).Game.State
	if s.Phase != state.PhaseOver || s.Seats[s.Winner].Name != "Ann" {
		t.Fatalf("Ann does not win this quickstart (turn %d, %s): try another seed", s.Turn, s.Phase)
	}
	var out strings.Builder
	fmt.Fprintf(&out, `# Quickstart: a whole match against two computer players, in the console.
#
#   go run ./cmd/risk console --seed %d --channel quickstart examples/quickstart.txt
#
# Each line is what Ann types in chat; the bot answers below it. The seed
# fixes the deal and the dice, so the match replays the same every time.
# Maps are saved as PNG files; the console prints their paths.
# (Written by: go test ./bot -run GenerateQuickstart -quickstart)

# Open a match, fill two seats with computer players, start.
%s

# Everyone places their starting armies at once; Ann lets the bot spread hers.
%s

# Turn 1: reinforce, attack until each target falls (until:win), move in, fortify, end.
`, quickstartSeed, strings.Join(lines[:4], "\n"), lines[4])
	first := true
	for _, l := range lines[5:] {
		if strings.HasPrefix(l, "Ann: /risk trade") && first {
			out.WriteString("# Three cards make a set: Ann trades them for armies before placing.\n")
		}
		out.WriteString(l + "\n")
		if l == "Ann: /risk end" && first {
			out.WriteString("\n# The bots play their turns; the bot pings Ann when it is hers again.\n")
			first = false
		}
	}
	out.WriteString("\n# Ann now holds two thirds of the world and wins. /risk new starts another match.\n")
	if err := os.WriteFile("../examples/quickstart.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var capitalsExample = flag.Bool("capitals", false, "rewrite ../examples/capitals.txt (a whole capitals match that Ann, played by a computer, wins)")

// TestGenerateCapitals writes the capitals transcript when asked to with
// -capitals: Ann plays a capitals match on a small map against two easy
// bots, her moves chosen by a normal computer player and typed as chat
// commands. bot/console's TestTranscripts replays it and checks that Ann
// wins.
func TestGenerateCapitals(t *testing.T) {
	if !*capitalsExample {
		t.Skip("run with -capitals to rewrite examples/capitals.txt")
	}
	h := newHarness(t)
	h.seed = quickstartSeed - 1
	const ch = "console:main"
	var lines []string
	say := func(cmd string, opts map[string]string) {
		line := "Ann: /risk " + cmd
		for _, k := range []string{"rules", "map", "level", "territory", "from", "to", "ratio", "hero", "use"} {
			if v, ok := opts[k]; ok {
				if strings.Contains(v, " ") {
					v = `"` + v + `"`
				}
				line += fmt.Sprintf(" %s:%s", k, v)
			}
		}
		if r := h.doOpts(ch, "Ann", cmd, opts); r.refused {
			t.Fatalf("%s: %s", line, r.Text)
		}
		h.bot.Wait()
		lines = append(lines, line)
	}
	say("new", map[string]string{"rules": "capitals", "map": "small"})
	say("addbot", map[string]string{"level": "easy"})
	say("addbot", map[string]string{"level": "easy"})
	say("start", nil)
	mind, err := ai.New("normal", ai.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 600 {
		s := h.load(ch).Game.State
		if s.Phase == state.PhaseOver {
			break
		}
		c, err := mind.Act(context.Background(), s.View(s.Current), s.Current)
		if err != nil {
			t.Fatal(err)
		}
		say(chatCommand(s, s.Current, c))
	}
	s := h.load(ch).Game.State
	if s.Phase != state.PhaseOver || s.Seats[s.Winner].Name != "Ann" {
		t.Fatalf("Ann does not win this capitals match (turn %d, %s): try another seed", s.Turn, s.Phase)
	}
	var out strings.Builder
	fmt.Fprintf(&out, `# Capitals: a whole match of the capitals rules against two computer players.
#
#   go run ./cmd/risk console --seed %d --channel capitals examples/capitals.txt
#
# A small map of islands is generated from the match's seed; everything on
# it starts neutral. In turn, each player picks a capital. Each turn: send
# your reinforcements (3 per territory) to one territory, take one action
# (capture a neutral territory, build a port, or plan attacks and launch
# them), and move troops once. Lose your capital and you are out.
# (Written by: go test ./bot -run GenerateCapitals -capitals)

# Open a capitals match on a small map, add two computer players, start.
%s

# Capitals are chosen in turn order; then the turns begin.
`, quickstartSeed, strings.Join(lines[:4], "\n"))
	for _, l := range lines[4:] {
		out.WriteString(l + "\n")
	}
	out.WriteString("\n# Ann holds the last capital standing and wins. /risk new starts another match.\n")
	if err := os.WriteFile("../examples/capitals.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
