package console

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage/sqlite"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// start is the fixed clock of transcript tests.
var start = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// play runs a transcript through a console on a fresh database, with a
// fixed clock and seed, and returns what the console printed (the image
// folder shown as IMAGES/).
func play(t *testing.T, transcript []byte) string {
	t.Helper()
	return playIn(t, t.TempDir(), transcript)
}

// playIn is play on the database in dir, which may hold matches already.
func playIn(t *testing.T, dir string, transcript []byte) string {
	t.Helper()
	return playDir(t, dir, "", transcript)
}

// playLang is play in a console whose language is language ("fr"), as
// risk console --lang.
func playLang(t *testing.T, language string, transcript []byte) string {
	t.Helper()
	return playDir(t, t.TempDir(), language, transcript)
}

// playDir plays a transcript on the database in dir, typed in language.
func playDir(t *testing.T, dir, language string, transcript []byte) string {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(dir, "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out bytes.Buffer
	images := filepath.Join(dir, "maps")
	con := New(&out, "console:main", images)
	con.Now = func() time.Time { return start }
	con.Lang = language
	seed := uint64(5)
	b, err := bot.New(bot.Standard(bot.Config{
		Store:  db,
		Poster: con,
		Now:    func() time.Time { return start },
		Seed:   func() uint64 { seed++; return seed - 1 },
		Scope:  "console:main",
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	con.SetBot(b)
	if err := con.Run(context.Background(), bytes.NewReader(transcript), false); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), images+string(filepath.Separator), "IMAGES/")
}

// TestTranscripts replays every testdata/*.txt and compares the output with
// its .golden file; -update rewrites them (read the diff before committing).
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	files = append(files, "../../examples/quickstart.txt", "../../examples/capitals.txt", "../../examples/simultaneous.txt")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := play(t, in)
			if name == "quickstart" || name == "capitals" || name == "simultaneous" {
				checkQuickstart(t, got)
			}
			checkGolden(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

// checkGolden compares a transcript with its golden file (-update
// rewrites it), saying where they first differ.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(run with -update to accept)", golden, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d", golden, len(gl), len(wl))
	}
}

// checkQuickstart: the quickstart is a whole match; every command of it
// is accepted and Ann wins.
func checkQuickstart(t *testing.T, out string) {
	t.Helper()
	for _, refusal := range []string{"First move", "not your", "You have only", "did you mean", "Something went wrong", " ! "} {
		if strings.Contains(out, refusal) {
			t.Errorf("the quickstart has a refused line (%q)", refusal)
		}
	}
	if !strings.Contains(out, "🏆 🟥 Ann wins") {
		t.Errorf("Ann does not win the quickstart:\n%s", out[max(0, len(out)-2000):])
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line string
		want Line
		err  string
	}{
		{"", Line{Kind: Blank}, ""},
		{"   # a comment", Line{Kind: Comment}, ""},
		{"Ann: /risk new", Line{Kind: Command, User: "Ann", Command: "new", Options: map[string]string{}}, ""},
		{"/risk help", Line{Kind: Command, User: "You", Command: "help", Options: map[string]string{}}, ""},
		{`Ann: /risk attack from:Alaska to:"East Africa" until:win`, Line{Kind: Command, User: "Ann", Command: "attack",
			Options: map[string]string{"from": "Alaska", "to": "East Africa", "until": "win"}}, ""},
		{`Ann: /risk place territory:East Africa armies:3`, Line{Kind: Command, User: "Ann", Command: "place",
			Options: map[string]string{"territory": "East Africa", "armies": "3"}}, ""},
		{"Bob: /click Move all", Line{Kind: Click, User: "Bob", Button: "Move all"}, ""},
		{"Dan: /risk admin defaults turn-hours:12", Line{Kind: Command, User: "Dan", Command: "admin defaults", Options: map[string]string{"turn-hours": "12"}}, ""},
		{"Dan: /risk admin show", Line{Kind: Command, User: "Dan", Command: "admin show", Options: map[string]string{}}, ""},
		{"/as Cat", Line{Kind: Name, User: "Cat"}, ""},
		{"Ann: hello", Line{}, "commands start with /risk (like: Ann: /risk help)"},
		{"new teams:2", Line{}, `did you mean "/risk new teams:2"?`},
		{"host addbot level:easy", Line{}, `did you mean "/risk host addbot level:easy"?`},
		{"Ann: place", Line{}, `did you mean "Ann: /risk place"?`},
		{"place territory:Alaska", Line{}, `did you mean "/risk place territory:Alaska"?`},
		{"hello: there", Line{}, "(like: hello: /risk help)"},
		{"Ann: /risk", Line{}, "say which command"},
		{`Ann: /risk place territory:"Alaska`, Line{}, "no closing quote"},
		{"Ann: /risk place armies:1 armies:2", Line{}, "given twice"},
		{"Ann: /risk place =1", Line{}, "name:value"},
		{"A<>: /risk new", Line{}, "a player name"},
		{"Ann: /click", Line{}, "say which button"},
		{"Ann: /risk " + strings.Repeat("x", 5000), Line{}, "too long"},
		{"Ann: /risk new \xff", Line{}, "not valid text"},
	}
	for _, tt := range tests {
		t.Run(tt.line[:min(len(tt.line), 40)], func(t *testing.T) {
			got, err := ParseLine(tt.line, "You")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tt.want.Kind || got.User != tt.want.User || got.Command != tt.want.Command || got.Button != tt.want.Button || len(got.Options) != len(tt.want.Options) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for k, v := range tt.want.Options {
				if got.Options[k] != v {
					t.Errorf("option %s = %q, want %q", k, got.Options[k], v)
				}
			}
		})
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"Ann: /risk new", `Ann: /risk attack from:Alaska to:"East Africa" until:win`, "/click End turn", "# x", "/as Bob", "Ann: /risk place territory:East Africa armies:3", ":", "::/risk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, err := ParseLine(line, "You")
		if err != nil {
			return
		}
		if l.Kind == Command {
			if l.Command == "" || l.User == "" {
				t.Fatalf("command line %q parsed without command or user: %+v", line, l)
			}
			for k := range l.Options {
				if !isWord(k) {
					t.Fatalf("option name %q from %q", k, line)
				}
			}
		}
	})
}

