package state_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// gridMap builds a map file around grid rows: territories named by their
// cell letter, all in one continent.
func gridMap(t *testing.T, rows []string, extra string) ([]byte, int) {
	t.Helper()
	seen := map[byte]bool{}
	var names []string
	for _, r := range rows {
		for i := range len(r) {
			if r[i] != '.' && !seen[r[i]] {
				seen[r[i]] = true
			}
		}
	}
	for _, c := range "0123456789ABCDEF" {
		if seen[byte(c)] {
			names = append(names, "T"+string(c))
		}
	}
	var terr []string
	for _, n := range names {
		terr = append(terr, `{"name":"`+n+`"}`)
	}
	q, _ := json.Marshal(names)
	r, _ := json.Marshal(rows)
	file := `{"name":"g","continents":[{"name":"C","bonus":0,"territories":` + string(q) + `}],` +
		`"territories":[` + strings.Join(terr, ",") + `],"borders":[]` + extra +
		`,"grid":{"width":` + itoa(len(rows[0])) + `,"height":` + itoa(len(rows)) + `,"rows":` + string(r) + `}}`
	return []byte(file), len(names)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestGridMapBordersCoastsAndSeaLinks(t *testing.T) {
	// Three islands: 0|1 touch; 2 is 3 water cells east of 1; 3 is 20
	// water cells away from everything, too far for a port.
	rows := []string{
		"01...2" + strings.Repeat(".", 20) + "3",
		"01...2" + strings.Repeat(".", 20) + "3",
	}
	data, _ := gridMap(t, rows, "")
	_, err := state.ParseMap(data)
	if err == nil || !strings.Contains(err.Error(), "not connected by land or sea") {
		t.Fatalf("want a connectivity error for the far island, got %v", err)
	}
	rows = []string{
		"01...2..3",
		"01...2..3",
		".........",
		"444444444",
	}
	data, n := gridMap(t, rows, "")
	m, err := state.ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != n || m.Grid == nil {
		t.Fatalf("got %d territories, grid %v", m.Len(), m.Grid != nil)
	}
	if got := m.Borders(); !slices.Equal(got, [][2]int{{0, 1}}) {
		t.Errorf("borders %v, want only 0–1", got)
	}
	for _, c := range []struct {
		a, b int
		want bool
	}{{1, 2, true}, {0, 2, true}, {2, 3, true}, {0, 4, true}, {0, 1, false}, {0, 3, true}} {
		if got := m.SeaLinked(c.a, c.b); got != c.want || m.SeaLinked(c.b, c.a) != c.want {
			t.Errorf("SeaLinked(%d,%d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if m.Reach(0, 2, false) != state.NoReach || m.Reach(0, 2, true) != state.BySea || m.Reach(0, 1, true) != state.ByLand {
		t.Error("Reach does not follow borders, sea links and ports")
	}
	if m.WaterBodies != 1 {
		t.Errorf("water bodies %d, want 1", m.WaterBodies)
	}
	for i, tr := range m.Territories {
		if !tr.Coast {
			t.Errorf("territory %d is not coastal", i)
		}
	}
	// The text form round-trips.
	j := m.Describe()
	if !slices.Equal(j.Grid.Rows, rows) {
		t.Errorf("grid rows %q, want %q", j.Grid.Rows, rows)
	}
}

func TestGridMapRejects(t *testing.T) {
	for _, c := range []struct {
		name  string
		rows  []string
		extra string
		want  string
	}{
		{"split territory", []string{"0.0", "111"}, "", `"T0" is in 2 separate pieces`},
		{"unknown cell", []string{"0Z", "11"}, "", `'Z': no such territory`},
		{"ragged row", []string{"01", "0"}, "", "row 1 has 1 cells"},
		{"islands joined by sea", []string{"0.1", "0.1"}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, _ := gridMap(t, c.rows, c.extra)
			_, err := state.ParseMap(data)
			if c.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to say %q", err, c.want)
			}
		})
	}
	// A file that lists a border the grid does not draw.
	data := []byte(`{"name":"g","continents":[{"name":"C","bonus":0,"territories":["A","B"]}],
		"territories":[{"name":"A"},{"name":"B"}],"borders":[["A","B"]],
		"grid":{"width":3,"height":1,"rows":["0.1"]}}`)
	if _, err := state.ParseMap(data); err == nil || !strings.Contains(err.Error(), "border A–B is not drawn on the grid") {
		t.Fatalf("error %v, want the undrawn border named", err)
	}
}
