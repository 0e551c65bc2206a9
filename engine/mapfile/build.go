package mapfile

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// build checks a parsed map against its images and makes its board.
// extra are problems its caller found (files missing beside the .map).
func build(t *text, f Files, o Options, extra []string) (*Board, error) {
	problems := slices.Clone(extra)
	problems = append(problems, t.problems...)
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	raw := t.title
	if raw == "" {
		raw = o.Name
	}
	title := cleanName(raw, maxTitleRunes)
	switch {
	case raw == "":
		add("the map has no name: add a line `name TITLE` before [files]")
	case title == "":
		add("line %d: the name %q is empty once cleaned of markup", t.titleLine, clip(raw))
	}
	author := cleanName(t.author, maxTitleRunes)
	errName := title
	if errName == "" {
		errName = "the map"
	}
	refuse := func() error { return &Error{Name: errName, Problems: problems} }

	// Names, cleaned; each unique in its kind (seen: the line of each name
	// of the kind, lower-cased).
	seen := map[string]int{}
	uniqueName := func(kind, raw string, line int) string {
		name := cleanName(raw, maxNameRunes)
		switch {
		case name == "":
			add("line %d: the %s name %q is empty once cleaned of markup", line, kind, clip(raw))
		case seen[strings.ToLower(name)] > 0:
			add("line %d: %s %q%s has the name of line %d", line, kind, name, written(name, raw), seen[strings.ToLower(name)])
		default:
			seen[strings.ToLower(name)] = line
		}
		return name
	}
	continents := slices.Clone(t.continents)
	for i := range continents {
		c := &continents[i]
		c.name = uniqueName("continent", c.raw, c.line)
		if c.bonus < 0 || c.bonus > MaxBonus {
			add("line %d: continent %q has a bonus of %d: want 0..%d", c.line, c.name, c.bonus, MaxBonus)
		}
	}
	countries := slices.Clone(t.countries)
	n := len(countries)
	clear(seen)
	members := make([]int, len(continents))
	for i := range countries {
		c := &countries[i]
		c.name = uniqueName("territory", c.raw, c.line)
		if c.continent < 1 || c.continent > len(continents) {
			add("line %d: territory %q is in continent %d, which does not exist (want 1..%d)", c.line, c.name, c.continent, len(continents))
		} else {
			members[c.continent-1]++
		}
	}
	for i, c := range continents {
		if members[i] == 0 {
			add("line %d: continent %q has no territory", c.line, c.name)
		}
	}
	switch {
	case n > state.MaxTerritories:
		add("the map has %d territories: at most %d", n, state.MaxTerritories)
		return nil, refuse() // the rest would only repeat it
	case n < 2 && t.sections["countries"]:
		add("the map has %d territories: want at least 2", n)
	}
	name := func(id int) string { // id from 1
		if id >= 1 && id <= n {
			return fmt.Sprintf("%s (%d)", countries[id-1].name, id)
		}
		return fmt.Sprintf("territory %d", id)
	}

	// Borders: two-way, every territory with one, all in one piece.
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
	}
	froms := make([]int, 0, len(t.borders))
	for from := range t.borders {
		froms = append(froms, from)
	}
	slices.Sort(froms)
	for _, from := range froms {
		line := t.borderLine[from]
		if from < 1 || from > n {
			add("line %d: territory %d does not exist (want 1..%d)", line, from, n)
			continue
		}
		for _, to := range t.borders[from] {
			if to < 1 || to > n {
				add("line %d: %s lists territory %d, which does not exist (want 1..%d)", line, name(from), to, n)
				continue
			}
			adj[from-1][to-1] = true
		}
	}
	for a := range n {
		for b := range n {
			if adj[a][b] && !adj[b][a] {
				if o.Mutual {
					adj[b][a] = true
					continue
				}
				where := "has no [borders] line"
				if l, ok := t.borderLine[b+1]; ok {
					where = fmt.Sprintf("does not list it (line %d)", l)
				}
				add("line %d: %s lists %s as a neighbour, but %s %s: fix it, or import with the borders made two-way",
					t.borderLine[a+1], name(a+1), name(b+1), countries[b].name, where)
			}
		}
	}
	lonely := false
	for a := range n {
		if !slices.Contains(adj[a], true) {
			add("line %d: %s has no neighbour", countries[a].line, name(a+1))
			lonely = true
		}
	}
	if parts := components(adj); len(parts) > 1 && !lonely {
		var cut []string
		for _, p := range parts[1:] {
			var ns []string
			for _, a := range p[:min(len(p), 4)] {
				ns = append(ns, countries[a].name)
			}
			if len(p) > 4 {
				ns = append(ns, fmt.Sprintf("%d more", len(p)-4))
			}
			cut = append(cut, strings.Join(ns, ", "))
		}
		add("the board is not connected: %s cannot reach %s", strings.Join(cut, "; "), countries[parts[0][0]].name)
	}

	// The images: decodable, of one size, every territory drawn, every
	// pixel a territory or none, every marker on its own territory.
	var (
		w, h    int
		ids     []uint8
		picture = f.Picture
		ext     string
	)
	pic, picFormat, picErr := decodeGiven("picture", t.pic, f.Picture)
	idx, _, idxErr := decodeGiven("index image", t.index, f.Index)
	for _, err := range []error{picErr, idxErr} {
		if err != nil && err != errNotGiven {
			add("%v", err)
		}
	}
	if pic != nil && idx != nil {
		pb, ib := pic.Bounds(), idx.Bounds()
		if pb.Dx() != ib.Dx() || pb.Dy() != ib.Dy() {
			add("the picture is %dx%d pixels but the index image is %dx%d: they must be the same size", pb.Dx(), pb.Dy(), ib.Dx(), ib.Dy())
		}
	}
	if idx != nil {
		w, h = idx.Bounds().Dx(), idx.Bounds().Dy()
		ids = indexValues(idx)
		var count [256]int
		var first [256]int
		for i, v := range ids {
			if count[v] == 0 {
				first[v] = i
			}
			count[v]++
		}
		for v := range 256 {
			if count[v] > 0 && !none(uint8(v)) && v > n {
				add("the index image has %d pixels of value %d (the first at %d,%d), which is no territory: want 1..%d, or 0 or 255 for none",
					count[v], v, first[v]%w, first[v]/w, n)
			}
		}
		for i, c := range countries {
			if count[i+1] == 0 {
				add("line %d: %s is not in the index image: no pixel has the value %d", c.line, name(i+1), i+1)
			}
		}
		for i, c := range countries {
			if c.x < 0 || c.y < 0 || c.x >= w || c.y >= h {
				add("line %d: the marker of %s at %d,%d is outside the %dx%d index image", c.line, name(i+1), c.x, c.y, w, h)
				continue
			}
			v := int(ids[c.y*w+c.x])
			if v == i+1 || count[i+1] == 0 {
				continue
			}
			under := fmt.Sprintf("value %d, no territory", v)
			switch {
			case none(uint8(v)):
				under = fmt.Sprintf("no territory (value %d)", v)
			case v <= n:
				under = name(v)
			}
			add("line %d: the marker of %s at %d,%d is on %s", c.line, name(i+1), c.x, c.y, under)
		}
		for i, v := range ids {
			if none(v) || int(v) > n {
				ids[i] = 0
			}
		}
	}
	if len(problems) > 0 {
		return nil, refuse()
	}
	if pic == nil || idx == nil {
		return nil, fmt.Errorf("mapfile: %s: no images, and no problem said why", title)
	}

	// The canonical files.
	switch picFormat {
	case "png", "gif":
		ext = picFormat
	case "jpeg":
		ext = "jpg"
	default: // bmp: the renderer reads PNG, JPEG and GIF
		var err error
		if picture, err = encodePNG(pic); err != nil {
			return nil, err
		}
		ext = "png"
	}
	index, err := encodeIndex(w, h, ids)
	if err != nil {
		return nil, err
	}
	b := &Board{Title: title, Author: author, PictureExt: ext}
	_, pn, in := b.FileNames()
	var sb strings.Builder
	sb.WriteString("; " + title + ": a Domination map, in riskbot's canonical layout\n\n")
	fmt.Fprintf(&sb, "name %s\n", title)
	if author != "" {
		fmt.Fprintf(&sb, "author %s\n", author)
	}
	if t.ver != "" {
		fmt.Fprintf(&sb, "ver %s\n", t.ver)
	}
	if t.circle != "" {
		fmt.Fprintf(&sb, "circle %s\n", t.circle)
	}
	fmt.Fprintf(&sb, "\n[files]\npic %s\nmap %s\n\n[continents]\n", pn, in)
	for _, c := range continents {
		fmt.Fprintf(&sb, "%s %d %s\n", token(c.name), c.bonus, c.colour)
	}
	sb.WriteString("\n[countries]\n")
	for i, c := range countries {
		fmt.Fprintf(&sb, "%d %s %d %d %d\n", i+1, token(c.name), c.continent, c.x, c.y)
	}
	sb.WriteString("\n[borders]\n")
	for a := range n {
		fmt.Fprintf(&sb, "%d", a+1)
		for b := range n {
			if adj[a][b] {
				fmt.Fprintf(&sb, " %d", b+1)
			}
		}
		sb.WriteString("\n")
	}
	b.Files = Files{Map: []byte(sb.String()), Picture: picture, Index: index}
	b.Hash = hash(b.Files.Map, picture, w, h, ids)

	// The engine's board.
	spec := state.MapSpec{Name: engine.LibraryName(b.Hash), Title: title}
	spec.Art = &state.Art{W: w, H: h, Picture: picture, Index: ids, Markers: make([][2]int, n)}
	for _, c := range continents {
		spec.Continents = append(spec.Continents, state.ContinentSpec{Name: c.name, Bonus: c.bonus})
	}
	for i, c := range countries {
		spec.Territories = append(spec.Territories, state.TerritorySpec{Name: c.name, Terrain: state.Plain})
		spec.Continents[c.continent-1].Territories = append(spec.Continents[c.continent-1].Territories, c.name)
		spec.Art.Markers[i] = [2]int{c.x, c.y}
		for j := i + 1; j < n; j++ {
			if adj[i][j] {
				spec.Borders = append(spec.Borders, [2]string{c.name, countries[j].name})
			}
		}
	}
	m, err := state.NewMap(spec)
	if err != nil {
		// Every check of state's is made above with lines named; one
		// missed is a bug here, not the map maker's.
		return nil, fmt.Errorf("mapfile: %s: %w", title, err)
	}
	b.Map = m
	return b, nil
}

