package genmap

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

var update = flag.Bool("update", false, "rewrite the golden maps in testdata/")

func TestSizes(t *testing.T) {
	if got := Sizes(); !slices.Equal(got, []Size{Small, Normal, Large}) {
		t.Fatalf("Sizes() = %v", got)
	}
	for _, tt := range []struct {
		in      string
		want    Size
		wantErr bool
	}{
		{"small", Small, false}, {"normal", Normal, false}, {"large", Large, false},
		{"LARGE", Large, false}, {"medium", 0, true}, {"", 0, true}, {"smal", 0, true},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
				t.Errorf("ParseSize(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err == nil && got.String() != strings.ToLower(tt.in) {
				t.Errorf("%v.String() = %q", got, got.String())
			}
		})
	}
	if got := Size(9).String(); got != "size(9)" {
		t.Errorf("Size(9).String() = %q", got)
	}
	for _, z := range Sizes() {
		lo, hi := z.Territories()
		if lo < 12 || hi > 40 || lo > hi {
			t.Errorf("%s: %d to %d territories, want within 12 to 40", z, lo, hi)
		}
	}
	if _, err := Generate(1, Size(3)); err == nil {
		t.Error("Generate accepted an unknown size")
	}
}

func TestNames(t *testing.T) {
	for _, tt := range []struct {
		name   string
		seed   uint64
		size   Size
		wantOK bool
	}{
		{"gen-normal-000000000000002a", 42, Normal, true},
		{"gen-small-0000000000000000", 0, Small, true},
		{"gen-large-ffffffffffffffff", 1<<64 - 1, Large, true},
		{"gen-normal-000000000000002A", 0, 0, false}, // one spelling per map
		{"gen-normal-2a", 0, 0, false},
		{"gen-normal-0000000000000002a", 0, 0, false},
		{"gen-huge-000000000000002a", 0, 0, false},
		{"gen-Normal-000000000000002a", 0, 0, false},
		{"gen-normal-+00000000000002a", 0, 0, false},
		{"gen-normal-000000000000002a ", 0, 0, false},
		{"classic", 0, 0, false},
		{"", 0, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seed, z, ok := ParseName(tt.name)
			if ok != tt.wantOK || (ok && (seed != tt.seed || z != tt.size)) {
				t.Errorf("ParseName(%q) = %d, %v, %v; want %d, %v, %v", tt.name, seed, z, ok, tt.seed, tt.size, tt.wantOK)
			}
			if ok {
				if got := Name(seed, z); got != tt.name {
					t.Errorf("Name(%d, %v) = %q, want %q", seed, z, got, tt.name)
				}
			}
		})
	}
}

// FuzzParseName: a name is accepted only in the form Name writes, so a map
// has exactly one name; no input panics.
func FuzzParseName(f *testing.F) {
	for _, s := range []string{"gen-normal-000000000000002a", "gen-large-ffffffffffffffff", "gen-small-", "gen--", "classic"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		seed, z, ok := ParseName(name)
		if !ok {
			return
		}
		if got := Name(seed, z); got != name {
			t.Fatalf("ParseName(%q) accepted it, but Name gives %q", name, got)
		}
		s2, z2, ok2 := ParseName(Name(seed, z))
		if !ok2 || s2 != seed || z2 != z {
			t.Fatalf("Name(%d, %v) does not parse back", seed, z)
		}
	})
}

// describe is the golden form of a map: its public description as indented
// JSON.
func describe(t testing.TB, m *state.Map) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m.Describe()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goldenSeeds are the maps kept in testdata/: if one changes, every match
// played on it would change when it is regenerated.
var goldenSeeds = []uint64{1, 42, 2024, 0xdeadbeefcafe}

// TestGolden compares generated maps with testdata/. The maps must be the
// same on every platform and Go version: a difference means the generator
// changed, and matches stored with that map name would load another map.
// Run with -update only for a deliberate change of the generator.
func TestGolden(t *testing.T) {
	for _, z := range Sizes() {
		for _, seed := range goldenSeeds {
			name := fmt.Sprintf("%s-%d", z, seed)
			t.Run(name, func(t *testing.T) {
				m, err := Generate(seed, z)
				if err != nil {
					t.Fatal(err)
				}
				got := describe(t, m)
				path := filepath.Join("testdata", name+".json")
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./engine/genmap -run TestGolden -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: the map differs from the golden file:\n%s", path, firstDiff(got, want))
				}
			})
		}
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  got  %s\n  want %s", i+1, a, b)
		}
	}
	return ""
}

// TestRegenerateFromName: the engine keeps only the name; the map it
// regenerates from it is the same map.
func TestRegenerateFromName(t *testing.T) {
	for _, z := range Sizes() {
		for _, seed := range []uint64{3, 1 << 40, 1<<64 - 1} {
			m, err := Generate(seed, z)
			if err != nil {
				t.Fatal(err)
			}
			s2, z2, ok := ParseName(m.Name)
			if !ok || s2 != seed || z2 != z {
				t.Fatalf("map name %q does not parse back to (%d, %s)", m.Name, seed, z)
			}
			again, err := Generate(s2, z2)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(describe(t, m), describe(t, again)) {
				t.Errorf("%s: regenerated map differs", m.Name)
			}
		}
	}
}

