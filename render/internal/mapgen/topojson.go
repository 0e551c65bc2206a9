package main

import (
	"encoding/json"
	"fmt"
)

// topology is the part of a TopoJSON file the generator reads: quantized,
// delta-encoded arcs and one geometry collection of countries.
type topology struct {
	Type      string `json:"type"`
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]float64 `json:"arcs"`
	Objects map[string]struct {
		Type       string `json:"type"`
		Geometries []struct {
			Type       string          `json:"type"`
			ID         string          `json:"id"`
			Arcs       json.RawMessage `json:"arcs"`
			Properties struct {
				Name string `json:"name"`
			} `json:"properties"`
		} `json:"geometries"`
	} `json:"objects"`
}

// point is a longitude/latitude pair in degrees.
type point struct{ X, Y float64 }

// ring is a closed polygon ring (the last point is not repeated).
type ring []point

// polygon is an outer ring followed by its holes.
type polygon []ring

// country is one named geometry of the source.
type country struct {
	Name     string
	Polygons []polygon
}

// decodeTopology decodes the countries object of a TopoJSON document into
// plain rings of degrees.
func decodeTopology(data []byte, object string) ([]country, error) {
	var t topology
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("mapgen: decode topojson: %w", err)
	}
	if t.Type != "Topology" {
		return nil, fmt.Errorf("mapgen: not a TopoJSON topology (type %q)", t.Type)
	}
	obj, ok := t.Objects[object]
	if !ok {
		return nil, fmt.Errorf("mapgen: topology has no object %q", object)
	}
	// Decode every arc to absolute coordinates once.
	arcs := make([][]point, len(t.Arcs))
	for i, a := range t.Arcs {
		pts := make([]point, len(a))
		var x, y float64
		for j, p := range a {
			if t.Transform != nil {
				x += p[0]
				y += p[1]
				pts[j] = point{x*t.Transform.Scale[0] + t.Transform.Translate[0], y*t.Transform.Scale[1] + t.Transform.Translate[1]}
			} else {
				pts[j] = point{p[0], p[1]}
			}
		}
		arcs[i] = pts
	}
	ringOf := func(idx []int) (ring, error) {
		var r ring
		for k, i := range idx {
			rev := i < 0
			if rev {
				i = ^i // ~i encodes arc i reversed
			}
			if i >= len(arcs) {
				return nil, fmt.Errorf("mapgen: arc %d out of range", i)
			}
			a := arcs[i]
			start := 0
			if k > 0 {
				start = 1 // the first point repeats the previous arc's last
			}
			for j := start; j < len(a); j++ {
				if rev {
					r = append(r, a[len(a)-1-j])
				} else {
					r = append(r, a[j])
				}
			}
		}
		if n := len(r); n > 1 && r[0] == r[n-1] {
			r = r[:n-1]
		}
		return r, nil
	}
	polyOf := func(rings [][]int) (polygon, error) {
		var p polygon
		for _, idx := range rings {
			r, err := ringOf(idx)
			if err != nil {
				return nil, err
			}
			if len(r) >= 3 {
				p = append(p, r)
			}
		}
		return p, nil
	}
	var out []country
	for _, g := range obj.Geometries {
		c := country{Name: g.Properties.Name}
		switch g.Type {
		case "Polygon":
			var rings [][]int
			if err := json.Unmarshal(g.Arcs, &rings); err != nil {
				return nil, fmt.Errorf("mapgen: %s: %w", c.Name, err)
			}
			p, err := polyOf(rings)
			if err != nil {
				return nil, err
			}
			if len(p) > 0 {
				c.Polygons = append(c.Polygons, p)
			}
		case "MultiPolygon":
			var polys [][][]int
			if err := json.Unmarshal(g.Arcs, &polys); err != nil {
				return nil, fmt.Errorf("mapgen: %s: %w", c.Name, err)
			}
			for _, rings := range polys {
				p, err := polyOf(rings)
				if err != nil {
					return nil, err
				}
				if len(p) > 0 {
					c.Polygons = append(c.Polygons, p)
				}
			}
		case "", "null":
			continue
		default:
			return nil, fmt.Errorf("mapgen: %s: unsupported geometry %q", c.Name, g.Type)
		}
		out = append(out, c)
	}
	return out, nil
}
