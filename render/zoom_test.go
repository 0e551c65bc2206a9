package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// TestZoom: a zoom is a 4:3 part of the map, exactly as the full render
// draws it, around every territory asked for; near neighbours give a part
// small enough for the names to read at 400 px wide.
func TestZoom(t *testing.T) {
	names := func(s *state.State, ns ...string) []int {
		var out []int
		for _, n := range ns {
			out = append(out, s.Map.Index(n))
		}
		return out
	}
	mid := fixtureMid(t)
	tests := []struct {
		name     string
		state    *state.State
		around   []int
		readable bool // the names read at 400 px wide
	}{
		{"Europe", mid, names(mid, "Great Britain", "Western Europe"), true},
		{"Central America", mid, names(mid, "Central America", "Venezuela", "Eastern United States"), true},
		{"one territory at the edge", mid, names(mid, "Argentina"), true},
		{"the last turn's arrows", fixtureOver(t), ZoomOn(fixtureOver(t)), false},
		{"across the map's edge", mid, names(mid, "Alaska", "Kamchatka"), false},
		{"capitals", gridMid(t), ZoomOn(gridMid(t)), false},
		{"imported map", artMid(t), ZoomOn(artMid(t)), false},
	}
	if racetest.Enabled {
		tests = tests[:2]
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := shared(Options{Width: goldenWidth}) // every size scales with the width
			full, err := r.Render(context.Background(), tt.state)
			if err != nil {
				t.Fatal(err)
			}
			zoomed, err := r.Zoom(context.Background(), tt.state, tt.around)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := png.Decode(bytes.NewReader(full))
			if err != nil {
				t.Fatal(err)
			}
			zi, err := png.Decode(bytes.NewReader(zoomed))
			if err != nil {
				t.Fatal(err)
			}
			var b *board
			if tt.state.Map.Grid != nil {
				b, err = r.gridBoardFor(tt.state.Map)
			} else {
				b, err = r.board(tt.state.Map)
			}
			if err != nil {
				t.Fatal(err)
			}
			part := b.zoomRect(tt.around)
			if got := zi.Bounds(); got.Size() != part.Size() {
				t.Fatalf("zoom is %v, want %v", got.Size(), part.Size())
			}
			mapArea := image.Rect(0, 0, b.mw, b.mh)
			if !part.In(mapArea) {
				t.Errorf("zoom %v leaves the map %v", part, mapArea)
			}
			if w, h := part.Dx(), part.Dy(); float64(w) < zoomMinWidth*b.s-1 || (w != mapArea.Dx() && h != mapArea.Dy() && abs(3*w-4*h) > 4) {
				t.Errorf("zoom is %d x %d, want 4:3 and at least %.0f wide", w, h, zoomMinWidth*b.s)
			}
			for _, tr := range tt.around {
				a := image.Pt(int(b.anchor[tr][0]), int(b.anchor[tr][1]))
				if !a.In(part.Inset(int(b.badgeR))) {
					t.Errorf("the badge of %s (%v) is not inside the zoom %v", tt.state.Map.Territories[tr].Name, a, part)
				}
			}
			fp, ok1 := fi.(*image.Paletted)
			zp, ok2 := zi.(*image.Paletted)
			if !ok1 || !ok2 || !slices.Equal(fp.Palette, zp.Palette) {
				t.Fatalf("the zoom (%T) and the full render (%T) are not paletted alike", zi, fi)
			}
			for y := part.Min.Y; y < part.Max.Y; y++ {
				o := fp.PixOffset(part.Min.X, y)
				if !bytes.Equal(fp.Pix[o:o+part.Dx()], zp.Pix[(y-part.Min.Y)*zp.Stride:][:part.Dx()]) {
					t.Fatalf("row %d of the zoom differs from the full render's", y)
				}
			}
			if tt.readable {
				f, err := face(r.fonts.bold, 15*b.s)
				if err != nil {
					t.Fatal(err)
				}
				if h := capHeight(f) * 400 / float64(part.Dx()); h < 6 { // as shown 400 px wide
					t.Errorf("names are %.1f px tall in the zoom shown 400 px wide, want 6", h)
				} else {
					t.Logf("%s: %d x %d, names %.1f px tall at 400 px wide", tt.name, part.Dx(), part.Dy(), h)
				}
			}
		})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestZoomBadInput(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	for _, tt := range []struct {
		name   string
		s      *state.State
		around []int
		want   string
	}{
		{"no territory", fixtureMid(t), nil, "no territory"},
		{"unknown territory", fixtureMid(t), []int{3, 42}, "unknown territory 42"},
		{"negative territory", fixtureMid(t), []int{-1}, "unknown territory -1"},
		{"no state", nil, []int{1}, "no state"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Zoom(context.Background(), tt.s, tt.around)
			if err == nil || got != nil {
				t.Fatalf("got %d bytes, %v; want an error containing %q", len(got), err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "render: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with \"render: \" and contain %q", err, tt.want)
			}
		})
	}
}

func TestZoomOn(t *testing.T) {
	s := fixtureMid(t) // this turn's arrows win over the last turn's
	got := ZoomOn(s)
	var want []int
	for _, n := range []string{"Alaska", "Kamchatka", "Western United States", "Eastern United States", "Greenland", "Iceland", "Alberta", "Northwest Territory"} {
		want = append(want, s.Map.Index(n))
	}
	if !slices.Equal(got, want) {
		t.Errorf("ZoomOn = %v, want %v", got, want)
	}
	s.This = state.Trail{}
	if got := ZoomOn(s); len(got) != 8 {
		t.Errorf("ZoomOn without this turn's arrows gives %d territories, want the last turn's 8", len(got))
	}
	s.Last = state.Trail{}
	if got := ZoomOn(s); got != nil {
		t.Errorf("ZoomOn without arrows = %v, want nil", got)
	}
}