var seedsFlag = flag.Int("seeds", 0, "TestManySeeds: how many seeds (0: 10,000; 900 with -short, 300 with -race)")

// manySeeds is how many seeds TestManySeeds generates, the sizes in turn:
// 10,000 in a full run; fewer with -short, and fewer still under the race
// detector, which makes the generator about ten times slower.
func manySeeds() int {
	switch {
	case *seedsFlag > 0:
		return *seedsFlag
	case racetest.Enabled:
		return 300
	case testing.Short():
		return 900
	}
	return 10000
}

// TestManySeeds generates maps from many seeds, each at one of the sizes
// in turn: each must come out (Generate retries inside) and keep every
// rule, checked here independently of Check: the territory count, the size
// rule, even sizes, all five terrains, fortresses, regions, water and
// names.
func TestManySeeds(t *testing.T) {
	n := manySeeds()
	sizes := Sizes()
	var mu sync.Mutex
	var worst [3]float64
	var attempts [3][maxAttempts + 1]int
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for seed := w; seed < n; seed += workers {
				z := sizes[seed%len(sizes)]
				m, a, err := generate(uint64(seed), z)
				if err != nil {
					t.Error(err)
					continue
				}
				ratio := checkRules(t, m, z)
				mu.Lock()
				worst[z] = max(worst[z], ratio)
				attempts[z][a]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, z := range sizes {
		var hist []string
		for a, c := range attempts[z] {
			if c > 0 {
				hist = append(hist, fmt.Sprintf("%d attempts: %d", a, c))
			}
		}
		t.Logf("%s: %s; largest territory at most %.2f times the smallest", z, strings.Join(hist, ", "), worst[z])
	}
}

var nameRE = regexp.MustCompile(`^[A-Z][a-z]{3,9}$`)

// checkRules checks m against the generator's rules and returns the ratio
// of its largest territory to its smallest, in cells.
func checkRules(t testing.TB, m *state.Map, z Size) float64 {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s", m.Name, fmt.Sprintf(format, args...))
	}
	lo, hi := z.Territories()
	n := m.Len()
	if n < lo || n > hi {
		fail("%d territories, want %d to %d", n, lo, hi)
	}
	if m.Grid == nil || m.Grid.W != Side || m.Grid.H != Side {
		fail("no %d×%d grid", Side, Side)
		return 0
	}
	cells := cellCounts(m.Grid.Cells, n)
	blocks := blocks(m.Grid.Cells, n)
	small, big := slices.Min(cells), slices.Max(cells)
	for i, c := range cells {
		if c < MinCells || blocks[i] < 0 {
			fail("%s has %d cells (want %d) and block %d", m.Territories[i].Name, c, MinCells, blocks[i])
		}
	}
	if big*10 > small*MaxSpreadTenths {
		fail("territories of %d to %d cells: want the largest at most %d/10 times the smallest", small, big, MaxSpreadTenths)
	}
	var terrains [state.NumTerrains]int
	forts := 0
	prefixes := map[string]string{}
	for i, tr := range m.Territories {
		terrains[tr.Terrain]++
		if tr.Fortress {
			forts++
			for _, a := range tr.Adj {
				if m.Territories[a].Fortress {
					fail("fortresses on neighbours %s and %s", tr.Name, m.Territories[a].Name)
				}
			}
		}
		if !nameRE.MatchString(tr.Name) || !clean(tr.Name) {
			fail("territory name %q", tr.Name)
		}
		p := strings.ToLower(tr.Name[:3])
		if o, dup := prefixes[p]; dup {
			fail("%s and %s share their first three letters", o, tr.Name)
		}
		prefixes[p] = tr.Name
		if got, err := m.Lookup(strings.ToLower(tr.Name[:3])); err != nil || got != i {
			fail("typing %q finds %d (%v), want %s", tr.Name[:3], got, err, tr.Name)
		}
	}
	for _, k := range []state.Terrain{state.Plain, state.Forest, state.Mountain, state.Desert, state.Coastal} {
		if terrains[k] < MinPerTerrain {
			fail("%d %s territories", terrains[k], k)
		}
	}
	if forts != (n+4)/8 {
		fail("%d fortresses for %d territories", forts, n)
	}
	for _, c := range m.Continents {
		if len(c.Territories) < MinRegion || len(c.Territories) > MaxRegion || c.Bonus < 1 {
			fail("region %s: %d territories, bonus %d", c.Name, len(c.Territories), c.Bonus)
		}
	}
	links := 0
	for _, tr := range m.Territories {
		links += len(tr.Sea)
	}
	if links/2 < MinSeaLinks(n) {
		fail("%d sea links", links/2)
	}
	if m.WaterBodies < 2 && largestWater(m.Grid) < Side*Side/5 {
		fail("one small body of water")
	}
	return float64(big) / float64(small)
}

