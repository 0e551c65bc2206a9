package main

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// risk console --palette colours the players for the colour-blind, in the
// chat text and on the map; an unknown palette is a usage error.
func TestConsolePalette(t *testing.T) {
	vermillion := color.RGBA{0xd5, 0x5e, 0x00, 0xff} // Okabe–Ito, the first seat
	for _, tt := range []struct {
		palette  string
		word     string
		onTheMap bool
	}{
		{"colorblind", "vermillion", true},
		{"standard", "red", false},
	} {
		t.Run(tt.palette, func(t *testing.T) {
			dir := t.TempDir()
			var out, errb bytes.Buffer
			code := runEnv(context.Background(), env{
				args:   []string{"console", "--db", filepath.Join(dir, "risk.db"), "--seed", "3", "--palette", tt.palette},
				stdin:  strings.NewReader("Ann: /risk new\nAnn: /risk addbot\nAnn: /risk start\n"),
				stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
			})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if !strings.Contains(out.String(), "— "+tt.word+",") {
				t.Errorf("the start lists no %s seat:\n%s", tt.word, out.String())
			}
			maps, err := filepath.Glob(filepath.Join(dir, "maps", "main", "*.png"))
			if err != nil || len(maps) == 0 {
				t.Fatalf("no map saved: %v", err)
			}
			f, err := os.Open(maps[0])
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			pal, ok := img.(*image.Paletted)
			if !ok {
				t.Fatalf("the map is a %T, want a paletted PNG", img)
			}
			found := false
			for _, c := range pal.Palette {
				if color.RGBAModel.Convert(c) == vermillion {
					found = true
				}
			}
			if found != tt.onTheMap {
				t.Errorf("vermillion on the map: %v, want %v", found, tt.onTheMap)
			}
		})
	}
	var out, errb bytes.Buffer
	code := runEnv(context.Background(), env{
		args:  []string{"console", "--db", filepath.Join(t.TempDir(), "risk.db"), "--palette", "sepia"},
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
	})
	if code != 2 || !strings.Contains(errb.String(), `--palette "sepia": want standard or colorblind`) {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
