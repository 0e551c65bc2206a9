// Package mapfile reads and writes boards in the map format of Domination,
// the open-source Risk (a text .map file naming two images), so that a
// server's map makers can bring the maps they draw, and checks them before
// any match is played on them.
//
// The format: a text file of lines, `;` starting a comment. Before any
// section, `KEY VALUE` lines: `name` (the map's title), `author`, `ver`,
// `circle` (the size of the army markers, kept for Domination). Sections:
//
//	[files]       pic FILE (the picture players see), map FILE (the index
//	              image), crd FILE and prv FILE (Domination's cards and
//	              preview: ignored here)
//	[continents]  NAME BONUS [COLOUR], numbered from 1 in order
//	[countries]   NUMBER NAME CONTINENT X Y: territories numbered 1, 2, ...
//	              in order, X Y the centre of the army marker
//	[borders]     NUMBER NEIGHBOUR NEIGHBOUR ...
//
// Names use `_` for spaces. Each pixel of the index image holds the number
// of the territory under it, read as Domination reads it: the low byte of
// the pixel's sRGB value, that is its blue channel (the grey level of a
// grey image, the palette colour's blue of a paletted one); 0 and 255 are
// no territory (sea, frame, decoration). So a map has at most 254
// territories, and this engine plays at most state.MaxTerritories of them.
//
// Read checks a map and returns a Board: the engine's state.Map with its
// Art, and the map's canonical files, which the stores keep and Export
// writes back. The same map imported twice has one hash, and so one
// engine name (engine.LibraryName).
package mapfile

//go:generate go run ./internal/samples -out ../../examples/maps

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/riskbot/riskbot/state"
)

// Files are a map's three files as bytes: the .map text and the two images
// it names.
type Files struct {
	Map, Picture, Index []byte
}

// Options change how Read takes a map.
type Options struct {
	// Mutual makes a border one territory lists but its neighbour does not
	// two-way, instead of refusing the map.
	Mutual bool
	// Name is the map's title when its file has no `name` line.
	Name string
}

// Board is a checked map.
type Board struct {
	// Map is the engine's board: Map.Name is engine.LibraryName(Hash),
	// Map.Title the map's title, Map.Art its picture and index.
	Map *state.Map
	// Title and Author are as the file gives them, cleaned.
	Title, Author string
	// Hash is the hex SHA-256 of the canonical files (see Read).
	Hash string
	// Files is the canonical form of the map: what the stores keep and
	// Export writes.
	Files Files
	// PictureExt is the extension of the picture's format ("png", "jpg",
	// "gif"), the one its canonical file name ends with.
	PictureExt string
}

// The bounds of what Read takes.
const (
	// MaxImageSide bounds each side of the images, in pixels.
	MaxImageSide = 4096
	// MaxImageBytes bounds each image file.
	MaxImageBytes = 8 << 20
	// MaxTextBytes bounds the .map text.
	MaxTextBytes = 1 << 20
	// MaxBonus bounds a continent's bonus.
	MaxBonus = 100
	// MaxZipBytes bounds a zip, and the total its entries unpack to.
	MaxZipBytes = 2*MaxImageBytes + MaxTextBytes + 1<<20
	// MaxZipEntries bounds the number of files in a zip.
	MaxZipEntries = 64
)

// Error is a refused map: every problem found, each naming its line or
// territory.
type Error struct {
	// Name is the map's file or title, as the message names it.
	Name     string
	Problems []string
}

// maxShown bounds the problems an error message lists.
const maxShown = 12

func (e *Error) Error() string {
	ps := e.Problems
	more := ""
	if len(ps) > maxShown {
		more = fmt.Sprintf("\n  ... and %d more", len(ps)-maxShown)
		ps = ps[:maxShown]
	}
	name := e.Name
	if name == "" {
		name = "the map"
	}
	return fmt.Sprintf("mapfile: %s is refused:\n  %s%s", name, strings.Join(ps, "\n  "), more)
}