// TestCheckRejects: Check finds each broken rule in a map that state
// accepts.
func TestCheckRejects(t *testing.T) {
	m, err := Generate(5, Normal)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(m, Normal); err != nil {
		t.Fatalf("a generated map fails: %v", err)
	}
	if err := Check(m, Large); err == nil || !strings.Contains(err.Error(), "want 30 to 40 for a large map") {
		t.Errorf("a normal map checked as large: %v", err)
	}
	for _, tt := range []struct {
		name   string
		mutate func(s *state.MapSpec)
		want   string
	}{
		{"all plains", func(s *state.MapSpec) {
			for i := range s.Territories {
				s.Territories[i].Terrain = state.Plain
			}
		}, "0 forest territories"},
		{"a tundra", func(s *state.MapSpec) { s.Territories[0].Terrain = state.Tundra }, "outside the five"},
		{"no fortress", func(s *state.MapSpec) {
			for i := range s.Territories {
				s.Territories[i].Fortress = false
			}
		}, "0 fortresses"},
		{"shared prefix", func(s *state.MapSpec) {
			renameTerritory(s, 1, s.Territories[0].Name[:3]+"zzz")
		}, "does not name"},
		{"blocked name", func(s *state.MapSpec) { renameTerritory(s, 2, "Shitton") }, "is blocked"},
		{"one region", func(s *state.MapSpec) {
			all := state.ContinentSpec{Name: "All", Bonus: 9}
			for _, c := range s.Continents {
				all.Territories = append(all.Territories, c.Territories...)
			}
			s.Continents = []state.ContinentSpec{all}
		}, "want 3 to 7"},
		{"a tiny territory", func(s *state.MapSpec) {
			// Drown all but one cell of territory 0.
			kept := false
			for i, c := range s.Grid.Cells {
				if c == 0 {
					if kept {
						s.Grid.Cells[i] = state.Water
					}
					kept = true
				}
			}
		}, "has 1 cells"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := specOf(m)
			tt.mutate(&spec)
			bad, err := state.NewMap(spec)
			if err != nil {
				t.Fatalf("state refuses the mutated map: %v", err)
			}
			err = Check(bad, Normal)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// specOf rebuilds the MapSpec of a generated map.
func specOf(m *state.Map) state.MapSpec {
	g := *m.Grid
	g.Cells = slices.Clone(g.Cells)
	s := state.MapSpec{Name: m.Name, Title: m.Title, Grid: &g}
	for _, t := range m.Territories {
		s.Territories = append(s.Territories, state.TerritorySpec{Name: t.Name, Terrain: t.Terrain, Fortress: t.Fortress})
	}
	for _, c := range m.Continents {
		cs := state.ContinentSpec{Name: c.Name, Bonus: c.Bonus}
		for _, t := range c.Territories {
			cs.Territories = append(cs.Territories, m.Territories[t].Name)
		}
		s.Continents = append(s.Continents, cs)
	}
	return s
}

func renameTerritory(s *state.MapSpec, i int, name string) {
	old := s.Territories[i].Name
	s.Territories[i].Name = name
	for c := range s.Continents {
		for j, t := range s.Continents[c].Territories {
			if t == old {
				s.Continents[c].Territories[j] = name
			}
		}
	}
}

// TestWords: the syllables make pronounceable names (never four consonants
// in a row: "Belbrek", "Dunstad" are as far as it goes) that avoid the
// blocked strings, over many draws.
func TestWords(t *testing.T) {
	r := &rng{s: 1}
	vowel := func(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }
	for range 20000 {
		w := word(r)
		l := strings.ToLower(w)
		run := 0
		for i := range len(l) {
			if vowel(l[i]) {
				run = 0
			} else if run++; run > 3 {
				t.Errorf("%q has %d consonants in a row", w, run)
				break
			}
		}
		if !nameRE.MatchString(w) && len(w) <= 10 {
			t.Errorf("%q is not a capitalised word of 4 to 10 letters", w)
		}
	}
	for _, b := range blocked {
		if clean("Xx" + b + "yy") {
			t.Errorf("clean accepts %q", b)
		}
	}
}

// TestRegionBonusOnClassic: the bonus rule of thumb, on the classic board,
// is close to the printed bonuses (5, 2, 5, 3, 7, 2).
func TestRegionBonusOnClassic(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "assets", "maps", "classic.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := state.ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, c := range m.Continents {
		got = append(got, regionBonus(m, c.Territories))
	}
	if want := []int{5, 2, 5, 4, 7, 2}; !slices.Equal(got, want) {
		t.Errorf("bonuses %v, want %v (printed: 5, 2, 5, 3, 7, 2)", got, want)
	}
}