// written says how a name was written when cleaning changed it.
func written(clean, raw string) string {
	if strings.ReplaceAll(raw, "_", " ") == clean {
		return ""
	}
	return fmt.Sprintf(" (written %q)", clip(raw))
}

// errNotGiven is an image the files do not hold: the problem is the
// missing [files] line or file, reported where it is found.
var errNotGiven = errors.New("not given")

func decodeGiven(what string, named file, data []byte) (img image.Image, format string, err error) {
	if data == nil {
		if named.name == "" || named.failed {
			return nil, "", errNotGiven
		}
		return nil, "", fmt.Errorf("line %d: the %s %q is not given", named.line, what, named.name)
	}
	return decode(what, data)
}

// hash is the hex SHA-256 of a map's canonical content: the text, the
// picture's bytes, and the index as its pixels (not its PNG bytes, so that
// a change of the PNG encoder does not rename every map). Each part is
// prefixed by its length.
func hash(text, picture []byte, w, h int, ids []uint8) string {
	d := sha256.New()
	var n [8]byte
	part := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		d.Write(n[:])
		d.Write(b)
	}
	d.Write([]byte("riskbot map 1\n"))
	part(text)
	part(picture)
	binary.BigEndian.PutUint64(n[:], uint64(8+len(ids)))
	d.Write(n[:])
	binary.BigEndian.PutUint32(n[:4], uint32(w))
	binary.BigEndian.PutUint32(n[4:], uint32(h))
	d.Write(n[:])
	d.Write(ids)
	return hex.EncodeToString(d.Sum(nil))
}

// components returns the connected parts of a graph, largest first.
func components(adj [][]bool) [][]int {
	seen := make([]bool, len(adj))
	var parts [][]int
	for s := range adj {
		if seen[s] {
			continue
		}
		part := []int{s}
		seen[s] = true
		for i := 0; i < len(part); i++ {
			for b, ok := range adj[part[i]] {
				if ok && !seen[b] {
					seen[b] = true
					part = append(part, b)
				}
			}
		}
		parts = append(parts, part)
	}
	slices.SortStableFunc(parts, func(a, b []int) int { return len(b) - len(a) })
	return parts
}
