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
	tr := newTranscript(t, "level", "territory", "from", "to", "dice", "until", "armies", "cards", "discard")
	tr.say("new", nil)
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("start", nil)
	tr.say("place", nil)
	s := tr.playOut(ai.Options{Seed: 1, Style: 0.5}, 400)
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
`, quickstartSeed, strings.Join(tr.lines[:4], "\n"), tr.lines[4])
	first := true
	for _, l := range tr.lines[5:] {
		if strings.HasPrefix(l, "Ann: /risk trade") && first {
			out.WriteString("# Three cards make a set: Ann trades them for armies before placing.\n")
		}
		out.WriteString(l + "\n")
		if l == "Ann: /risk end" && first {
			out.WriteString("\n# The bots play their turns; the bot pings Ann when it is hers again.\n")
			first = false
		}
	}
	out.WriteString("\n# Ann now holds two thirds of the world and wins. The victory post's Rematch button (or /risk new) starts another.\n")
	if err := os.WriteFile("../examples/quickstart.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// transcript is Ann's side of an example match in the console: the
// commands she types in its channel, kept as the chat lines of a
// transcript.
type transcript struct {
	t     *testing.T
	h     *harness
	keys  []string // the options a line shows, in this order
	lines []string
}

// transcriptChannel is the channel of the example matches.
const transcriptChannel = "console:main"

// newTranscript starts a transcript on a new harness seeded as the
// console is with --seed quickstartSeed, so that the written example
// replays the same.
func newTranscript(t *testing.T, keys ...string) *transcript {
	h := newHarness(t)
	h.seed = quickstartSeed - 1
	return &transcript{t: t, h: h, keys: keys}
}

// say has Ann type cmd with opts, waits for the bots to answer, and keeps
// the line.
func (tr *transcript) say(cmd string, opts map[string]string) {
	line := "Ann: /risk " + cmd
	for _, k := range tr.keys {
		if v, ok := opts[k]; ok {
			if strings.Contains(v, " ") {
				v = `"` + v + `"`
			}
			line += fmt.Sprintf(" %s:%s", k, v)
		}
	}
	// Ann means what she types: when the bot asks first (a move that
	// empties her capital), she clicks the button that does it anyway.
	r, clicked := tr.h.meaning(transcriptChannel, "Ann", tr.h.doOpts(transcriptChannel, "Ann", cmd, opts))
	if r.Refused {
		tr.t.Fatalf("%s: %s", line, r.Text)
	}
	tr.h.bot.Wait()
	tr.lines = append(tr.lines, line)
	if clicked != "" {
		tr.lines = append(tr.lines, "Ann: /click "+clicked)
	}
}

// playOut has a normal computer player made with opts choose Ann's
// commands, at most most of them, until the match is over, and returns
// the state it is left in.
func (tr *transcript) playOut(opts ai.Options, most int) *state.State {
	mind, err := ai.New("normal", opts)
	if err != nil {
		tr.t.Fatal(err)
	}
	for range most {
		s := tr.h.load(transcriptChannel).Game.State
		if s.Phase == state.PhaseOver {
			break
		}
		seat := s.Current
		if s.Phase == state.PhaseOrders {
			seat = s.SeatByID(user("Ann").ID) // everyone orders; the bots order by themselves
		}
		c, err := mind.Act(context.Background(), s.View(seat), seat)
		if err != nil {
			tr.t.Fatal(err)
		}
		tr.say(chatCommand(s, seat, c))
	}
	return tr.h.load(transcriptChannel).Game.State
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
	tr := newTranscript(t, "rules", "map", "level", "territory", "from", "to", "ratio", "hero", "use")
	tr.say("new", map[string]string{"rules": "capitals", "map": "small"})
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("start", nil)
	s := tr.playOut(ai.Options{Seed: 3}, 600)
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
`, quickstartSeed, strings.Join(tr.lines[:4], "\n"))
	asked := false
	for _, l := range tr.lines[4:] {
		if strings.HasPrefix(l, "Ann: /click Move anyway") && !asked {
			out.WriteString("# A move that leaves her capital with no troops is refused with a warning; the button does it anyway.\n")
			asked = true
		}
		out.WriteString(l + "\n")
	}
	out.WriteString("\n# Ann holds the last capital standing and wins. The victory post's Rematch button (or /risk new) starts another.\n")
	if err := os.WriteFile("../examples/capitals.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var simultaneousExample = flag.Bool("simultaneous", false, "rewrite ../examples/simultaneous.txt (a whole match of simultaneous rounds that Ann, played by a computer, wins)")

// TestGenerateSimultaneous writes the simultaneous transcript when asked
// to with -simultaneous: Ann plays a match of simultaneous rounds against
// two easy bots, her orders chosen by a normal computer player and typed
// as chat commands. bot/console's TestTranscripts replays it and checks
// that Ann wins.
func TestGenerateSimultaneous(t *testing.T) {
	if !*simultaneousExample {
		t.Skip("run with -simultaneous to rewrite examples/simultaneous.txt")
	}
	tr := newTranscript(t, "turns", "level", "territory", "from", "to", "armies", "cards")
	tr.say("new", map[string]string{"turns": "simultaneous"})
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("host addbot", map[string]string{"level": "easy"})
	tr.say("start", nil)
	tr.say("place", nil)
	s := tr.playOut(ai.Options{Seed: 2}, 600)
	if s.Phase != state.PhaseOver || s.Seats[s.Winner].Name != "Ann" {
		t.Fatalf("Ann does not win this match (round %d, %s): try another seed", s.Turn, s.Phase)
	}
	var out strings.Builder
	fmt.Fprintf(&out, `# Simultaneous turns: a whole match in rounds against two computer players.
#
#   go run ./cmd/risk console --seed %d --channel simultaneous examples/simultaneous.txt
#
# Everyone plays each round at once: place your reinforcements, order
# attacks (from, to, how many armies) and moves to a neighbour, then say you
# are ready with /risk end. Only you see your orders. When everyone is
# ready the round resolves in the channel: every placement first, then one
# order of each player at a time, in an order drawn for the round.
# (Written by: go test ./bot -run GenerateSimultaneous -simultaneous)

# Open a match of simultaneous rounds, add two computer players, start.
%s

# Everyone places their starting armies at once; Ann lets the bot spread hers.
%s

# Round 1: Ann places, orders her attacks and moves, and is ready.
`, quickstartSeed, strings.Join(tr.lines[:4], "\n"), tr.lines[4])
	first := true
	for _, l := range tr.lines[5:] {
		out.WriteString(l + "\n")
		if l == "Ann: /risk end" && first {
			out.WriteString("\n# The round resolves when the bots are ready too; the next begins.\n")
			first = false
		}
	}
	out.WriteString("\n# Ann now holds two thirds of the world and wins. The victory post's Rematch button (or /risk new) starts another.\n")
	if err := os.WriteFile("../examples/simultaneous.txt", []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
