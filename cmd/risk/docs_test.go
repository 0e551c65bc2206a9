package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
)

// The README and the guides are kept true here (issue 43): their links
// lead somewhere, and the commands and samples they show are the
// program's.

// repoRoot is the repository's folder, from cmd/risk.
const repoRoot = "../.."

// checkedDocs are the documents whose commands TestDocs runs or parses,
// and whose samples it compares with the real output: the README and
// the guides that took over its samples.
var checkedDocs = []string{"README.md", "docs/playing.md", "docs/tools.md", "docs/development.md"}

// TestDocs: every relative link of the README and of docs/ resolves,
// headings included; every command in a sh or console block of
// checkedDocs runs (or, where it cannot run here, parses); and the
// output a console block shows is what the command prints.
func TestDocs(t *testing.T) {
	docs, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("links", func(t *testing.T) {
		for _, d := range docs {
			for _, bad := range brokenLinks(t, d) {
				t.Errorf("%s", bad)
			}
		}
	})
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range checkedDocs {
		t.Run(name, func(t *testing.T) {
			blocks, err := codeBlocks(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			sh := newShell(t, root)
			for _, b := range blocks {
				if err := b.checkKind(); err != nil {
					t.Errorf("%s:%d: %v", name, b.line-1, err)
					continue
				}
				for _, c := range b.commands() {
					sh.check(fmt.Sprintf("%s:%d", name, c.line), c)
				}
			}
		})
	}
}

// markdownFiles lists README.md and every .md file under docs/, as
// paths relative to the repository.
func markdownFiles() ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(repoRoot, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	return files, err
}

// linkRE matches a Markdown link or image's target, and an HTML src or
// href.
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)|(?:src|href)="([^"]+)"`)

// brokenLinks returns a line for each relative link of the document (a
// path from the repository) that leads to no file, or to no heading of
// the Markdown file it names.
func brokenLinks(t *testing.T, doc string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, doc))
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for i, line := range proseLines(string(data)) {
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			target := m[1] + m[2]
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := filepath.Join(repoRoot, filepath.Dir(doc), file)
			if file == "" {
				path = filepath.Join(repoRoot, doc)
			}
			st, err := os.Stat(path)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s:%d: %s: no such file", doc, i+1, target))
				continue
			}
			if anchor == "" {
				continue
			}
			if st.IsDir() || !strings.HasSuffix(path, ".md") {
				bad = append(bad, fmt.Sprintf("%s:%d: %s: an anchor in a file that has no headings", doc, i+1, target))
				continue
			}
			if !slices.Contains(headingIDs(t, path), anchor) {
				bad = append(bad, fmt.Sprintf("%s:%d: %s: %s has no heading %q", doc, i+1, target, file, anchor))
			}
		}
	}
	return bad
}

// proseLines is the document's lines with those of code blocks and
// inline code blanked, so that what they show is not taken for links.
func proseLines(doc string) []string {
	lines := strings.Split(doc, "\n")
	in := false
	code := regexp.MustCompile("`[^`]*`")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
			continue
		}
		lines[i] = code.ReplaceAllString(l, "``")
	}
	return lines
}

// headingIDs returns the anchors GitHub gives the headings of a Markdown
// file: lower case, punctuation dropped, spaces as hyphens, a repeated one
// numbered (-1, -2, ...).
func headingIDs(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	seen := map[string]int{}
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
		}
		if in || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		id := slug(text)
		if n := seen[id]; n > 0 {
			ids = append(ids, fmt.Sprintf("%s-%d", id, n))
		} else {
			ids = append(ids, id)
		}
		seen[id]++
	}
	return ids
}

