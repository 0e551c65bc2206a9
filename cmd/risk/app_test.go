package main

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/command"
)

// commandLines is every command line that names a command: each
// subcommand of risk, and each of risk map's, from the tables run uses, so
// that a new command is tested without a new row.
func commandLines() [][]string {
	var lines [][]string
	for _, n := range slices.Sorted(maps.Keys(subcommands())) {
		lines = append(lines, []string{n})
	}
	for _, n := range slices.Sorted(maps.Keys(mapCommands())) {
		lines = append(lines, []string{"map", n})
	}
	return lines
}

// runWith runs risk with args and no environment; made, if not nil, is
// given each flag set made.
func runWith(args []string, made func(*flagSet)) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runEnv(context.Background(), env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }, flagsMade: made})
	return code, out.String(), errb.String()
}

// Every command answers -h, --help and risk help COMMAND with its usage on
// standard output and exit 0.
func TestHelp(t *testing.T) {
	for _, line := range commandLines() {
		name := strings.Join(line, " ")
		for _, args := range [][]string{
			append(slices.Clone(line), "-h"),
			append(slices.Clone(line), "--help"),
			append([]string{"help"}, line...),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := runWith(args, nil)
				if code != 0 || stderr != "" {
					t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
				}
				if !strings.HasPrefix(stdout, "Usage: risk "+name) {
					t.Errorf("stdout does not start with %q:\n%s", "Usage: risk "+name, stdout)
				}
			})
		}
	}
}

// Every flag set's usage comes from its file in help/, with every
// placeholder filled in, and every file there is a command's.
func TestHelpFiles(t *testing.T) {
	files, err := fs.Glob(helpFiles, "help/*")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, line := range commandLines() {
		runWith(append(slices.Clone(line), "-h"), func(set *flagSet) {
			f := helpFile(set.name)
			used[f] = true
			if !slices.Contains(files, f) {
				t.Errorf("risk %s: no usage file %s", set.name, f)
			}
			if i := strings.IndexAny(set.usage, "{}"); i >= 0 {
				t.Errorf("risk %s: %s has a placeholder left in its usage: %q", set.name, f, set.usage[max(i-20, 0):min(i+20, len(set.usage))])
			}
		})
	}
	for _, f := range files {
		if !used[f] {
			t.Errorf("%s is the usage of no command", f)
		}
	}
}

// flagWord matches a flag as a usage line writes it: -v, --db PATH,
// [--json], (--record | ...).
var flagWord = regexp.MustCompile(`(?:^|[\s\[(|])--?([a-z][a-z0-9-]*)`)

// Every command's usage line names each of its flags, and no other, so
// that -h cannot drift from the flags again; every --palette defaults to
// standard, the name the bot's options use.
func TestUsageListsEveryFlag(t *testing.T) {
	for _, line := range commandLines() {
		t.Run(strings.Join(line, " "), func(t *testing.T) {
			var made []*flagSet
			if code, _, stderr := runWith(append(slices.Clone(line), "-h"), func(fs *flagSet) { made = append(made, fs) }); code != 0 {
				t.Fatalf("-h: exit %d: %s", code, stderr)
			}
			if len(made) == 0 {
				t.Fatal("the command made no flag set")
			}
			for _, fs := range made {
				syn := fs.synopsis()
				named := map[string]bool{}
				for _, m := range flagWord.FindAllStringSubmatch(syn, -1) {
					named[m[1]] = true
				}
				fs.VisitAll(func(f *flag.Flag) {
					if !named[f.Name] {
						t.Errorf("risk %s: the usage line %q leaves out -%s", fs.name, syn, f.Name)
					}
					delete(named, f.Name)
					if f.Name == "palette" && f.DefValue != command.PaletteStandard {
						t.Errorf("risk %s: --palette defaults to %q, want %q", fs.name, f.DefValue, command.PaletteStandard)
					}
				})
				for n := range named {
					t.Errorf("risk %s: the usage line %q names -%s, which is no flag of it", fs.name, syn, n)
				}
			}
		})
	}
}

// A mistake in the flags, or a missing command, is answered on standard
// error with exit 2.
func TestUsageMistakes(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"export", "--bogus"}, []string{"Usage: risk export", "flag provided but not defined: -bogus"}},
		{[]string{"map"}, []string{"want check, show, generate, import, list, rename, remove or export"}},
		{[]string{"map", "draw"}, []string{`unknown map command "draw"`}},
		{[]string{"map", "generate", "--seed"}, []string{"Usage: risk map generate", "flag needs an argument: -seed"}},
		{[]string{"version", "now"}, []string{`unexpected argument "now"`}},
		{[]string{"help", "nope"}, []string{`unknown command "nope"`}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runWith(tt.args, nil)
			if code != 2 || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// risk odds without its flags says what it needs, not what the engine
// refuses.
func TestOddsUsage(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no flags", nil, 2, "risk odds: give --attackers and --defenders, e.g. risk odds --attackers 10 --defenders 6\n"},
		{"no defenders", []string{"--attackers", "3"}, 2, "give --attackers and --defenders"},
		{"zero", []string{"--attackers", "0", "--defenders", "3"}, 2, "risk odds: odds need 1 to 1000 attackers and defenders, not 0 and 3\n"},
		{"too many", []string{"--attackers", "1001", "--defenders", "3"}, 2, "not 1001 and 3"},
		{"odds", []string{"--attackers", "10", "--defenders", "6"}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runWith(append([]string{"odds"}, tt.args...), nil)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
			if tt.code == 0 && !strings.Contains(stdout, "win:") {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}

// parsePalette takes the bot's names, and only those; "default", which
// risk render and risk replay documented long ago, is refused with its new
// name.
func TestParsePalette(t *testing.T) {
	for _, tt := range []struct {
		name, want string
	}{
		{"standard", "standard"},
		{"default", `--palette "default": the default is called standard; want standard or colorblind`},
		{"colorblind", "colorblind"},
		{"sepia", `--palette "sepia": want standard or colorblind`},
	} {
		p, err := parsePalette(tt.name)
		got := p.String()
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "usage: ")
		}
		if got != tt.want {
			t.Errorf("parsePalette(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The table of commands (docs/tools.md, once the README's) names every
// one (it once listed 11 of 15).
func TestToolsListsEveryCommand(t *testing.T) {
	tools, err := os.ReadFile(filepath.Join("..", "..", "docs", "tools.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range slices.Sorted(maps.Keys(subcommands())) {
		if !bytes.Contains(tools, []byte("\n| `"+n+"` | ")) {
			t.Errorf("docs/tools.md has no row for risk %s in its table of commands", n)
		}
	}
}