// Issue 12, fault 4: a line over the scanner's 1 MiB ended the transcript
// silently (and risk console exited 0). Any line too long to be a command
// is skipped, saying so, and the transcript goes on.
func TestLongLineIsSkippedAndTheTranscriptGoesOn(t *testing.T) {
	for _, size := range []int{maxLine + 1, 64*1024 + 7, 2 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			in := "Ann: /risk new\nBob: /risk join " + strings.Repeat("x", size-len("Bob: /risk join ")) + "\r\nBob: /risk join\n# the end, without a newline"
			out := play(t, []byte(in))
			want := fmt.Sprintf("  ! line 2 is too long (%d bytes; a command has at most %d): skipped\n", size, maxLine)
			if !strings.Contains(out, want) {
				t.Errorf("no word of the long line; want %q in:\n%.2000s", want, out)
			}
			if !strings.Contains(out, "Bob joined (2/6 seats)") {
				t.Errorf("the transcript stopped at the long line:\n%.2000s", out)
			}
			if len(out) > 10000 {
				t.Errorf("the long line was echoed (%d bytes of output)", len(out))
			}
		})
	}
}

func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("a\r\n\nbb\n"+strings.Repeat("y", 40)+"\nlast"), 16)
	type got struct {
		line string
		size int
		eof  bool
	}
	want := []got{{"a", 1, false}, {"", 0, false}, {"bb", 2, false}, {strings.Repeat("y", 11), 40, false}, {"last", 4, true}}
	for i, w := range want {
		line, size, err := readLine(r, 10)
		if g := (got{line, size, errors.Is(err, io.EOF)}); g != w || (err != nil && !errors.Is(err, io.EOF)) {
			t.Errorf("line %d: %+v, %v; want %+v", i+1, g, err, w)
		}
	}
}

