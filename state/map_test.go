package state_test

import (
	"os"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

func loadClassic(t testing.TB) *state.Map {
	t.Helper()
	data, err := os.ReadFile("../assets/maps/classic.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := state.ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestClassicMap(t *testing.T) {
	m := loadClassic(t)
	if got := m.Len(); got != 42 {
		t.Errorf("territories = %d, want 42", got)
	}
	if got := len(m.Borders()); got != 83 {
		t.Errorf("borders = %d, want 83", got)
	}
	bonus := map[string]int{"North America": 5, "South America": 2, "Europe": 5, "Africa": 3, "Asia": 7, "Australia": 2}
	if len(m.Continents) != len(bonus) {
		t.Errorf("continents = %d, want %d", len(m.Continents), len(bonus))
	}
	for _, c := range m.Continents {
		if want, ok := bonus[c.Name]; !ok || c.Bonus != want {
			t.Errorf("continent %s bonus %d, want %d", c.Name, c.Bonus, want)
		}
	}
	// The sea links of RULES.md, some of which open-source maps miss.
	for _, b := range [][2]string{
		{"Alaska", "Kamchatka"}, {"Greenland", "Northwest Territory"}, {"Greenland", "Ontario"},
		{"Greenland", "Quebec"}, {"Greenland", "Iceland"}, {"Brazil", "North Africa"},
		{"North Africa", "Western Europe"}, {"North Africa", "Southern Europe"}, {"Egypt", "Southern Europe"},
		{"Egypt", "Middle East"}, {"East Africa", "Middle East"}, {"Southern Europe", "Middle East"},
		{"Siam", "Indonesia"},
	} {
		a, b2 := m.Index(b[0]), m.Index(b[1])
		if a < 0 || b2 < 0 || !m.Adjacent(a, b2) || !m.Adjacent(b2, a) {
			t.Errorf("%s–%s missing", b[0], b[1])
		}
	}
	// A well-known non-border that real geography suggests.
	if m.Adjacent(m.Index("Northwest Territory"), m.Index("Quebec")) {
		t.Error("Northwest Territory–Quebec must not border")
	}
}

func TestParseMapRejects(t *testing.T) {
	const good = `{"name":"tiny","continents":[{"name":"C","bonus":2,"territories":["A","B","D"]}],
	"territories":[{"name":"A"},{"name":"B"},{"name":"D","terrain":"forest"}],
	"borders":[["A","B"],["B","D"]]}`
	if _, err := state.ParseMap([]byte(good)); err != nil {
		t.Fatalf("good map rejected: %v", err)
	}
	tests := []struct {
		name, json, want string
	}{
		{"unknown territory in border", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","Bee"]]}`, `unknown territory "Bee"`},
		{"duplicate territory", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"},{"name":"A"}],"borders":[["A","B"]]}`, `duplicate territory "A"`},
		{"self border", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"],["A","A"]]}`, `"A" borders itself`},
		{"duplicate border", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"],["B","A"]]}`, `duplicate border`},
		{"disconnected", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B","D","E"]}],"territories":[{"name":"A"},{"name":"B"},{"name":"D"},{"name":"E"}],"borders":[["A","B"],["D","E"]]}`, `not connected: D, E cannot reach A`},
		{"no continent", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"]]}`, `"B" is in no continent`},
		{"two continents", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]},{"name":"D","bonus":1,"territories":["B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"]]}`, `"B" is in two continents`},
		{"typo suggestion", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["Alaska","Alberta"]}],"territories":[{"name":"Alaska"},{"name":"Alberta"}],"borders":[["Alaska","Albreta"]]}`, `did you mean "Alberta"?`},
		{"bad terrain", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A","terrain":"lava"},{"name":"B"}],"borders":[["A","B"]]}`, `unknown terrain "lava"`},
		{"negative bonus", `{"name":"x","continents":[{"name":"C","bonus":-1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"]]}`, `negative bonus`},
		{"unknown field", `{"name":"x","colour":"red","continents":[],"territories":[],"borders":[]}`, `unknown field "colour"`},
		{"not json", `[countries]`, `not a valid map file`},
		{"three-name border", `{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B","A"]]}`, `has 3 names`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := state.ParseMap([]byte(tt.json))
			if err == nil {
				t.Fatalf("accepted, want error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	m := loadClassic(t)
	tests := []struct {
		query, want, wantErr string
	}{
		{"Alaska", "Alaska", ""},
		{"alaska", "Alaska", ""},
		{"  ALASKA ", "Alaska", ""},
		{"kamch", "Kamchatka", ""},
		{"e africa", "East Africa", ""},
		{"E. Africa", "East Africa", ""},
		{"w. us", "Western United States", ""},
		{"w us", "Western United States", ""},
		{"wus", "Western United States", ""},
		{"east us", "Eastern United States", ""},
		{"e united states", "Eastern United States", ""},
		{"nwt", "Northwest Territory", ""},
		{"nw territory", "Northwest Territory", ""},
		{"uk", "Great Britain", ""},
		{"great-britain", "Great Britain", ""},
		{"se asia", "Siam", ""},
		{"w australia", "Western Australia", ""},
		{"new g", "New Guinea", ""},
		{"mid east", "Middle East", ""},
		{"kamchakta", "", "did you mean Kamchatka?"},
		{"brasil", "", "did you mean Brazil?"},
		{"egpyt", "", "did you mean Egypt?"},
		{"north", "", "could be North Africa, Northern Europe or Northwest Territory"},
		{"a", "", "could be"},
		{"", "", "no territory given"},
		{"atlantis", "", `no territory "atlantis"`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			id, err := m.Lookup(tt.query)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Lookup(%q) = %v, %v; want error containing %q", tt.query, id, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Lookup(%q): %v", tt.query, err)
			}
			if got := m.Territories[id].Name; got != tt.want {
				t.Errorf("Lookup(%q) = %s, want %s", tt.query, got, tt.want)
			}
		})
	}
}

func TestRank(t *testing.T) {
	m := loadClassic(t)
	all := make([]int, m.Len())
	for i := range all {
		all[i] = i
	}
	names := func(ids []int) []string {
		var out []string
		for _, id := range ids {
			out = append(out, m.Territories[id].Name)
		}
		return out
	}
	got := names(m.Rank("al", all))
	if len(got) < 2 || got[0] != "Alaska" || got[1] != "Alberta" {
		t.Errorf("Rank(al) = %v, want Alaska, Alberta first", got)
	}
	if got := names(m.Rank("kamchakta", all)); len(got) == 0 || got[0] != "Kamchatka" {
		t.Errorf("Rank(kamchakta) = %v, want Kamchatka first", got)
	}
	if got := m.Rank("", all[:5]); len(got) != 5 {
		t.Errorf("Rank of empty query kept %d of 5", len(got))
	}
	if got := m.Rank("zzzz", all); len(got) != 0 {
		t.Errorf("Rank(zzzz) = %v, want nothing", names(got))
	}
}

func FuzzLookup(f *testing.F) {
	m := loadClassic(f)
	for _, s := range []string{"alaska", "e africa", "w. us", "", "ü", "north", "\x00", strings.Repeat("a", 300)} {
		f.Add(s)
	}
	all := make([]int, m.Len())
	for i := range all {
		all[i] = i
	}
	f.Fuzz(func(t *testing.T, q string) {
		id, err := m.Lookup(q)
		if err == nil && (id < 0 || id >= m.Len()) {
			t.Fatalf("Lookup(%q) = %d without error", q, id)
		}
		if err != nil && id != -1 {
			t.Fatalf("Lookup(%q) = %d with error %v", q, id, err)
		}
		for _, r := range m.Rank(q, all) {
			if r < 0 || r >= m.Len() {
				t.Fatalf("Rank(%q) returned %d", q, r)
			}
		}
	})
}

func FuzzParseMap(f *testing.F) {
	data, err := os.ReadFile("../assets/maps/classic.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"name":"x","continents":[{"name":"C","bonus":1,"territories":["A","B"]}],"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"]]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := state.ParseMap(b)
		if err != nil {
			return
		}
		// Whatever is accepted must be a valid, connected, symmetric map.
		for a := range m.Territories {
			for _, n := range m.Territories[a].Adj {
				if n == a || !m.Adjacent(n, a) {
					t.Fatalf("accepted a bad border %d-%d", a, n)
				}
			}
		}
		_ = m.Describe()
	})
}
