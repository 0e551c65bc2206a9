package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead: whatever the .map text (with a fixed pair of small images),
// Read does not panic, and a map it accepts has clean names and reads
// again from its canonical files as the same map.
func FuzzRead(f *testing.F) {
	f.Add([]byte(tinyText))
	f.Add([]byte(strings.Replace(tinyText, "3 2\n", "3\n", 1)))
	f.Add([]byte("name=x\n[files]\npic=a\nmap=b\n[continents]\nA 1\n[countries]\n1 a 1 5 5\n2 b 1 15 5\n[borders]\n1 2\n2 1\n"))
	for _, s := range []string{"inkwell", "fjords"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "examples", "maps", s, s+".map")); err == nil {
			f.Add(b)
		}
	}
	picture, index := tinyPicture(f, 30, 12), encode(f, tinyIndex())
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, mutual := range []bool{false, true} {
			b, err := Read(Files{Map: text, Picture: picture, Index: index}, Options{Mutual: mutual, Name: "fuzz"})
			if err != nil {
				continue
			}
			checkBoard(t, b)
		}
	})
}

// FuzzReadZip: whatever the zip, ReadZip does not panic, and a map it
// accepts reads again from its own zip as the same map.
func FuzzReadZip(f *testing.F) {
	b, err := Read(tiny(f), Options{})
	if err != nil {
		f.Fatal(err)
	}
	z, err := b.Zip()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(z)
	t := tiny(f)
	f.Add(zipOf(f, zipEntry{"tiny.map", t.Map, 0}, zipEntry{"tiny-pic.png", t.Picture, 0}, zipEntry{"tiny-map.png", t.Index, 0}))
	f.Add(zipOf(f, zipEntry{"a/../../x.map", t.Map, 0}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadZip(data, Options{})
		if err != nil {
			return
		}
		checkBoard(t, b)
		z, err := b.Zip()
		if err != nil {
			t.Fatal(err)
		}
		again, err := ReadZip(z, Options{})
		if err != nil || again.Hash != b.Hash {
			t.Fatalf("its own zip reads as %v, %v; want hash %s", again, err, b.Hash)
		}
	})
}

// checkBoard checks what every accepted board must be.
func checkBoard(t *testing.T, b *Board) {
	t.Helper()
	m := b.Map
	if m.Len() < 2 || m.Len() > 126 {
		t.Fatalf("accepted %d territories", m.Len())
	}
	names := []string{b.Title, b.Author}
	for _, tr := range m.Territories {
		names = append(names, tr.Name)
	}
	for _, c := range m.Continents {
		names = append(names, c.Name)
	}
	for _, n := range names {
		if strings.ContainsAny(n, markupChars) || n != strings.TrimSpace(n) || cleanName(n, maxTitleRunes) != n {
			t.Fatalf("accepted a name that is not clean: %q", n)
		}
	}
	again, err := Read(b.Files, Options{})
	if err != nil {
		t.Fatalf("its canonical files are refused: %v\n%s", err, b.Files.Map)
	}
	if again.Hash != b.Hash || !bytes.Equal(again.Files.Map, b.Files.Map) || !bytes.Equal(again.Files.Index, b.Files.Index) {
		t.Fatalf("its canonical files read as another map:\n%s\nthen\n%s", b.Files.Map, again.Files.Map)
	}
}
