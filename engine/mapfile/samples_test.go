package mapfile

import (
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The sample maps of examples/maps (go generate writes them) read, and
// are of the styles they stand for.
func TestSamples(t *testing.T) {
	tests := []struct {
		name             string
		minTerr, maxTerr int
		minCont, maxCont int
		strips           int // territories that are long thin strips
	}{
		{name: "inkwell", minTerr: 10, maxTerr: 14, minCont: 3, maxCont: 4},
		{name: "realms", minTerr: 80, maxTerr: 100, minCont: 6, maxCont: 9},
		{name: "fjords", minTerr: 30, maxTerr: 60, minCont: 4, maxCont: 6, strips: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := readSample(t, tt.name)
			m := b.Map
			if m.Len() < tt.minTerr || m.Len() > tt.maxTerr {
				t.Errorf("%d territories, want %d..%d", m.Len(), tt.minTerr, tt.maxTerr)
			}
			if len(m.Continents) < tt.minCont || len(m.Continents) > tt.maxCont {
				t.Errorf("%d continents, want %d..%d", len(m.Continents), tt.minCont, tt.maxCont)
			}
			if w := m.Art.W; w < 1000 || w > 1600 {
				t.Errorf("picture %d pixels wide, want 1000..1600", w)
			}
			for _, f := range [][]byte{b.Files.Picture, b.Files.Index} {
				if len(f) > 400<<10 {
					t.Errorf("an image of %d KB, want at most 400", len(f)>>10)
				}
			}
			if got := strips(m.Art, m.Len()); got < tt.strips {
				t.Errorf("%d territories are long thin strips, want at least %d", got, tt.strips)
			}
		})
	}
}

func readSample(t testing.TB, name string) *Board {
	t.Helper()
	b, err := ReadPath(filepath.Join("..", "..", "examples", "maps", name, name+".map"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// strips counts the territories that are long thin strips: at least 150
// pixels long and nowhere more than 25 pixels thick (measured down each
// column, so for strips that run west to east).
func strips(a *state.Art, n int) int {
	thick := make([]int, n)
	x0, x1 := make([]int, n), make([]int, n)
	for t := range n {
		x0[t] = a.W
	}
	for x := 0; x < a.W; x++ {
		run, cur := 0, -1
		for y := 0; y <= a.H; y++ {
			v := -1
			if y < a.H {
				v = a.At(x, y)
			}
			if v == cur {
				run++
				continue
			}
			if cur >= 0 {
				thick[cur] = max(thick[cur], run)
				x0[cur], x1[cur] = min(x0[cur], x), max(x1[cur], x)
			}
			cur, run = v, 1
		}
	}
	count := 0
	for t := range n {
		if x1[t]-x0[t] >= 150 && thick[t] <= 25 {
			count++
		}
	}
	return count
}