// Issue 12, fault 8: every console process numbered its maps from 001 in
// one folder shared by all channels, overwriting the maps of earlier runs
// and of other channels, and never deleted any. Each channel has its own
// folder, numbering goes on from the files there, and only the last
// KeepMaps are kept.
func TestMapsOfConsolesDoNotOverwriteEachOther(t *testing.T) {
	images := t.TempDir()
	ctx := context.Background()
	post := func(channel string, keep int, turn int) string {
		t.Helper()
		var out bytes.Buffer
		con := New(&out, channel, images)
		con.KeepMaps = keep
		png := []byte(fmt.Sprintf("%s turn %d", channel, turn))
		img := chat.NewImage(fmt.Sprintf("risk-turn-%d.png", turn), func(context.Context) ([]byte, error) { return png, nil })
		if _, err := con.Post(ctx, channel, chat.Message{Text: "Turn", Image: img}); err != nil {
			t.Fatal(err)
		}
		_, path, ok := strings.Cut(out.String(), "map: ")
		if !ok {
			t.Fatalf("no map saved: %q", out.String())
		}
		path = strings.TrimSpace(path)
		got, err := os.ReadFile(path)
		if err != nil || string(got) != string(png) {
			t.Fatalf("%s holds %q, %v", path, got, err)
		}
		return path
	}
	// Each post is a console process of its own, as when a console is
	// started again.
	var paths []string
	for turn := range 3 {
		paths = append(paths, post("console:main", 0, turn))
	}
	other := post("console:../other game", 0, 0)
	for i, p := range paths {
		want := filepath.Join(images, "main", fmt.Sprintf("%06d-risk-turn-%d.png", i+1, i))
		if p != want {
			t.Errorf("map %d saved as %s, want %s", i+1, p, want)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != fmt.Sprintf("console:main turn %d", i) {
			t.Errorf("%s was overwritten: %q, %v", p, got, err)
		}
	}
	if want := filepath.Join(images, "___other_game", "000001-risk-turn-0.png"); other != want {
		t.Errorf("another channel's map saved as %s, want %s", other, want)
	}
	// Keep the last two: the oldest go.
	last := post("console:main", 2, 3)
	left, err := filepath.Glob(filepath.Join(images, "main", "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{paths[2], last}; !slices.Equal(left, want) {
		t.Errorf("maps left %v, want %v", left, want)
	}
}

// stuckPlayer is a computer player that never decides: its turn is not
// saved until the bot is closed, as if the process had been killed.
type stuckPlayer struct{}

func (stuckPlayer) Act(ctx context.Context, _ *state.State, _ int) (engine.Command, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// Issue 12, fault 1: a console killed while the computer players had to
// play left the match waiting for them forever ("It is Napoleon's turn,
// not yours"): the console never ran the timers nor resumed them. It
// does both when it starts.
func TestConsoleResumesComputerPlayersAtStart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(5)
	killed, err := bot.New(bot.Standard(bot.Config{
		Store:     db,
		Poster:    New(io.Discard, "console:main", ""),
		Now:       func() time.Time { return start },
		Seed:      func() uint64 { seed++; return seed - 1 },
		NewPlayer: func(string, uint64) (clock.Player, error) { return stuckPlayer{}, nil },
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"new", "addbot", "start", "autoplace"} {
		req := chat.Request{Channel: "console:main", User: chat.User{ID: "console:ann", Name: "Ann"}, Command: line}
		if err := killed.Handle(ctx, req, chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })); err != nil {
			t.Fatal(err)
		}
	}
	killed.Close() // the computer's placement is never saved
	db.Close()

	out := playIn(t, dir, []byte("Ann: /risk status\n"))
	before, after, _ := strings.Cut(out, "Ann: /risk status")
	if !strings.Contains(before, "Initial placement done") {
		t.Errorf("the computer did not place its armies when the console started:\n%s", out)
	}
	if strings.Contains(after, "waiting for") {
		t.Errorf("the match still waits for the computer:\n%s", out)
	}
}

// Issue 12, fault 6, in the console: when it starts, it says what the
// last command applied in the channel was and, if the console was killed
// before showing its answer, what it did, so that nobody types it again.
func TestConsoleSaysTheLastCommandAppliedAtStart(t *testing.T) {
	dir := t.TempDir()
	first := playIn(t, dir, []byte("Ann: /risk new\nAnn: /risk addbot level:easy\n"))
	if strings.Contains(first, "The last command applied here") {
		t.Errorf("a new database has a last command:\n%s", first)
	}
	again := playIn(t, dir, []byte("Ann: /risk status\n"))
	if want := "  bot: The last command applied here: Ann: /risk host addbot level:easy (now (Nov 25 12:00 UTC)).\n"; !strings.HasPrefix(again, want) {
		t.Errorf("the console starts with\n%.300s\nwant\n%s", again, want)
	}

	// Killed between saving a command and showing its answer.
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(bot.Standard(bot.Config{Store: db, Now: func() time.Time { return start }}))
	if err != nil {
		t.Fatal(err)
	}
	req := chat.Request{Channel: "console:main", User: chat.User{ID: "console:ann", Name: "Ann"}, Command: "start", Key: "console:main/killed/1"}
	killed := errors.New("killed")
	if err := b.Handle(ctx, req, chat.ReplierFunc(func(context.Context, chat.Message) error { return killed })); !errors.Is(err, killed) {
		t.Fatalf("start: %v", err)
	}
	b.Close()
	db.Close()
	out := playIn(t, dir, []byte("# back\n"))
	for _, want := range []string{"The last command applied here: Ann: /risk start", "Its answer was never shown (the bot was interrupted):", "The match has started!"} {
		if !strings.Contains(out, want) {
			t.Errorf("the console does not say %q:\n%s", want, out)
		}
	}
	// Said once: it was shown.
	if out := playIn(t, dir, []byte("# back again\n")); strings.Contains(out, "never shown") {
		t.Errorf("the lost answer is told again:\n%s", out)
	}
}

// TestConsoleNamesPlayersAfterARestart: a console started on a match
// under way pings its players by the names they gave, before they type
// anything.
func TestConsoleNamesPlayersAfterARestart(t *testing.T) {
	dir := t.TempDir()
	playIn(t, dir, []byte("Ann: /risk new\nBob: /risk join\nAnn: /risk start\nAnn: /risk place\nBob: /risk place\n"))
	// Bob plays first (the seed's order): the ping is for Ann, who has
	// typed nothing in this console.
	out := playIn(t, dir, []byte("Bob: /risk place\nBob: /risk end\n"))
	if !strings.Contains(out, "it is your turn") {
		t.Fatalf("no turn passed:\n%s", out)
	}
	for _, low := range []string{"@ann", "@bob"} {
		if strings.Contains(out, low) {
			t.Errorf("a ping by the end of an ID (%s):\n%s", low, out)
		}
	}
}

// TestFrenchTranscripts plays a classic and a capitals match as French
// players (risk console --lang fr): every answer and post in French, kept
// as golden transcripts for a French speaker to read.
func TestFrenchTranscripts(t *testing.T) {
	for _, name := range []string{"quickstart", "capitals"} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			got := playLang(t, "fr", in)
			checkGolden(t, filepath.Join("testdata", name+".fr.golden"), got)
		})
	}
}
