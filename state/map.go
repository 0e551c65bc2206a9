package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// MaxTerritories bounds the size of a map: the card deck (one card per
// territory plus two wilds) must fit a CardSet.
const MaxTerritories = 126

// Territory is one territory of a map. Its index in Map.Territories is its id
// everywhere else (commands, state, cards).
type Territory struct {
	Name      string
	Continent int
	Terrain   Terrain
	Aliases   []string
	// Adj lists the ids of the adjacent territories, ascending.
	Adj []int
	// The features of generated maps (capitals rule set): a fortress, a
	// shore (a port may be built), and Sea, the territories a port here
	// reaches by sea (ascending; none of them in Adj).
	Fortress bool
	Coast    bool
	Sea      []int
}

// Continent is a group of territories whose whole ownership earns a bonus.
type Continent struct {
	Name        string
	Bonus       int
	Aliases     []string
	Territories []int
}

// Map is an immutable board: territories, continents and borders. Matches
// share one *Map; nothing changes it after it is built.
type Map struct {
	Name        string
	Title       string
	Territories []Territory
	Continents  []Continent
	// Grid is the cell board of a generated map, nil for a drawn one.
	Grid *Grid
	// WaterBodies counts the separate bodies of water of a grid.
	WaterBodies int
	// Art is the picture and index of a drawn map imported from a map
	// maker's files; nil for the classic board and generated maps.
	Art *Art

	adj   [][2]uint64 // adjacency bitsets, one per territory
	sea   [][2]uint64 // sea-link bitsets, one per territory
	names nameIndex
}

// Len returns the number of territories.
func (m *Map) Len() int { return len(m.Territories) }

// Adjacent reports whether territories a and b share a border.
func (m *Map) Adjacent(a, b int) bool {
	return m.adj[a][b>>6]&(1<<(b&63)) != 0
}

// SeaLinked reports whether a port on a would reach b by sea. Territories
// that border each other are never sea-linked: they meet by land.
func (m *Map) SeaLinked(a, b int) bool {
	return m.sea != nil && m.sea[a][b>>6]&(1<<(b&63)) != 0
}

// Reach says how a territory reaches another.
type Reach uint8

// The ways of reaching a territory.
const (
	NoReach Reach = iota
	ByLand        // the two share a border
	BySea         // sea-linked, for a source with a port
)

// Reach returns how from reaches to: by land if they border, by sea if they
// are sea-linked and port is true (the source has a port), else not.
func (m *Map) Reach(from, to int, port bool) Reach {
	switch {
	case m.Adjacent(from, to):
		return ByLand
	case port && m.SeaLinked(from, to):
		return BySea
	}
	return NoReach
}

