package main

import (
	"bytes"
	"encoding/json"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

func TestReplay(t *testing.T) {
	file, _ := exportedMatchOf(t, state.CapitalsOptions())
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rec engine.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	// A few turns are enough here; drawing frames is slow under -race.
	rec.Log = rec.Log[:min(len(rec.Log), 30)]
	if data, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, string(data))
	turns, err := rec.Turns()
	if err != nil {
		t.Fatal(err)
	}
	// What a player may export of a live match replays too.
	sealed, err := rec.Seal()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(sealed)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sealedFile := filepath.Join(dir, "sealed.json")
	writeFile(t, sealedFile, string(b))

	out := filepath.Join(dir, "m.gif")
	code, got, errs := runRisk(t, "", "replay", "--match", sealedFile, "--out", out)
	if code != 0 || !strings.HasPrefix(got, "wrote "+out) {
		t.Fatalf("replay: exit %d, %q %s", code, got, errs)
	}
	img, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(turns) || g.Config.Width != 800 {
		t.Errorf("%d frames %d wide for %d turns", len(g.Image), g.Config.Width, len(turns))
	}

	strip := filepath.Join(dir, "m.png")
	code, got, errs = runRisk(t, string(data), "replay", "--match", "-", "--out", strip, "--width", "320", "--limit", "400000")
	if code != 0 || !strings.Contains(got, "frames") {
		t.Fatalf("replay strip: exit %d, %q %s", code, got, errs)
	}
	img, err = os.ReadFile(strip)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(img)); err != nil || len(img) > 400000 {
		t.Errorf("strip: %d bytes, %v", len(img), err)
	}

	for _, tt := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no match", []string{"replay", "--out", out}, 2, "--match is required"},
		{"no out", []string{"replay", "--match", file}, 2, "--out is required"},
		{"a jpeg", []string{"replay", "--match", file, "--out", "m.jpg"}, 2, "--out must end in .gif (animation) or .png"},
		{"no limit", []string{"replay", "--match", file, "--out", out, "--limit", "0"}, 2, "--limit must be more than 0"},
		{"a tiny limit", []string{"replay", "--match", file, "--out", filepath.Join(dir, "tiny.gif"), "--limit", "1000"}, 1, "over the limit of 1000"},
		{"no such file", []string{"replay", "--match", filepath.Join(dir, "nope.json"), "--out", out}, 1, "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runRisk(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, errs, tt.code, tt.msg)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "tiny.gif")); err == nil {
		t.Error("a replay over the limit was written")
	}
}
