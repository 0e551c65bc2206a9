package web

import (
	"encoding/json"
	"html"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
)

// TestWordsHandler: GET /web/words answers a language's page words (only
// the page's), English for a language the catalogue lacks, and 304 to a
// browser that has them.
func TestWordsHandler(t *testing.T) {
	e := newEnv(t, Config{})
	get := func(query, etag string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, e.ts.URL+"/web/words"+query, nil)
		if err != nil {
			t.Fatal(err)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	etags := map[string]string{}
	for _, c := range []struct {
		query, lang, endTurn, dice string
	}{
		{"?lang=fr", "fr", "Finir le tour", "Attaquer une fois ({{.Count}} dés)"},
		{"?lang=fr-CA", "fr", "Finir le tour", "Attaquer une fois ({{.Count}} dés)"},
		{"?lang=en", "en", "End turn", "Attack once ({{.Count}} dice)"},
		{"?lang=de", "en", "End turn", "Attack once ({{.Count}} dice)"},
		{"?lang=%3Cscript%3E", "en", "End turn", "Attack once ({{.Count}} dice)"},
		{"", "en", "End turn", "Attack once ({{.Count}} dice)"},
	} {
		res, body := get(c.query, "")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: got %s, want 200 (%s)", c.query, res.Status, body)
		}
		if got := res.Header.Get("Content-Language"); got != c.lang {
			t.Errorf("%s: Content-Language %q, want %q", c.query, got, c.lang)
		}
		var words map[string]any
		if err := json.Unmarshal(body, &words); err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got := words["page.play.end"]; got != c.endTurn {
			t.Errorf("%s: page.play.end = %v, want %q", c.query, got, c.endTurn)
		}
		forms, _ := words["page.play.attack-once"].(map[string]any)
		if got := forms["other"]; got != c.dice {
			t.Errorf("%s: page.play.attack-once's other form = %v, want %q", c.query, got, c.dice)
		}
		for k := range words {
			if !strings.HasPrefix(k, "page.") || strings.HasPrefix(k, "page.missing.") {
				t.Errorf("%s: the page's words hold %q", c.query, k)
			}
		}
		etag := res.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", c.query)
		}
		if was, ok := etags[c.lang]; ok && was != etag {
			t.Errorf("%s: ETag %s, want %s as for the same words", c.query, etag, was)
		}
		etags[c.lang] = etag
		res, body = get(c.query, etag)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("%s with its ETag: got %s and %d bytes, want 304 and none", c.query, res.Status, len(body))
		}
	}
	if etags["en"] == etags["fr"] {
		t.Errorf("English and French have the same ETag %s", etags["en"])
	}
	if res, _ := get("?lang=fr", etags["en"]); res.StatusCode != http.StatusOK {
		t.Errorf("French with English's ETag: got %s, want 200", res.Status)
	}
}

