package mapfile

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// text is a .map file as read, before the checks that need the images.
type text struct {
	title, author string
	titleLine     int
	ver, circle   string // kept for Domination, as written (numbers)
	pic, index    file
	continents    []continent
	countries     []country
	borders       map[int][]int // territory number -> neighbours, as listed
	borderLine    map[int]int   // territory number -> its first [borders] line
	sections      map[string]bool
	problems      []string
}

// file is a file the [files] section names.
type file struct {
	name   string
	line   int
	failed bool // could not be read: already reported
}

type continent struct {
	name, raw string
	bonus     int
	colour    string // canonical: a colour name, #rrggbb, or 0 for none
	line      int
}

type country struct {
	name, raw string
	continent int // from 1
	x, y      int
	line      int
}

// colourNames are the colour names Domination knows.
var colourNames = []string{"black", "blue", "cyan", "darkgray", "gray", "green", "lightgray", "magenta", "orange", "pink", "red", "white", "yellow"}

// parseText reads the lines of a .map file. Problems are collected, not
// returned one by one: a map maker fixes them all in one go.
func parseText(data []byte, o Options) *text {
	t := &text{borders: map[int][]int{}, borderLine: map[int]int{}, sections: map[string]bool{}}
	bad := func(line int, format string, args ...any) {
		t.problems = append(t.problems, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, args...))
	}
	if len(data) > MaxTextBytes {
		t.problems = append(t.problems, fmt.Sprintf("the .map file is %s: at most %s", size(int64(len(data))), size(MaxTextBytes)))
		return t
	}
	s := decodeText(data)
	section := ""
	for i, line := range strings.Split(s, "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || line[0] == ';' {
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
			switch section {
			case "files", "continents", "countries", "borders":
				if t.sections[section] {
					bad(n, "a second [%s] section", section)
				}
				t.sections[section] = true
			default:
				// Later versions of the format may add sections: skip them,
				// as Domination skips unknown keys.
				section = "?"
			}
			continue
		}
		f := strings.Fields(line)
		switch section {
		case "":
			key, value := splitKey(line)
			switch strings.ToLower(key) {
			case "name":
				t.title, t.titleLine = value, n
			case "author":
				t.author = value
			case "ver", "circle":
				if _, err := strconv.Atoi(value); err != nil {
					bad(n, "%s %q is not a number", key, value)
				} else if strings.EqualFold(key, "ver") {
					t.ver = value
				} else {
					t.circle = value
				}
			}
		case "files":
			key, value := splitKey(line)
			switch strings.ToLower(key) {
			case "pic":
				t.pic = file{name: value, line: n}
			case "map":
				t.index = file{name: value, line: n}
			case "crd", "prv":
				// Domination's cards and preview: this engine deals its own
				// cards and draws its own previews.
			default:
				bad(n, "unknown file %q in [files]: want pic, map, crd or prv", key)
			}
		case "continents":
			if len(f) < 2 || len(f) > 3 {
				bad(n, "want NAME BONUS COLOUR, not %q", clip(line))
				continue
			}
			bonus, err := strconv.Atoi(f[1])
			if err != nil {
				bad(n, "the bonus %q of continent %q is not a number", clip(f[1]), clip(f[0]))
				continue
			}
			c := continent{raw: f[0], bonus: bonus, line: n, colour: "0"}
			if len(f) == 3 {
				c.colour = colour(f[2])
			}
			t.continents = append(t.continents, c)
		case "countries":
			if len(f) != 5 {
				bad(n, "want NUMBER NAME CONTINENT X Y, not %q", clip(line))
				continue
			}
			var v [4]int
			ok := true
			for j, k := range []int{0, 2, 3, 4} {
				x, err := strconv.Atoi(f[k])
				if err != nil {
					bad(n, "%q is not a number", clip(f[k]))
					ok = false
					break
				}
				v[j] = x
			}
			if !ok {
				continue
			}
			if want := len(t.countries) + 1; v[0] != want {
				bad(n, "territory number %d out of sequence: want %d", v[0], want)
				continue
			}
			t.countries = append(t.countries, country{raw: f[1], continent: v[1], x: v[2], y: v[3], line: n})
		case "borders":
			ids := make([]int, 0, len(f))
			for _, s := range f {
				x, err := strconv.Atoi(s)
				if err != nil {
					bad(n, "%q is not a territory number", clip(s))
					ids = nil
					break
				}
				ids = append(ids, x)
			}
			if len(ids) == 0 {
				continue
			}
			from := ids[0]
			if _, seen := t.borderLine[from]; !seen {
				t.borderLine[from] = n
			}
			for _, to := range ids[1:] {
				if to == from {
					bad(n, "territory %d lists itself as its neighbour", from)
					continue
				}
				if !slices.Contains(t.borders[from], to) {
					t.borders[from] = append(t.borders[from], to)
				}
			}
			if len(t.borders) > 1<<12 {
				bad(n, "too many [borders] lines")
				return t
			}
		}
	}
	for _, s := range []string{"continents", "countries", "borders"} {
		if !t.sections[s] {
			t.problems = append(t.problems, fmt.Sprintf("the file has no [%s] section", s))
		}
	}
	if t.pic.name == "" {
		t.problems = append(t.problems, "[files] names no picture (pic FILE)")
	}
	if t.index.name == "" {
		t.problems = append(t.problems, "[files] names no index image (map FILE)")
	}
	return t
}

// decodeText returns the file as UTF-8: old maps are often in Latin-1,
// whose bytes are its code points.
func decodeText(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	r := make([]rune, len(data))
	for i, b := range data {
		r[i] = rune(b)
	}
	return string(r)
}

// splitKey splits "KEY VALUE" (or "KEY=VALUE").
func splitKey(line string) (key, value string) {
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return line, ""
	}
	value = strings.TrimSpace(line[i:])
	value = strings.TrimSpace(strings.TrimPrefix(value, "="))
	return line[:i], value
}

// colour returns the canonical form of a continent's colour: a name
// Domination knows, #rrggbb for a number it reads (0x, #, decimal), or "0"
// (none: Domination picks one) for anything else.
func colour(s string) string {
	l := strings.ToLower(s)
	if slices.Contains(colourNames, l) {
		return l
	}
	num := l
	base := 10
	switch {
	case strings.HasPrefix(num, "#"):
		num, base = num[1:], 16
	case strings.HasPrefix(num, "0x"):
		num, base = num[2:], 16
	}
	v, err := strconv.ParseUint(num, base, 32)
	switch {
	case err != nil:
		return "0"
	case v&0xffffff == 0:
		return "black" // "0" would mean none
	}
	return fmt.Sprintf("#%06x", v&0xffffff)
}

// clip shortens what a problem quotes from the file.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
