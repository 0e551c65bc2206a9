package lang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// worded are the packages whose strings people read: every sentence of
// theirs belongs in the catalogue.
var worded = []string{
	"bot", "bot/chat", "bot/clock", "bot/command", "bot/hosted", "bot/lobby", "bot/look",
	"bot/news", "bot/outbox", "bot/people", "bot/play", "bot/server", "bot/voice", "engine", "render",
}

// prose is a literal with two words or more, as a sentence has.
var prose = regexp.MustCompile(`[A-Za-z]{2,}[,.:;!?]? +[A-Za-z]{2,}`)

// quiet are the calls whose strings are for operators and programmers:
// logs, wrapped errors, panics.
var quiet = map[string]bool{
	"Info": true, "Warn": true, "Error": true, "Debug": true, "Errorf": true, "New": true,
	"panic": true, "Fatalf": true, "Logf": true, "InfoContext": true, "WarnContext": true, "ErrorContext": true,
}

// englishLeft counts, per package, the string literals outside the
// catalogue that read like English sentences.
func englishLeft(t *testing.T, root string) (map[string]int, map[string][]string) {
	counts, where := map[string]int{}, map[string][]string{}
	fset := token.NewFileSet()
	for _, pkg := range worded {
		dir := filepath.Join(root, pkg)
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		counts[pkg] = 0
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			skip := map[*ast.BasicLit]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					var fn string
					switch f := n.Fun.(type) {
					case *ast.Ident:
						fn = f.Name
					case *ast.SelectorExpr:
						fn = f.Sel.Name
					}
					if quiet[fn] {
						ast.Inspect(n, func(m ast.Node) bool {
							if l, ok := m.(*ast.BasicLit); ok {
								skip[l] = true
							}
							return true
						})
					}
				case *ast.ImportSpec:
					skip[n.Path] = true
				case *ast.Field:
					if n.Tag != nil {
						skip[n.Tag] = true
					}
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				l, ok := n.(*ast.BasicLit)
				if !ok || l.Kind != token.STRING || skip[l] {
					return true
				}
				s, err := strconv.Unquote(l.Value)
				if err != nil || !prose.MatchString(s) || strings.HasPrefix(s, pkgPrefix(pkg)) {
					return true
				}
				counts[pkg]++
				where[pkg] = append(where[pkg], fmt.Sprintf("%s: %.60q", fset.Position(l.Pos()), s))
				return true
			})
		}
	}
	return counts, where
}

// pkgPrefix is how a package's errors for programmers begin ("engine: ").
func pkgPrefix(pkg string) string { return filepath.Base(pkg) + ": " }

// TestEnglishLeft is the ratchet of the catalogue's progress: no package
// may gain an English sentence outside it, and a package that lost some
// lowers its budget (-update writes the new counts). The goal is zero.
func TestEnglishLeft(t *testing.T) {
	counts, where := englishLeft(t, filepath.Join("..", ".."))
	const file = "testdata/english-left.txt"
	if *update {
		var b strings.Builder
		b.WriteString("# English sentences left outside the catalogue, per package (go test ./assets/lang -run TestEnglishLeft -update)\n")
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %d\n", k, counts[k])
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	budget := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var pkg string
		var n int
		if _, err := fmt.Sscan(line, &pkg, &n); err != nil {
			t.Fatalf("%s: %q: %v", file, line, err)
		}
		budget[pkg] = n
	}
	for _, pkg := range worded {
		switch got, max := counts[pkg], budget[pkg]; {
		case got > max:
			t.Errorf("%s has %d English sentences outside the catalogue, its budget %d: move the new ones to assets/lang (last: %s)", pkg, got, max, strings.Join(tail(where[pkg], got-max), "; "))
		case got < max:
			t.Errorf("%s has %d English sentences outside the catalogue, fewer than its budget %d: lower it (go test ./assets/lang -run TestEnglishLeft -update)", pkg, got, max)
		}
	}
}

func tail(s []string, n int) []string {
	if n > len(s) || n <= 0 {
		n = len(s)
	}
	return s[len(s)-n:]
}
