package main

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/assets"
	"github.com/riskbot/riskbot/state"
)

func TestDecodeTopology(t *testing.T) {
	// Two triangles sharing the edge of arc 0; B runs it backwards
	// (~0 = -1). Quantized with scale 2, translate (-10, 0).
	data := []byte(`{"type":"Topology","transform":{"scale":[2,2],"translate":[-10,0]},
		"arcs":[[[0,0],[1,0]],[[1,0],[0,1],[-1,-1]],[[0,0],[1,-1],[0,1]]],
		"objects":{"countries":{"type":"GeometryCollection","geometries":[
			{"type":"Polygon","arcs":[[0,1]],"properties":{"name":"A"}},
			{"type":"MultiPolygon","arcs":[[[-1,2]]],"properties":{"name":"B"}},
			{"type":null,"properties":{"name":"C"}}]}}}`)
	cs, err := decodeTopology(data, "countries")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Name != "A" || cs[1].Name != "B" {
		t.Fatalf("got %+v", cs)
	}
	// Arc 0: (-10,0) (-8,0). Arc 1: (-8,0) (-8,2) (-10,0).
	want := ring{{-10, 0}, {-8, 0}, {-8, 2}}
	if got := cs[0].Polygons[0][0]; !sameRing(got, want) {
		t.Errorf("A = %v, want %v", got, want)
	}
	// Arc 0 reversed: (-8,0) (-10,0), then arc 2 without its first point,
	// and without the closing point.
	want = ring{{-8, 0}, {-10, 0}, {-8, -2}}
	if got := cs[1].Polygons[0][0]; !sameRing(got, want) {
		t.Errorf("B = %v, want %v", got, want)
	}
	if _, err := decodeTopology([]byte(`{"type":"FeatureCollection"}`), "countries"); err == nil {
		t.Error("a non-topology decoded")
	}
}

func sameRing(a, b ring) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].X-b[i].X) > 1e-9 || math.Abs(a[i].Y-b[i].Y) > 1e-9 {
			return false
		}
	}
	return true
}

func TestUnwrap(t *testing.T) {
	got := unwrap(ring{{178, 60}, {-179, 61}, {-178, 65}, {179, 66}})
	want := ring{{178, 60}, {181, 61}, {182, 65}, {179, 66}}
	if !sameRing(got, want) {
		t.Errorf("unwrap = %v, want %v", got, want)
	}
}

func TestSourceRoundTrip(t *testing.T) {
	cs := []country{{Name: "X", Polygons: []polygon{{ring{{10.123, 5}, {11, 5.5}, {10.5, 7}}, ring{{10.4, 5.6}, {10.6, 5.6}, {10.5, 5.8}}}}}}
	data, err := encodeSource(cs, "test")
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeSource(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range cs[0].Polygons[0] {
		got := back[0].Polygons[0][i]
		for j, p := range r {
			if math.Abs(got[j].X-p.X) > 0.006 || math.Abs(got[j].Y-p.Y) > 0.006 {
				t.Errorf("ring %d point %d: %v, want %v", i, j, got[j], p)
			}
		}
	}
}

func TestProjectionRoundTrip(t *testing.T) {
	cp := classicParams()
	pr := newProjection(3200, cp)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		lon := cp.Lon0 + 360*rng.Float64()
		lat := cp.LatMin + (cp.LatMax-cp.LatMin)*rng.Float64()
		x, y := pr.Project(lon, lat)
		// The magnifier pushes the far north of Europe (open sea) off the top.
		if x < -1 || x > float64(pr.W)+1 || y < -30 || y > float64(pr.H)+1 {
			t.Fatalf("(%.2f, %.2f) projects off the mask: (%.1f, %.1f)", lon, lat, x, y)
		}
		lon2, lat2 := pr.Inverse(x, y)
		if math.Abs(lon2-lon) > 1e-6 || math.Abs(lat2-lat) > 1e-6 {
			t.Fatalf("(%.4f, %.4f) comes back as (%.4f, %.4f)", lon, lat, lon2, lat2)
		}
	}
	// The magnifier enlarges Europe: a degree there is longer than on the
	// same parallel far away.
	x0, _ := pr.Project(10, 50)
	x1, _ := pr.Project(11, 50)
	x2, _ := pr.Project(-100, 50)
	x3, _ := pr.Project(-99, 50)
	if k := (x1 - x0) / (x3 - x2); k < 1.5 {
		t.Errorf("Europe is magnified %.2f times, want at least 1.5", k)
	}
}

func TestAssign(t *testing.T) {
	tests := []struct {
		country  string
		lon, lat float64
		want     string
	}{
		{"Canada", -114, 53, "Alberta"},
		{"Canada", -85, 50, "Ontario"},
		{"Canada", -71, 68.5, "Ontario"}, // Baffin Island
		{"Canada", -73, 47, "Quebec"},
		{"Canada", -120, 65, "Northwest Territory"},
		{"Canada", -80, 80, "Northwest Territory"}, // Ellesmere
		{"United States of America", -150, 63, "Alaska"},
		{"United States of America", -157, 21, ""}, // Hawaii
		{"United States of America", -110, 40, "Western United States"},
		{"United States of America", -80, 35, "Eastern United States"},
		{"Russia", 38, 55, "Ukraine"},
		{"Russia", 65, 58, "Ural"},
		{"Russia", 90, 60, "Siberia"},
		{"Russia", 110, 52, "Irkutsk"},
		{"Russia", 128, 62, "Yakutsk"},
		{"Russia", 160, 55, "Kamchatka"},
		{"Russia", 188, 66, "Kamchatka"}, // Chukotka, past the antimeridian
		{"Kazakhstan", 75, 50, "Ural"},
		{"Kazakhstan", 60, 43, "Afghanistan"},
		{"China", 125, 45, "Mongolia"},
		{"China", 105, 30, "China"},
		{"Indonesia", 138, -4, "New Guinea"},
		{"Indonesia", 110, -7, "Indonesia"},
		{"France", 2, 47, "Western Europe"},
		{"France", -53, 4, "Venezuela"},
		{"France", 55, -21, ""},
		{"Iceland", -19, 65, "Iceland"},
		{"Antarctica", 0, -80, ""},
	}
	rs := newRules()
	for _, tt := range tests {
		got, ok := rs.assign(tt.country, tt.lon, tt.lat)
		if tt.country == "Antarctica" {
			if ok {
				t.Errorf("Antarctica has a rule")
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("assign(%s, %g, %g) = %q, %v; want %q", tt.country, tt.lon, tt.lat, got, ok, tt.want)
		}
	}
}

// TestCommittedOutput rebuilds the board from the committed extract and
// checks that the committed mask and geometry are what the generator makes
// now: nobody edited them by hand or forgot to run go generate.
func TestCommittedOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilds the whole board")
	}
	dir := filepath.Join("..", "..", "..", "assets", "world")
	src, err := os.ReadFile(filepath.Join(dir, "source", "countries.json"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := decodeSource(src)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(assets.Maps, "maps/classic.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := state.ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	geo, mask, err := build(m, cs, classicParams())
	if err != nil {
		t.Fatal(err)
	}
	meta, err := marshalGeometry(geo)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "classic", "geometry.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(meta, want) {
		t.Error("assets/world/classic/geometry.json is stale: run go generate ./render/...")
	}
	f, err := os.ReadFile(filepath.Join(dir, "classic", "mask.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray)
	if !ok || !bytes.Equal(g.Pix, mask) {
		t.Error("assets/world/classic/mask.png is stale: run go generate ./render/...")
	}
}
