package mapfile

import (
	"archive/zip"
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
)

// tinyText is a map of three territories in a row, each 10 pixels wide,
// with a row of sea above and below (tinyIndex).
const tinyText = `; a test map
name Tiny
author Ann

[files]
pic tiny-pic.png
map tiny-map.png
crd tiny.cards

[continents]
West 2 red
East 1 0x0000ff

[countries]
1 Alpha 1 5 5
2 Beta 1 15 5
3 Gamma 2 25 5

[borders]
1 2
2 1 3
3 2
`

// tinyIndex is the index image of tinyText: the territory's number per
// pixel, 255 for the sea.
func tinyIndex() *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 30, 12))
	for y := range 12 {
		for x := range 30 {
			v := uint8(255)
			if y > 0 && y < 11 {
				v = uint8(x/10 + 1)
			}
			g.SetGray(x, y, color.Gray{v})
		}
	}
	return g
}

func encode(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tinyPicture is a picture of w x h pixels.
func tinyPicture(t testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	return encode(t, img)
}

func tiny(t testing.TB) Files {
	return Files{Map: []byte(tinyText), Picture: tinyPicture(t, 30, 12), Index: encode(t, tinyIndex())}
}

func TestRead(t *testing.T) {
	b, err := Read(tiny(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Map
	if b.Title != "Tiny" || b.Author != "Ann" || m.Title != "Tiny" {
		t.Errorf("title %q, author %q, map title %q; want Tiny, Ann, Tiny", b.Title, b.Author, m.Title)
	}
	if want := engine.LibraryName(b.Hash); m.Name != want || !engine.IsLibraryName(m.Name) {
		t.Errorf("map name %q, want %q", m.Name, want)
	}
	if m.Len() != 3 || len(m.Continents) != 2 || len(m.Borders()) != 2 {
		t.Errorf("got %d territories, %d continents, %d borders; want 3, 2, 2", m.Len(), len(m.Continents), len(m.Borders()))
	}
	if !m.Adjacent(0, 1) || !m.Adjacent(1, 2) || m.Adjacent(0, 2) {
		t.Errorf("borders %v, want Alpha-Beta and Beta-Gamma", m.Borders())
	}
	if got := m.Continents[0].Bonus; got != 2 {
		t.Errorf("West's bonus %d, want 2", got)
	}
	a := m.Art
	if a == nil || a.W != 30 || a.H != 12 {
		t.Fatalf("art %+v, want 30x12", a)
	}
	for _, p := range []struct{ x, y, want int }{{0, 0, -1}, {3, 3, 0}, {12, 10, 1}, {29, 1, 2}, {29, 11, -1}} {
		if got := a.At(p.x, p.y); got != p.want {
			t.Errorf("art at %d,%d = %d, want %d", p.x, p.y, got, p.want)
		}
	}
	if a.Markers[2] != [2]int{25, 5} {
		t.Errorf("Gamma's marker %v, want 25,5", a.Markers[2])
	}
	if MaxPlayers(m) != 3 {
		t.Errorf("MaxPlayers = %d, want 3", MaxPlayers(m))
	}
	if err := engine.AddMap(m); err != nil {
		t.Fatal(err)
	}
	if got, err := engine.LoadMap(m.Name); err != nil || got != m {
		t.Errorf("LoadMap(%s) = %v, %v; want the map", m.Name, got, err)
	}
}

// The index's value is read as Domination reads it: the blue channel of
// a colour image, the palette colour's blue of a paletted one.
func TestReadIndexKinds(t *testing.T) {
	g := tinyIndex()
	pal := color.Palette{}
	for v := range 256 {
		pal = append(pal, color.RGBA{uint8(255 - v), 40, uint8(v), 255}) // red varies: only blue counts
	}
	p := image.NewPaletted(g.Rect, pal)
	rgb := image.NewNRGBA(g.Rect)
	for i, v := range g.Pix {
		p.Pix[i] = v
		rgb.Pix[4*i], rgb.Pix[4*i+1], rgb.Pix[4*i+2], rgb.Pix[4*i+3] = 200, 3, v, 255
	}
	want, err := Read(tiny(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, img := range map[string]image.Image{"paletted": p, "nrgba": rgb} {
		t.Run(name, func(t *testing.T) {
			f := tiny(t)
			f.Index = encode(t, img)
			b, err := Read(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if b.Hash != want.Hash || !bytes.Equal(b.Files.Index, want.Files.Index) {
				t.Errorf("hash %s, want %s: the same index in another kind of image", b.Hash, want.Hash)
			}
		})
	}
}

// A map round-trips byte for byte in meaning: its canonical files read
// again, exported to a folder or a zip and read back, are the same map
// with the same hash.
func TestRoundTrip(t *testing.T) {
	b, err := Read(tiny(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	same := func(t *testing.T, got *Board, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if got.Hash != b.Hash {
			t.Errorf("hash %s, want %s", got.Hash, b.Hash)
		}
		for _, p := range []struct {
			name      string
			got, want []byte
		}{{"map", got.Files.Map, b.Files.Map}, {"picture", got.Files.Picture, b.Files.Picture}, {"index", got.Files.Index, b.Files.Index}} {
			if !bytes.Equal(p.got, p.want) {
				t.Errorf("%s differs:\n%s\nwant\n%s", p.name, clip(string(p.got)), clip(string(p.want)))
			}
		}
	}
	t.Run("again", func(t *testing.T) {
		got, err := Read(b.Files, Options{})
		same(t, got, err)
	})
	t.Run("dir", func(t *testing.T) {
		dir := t.TempDir()
		p, err := b.WriteDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(p) != "tiny.map" {
			t.Errorf("wrote %s, want tiny.map", p)
		}
		got, err := ReadPath(p, Options{})
		same(t, got, err)
	})
	t.Run("zip", func(t *testing.T) {
		z, err := b.Zip()
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadZip(z, Options{})
		same(t, got, err)
		p := filepath.Join(t.TempDir(), "x.zip")
		if err := os.WriteFile(p, z, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err = ReadPath(p, Options{})
		same(t, got, err)
	})
	t.Run("comments and layout", func(t *testing.T) {
		// The same meaning written another way is the same map.
		f := tiny(t)
		f.Map = []byte(strings.NewReplacer("; a test map\n", "", "\n[borders]", "\n; borders\n[borders]",
			"2 1 3", "2 3 1 3", "East 1 0x0000ff", "East 1 #0000FF", "\n", "\r\n").Replace(tinyText))
		got, err := Read(f, Options{})
		same(t, got, err)
	})
}

// The canonical text is what the store keeps: this is how it looks.
func TestCanonicalText(t *testing.T) {
	b, err := Read(tiny(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `; Tiny: a Domination map, in riskbot's canonical layout

name Tiny
author Ann

[files]
pic tiny-pic.png
map tiny-map.png

[continents]
West 2 red
East 1 #0000ff

[countries]
1 Alpha 1 5 5
2 Beta 1 15 5
3 Gamma 2 25 5

[borders]
1 2
2 1 3
3 2
`
	if got := string(b.Files.Map); got != want {
		t.Errorf("canonical text:\n%s\nwant\n%s", got, want)
	}
}

func TestMutual(t *testing.T) {
	f := tiny(t)
	f.Map = []byte(strings.Replace(tinyText, "3 2\n", "3\n", 1))
	_, err := Read(f, Options{})
	want := "line 21: Beta (2) lists Gamma (3) as a neighbour, but Gamma does not list it (line 22)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	b, err := Read(f, Options{Mutual: true})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Map.Adjacent(2, 1) {
		t.Errorf("with Mutual, Gamma does not border Beta")
	}
	orig, err := Read(tiny(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Hash != orig.Hash {
		t.Errorf("made two-way, the map is not the one whose borders were two-way: hash %s, want %s", b.Hash, orig.Hash)
	}
}

func TestNames(t *testing.T) {
	f := tiny(t)
	f.Map = []byte(strings.NewReplacer("name Tiny", "name **Tiny** <@123>", "Alpha", "@everyone_Alpha", "Beta", "Be`ta`_~~x~~", "West", "#West").Replace(tinyText))
	b, err := Read(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ got, want string }{
		{b.Title, "Tiny 123"}, {b.Map.Territories[0].Name, "everyone Alpha"},
		{b.Map.Territories[1].Name, "Be ta x"}, {b.Map.Continents[0].Name, "West"},
	} {
		if p.got != p.want {
			t.Errorf("got %q, want %q", p.got, p.want)
		}
	}
	// No name in the file: the caller's.
	f = tiny(t)
	f.Map = []byte(strings.Replace(tinyText, "name Tiny\n", "", 1))
	b, err = Read(f, Options{Name: "From_Caller"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "From Caller" {
		t.Errorf("title %q, want the caller's From Caller", b.Title)
	}
}

// Every refusal names the line or the territory.
func TestRefusals(t *testing.T) {
	big := image.NewGray(image.Rect(0, 0, MaxImageSide+1, 1))
	tests := []struct {
		name string
		text func(string) string
		edit func(t testing.TB, f *Files)
		want string
	}{
		{name: "one-way border", text: rep("3 2\n", "3\n"), want: "line 21: Beta (2) lists Gamma (3) as a neighbour, but Gamma does not list it (line 22)"},
		{name: "one-way border without a line", text: rep("3 2\n", ""), want: "Beta (2) lists Gamma (3) as a neighbour, but Gamma has no [borders] line"},
		{name: "no neighbour", text: rep("1 2\n2 1 3\n3 2\n", "1 2\n2 1\n"), want: "line 17: Gamma (3) has no neighbour"},
		{name: "not connected", text: func(s string) string {
			s = strings.Replace(s, "3 Gamma 2 25 5", "3 Gamma 2 25 5\n4 Delta 2 25 8", 1)
			return strings.Replace(s, "1 2\n2 1 3\n3 2\n", "1 2\n2 1\n3 4\n4 3\n", 1)
		}, edit: func(t testing.TB, f *Files) {
			g := tinyIndex()
			for x := 20; x < 30; x++ {
				for y := 7; y < 11; y++ {
					g.SetGray(x, y, color.Gray{4})
				}
			}
			f.Index = encode(t, g)
		}, want: "the board is not connected: Gamma, Delta cannot reach Alpha"},
		{name: "continent without territory", text: rep("East 1 0x0000ff", "East 1 0x0000ff\nNorth 4 green"), want: `line 13: continent "North" has no territory`},
		{name: "bonus too high", text: rep("West 2 red", "West 101 red"), want: `line 11: continent "West" has a bonus of 101: want 0..100`},
		{name: "negative bonus", text: rep("West 2 red", "West -1 red"), want: `line 11: continent "West" has a bonus of -1: want 0..100`},
		{name: "bonus not a number", text: rep("West 2 red", "West two red"), want: `line 11: the bonus "two" of continent "West" is not a number`},
		{name: "unknown continent", text: rep("3 Gamma 2 25 5", "3 Gamma 7 25 5"), want: `line 17: territory "Gamma" is in continent 7, which does not exist (want 1..2)`},
		{name: "territory not drawn", edit: func(t testing.TB, f *Files) {
			g := tinyIndex()
			for i, v := range g.Pix {
				if v == 3 {
					g.Pix[i] = 2
				}
			}
			f.Index = encode(t, g)
		}, want: "line 17: Gamma (3) is not in the index image: no pixel has the value 3"},
		{name: "pixel of no territory", edit: func(t testing.TB, f *Files) {
			g := tinyIndex()
			g.SetGray(7, 9, color.Gray{9})
			f.Index = encode(t, g)
		}, want: "the index image has 1 pixels of value 9 (the first at 7,9), which is no territory: want 1..3, or 0 or 255 for none"},
		{name: "marker on a neighbour", text: rep("1 Alpha 1 5 5", "1 Alpha 1 12 5"), want: "line 15: the marker of Alpha (1) at 12,5 is on Beta (2)"},
		{name: "marker at sea", text: rep("1 Alpha 1 5 5", "1 Alpha 1 5 0"), want: "line 15: the marker of Alpha (1) at 5,0 is on no territory (value 255)"},
		{name: "marker off the image", text: rep("1 Alpha 1 5 5", "1 Alpha 1 50 5"), want: "line 15: the marker of Alpha (1) at 50,5 is outside the 30x12 index image"},
		{name: "sizes differ", edit: func(t testing.TB, f *Files) { f.Picture = tinyPicture(t, 31, 12) },
			want: "the picture is 31x12 pixels but the index image is 30x12: they must be the same size"},
		{name: "too many territories", text: func(s string) string {
			var b strings.Builder
			for i := 4; i <= 127; i++ {
				b.WriteString("\n" + itoa(i) + " T" + itoa(i) + " 1 5 5")
			}
			return strings.Replace(s, "3 Gamma 2 25 5", "3 Gamma 2 25 5"+b.String(), 1)
		}, want: "the map has 127 territories: at most 126"},
		{name: "one territory", text: func(s string) string {
			s = strings.Replace(s, "2 Beta 1 15 5\n3 Gamma 2 25 5\n", "", 1)
			return strings.Replace(s, "1 2\n2 1 3\n3 2\n", "", 1)
		}, want: "the map has 1 territories: want at least 2"},
		{name: "duplicate territory", text: rep("3 Gamma", "3 beta"), want: `line 17: territory "beta" has the name of line 16`},
		{name: "duplicate once cleaned", text: rep("3 Gamma", "3 **Beta**"), want: `line 17: territory "Beta" (written "**Beta**") has the name of line 16`},
		{name: "empty once cleaned", text: rep("3 Gamma", "3 @@"), want: `line 17: the territory name "@@" is empty once cleaned of markup`},
		{name: "duplicate continent", text: rep("East 1", "West 1"), want: `line 12: continent "West" has the name of line 11`},
		{name: "no name", text: rep("name Tiny\n", ""), want: "the map has no name"},
		{name: "out of sequence", text: rep("3 Gamma", "4 Gamma"), want: "line 17: territory number 4 out of sequence: want 3"},
		{name: "short country line", text: rep("3 Gamma 2 25 5", "3 Gamma 2"), want: `line 17: want NUMBER NAME CONTINENT X Y, not "3 Gamma 2"`},
		{name: "border to nowhere", text: rep("3 2\n", "3 2 9\n"), want: "line 22: Gamma (3) lists territory 9, which does not exist (want 1..3)"},
		{name: "border of nowhere", text: rep("3 2\n", "3 2\n8 1\n"), want: "line 23: territory 8 does not exist (want 1..3)"},
		{name: "self border", text: rep("3 2\n", "3 2 3\n"), want: "line 22: territory 3 lists itself as its neighbour"},
		{name: "unknown file key", text: rep("crd tiny.cards", "snd x.wav"), want: `line 8: unknown file "snd" in [files]`},
		{name: "no picture line", text: rep("pic tiny-pic.png\n", ""), want: "[files] names no picture"},
		{name: "no borders", text: func(s string) string { return s[:strings.Index(s, "[borders]")] }, want: "the file has no [borders] section"},
		{name: "picture not decodable", edit: func(t testing.TB, f *Files) { f.Picture = []byte("not an image at all") },
			want: "the picture cannot be read: want a PNG, JPEG, GIF or BMP image"},
		{name: "picture truncated", edit: func(t testing.TB, f *Files) { f.Picture = f.Picture[:len(f.Picture)/2] },
			want: "the picture cannot be decoded (png)"},
		{name: "huge header", edit: func(t testing.TB, f *Files) { f.Picture = []byte("GIF89a nonsense") },
			want: "the picture is 28192x28271 pixels: at most 4096x4096"},
		{name: "index not given", edit: func(t testing.TB, f *Files) { f.Index = nil }, want: `line 7: the index image "tiny-map.png" is not given`},
		{name: "image too wide", edit: func(t testing.TB, f *Files) { f.Index = encode(t, big) },
			want: "the index image is 4097x1 pixels: at most 4096x4096"},
		{name: "image too heavy", edit: func(t testing.TB, f *Files) { f.Picture = make([]byte, MaxImageBytes+1) },
			want: "the picture is 8.0 MB: at most 8 MB"},
		{name: "text too long", edit: func(t testing.TB, f *Files) { f.Map = bytes.Repeat([]byte(";\n"), MaxTextBytes) },
			want: "the .map file is 2 MB: at most 1 MB"},
		{name: "ver not a number", text: rep("author Ann", "author Ann\nver one"), want: `line 4: ver "one" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tiny(t)
			if tt.text != nil {
				f.Map = []byte(tt.text(string(f.Map)))
			}
			if tt.edit != nil {
				tt.edit(t, &f)
			}
			b, err := Read(f, Options{})
			if err == nil {
				t.Fatalf("accepted %q, want a refusal saying %q", b.Title, tt.want)
			}
			var me *Error
			if !errors.As(err, &me) {
				t.Errorf("error %T %v, want a *mapfile.Error", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to say %q", err, tt.want)
			}
		})
	}
}

func rep(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("test: no " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// zipOf makes a zip of the given entries, in order.
func zipOf(t testing.TB, entries ...zipEntry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zipEntry struct {
	name string
	data []byte
	mode os.FileMode
}

func TestReadZip(t *testing.T) {
	f := tiny(t)
	good := []zipEntry{{"tiny/tiny.map", f.Map, 0}, {"tiny/tiny-pic.png", f.Picture, 0}, {"tiny/TINY-MAP.PNG", f.Index, 0},
		{"__MACOSX/tiny/._tiny.map", []byte("junk"), 0}}
	if _, err := ReadZip(zipOf(t, good...), Options{}); err != nil {
		t.Fatalf("a zip in a folder, an image's name in other case, macOS's shadows: %v", err)
	}
	many := make([]zipEntry, MaxZipEntries+1)
	for i := range many {
		many[i] = zipEntry{name: "f" + itoa(i), data: nil}
	}
	tests := []struct {
		name string
		zip  []byte
		want string
	}{
		{"climbs out", zipOf(t, append(good, zipEntry{"tiny/../../evil.sh", []byte("x"), 0})...), `zip entry "tiny/../../evil.sh" climbs out with ..`},
		{"absolute", zipOf(t, append(good, zipEntry{"/etc/passwd", []byte("x"), 0})...), `zip entry "/etc/passwd" has an absolute path`},
		{"drive", zipOf(t, append(good, zipEntry{`C:\evil`, []byte("x"), 0})...), `zip entry "C:\\evil" has an absolute path`},
		{"symlink", zipOf(t, append(good, zipEntry{"tiny/link", []byte("/etc/passwd"), os.ModeSymlink | 0o777})...), `zip entry "tiny/link" is a symbolic link`},
		{"no map", zipOf(t, good[1:]...), "the zip holds no .map file"},
		{"two maps", zipOf(t, append(good, zipEntry{"other.map", f.Map, 0})...), "the zip holds 2 .map files"},
		{"image missing", zipOf(t, good[0], good[1]), `line 7: the index image "tiny-map.png" is not in the zip beside tiny.map`},
		{"too many entries", zipOf(t, many...), "the zip holds 65 files: at most 64"},
		{"not a zip", []byte("PK nonsense"), "not a zip that can be read"},
		{"image unpacks too big", zipOf(t, good[0], good[1], zipEntry{"tiny/tiny-map.png", make([]byte, MaxImageBytes+1), 0}),
			`line 7: the index image "tiny-map.png": more than 8 MB`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadZip(tt.zip, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestReadPathMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tiny.map")
	if err := os.WriteFile(p, []byte(strings.Replace(tinyText, "map tiny-map.png", "map ../tiny-map.png", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadPath(p, Options{})
	for _, want := range []string{`line 6: the picture "tiny-pic.png": no such file or directory`, `line 7: the index image "../tiny-map.png" is not beside the .map file`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}
