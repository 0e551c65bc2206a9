package lang

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets"
)

var update = flag.Bool("update", false, "rewrite the catalogue files in their canonical form")

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Tag
		ok   bool
	}{
		{"fr", French, true}, {"fr-FR", French, true}, {"FR_ca", French, true}, {"français", French, true},
		{"en-US", English, true}, {"en-GB", English, true}, {"English", English, true},
		{"de", "", false}, {"", "", false}, {"frx", "", false},
	} {
		got, ok := Parse(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Parse(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if got := FromLocale("pt-BR"); got != English {
		t.Errorf("FromLocale(pt-BR) = %q, want English", got)
	}
	if got := First("", "de", "fr", "en-US"); got != French {
		t.Errorf("First = %q, want French", got)
	}
}

func TestPlurals(t *testing.T) {
	for _, c := range []struct {
		tag  Tag
		n    int
		want string
	}{
		{English, 0, "0 armies"}, {English, 1, "1 army"}, {English, 2, "2 armies"},
		{French, 0, "0 armée"}, {French, 1, "1 armée"}, {French, 2, "2 armées"}, {French, 1000000, "1000000 armées"},
	} {
		if got := For(c.tag).N("n.armies", c.n); got != c.want {
			t.Errorf("%s %d: got %q, want %q", c.tag, c.n, got, c.want)
		}
	}
}

func TestArguments(t *testing.T) {
	fr := For(French)
	if got := fr.Msg(M("list.and", "Head", Place("Peru"), "Last", M("n.armies", "Count", 2))); got != "le Pérou et 2 armées" {
		t.Errorf("nested arguments: got %q", got)
	}
	if got := fr.Place("Nowhere Land"); got != "Nowhere Land" {
		t.Errorf("a place the catalogue lacks: got %q, want the map's name", got)
	}
	if got := fr.Join([]string{"A", "B", "C"}); got != "A, B et C" {
		t.Errorf("Join: got %q", got)
	}
	if got := For("de").Tag(); got != English {
		t.Errorf("a language the catalogue lacks speaks %q, want English", got)
	}
	if got := fr.T("no.such.key"); got != "no.such.key" {
		t.Errorf("missing key: got %q, want the key", got)
	}
	err := fmt.Errorf("play: attack: %w", Refuse("n.armies", "Count", 3))
	if got := fr.Error(err); got != "3 armées" {
		t.Errorf("a wrapped refusal in French: got %q", got)
	}
	if got := err.Error(); got != "play: attack: 3 armies" {
		t.Errorf("a refusal's own text: got %q", got)
	}
	if got := fr.Error(errors.New("plain")); got != "plain" {
		t.Errorf("a plain error: got %q", got)
	}
}

var placeholder = regexp.MustCompile(`\{\{[^}]*?\.(\w+)`) // {{.X}}, {{de .X}}, {{if .X}}

func placeholders(forms map[string]string) []string {
	seen := map[string]bool{}
	for _, s := range forms {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			seen[m[1]] = true
		}
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCatalogueComplete: every language has every key, with the same
// placeholders and, where English has plural forms, its own.
func TestCatalogueComplete(t *testing.T) {
	en, err := Raw(English)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range Tags()[1:] {
		other, err := Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		for k, forms := range en {
			of, ok := other[k]
			if !ok {
				t.Errorf("%s.json lacks %q (English: %q)", tag, k, forms["other"])
				continue
			}
			if a, b := placeholders(forms), placeholders(of); strings.Join(a, ",") != strings.Join(b, ",") {
				t.Errorf("%s.json %q has placeholders %v, English has %v", tag, k, b, a)
			}
			if _, plural := forms["one"]; plural {
				for _, f := range []string{"one", "other"} {
					if of[f] == "" {
						t.Errorf("%s.json %q lacks its %q form", tag, k, f)
					}
				}
			}
		}
		for k := range other {
			if _, ok := en[k]; !ok && !strings.HasPrefix(k, "place.") {
				t.Errorf("%s.json has %q, which English lacks", tag, k)
			}
		}
	}
}

// TestPlacesAreOnAMap: a translated place names a territory or a continent
// of a shipped map.
func TestPlacesAreOnAMap(t *testing.T) {
	names := map[string]bool{}
	err := fs.WalkDir(assets.Maps, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets.Maps, path)
		if err != nil {
			return err
		}
		var m struct {
			Continents, Territories []struct{ Name string }
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, x := range append(m.Continents, m.Territories...) {
			names[PlaceKey(x.Name)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range Tags() {
		raw, _ := Raw(tag)
		for k := range raw {
			if strings.HasPrefix(k, "place.") && !names[k] {
				t.Errorf("%s.json: %q is no place of a shipped map", tag, k)
			}
		}
	}
}

// format is a catalogue file's canonical form: keys sorted, two spaces,
// no HTML escapes, one key a line.
func format(data []byte) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// TestCatalogueFormatted keeps the files sorted, so that two changes to a
// file merge; -update rewrites them.
func TestCatalogueFormatted(t *testing.T) {
	for _, tag := range Tags() {
		name := string(tag) + ".json"
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := format(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if *update {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s is not in its canonical form: go test ./assets/lang -run TestCatalogueFormatted -update", name)
		}
	}
}

// keyCallees are the functions whose argument at the given index is a
// catalogue key.
var keyCallees = map[string]int{"M": 0, "T": 0, "N": 0, "Refuse": 0, "RefuseMsg": 0, "fail": 1, "charList": 1, "checkRoute": 4}

var keyLike = regexp.MustCompile(`^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$`)

// dynamic are the prefixes of keys the code builds (prefix + a name), or
// that no Go code names: "page." keys are the web page's words, named by
// its static files (bot/web's TestPageWordsUsed checks those).
var dynamic = []string{"place.", "colour.", "cmd.", "page.",
	"voice.item.what.", "voice.status.phase.", "hosted.status.", "render.terrain.",
	"help.start.", "help.turn.", "help.rules.", "help.admin.",
	"engine.phase.", "engine.status.", "engine.card."}

// builtKey reports whether key is one the code builds or no Go code names.
func builtKey(key string) bool {
	for _, p := range dynamic {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// TestKeysUsedExist walks the module's code: every key a call names, or a
// composite literal holds as a value, is in the catalogue, and every key of
// the catalogue is named somewhere.
func TestKeysUsedExist(t *testing.T) {
	en, err := Raw(English)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	spaces := map[string]bool{}
	for k := range en {
		spaces[strings.Split(k, ".")[0]] = true
	}
	fset := token.NewFileSet()
	root := filepath.Join("..", "..")
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok {
				// A table of keys (one per phase, per terrain, …) names
				// its keys as the table's values.
				for _, e := range cl.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						e = kv.Value
					}
					lit, ok := e.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					key, err := strconv.Unquote(lit.Value)
					if err != nil || !keyLike.MatchString(key) || !spaces[strings.Split(key, ".")[0]] || builtKey(key) {
						continue
					}
					used[key] = true
					if _, ok := en[key]; !ok {
						t.Errorf("%s: key %q is not in the catalogue", fset.Position(lit.Pos()), key)
					}
				}
				return true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			i, ok := keyCallees[name]
			if !ok || i >= len(call.Args) {
				return true
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			key, err := strconv.Unquote(lit.Value)
			if err != nil || !keyLike.MatchString(key) {
				return true
			}
			used[key] = true
			if _, ok := en[key]; !ok {
				t.Errorf("%s: key %q is not in the catalogue", fset.Position(lit.Pos()), key)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range en {
		if !used[k] && !builtKey(k) && k != "list.and" && k != "list.or" {
			t.Errorf("key %q is in the catalogue but no code names it", k)
		}
	}
}

func TestFrenchArticles(t *testing.T) {
	fr := For(French)
	for _, c := range []struct{ place, de, a, bare string }{
		{"Peru", "du Pérou", "au Pérou", "Pérou"},
		{"Alaska", "de l'Alaska", "à l'Alaska", "Alaska"},
		{"Northwest Territory", "des Territoires du Nord-Ouest", "aux Territoires du Nord-Ouest", "Territoires du Nord-Ouest"},
		{"China", "de la Chine", "à la Chine", "Chine"},
		{"Madagascar", "de Madagascar", "à Madagascar", "Madagascar"},
		{"Orvane", "d'Orvane", "à Orvane", "Orvane"},
		{"Skarn", "de Skarn", "à Skarn", "Skarn"},
		{"Yarorin", "de Yarorin", "à Yarorin", "Yarorin"},
		{"Yvrest", "d'Yvrest", "à Yvrest", "Yvrest"},
	} {
		w := fr.Place(c.place)
		if got := deFR(w); got != c.de {
			t.Errorf("de %s: got %q, want %q", c.place, got, c.de)
		}
		if got := aFR(w); got != c.a {
			t.Errorf("à %s: got %q, want %q", c.place, got, c.a)
		}
		if got := fr.PlaceName(c.place); got != c.bare {
			t.Errorf("the name of %s: got %q, want %q", c.place, got, c.bare)
		}
	}
	if got := capFirst("le Pérou"); got != "Le Pérou" {
		t.Errorf("cap: got %q", got)
	}
}

func TestColour(t *testing.T) {
	for _, c := range []struct {
		tag        Tag
		name, want string
	}{{French, "sky blue", "bleu ciel"}, {French, "red", "rouge"}, {English, "sky blue", "sky blue"}, {French, "teal", "teal"}} {
		if got := For(c.tag).Colour(c.name); got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.tag, c.name, got, c.want)
		}
	}
}