// slug is GitHub's anchor of a heading's text.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Simultaneous turns (`turns:simultaneous`)", "simultaneous-turns-turnssimultaneous"},
		{"1. Build and install", "1-build-and-install"},
		{"Teams (`teams:2`, `teams:3`)", "teams-teams2-teams3"},
		{"Replays: the whole match as a GIF or as small multiples", "replays-the-whole-match-as-a-gif-or-as-small-multiples"},
		{"The `risk` command", "the-risk-command"},
	} {
		if got := slug(tt.heading); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

// block is a fenced code block of a document: its info string ("sh",
// "console", ...), its lines, and the line it starts on.
type block struct {
	info  string
	lines []string
	line  int
}

// codeBlocks returns the fenced code blocks of a Markdown file.
func codeBlocks(path string) ([]block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []block
	var cur *block
	for i, l := range strings.Split(string(data), "\n") {
		fence, ok := strings.CutPrefix(strings.TrimSpace(l), "```")
		switch {
		case ok && cur == nil:
			cur = &block{info: strings.TrimSpace(fence), line: i + 2}
		case ok:
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s: a code block from line %d is never closed", path, cur.line-1)
	}
	return out, nil
}

// outputRE matches a line of a command or of its output: a shell prompt,
// a line typed in the console (Ann: /risk new, Ann> /risk new), the bot's
// answer.
var outputRE = regexp.MustCompile(`^\$ |^[\p{L}\p{N}_.-]+(:|>) /(risk|click)|^\s+bot( \(.*\))?: `)

// checkKind refuses a block that could hide an untrue sample from the
// test: one that says not what it is, a sample of output or commands
// that is not a console block, and a console block that shows no command
// first.
func (b block) checkKind() error {
	switch b.info {
	case "":
		return fmt.Errorf("a code block that says not what it holds: sh for commands, console for a command ($ ...) and its output, text (or ini, json, ...) for the rest")
	case "sh":
		return nil
	case "console":
		if len(b.lines) == 0 || !strings.HasPrefix(b.lines[0], "$ ") {
			return fmt.Errorf("a console block starts with the command that prints it: $ COMMAND")
		}
		// A line typed at the prompt shows the first line of its answer:
		// the console echoes what is typed whether the bot takes it or
		// refuses it, so a list of typed lines alone proves nothing.
		for i, l := range b.lines {
			if _, typed, ok := promptLine(l); ok {
				if i+1 == len(b.lines) || strings.TrimSpace(b.lines[i+1]) == "..." || strings.HasPrefix(b.lines[i+1], "$ ") {
					return fmt.Errorf("%q shows no answer: show at least its first line, so that a refusal cannot pass for it", typed)
				}
				if _, _, next := promptLine(b.lines[i+1]); next {
					return fmt.Errorf("%q shows no answer: show at least its first line, so that a refusal cannot pass for it", typed)
				}
			}
		}
		return nil
	}
	for _, l := range b.lines {
		if outputRE.MatchString(l) {
			return fmt.Errorf("a %s block shows a command or the bot's output (%q): make it a console block, $ COMMAND then what it prints, so that the test compares it", b.info, l)
		}
	}
	return nil
}

// shellCommand is one command a document shows: what is typed, and for
// a console block the output shown after it (nil: none shown).
type shellCommand struct {
	text string
	line int
	want []string
}

// commands are the commands of a sh block (each line, continuations
// joined, comments dropped) or of a console block (each "$ " line, with
// the lines after it as its output). Other blocks show no commands.
func (b block) commands() []shellCommand {
	var out []shellCommand
	switch b.info {
	case "sh":
		text, start := "", 0
		for i, l := range b.lines {
			if text == "" {
				start = b.line + i
			}
			if more, ok := strings.CutSuffix(l, `\`); ok {
				text += more + " "
				continue
			}
			text += l
			if c := strings.TrimSpace(dropComment(text)); c != "" {
				out = append(out, shellCommand{text: c, line: start})
			}
			text = ""
		}
	case "console":
		for i, l := range b.lines {
			if c, ok := strings.CutPrefix(l, "$ "); ok {
				out = append(out, shellCommand{text: c, line: b.line + i, want: []string{}})
				continue
			}
			if len(out) == 0 {
				continue
			}
			out[len(out)-1].want = append(out[len(out)-1].want, l)
		}
	}
	return out
}

// dropComment cuts a shell comment (" # ...", outside quotes) off a line.
func dropComment(s string) string {
	quote := rune(0)
	for i, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote = r
		case quote == 0 && r == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i]
		}
	}
	return s
}

// splitWords splits a command line as the shell does for the commands the
// documents show: words, with single and double quotes, and $(...) kept
// whole.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	quote, has, depth := rune(0), false, 0
	for i, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, has = r, true
		case r == '(' && i > 0 && s[i-1] == '$':
			depth++
			cur.WriteRune(r)
		case r == ')' && depth > 0:
			depth--
			cur.WriteRune(r)
		case (r == ' ' || r == '\t') && depth == 0:
			if cur.Len() > 0 || has {
				words = append(words, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("no closing %c", quote)
	}
	if cur.Len() > 0 || has {
		words = append(words, cur.String())
	}
	return words, nil
}

// shell runs a document's commands in order, in a scratch folder that
// sees the repository's examples, assets and sources, with a data
// directory of its own: a command may use what an earlier one made.
type shell struct {
	t    *testing.T
	root string // the repository
	dir  string // the scratch folder, the commands' working folder
	data string // XDG_DATA_HOME
}

func newShell(t *testing.T, root string) *shell {
	dir := t.TempDir()
	for _, d := range []string{"examples", "assets", "bot", "cmd", ".ci"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	t.Chdir(dir)
	return &shell{t: t, root: root, dir: dir, data: data}
}

// check runs or parses a command, and compares its output with the one
// shown.
func (sh *shell) check(where string, c shellCommand) {
	t := sh.t
	words, err := splitWords(c.text)
	if err != nil {
		t.Errorf("%s: %q: %v", where, c.text, err)
		return
	}
	// Leading VAR=value assignments, and nice, change nothing here.
	for len(words) > 0 && (regexp.MustCompile(`^[A-Z_]+=`).MatchString(words[0]) || words[0] == "nice") {
		words = words[1:]
	}
	if len(words) == 0 {
		t.Errorf("%s: %q: no command", where, c.text)
		return
	}
	switch {
	case words[0] == "risk" || words[0] == "./risk":
		sh.risk(where, words[1:], c)
	case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/risk":
		sh.risk(where, words[3:], c)
	case words[0] == "go" && len(words) > 1 && (words[1] == "test" || words[1] == "build" || words[1] == "vet"):
		sh.goCommand(where, words, c)
	case words[0] == "bash" || words[0] == "eval":
		// bash FILE ..., eval "$(bash FILE ...)": the script exists.
		script := words[len(words)-1]
		if words[0] == "eval" {
			inner, err := splitWords(strings.TrimSuffix(strings.TrimPrefix(words[1], "$("), ")"))
			if err != nil || len(inner) < 2 || inner[0] != "bash" {
				t.Errorf("%s: %q: want eval \"$(bash FILE ...)\"", where, c.text)
				return
			}
			script = inner[1]
		} else if len(words) > 1 {
			script = words[1]
		}
		if _, err := os.Stat(filepath.Join(sh.root, script)); err != nil {
			t.Errorf("%s: %q: %v", where, c.text, err)
		}
	case words[0] == "export":
		// Environment for the commands after it: those the test runs
		// take theirs from the test.
	default:
		t.Errorf("%s: %q: a command TestDocs can neither run nor parse: show risk, go run ./cmd/risk, go test, go build, or a script of the repository", where, c.text)
	}
}

// goCommand checks go test, go build and go vet: the packages they name
// exist. The README's go test is the one CI runs.
func (sh *shell) goCommand(where string, words []string, c shellCommand) {
	t := sh.t
	var pkgs []string
	for i := 2; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-o" || w == "-run" || w == "-bench" || w == "-count" || w == "-timeout":
			i++
		case strings.HasPrefix(w, "./"):
			pkgs = append(pkgs, w)
		}
	}
	if len(pkgs) == 0 {
		t.Errorf("%s: %q: names no package", where, c.text)
	}
	for _, p := range pkgs {
		dir := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if st, err := os.Stat(filepath.Join(sh.root, dir)); err != nil || !st.IsDir() {
			t.Errorf("%s: %q: no package %s", where, c.text, p)
		}
	}
	if words[1] == "test" && strings.HasPrefix(where, "README.md:") {
		ci, err := os.ReadFile(filepath.Join(sh.root, ".ci/run"))
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		for _, l := range strings.Split(string(ci), "\n") {
			f := strings.Fields(l)
			ran = ran || (len(f) > 2 && f[0] == "go" && f[1] == "test" && slices.Equal(f[len(f)-len(pkgs):], pkgs) && !slices.Contains(f, "-run"))
		}
		if !ran {
			t.Errorf("%s: %q: .ci/run runs no go test of %s: the README's test command must be CI's", where, c.text, strings.Join(pkgs, " "))
		}
	}
}

// parseOnly are the risk commands the test parses but does not run: they
// serve until stopped, or play for minutes.
var parseOnly = map[string]bool{"discord": true, "tournament": true}

// risk runs risk with args in the scratch folder, or parses them where it
// cannot run the command, and compares what it prints with c.want.
func (sh *shell) risk(where string, args []string, c shellCommand) {
	t := sh.t
	var redirect string
	if n := len(args); n >= 2 && args[n-2] == ">" {
		redirect, args = args[n-1], args[:n-2]
	}
	if len(args) == 0 {
		t.Errorf("%s: %q: no risk command", where, c.text)
		return
	}
	postgres := slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "postgres://") })
	if parseOnly[args[0]] || postgres {
		if err := parseRisk(args); err != nil {
			t.Errorf("%s: %q: %v", where, c.text, err)
		}
		if c.want != nil {
			t.Errorf("%s: %q: output shown for a command the test cannot run", where, c.text)
		}
		return
	}
	stdin := ""
	for _, l := range c.want {
		if _, typed, ok := promptLine(l); ok {
			stdin += typed + "\n"
		}
	}
	var out bytes.Buffer
	code := sh.run(args, stdin, &out)
	if code != 0 && !strings.Contains(strings.Join(c.want, "\n"), "risk "+args[0]+":") {
		// A command whose output shows no error must succeed.
		t.Errorf("%s: %q: exit %d:\n%s", where, c.text, code, tail(out.String(), 20))
		return
	}
	if redirect != "" && redirect != "/dev/null" {
		if err := os.WriteFile(redirect, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if c.want != nil {
		if err := sampleOf(sh.normalize(out.String()), sh.normalizeWant(c.want)); err != nil {
			t.Errorf("%s: %q: the output shown is not what it prints: %v", where, c.text, err)
		}
	}
}

// run runs risk with args, standard output and error both to out, in the
// scratch folder's environment. risk web is stopped once it says where to
// go, and answers on a port of its own.
func (sh *shell) run(args []string, stdin string, out *bytes.Buffer) int {
	getenv := func(k string) string {
		if k == "XDG_DATA_HOME" {
			return sh.data
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := &lockedWriter{w: out}
	if args[0] == "web" {
		if !slices.Contains(args, "--addr") {
			args = append(slices.Clone(args), "--addr", "127.0.0.1:0")
		}
		w.stop, w.when = cancel, "Ctrl-C stops.\n"
	}
	code := runEnv(ctx, env{args: args, stdin: strings.NewReader(stdin), stdout: w, stderr: w, getenv: getenv})
	if args[0] == "web" && ctx.Err() == context.Canceled {
		return 0
	}
	return code
}

// lockedWriter is an output shared by a command's goroutines; it calls
// stop once what is written contains when.
type lockedWriter struct {
	mu   sync.Mutex
	w    *bytes.Buffer
	stop func()
	when string
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if l.stop != nil && strings.Contains(l.w.String(), l.when) {
		l.stop()
	}
	return n, err
}

// parseRisk parses a risk command's flags as the command would, without
// running it: the flags exist and their values parse.
func parseRisk(args []string) error {
	var made []*flagSet
	words := 1
	if args[0] == "map" && len(args) > 1 {
		words = 2
	}
	help := append(slices.Clone(args[:words]), "-h")
	if code, _, stderr := runWith(help, func(fs *flagSet) { made = append(made, fs) }); code != 0 || len(made) == 0 {
		return fmt.Errorf("risk %s: exit %d: %s", strings.Join(args[:words], " "), code, stderr)
	}
	fs := made[len(made)-1]
	rest := args[words:]
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		rest = fs.Args()[1:] // a positional argument, and flags after it
	}
	return nil
}

// promptLine reads a line typed at the console's prompt ("Ann> /risk
// new"): the name and what was typed.
func promptLine(l string) (name, typed string, ok bool) {
	m := regexp.MustCompile(`^([\p{L}\p{N}_.-]+)> (.*)$`).FindStringSubmatch(l)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

var (
	// dateRE matches the times the bot prints (deadlines, expiries, a
	// match's last change), which depend on the clock.
	dateRE = regexp.MustCompile(`\b(?:[A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}|\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC\b`)
	portRE = regexp.MustCompile(`127\.0\.0\.1:\d+`)
)

// normalize is output as the documents show it: times, the port and the
// data directory's path are the reader's.
func (sh *shell) normalize(out string) string {
	out = strings.ReplaceAll(out, filepath.Join(sh.data, "riskbot"), "DATA")
	out = dateRE.ReplaceAllString(out, "DATE")
	return portRE.ReplaceAllString(out, "127.0.0.1:PORT")
}

// normalizeWant is the output a document shows, normalized as normalize
// does the real one; a line typed at the prompt is as the console echoes
// it from a file.
func (sh *shell) normalizeWant(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if _, typed, ok := promptLine(l); ok {
			l = typed
		}
		for _, home := range []string{"/home/you/.local/share/riskbot", "~/.local/share/riskbot"} {
			l = strings.ReplaceAll(l, home, "DATA")
		}
		l = dateRE.ReplaceAllString(l, "DATE")
		out = append(out, portRE.ReplaceAllString(l, "127.0.0.1:PORT"))
	}
	return out
}

// sampleOf reports whether want is a sample of got: its runs of lines
// between "..." lines appear in got in order, each run as consecutive
// lines (trailing spaces aside).
func sampleOf(got string, want []string) error {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(got))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), " "))
	}
	var runs [][]string
	run := []string{}
	for _, w := range want {
		if strings.TrimSpace(w) == "..." {
			runs, run = append(runs, run), []string{}
			continue
		}
		run = append(run, strings.TrimRight(w, " "))
	}
	runs = append(runs, run)
	at := 0
	for _, r := range runs {
		if len(r) == 0 {
			continue
		}
		found := -1
		for i := at; i+len(r) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(r)], r) {
				found = i
				break
			}
		}
		if found < 0 {
			return fmt.Errorf("from line %d on, no run of %d lines starting %q (the closest: %s)", at+1, len(r), r[0], closest(lines[at:], r))
		}
		at = found + len(r)
	}
	return nil
}

// closest says where a run of lines first parts from the output, for the
// message of a sample that is not the output: the line of the run that
// matches least far, and what the output has there.
func closest(lines, run []string) string {
	best, bestAt, bestLen := "", -1, -1
	for i := range lines {
		n := 0
		for n < len(run) && i+n < len(lines) && lines[i+n] == run[n] {
			n++
		}
		if n > bestLen && n < len(run) {
			bestLen, bestAt = n, i
			if i+n < len(lines) {
				best = fmt.Sprintf("after %d equal lines, the sample has %q where the output has %q", n, run[n], lines[i+n])
			}
		}
	}
	if bestAt < 0 {
		return "nothing"
	}
	return best
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// The check itself: a sample is found in order, each run whole; a sample
// not printed, or out of order, is not.
func TestSampleOf(t *testing.T) {
	got := "a\nb\nc\nd\ne\n"
	for _, tt := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b"}, true},
		{[]string{"b", "...", "e"}, true},
		{[]string{"...", "c", "d", "..."}, true},
		{[]string{"a", "c"}, false},
		{[]string{"d", "...", "b"}, false},
		{[]string{"x"}, false},
	} {
		err := sampleOf(got, tt.want)
		if (err == nil) != tt.ok {
			t.Errorf("sampleOf(%q) = %v, want ok %v", tt.want, err, tt.ok)
		}
	}
}

// The good run of risk discord --check that docs/discord.md shows is the
// report bot/discord's test keeps (it once left out /risk-admin and the
// team threads).
func TestDiscordCheckSample(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(repoRoot, "bot/discord/testdata/check_ok.txt"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := codeBlocks(filepath.Join(repoRoot, "docs/discord.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "✓ token:") {
			if got := strings.Join(b.lines, "\n") + "\n"; got != string(want) {
				t.Errorf("docs/discord.md:%d shows\n%s\nwant (bot/discord/testdata/check_ok.txt)\n%s", b.line, got, want)
			}
			return
		}
	}
	t.Error("docs/discord.md shows no good run of risk discord --check")
}

// Blocks that could hide an untrue sample are refused: a plain block, a
// transcript outside a console block, a console block without its
// command, a typed line without its answer (the README's list of typed
// lines once failed as typed, unseen).
func TestCheckKind(t *testing.T) {
	for _, tt := range []struct {
		name string
		b    block
		ok   bool
	}{
		{"sh", block{info: "sh", lines: []string{"go test ./..."}}, true},
		{"console", block{info: "console", lines: []string{"$ risk odds --attackers 2 --defenders 1", "..."}}, true},
		{"text", block{info: "text", lines: []string{"cmd/risk/   the binary"}}, true},
		{"plain", block{lines: []string{"go test ./..."}}, false},
		{"transcript as text", block{info: "text", lines: []string{"Ann: /risk new", "  bot: Ann opened a Risk match!"}}, false},
		{"console without its command", block{info: "console", lines: []string{"You> /risk new"}}, false},
		{"typed lines alone", block{info: "console", lines: []string{"$ risk console", "You> /risk new", "You> /risk start"}}, false},
		{"typed line then a gap", block{info: "console", lines: []string{"$ risk console", "You> /risk new", "..."}}, false},
		{"typed line and its answer", block{info: "console", lines: []string{"$ risk console", "You> /risk new", "  bot (only You see this): Your match is open"}}, true},
	} {
		if err := tt.b.checkKind(); (err == nil) != tt.ok {
			t.Errorf("%s: checkKind() = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