var (
	// wordsAttr is an element's data-words attribute: data-words="page.x",
	// data-words-placeholder="page.x", ...
	wordsAttr = regexp.MustCompile(`data-words(-[a-z-]+)?="([^"]*)"`)
	// scriptKey is a key a script names: t("page.x"), a list of keys.
	scriptKey = regexp.MustCompile(`"(page\.[a-z0-9.-]*)"`)
	// scriptCall is the first argument of a call of t.
	scriptCall = regexp.MustCompile(`\bt\(\s*"([^"]*)"`)
	// simplePlaceholder is the only template words.js fills: {{.Name}}.
	simplePlaceholder = regexp.MustCompile(`^\{\{\.[A-Z]\w*\}\}$`)
	anyTemplate       = regexp.MustCompile(`\{\{.*?\}\}`)
	// tag is an element's opening tag, its attributes, and the text after it.
	tag  = regexp.MustCompile(`<([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>([^<]*)`)
	attr = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// TestPageWordsUsed: every key of the page's words is named by a static
// file (or, for the few pages the server words itself, by its Go code),
// every key a static file names is in the catalogue, and the words the
// HTML says before its script words it are the catalogue's English.
func TestPageWordsUsed(t *testing.T) {
	en, err := lang.Raw(lang.English)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string][]string{} // key: the files naming it
	use := func(file, key string) {
		used[key] = append(used[key], file)
		if _, ok := en[key]; !ok {
			t.Errorf("%s names %q, which the catalogue lacks", file, key)
		}
	}
	names, err := fs.Glob(files, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		switch {
		case strings.HasSuffix(name, ".html"):
			for _, m := range wordsAttr.FindAllStringSubmatch(src, -1) {
				use(name, m[2])
			}
			for _, m := range tag.FindAllStringSubmatch(src, -1) {
				attrs := map[string]string{}
				for _, a := range attr.FindAllStringSubmatch(m[2], -1) {
					attrs[a[1]] = html.UnescapeString(a[2])
				}
				for k, key := range attrs {
					what, ok := strings.CutPrefix(k, "data-words")
					if !ok {
						continue
					}
					got := strings.TrimSpace(html.UnescapeString(m[3]))
					if what != "" {
						got = attrs[strings.TrimPrefix(what, "-")]
					}
					if want := en[key]["other"]; got != want {
						t.Errorf("%s: <%s %s=%q> says %q, the catalogue's English %q", name, m[1], k, key, got, want)
					}
				}
			}
		case strings.HasSuffix(name, ".js"):
			for _, m := range scriptKey.FindAllStringSubmatch(src, -1) {
				use(name, m[1])
			}
			for _, m := range scriptCall.FindAllStringSubmatch(src, -1) {
				if !strings.HasPrefix(m[1], "page.") {
					t.Errorf("%s: t(%q): the page's words are page. keys", name, m[1])
				}
			}
		}
	}
	// The pages the server words itself (assets/lang's TestKeysUsedExist
	// checks that their keys exist).
	gos, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range gos {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scriptKey.FindAllStringSubmatch(string(b), -1) {
			if _, ok := en[m[1]]; ok {
				used[m[1]] = append(used[m[1]], name)
			}
		}
	}
	var unused []string
	for k, forms := range en {
		if !strings.HasPrefix(k, "page.") {
			continue
		}
		if len(used[k]) == 0 {
			unused = append(unused, k)
		}
		// words.js fills {{.Name}}, nothing more, and chooses a plural
		// form by Count.
		for form, s := range forms {
			for _, tpl := range anyTemplate.FindAllString(s, -1) {
				if !simplePlaceholder.MatchString(tpl) {
					t.Errorf("%s (%s): %s is more than words.js fills ({{.Name}})", k, form, tpl)
				}
			}
		}
	}
	sort.Strings(unused)
	for _, k := range unused {
		t.Errorf("the catalogue's %q is named by no page", k)
	}
	if len(used) < 100 {
		t.Errorf("the pages name %d keys: the scan finds too few", len(used))
	}
}

// TestMissingPageWords: the page of a match not there speaks the
// browser's language.
func TestMissingPageWords(t *testing.T) {
	e := newEnv(t, Config{})
	for _, c := range []struct{ accept, lang, want string }{
		{"fr-FR,fr;q=0.9,en;q=0.8", "fr", "Il n'y a pas de partie 999 ici. La page du salon mène à sa partie (regarder ↗)."},
		{"en-GB", "en", "There is no match 999 here. The channel's page links to its match (watch ↗)."},
		{"de", "en", "There is no match 999 here."},
		{"", "en", "👁 Nothing to watch"},
	} {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/watch/999", nil)
		req.Header.Set("Accept-Language", c.accept)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := html.UnescapeString(string(b))
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, c.want) || !strings.Contains(body, `<html lang="`+c.lang+`">`) {
			t.Errorf("Accept-Language %q: got %s %q, want 404, lang %s and %q", c.accept, res.Status, body, c.lang, c.want)
		}
	}
}