// MaxPlayers returns the most players a match on m may seat: one
// territory each at least, and the engine's seats.
func MaxPlayers(m *state.Map) int { return min(m.Len(), state.MaxSeats) }

// Read checks a map's files and returns its board.
func Read(f Files, o Options) (*Board, error) {
	t := parseText(f.Map, o)
	return build(t, f, o, nil)
}

// ReadPath reads FILE.map with the two images it names beside it, or
// FILE.zip (see ReadZip).
func ReadPath(path string, o Options) (*Board, error) {
	if strings.EqualFold(filepath.Ext(path), ".zip") {
		data, err := readBounded(path, MaxZipBytes)
		if err != nil {
			return nil, fmt.Errorf("mapfile: %w", err)
		}
		return ReadZip(data, o)
	}
	text, err := readBounded(path, MaxTextBytes)
	if err != nil {
		return nil, fmt.Errorf("mapfile: %w", err)
	}
	if o.Name == "" {
		o.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return buildFiles(parseText(text, o), Files{Map: text}, o, nil, func(name string) ([]byte, string) {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return nil, " is not beside the .map file"
		}
		b, err := readBounded(filepath.Join(filepath.Dir(path), filepath.FromSlash(name)), MaxImageBytes)
		if err != nil {
			return nil, fmt.Sprintf(": %v", unwrapPath(err))
		}
		return b, ""
	})
}

// buildFiles reads the picture and the index image that t names with
// read, which says why it cannot give one (" is not …", ": …"), then
// builds the board (build) with the problems found before, extra.
func buildFiles(t *text, f Files, o Options, extra []string, read func(name string) ([]byte, string)) (*Board, error) {
	problems := extra
	load := func(what string, named *file) []byte {
		if named.name == "" {
			return nil // reported by build
		}
		b, why := read(named.name)
		if why != "" {
			problems = append(problems, fmt.Sprintf("line %d: the %s %q%s", named.line, what, named.name, why))
			named.failed = true
			return nil
		}
		return b
	}
	f.Picture = load("picture", &t.pic)
	f.Index = load("index image", &t.index)
	return build(t, f, o, problems)
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readBounded reads a file of at most max bytes.
func readBounded(path string, max int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s is %s: at most %s", filepath.Base(path), size(st.Size()), size(max))
	}
	b, err := readLimited(fh, max)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// size writes a byte count for people.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// FileNames returns the names of the board's canonical files: NAME.map,
// NAME-pic.EXT and NAME-map.png, NAME made of the title.
func (b *Board) FileNames() (mapName, picName, indexName string) {
	s := slug(b.Title)
	return s + ".map", s + "-pic." + b.PictureExt, s + "-map.png"
}

// WriteDir writes the board's canonical files into dir (export), and
// returns the path of the .map file.
func (b *Board) WriteDir(dir string) (mapPath string, err error) {
	mn, pn, in := b.FileNames()
	for _, f := range []struct {
		name string
		data []byte
	}{{pn, b.Files.Picture}, {in, b.Files.Index}, {mn, b.Files.Map}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return "", fmt.Errorf("mapfile: export: %w", err)
		}
	}
	return filepath.Join(dir, mn), nil
}

// Zip returns the board's canonical files as a zip, in a folder named
// after the map.
func (b *Board) Zip() ([]byte, error) {
	mn, pn, in := b.FileNames()
	dir := strings.TrimSuffix(mn, ".map") + "/"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		data []byte
	}{{mn, b.Files.Map}, {pn, b.Files.Picture}, {in, b.Files.Index}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: dir + f.name, Method: zip.Deflate})
		if err != nil {
			return nil, fmt.Errorf("mapfile: zip: %w", err)
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, fmt.Errorf("mapfile: zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("mapfile: zip: %w", err)
	}
	return buf.Bytes(), nil
}

// slug makes a file name of a title: lower-case ASCII letters and digits,
// words joined by '-'; "map" if nothing is left.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "map"
	}
	return b.String()
}
