package render

import (
	"testing"
)

// TestGeometry checks the committed board against the map's adjacency,
// which is authoritative: land contacts are borders of the map, and every
// border is either a contact or a drawn connector, once.
func TestGeometry(t *testing.T) {
	m := classicMap(t)
	geo, mask, err := loadGeometry(worldFS(), "classic")
	if err != nil {
		t.Fatal(err)
	}
	if err := matchGeometry(geo, m); err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]string{}
	for _, c := range geo.Contacts {
		if !m.Adjacent(c[0], c[1]) {
			t.Errorf("the geometry adds a border: %s–%s", m.TerritoryName(c[0]), m.TerritoryName(c[1]))
		}
		seen[c] = "contact"
	}
	for _, c := range geo.Connectors {
		p := [2]int{min(c.A, c.B), max(c.A, c.B)}
		if !m.Adjacent(c.A, c.B) {
			t.Errorf("a connector joins %s and %s, which do not border", m.TerritoryName(c.A), m.TerritoryName(c.B))
		}
		if seen[p] != "" {
			t.Errorf("%s–%s is both a %s and a connector", m.TerritoryName(c.A), m.TerritoryName(c.B), seen[p])
		}
		seen[p] = "connector"
	}
	for _, e := range m.Borders() {
		if seen[e] == "" {
			t.Errorf("border %s–%s is neither a land contact nor a connector", m.TerritoryName(e[0]), m.TerritoryName(e[1]))
		}
	}
	if len(seen) != len(m.Borders()) {
		t.Errorf("%d contacts and connectors for %d borders", len(seen), len(m.Borders()))
	}
	// The contacts listed are the ones the mask has (4-neighbours).
	w, h := geo.Width, geo.Height
	for y := range h {
		for x := range w {
			a := mask[y*w+x]
			for _, d := range [2][2]int{{1, 0}, {0, 1}} {
				if x+d[0] >= w || y+d[1] >= h {
					continue
				}
				b := mask[(y+d[1])*w+x+d[0]]
				if a == 0 || b == 0 || a == b {
					continue
				}
				p := [2]int{int(min(a, b)) - 1, int(max(a, b)) - 1}
				if seen[p] != "contact" {
					t.Fatalf("the mask has %s touching %s at (%d, %d), not a listed contact", m.TerritoryName(p[0]), m.TerritoryName(p[1]), x, y)
				}
			}
		}
	}
	// Alaska–Kamchatka goes round the edge of the map.
	wraps := 0
	for _, c := range geo.Connectors {
		if c.Wrap {
			wraps++
			if names := m.TerritoryName(c.A) + "–" + m.TerritoryName(c.B); names != "Alaska–Kamchatka" {
				t.Errorf("unexpected wrapping connector %s", names)
			}
		}
	}
	if wraps != 1 {
		t.Errorf("%d connectors wrap, want 1 (Alaska–Kamchatka)", wraps)
	}
}