// Borders returns every border once, as pairs of ids with the lower id first,
// in ascending order.
func (m *Map) Borders() [][2]int {
	var out [][2]int
	for a, t := range m.Territories {
		for _, b := range t.Adj {
			if a < b {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// TerritoryName returns the name of territory t, or a placeholder for an invalid id.
func (m *Map) TerritoryName(t int) string {
	if t < 0 || t >= len(m.Territories) {
		return fmt.Sprintf("territory #%d", t)
	}
	return m.Territories[t].Name
}

// Index returns the id of the territory with exactly this name, or -1.
func (m *Map) Index(name string) int {
	for i, t := range m.Territories {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// mapFile is the JSON form of a map, as stored under assets/maps.
type mapFile struct {
	Name       string `json:"name"`
	Title      string `json:"title,omitempty"`
	Continents []struct {
		Name        string   `json:"name"`
		Bonus       int      `json:"bonus"`
		Aliases     []string `json:"aliases,omitempty"`
		Territories []string `json:"territories"`
	} `json:"continents"`
	Territories []struct {
		Name     string   `json:"name"`
		Terrain  string   `json:"terrain,omitempty"`
		Aliases  []string `json:"aliases,omitempty"`
		Fortress bool     `json:"fortress,omitempty"`
	} `json:"territories"`
	Borders [][]string `json:"borders"`
	// Grid draws a generated map; its borders are those of the cells.
	Grid *GridSpec `json:"grid,omitempty"`
}

// rawMap is a map before validation. Edges are directed, so that formats that
// list each territory's neighbours can be checked for one-way borders.
type rawMap struct {
	name, title string
	continents  []rawContinent
	territories []rawTerritory
	edges       [][2]string // directed: from, to
	twoWay      bool        // edges were given as unordered pairs
	grid        *Grid       // the cells, whose borders must be the edges
	gridSpec    *GridSpec   // or their text form
	art         *Art
}

type rawContinent struct {
	name    string
	bonus   int
	aliases []string
	members []string
}

type rawTerritory struct {
	name     string
	terrain  string
	aliases  []string
	fortress bool
}

// ParseMap reads a map in the project's JSON format and validates it.
func ParseMap(data []byte) (*Map, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f mapFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("map: not a valid map file: %w", err)
	}
	raw := rawMap{name: f.Name, title: f.Title, twoWay: true, gridSpec: f.Grid}
	for _, c := range f.Continents {
		raw.continents = append(raw.continents, rawContinent{c.Name, c.Bonus, c.Aliases, c.Territories})
	}
	for _, t := range f.Territories {
		raw.territories = append(raw.territories, rawTerritory{t.Name, t.Terrain, t.Aliases, t.Fortress})
	}
	var problems []string
	for i, b := range f.Borders {
		if len(b) != 2 {
			problems = append(problems, fmt.Sprintf("border #%d has %d names, want 2", i+1, len(b)))
			continue
		}
		raw.edges = append(raw.edges, [2]string{b[0], b[1]}, [2]string{b[1], b[0]})
	}
	if len(problems) > 0 {
		return nil, mapError(f.Name, problems)
	}
	return raw.build()
}

func mapError(name string, problems []string) error {
	// Pairs of names give each border twice: report each problem once.
	seen := map[string]bool{}
	uniq := problems[:0:0]
	for _, p := range problems {
		if !seen[p] {
			seen[p] = true
			uniq = append(uniq, p)
		}
	}
	problems = uniq
	const maxShown = 12
	more := ""
	if len(problems) > maxShown {
		more = fmt.Sprintf("\n  ... and %d more", len(problems)-maxShown)
		problems = problems[:maxShown]
	}
	if name == "" {
		name = "(unnamed)"
	}
	return fmt.Errorf("map %s is invalid:\n  %s%s", name, strings.Join(problems, "\n  "), more)
}

// build validates the raw map and turns it into a Map. Every problem found
// is reported, not just the first.
func (r rawMap) build() (*Map, error) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(r.name) == "" {
		add("the map has no name")
	}
	if len(r.territories) < 2 {
		add("the map has %d territories, want at least 2", len(r.territories))
	}
	if len(r.territories) > MaxTerritories {
		add("the map has %d territories, want at most %d", len(r.territories), MaxTerritories)
		return nil, mapError(r.name, problems)
	}
	if len(r.continents) == 0 {
		add("the map has no continents")
	}
	m := &Map{Name: r.name, Title: r.title}
	if m.Title == "" {
		m.Title = r.name
	}
	id := make(map[string]int, len(r.territories))
	for i, t := range r.territories {
		if strings.TrimSpace(t.name) == "" {
			add("territory #%d has no name", i+1)
			continue
		}
		if _, dup := id[t.name]; dup {
			add("duplicate territory %q", t.name)
			continue
		}
		id[t.name] = i
	}
	m.Territories = make([]Territory, len(r.territories))
	for i, t := range r.territories {
		terrain := Plain
		if t.terrain != "" {
			v, err := ParseTerrain(t.terrain)
			if err != nil {
				add("territory %q: %v", t.name, err)
			}
			terrain = v
		}
		m.Territories[i] = Territory{Name: t.name, Continent: -1, Terrain: terrain, Aliases: t.aliases}
	}
	contNames := map[string]bool{}
	for ci, c := range r.continents {
		if strings.TrimSpace(c.name) == "" {
			add("continent #%d has no name", ci+1)
		} else if contNames[c.name] {
			add("duplicate continent %q", c.name)
		}
		contNames[c.name] = true
		if c.bonus < 0 {
			add("continent %q has a negative bonus %d", c.name, c.bonus)
		}
		if len(c.members) == 0 {
			add("continent %q has no territories", c.name)
		}
		cont := Continent{Name: c.name, Bonus: c.bonus, Aliases: c.aliases}
		for _, tn := range c.members {
			t, ok := id[tn]
			if !ok {
				add("continent %q lists unknown territory %q%s", c.name, tn, suggestIn(tn, id))
				continue
			}
			if prev := m.Territories[t].Continent; prev >= 0 {
				if prev == ci {
					add("continent %q lists %q twice", c.name, tn)
				} else {
					add("territory %q is in two continents: %q and %q", tn, r.continents[prev].name, c.name)
				}
				continue
			}
			m.Territories[t].Continent = ci
			cont.Territories = append(cont.Territories, t)
		}
		m.Continents = append(m.Continents, cont)
	}
	for _, t := range m.Territories {
		if t.Continent < 0 && t.Name != "" {
			add("territory %q is in no continent", t.Name)
		}
	}
	var facts gridFacts
	if r.gridSpec != nil && r.grid == nil {
		if g, err := r.gridSpec.Grid(len(r.territories)); err != nil {
			add("%v", err)
		} else {
			r.grid = g
		}
	}
	if r.grid != nil {
		names := make([]string, len(r.territories))
		for i, t := range r.territories {
			names[i] = t.name
		}
		f, gridProblems := r.grid.facts(names)
		problems = append(problems, gridProblems...)
		if len(gridProblems) > 0 {
			return nil, mapError(r.name, problems)
		}
		facts = f
		var cellEdges [][2]string
		for _, e := range f.edges {
			a, b := names[e[0]], names[e[1]]
			cellEdges = append(cellEdges, [2]string{a, b}, [2]string{b, a})
		}
		if len(r.edges) == 0 {
			r.edges, r.twoWay = cellEdges, true
		} else {
			problems = append(problems, compareEdges(r.edges, cellEdges)...)
		}
		m.Grid, m.WaterBodies = r.grid, f.bodies
	}
	for i, t := range r.territories {
		m.Territories[i].Fortress = t.fortress
	}
	if r.art != nil {
		if r.grid != nil {
			add("a map is drawn from its cells or from its art, not both")
		} else if err := r.art.check(len(r.territories)); err != nil {
			add("%v", err)
		}
		m.Art = r.art
	}
	m.adj = make([][2]uint64, len(m.Territories))
	type pair struct{ a, b int }
	seen := map[pair]bool{}
	for _, e := range r.edges {
		a, okA := id[e[0]]
		b, okB := id[e[1]]
		a0, b0 := e[0], e[1]
		if r.twoWay && b0 < a0 {
			a0, b0 = b0, a0 // one spelling of the pair, for the report
		}
		if !okA {
			add("border %s–%s names unknown territory %q%s", a0, b0, e[0], suggestIn(e[0], id))
		}
		if !okB && e[1] != e[0] {
			add("border %s–%s names unknown territory %q%s", a0, b0, e[1], suggestIn(e[1], id))
		}
		if !okA || !okB {
			continue
		}
		if a == b {
			add("territory %q borders itself", e[0])
			continue
		}
		if seen[pair{a, b}] {
			if r.twoWay && a < b {
				add("duplicate border %s–%s", e[0], e[1])
			} else if !r.twoWay {
				add("duplicate border %s–%s", e[0], e[1])
			}
			continue
		}
		seen[pair{a, b}] = true
		m.adj[a][b>>6] |= 1 << (b & 63)
	}
	var oneWay []string
	for p := range seen {
		if !seen[pair{p.b, p.a}] {
			oneWay = append(oneWay, fmt.Sprintf("one-way border: %s lists %s but %s does not list %s",
				m.Territories[p.a].Name, m.Territories[p.b].Name, m.Territories[p.b].Name, m.Territories[p.a].Name))
		}
	}
	slices.Sort(oneWay) // seen is a map: give a stable report
	problems = append(problems, oneWay...)
	if len(problems) > 0 {
		return nil, mapError(r.name, problems)
	}
	for a := range m.Territories {
		for b := range m.Territories {
			if m.Adjacent(a, b) {
				m.Territories[a].Adj = append(m.Territories[a].Adj, b)
			}
		}
	}
	if m.Grid != nil {
		m.sea = make([][2]uint64, len(m.Territories))
		for _, p := range facts.sea {
			a, b := p[0], p[1]
			m.sea[a][b>>6] |= 1 << (b & 63)
			m.sea[b][a>>6] |= 1 << (a & 63)
			m.Territories[a].Sea = append(m.Territories[a].Sea, b)
			m.Territories[b].Sea = append(m.Territories[b].Sea, a)
		}
		for t := range m.Territories {
			m.Territories[t].Coast = facts.coast[t]
			slices.Sort(m.Territories[t].Sea)
		}
	}
	if parts := m.components(); len(parts) > 1 {
		var names []string
		for _, p := range parts[1:] {
			var ns []string
			for _, t := range p {
				ns = append(ns, m.Territories[t].Name)
			}
			names = append(names, strings.Join(ns, ", "))
		}
		add("the map is not connected%s: %s cannot reach %s", bySea(m), strings.Join(names, "; "), m.Territories[parts[0][0]].Name)
		for _, t := range m.Territories {
			if len(t.Adj) == 0 && len(t.Sea) == 0 {
				add("territory %q has no borders", t.Name)
			}
		}
		return nil, mapError(r.name, problems)
	}
	m.names = buildNameIndex(m)
	return m, nil
}

// bySea qualifies "connected" for maps with sea links.
func bySea(m *Map) string {
	if m.Grid != nil {
		return " by land or sea"
	}
	return ""
}

// compareEdges reports the borders a map file lists that its grid does not
// draw, and the other way round.
func compareEdges(listed, cells [][2]string) []string {
	in := func(set [][2]string) map[[2]string]bool {
		m := make(map[[2]string]bool, len(set))
		for _, e := range set {
			m[e] = true
		}
		return m
	}
	l, c := in(listed), in(cells)
	var out []string
	for _, e := range listed {
		if !c[e] && e[0] < e[1] {
			out = append(out, fmt.Sprintf("border %s–%s is not drawn on the grid", e[0], e[1]))
		}
	}
	for _, e := range cells {
		if !l[e] && e[0] < e[1] {
			out = append(out, fmt.Sprintf("border %s–%s is drawn on the grid but not listed", e[0], e[1]))
		}
	}
	return out
}

// components returns the connected parts of the graph of borders and sea
// links, largest first.
func (m *Map) components() [][]int {
	seen := make([]bool, len(m.Territories))
	var parts [][]int
	for start := range m.Territories {
		if seen[start] {
			continue
		}
		part := []int{start}
		seen[start] = true
		for i := 0; i < len(part); i++ {
			t := m.Territories[part[i]]
			for _, n := range slices.Concat(t.Adj, t.Sea) {
				if !seen[n] {
					seen[n] = true
					part = append(part, n)
				}
			}
		}
		parts = append(parts, part)
	}
	slices.SortStableFunc(parts, func(a, b []int) int { return len(b) - len(a) })
	return parts
}

func suggestIn(name string, ids map[string]int) string {
	best, bestD := "", 1<<30
	for n := range ids {
		d := EditDistance(normalizeJoined(name), normalizeJoined(n))
		if d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	if best != "" && bestD <= max(2, len(name)/3) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// MapSpec is a map before validation, as a generator makes it. With a Grid
// the borders are those of the cells and Borders must be empty.
type MapSpec struct {
	Name, Title string
	Continents  []ContinentSpec
	Territories []TerritorySpec
	Borders     [][2]string
	Grid        *Grid
	// Art is the picture of a drawn map (engine/mapfile), or nil.
	Art *Art
}

// ContinentSpec is a continent of a MapSpec, naming its territories.
type ContinentSpec struct {
	Name        string
	Bonus       int
	Territories []string
}

// TerritorySpec is a territory of a MapSpec.
type TerritorySpec struct {
	Name     string
	Terrain  Terrain
	Aliases  []string
	Fortress bool
}

// NewMap validates spec, exactly as ParseMap validates a file, and builds
// the map.
func NewMap(spec MapSpec) (*Map, error) {
	raw := rawMap{name: spec.Name, title: spec.Title, twoWay: true, grid: spec.Grid, art: spec.Art}
	for _, c := range spec.Continents {
		raw.continents = append(raw.continents, rawContinent{name: c.Name, bonus: c.Bonus, members: c.Territories})
	}
	for _, t := range spec.Territories {
		raw.territories = append(raw.territories, rawTerritory{t.Name, t.Terrain.String(), t.Aliases, t.Fortress})
	}
	for _, b := range spec.Borders {
		raw.edges = append(raw.edges, b, [2]string{b[1], b[0]})
	}
	return raw.build()
}

// MapJSON is the public JSON description of a map, as printed by
// `risk map show --json`.
type MapJSON struct {
	Name       string `json:"name"`
	Title      string `json:"title"`
	Continents []struct {
		Name        string   `json:"name"`
		Bonus       int      `json:"bonus"`
		Territories []string `json:"territories"`
	} `json:"continents"`
	Territories []TerritoryJSON `json:"territories"`
	Borders     [][2]string     `json:"borders"`
	// The features of generated maps.
	SeaLinks    [][2]string `json:"sea_links,omitempty"`
	WaterBodies int         `json:"water_bodies,omitempty"`
	Grid        *GridSpec   `json:"grid,omitempty"`
}

// TerritoryJSON is one territory of a MapJSON.
type TerritoryJSON struct {
	Name      string  `json:"name"`
	Continent string  `json:"continent"`
	Terrain   Terrain `json:"terrain"`
	Fortress  bool    `json:"fortress,omitempty"`
	Coast     bool    `json:"coast,omitempty"`
}

// Describe returns the public description of the map.
func (m *Map) Describe() MapJSON {
	var j MapJSON
	j.Name, j.Title = m.Name, m.Title
	for _, c := range m.Continents {
		var names []string
		for _, t := range c.Territories {
			names = append(names, m.Territories[t].Name)
		}
		j.Continents = append(j.Continents, struct {
			Name        string   `json:"name"`
			Bonus       int      `json:"bonus"`
			Territories []string `json:"territories"`
		}{c.Name, c.Bonus, names})
	}
	for _, t := range m.Territories {
		tj := TerritoryJSON{Name: t.Name, Continent: m.Continents[t.Continent].Name, Terrain: t.Terrain, Fortress: t.Fortress}
		tj.Coast = m.Grid != nil && t.Coast
		j.Territories = append(j.Territories, tj)
	}
	for _, b := range m.Borders() {
		j.Borders = append(j.Borders, [2]string{m.Territories[b[0]].Name, m.Territories[b[1]].Name})
	}
	if m.Grid != nil {
		for a, t := range m.Territories {
			for _, b := range t.Sea {
				if a < b {
					j.SeaLinks = append(j.SeaLinks, [2]string{t.Name, m.Territories[b].Name})
				}
			}
		}
		spec := m.Grid.Spec()
		j.Grid, j.WaterBodies = &spec, m.WaterBodies
	}
	return j
}

// ErrNoSuchMap is returned when a map name is not known.
var ErrNoSuchMap = errors.New("no such map")
