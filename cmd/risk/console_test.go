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

	"github.com/riskbot/riskbot/bot/chat"
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

// TestConsolePlaysPageChannel: `risk console --channel web:NAME` plays the
// match of the page's channel NAME, as the page's players (web:ann), as
// docs/api.md says. Before, it looked in console:web:NAME and found no
// match.
func TestConsolePlaysPageChannel(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := openStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBot(botDeps{db: db, scope: "web:", seed: func() uint64 { return 7 }})
	if err != nil {
		t.Fatal(err)
	}
	ann := chat.User{ID: "web:ann", Name: "Ann"}
	nop := chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })
	for _, cmd := range []string{"new", "host addbot", "start"} {
		// As the page runs them for Ann, the host.
		if err := b.Handle(ctx, chat.Request{Channel: "web:caps", User: ann, Command: cmd, Options: map[string]string{}, Server: "web"}, nop); err != nil {
			t.Fatal(err)
		}
	}
	b.Wait()
	b.Close()
	db.Close()
	var out, errb bytes.Buffer
	code := runEnv(ctx, env{
		args:   []string{"console", "--db", path, "--channel", "web:caps"},
		stdin:  strings.NewReader("Ann: /risk place\n"),
		stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
	})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Ann placed") {
		t.Errorf("Ann placing from the console in the page's channel:\n%s", out.String())
	}
	db, err = openStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Active(ctx, "console:web:caps"); err == nil {
		t.Error("the console opened a match of its own in console:web:caps")
	}
}
