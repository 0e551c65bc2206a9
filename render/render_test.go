package render

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/state"
)

func TestRenderDefaultSize(t *testing.T) {
	data, err := shared(Options{}).Render(context.Background(), fixtureMid(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != DefaultWidth {
		t.Errorf("width %d, want %d", w, DefaultWidth)
	}
	if _, ok := img.(*image.Paletted); !ok {
		t.Errorf("image is %T, want a paletted PNG", img)
	}
	if len(data) > 800<<10 {
		t.Errorf("PNG is %d bytes, want at most 800 KB", len(data))
	}
}

// TestBadInput: states the renderer cannot draw are errors, never panics
// or partial images.
func TestBadInput(t *testing.T) {
	m := classicMap(t)
	other := *m
	other.Name = "capitals-7"
	renamed := *m
	renamed.Territories = append([]state.Territory(nil), m.Territories...)
	renamed.Territories[3].Name = "Atlantis"
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		opts   Options
		mutate func(s *state.State) *state.State
		want   string
	}{
		{name: "nil state", mutate: func(*state.State) *state.State { return nil }, want: "no state"},
		{name: "no map", mutate: func(s *state.State) *state.State { s.Map = nil; return s }, want: "no map"},
		{name: "no players", mutate: func(s *state.State) *state.State { s.Seats = nil; return s }, want: "no players"},
		{name: "seven players", mutate: func(s *state.State) *state.State {
			s.Seats = append(s.Seats, s.Seats[:3]...)
			return s
		}, want: "at most 6"},
		{name: "missing territories", mutate: func(s *state.State) *state.State { s.Terr = s.Terr[:40]; return s }, want: "has 40 territories"},
		{name: "unknown owner", mutate: func(s *state.State) *state.State { s.Terr[7].Owner = 9; return s }, want: "unknown seat 9"},
		{name: "negative armies", mutate: func(s *state.State) *state.State { s.Terr[7].Armies = -2; return s }, want: "-2 armies"},
		{name: "arrow to unknown territory", mutate: func(s *state.State) *state.State {
			s.Last.Add(state.Arrow{From: 1, To: 99, Kind: state.ArrowAttack})
			return s
		}, want: "unknown territory"},
		{name: "arrow from negative territory", mutate: func(s *state.State) *state.State {
			s.This.Add(state.Arrow{From: -3, To: 1, Kind: state.ArrowFortify})
			return s
		}, want: "unknown territory"},
		{name: "arrow of unknown seat", mutate: func(s *state.State) *state.State {
			s.This.Add(state.Arrow{From: 1, To: 2, Seat: 8})
			return s
		}, want: "unknown seat 8"},
		{name: "current seat out of range", mutate: func(s *state.State) *state.State { s.Current = 6; return s }, want: "current seat"},
		{name: "over without winner", mutate: func(s *state.State) *state.State { s.Phase = state.PhaseOver; s.Winner = -1; return s }, want: "winner"},
		{name: "map without geometry", mutate: func(s *state.State) *state.State { s.Map = &other; return s }, want: "no geometry"},
		{name: "map differing from geometry", mutate: func(s *state.State) *state.State { s.Map = &renamed; return s }, want: "Atlantis"},
		{name: "width too small", opts: Options{Width: 300}, mutate: func(s *state.State) *state.State { return s }, want: "width 300"},
		{name: "unknown palette", opts: Options{Palette: 7}, mutate: func(s *state.State) *state.State { return s }, want: "palette"},
		{name: "canceled", ctx: canceled, mutate: func(s *state.State) *state.State { return s }, want: "canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			r := shared(Options{Width: goldenWidth})
			if tt.opts != (Options{}) {
				r = New(tt.opts) // fails before building anything
			}
			got, err := r.Render(ctx, tt.mutate(fixtureMid(t)))
			if err == nil {
				t.Fatalf("rendered %d bytes, want an error containing %q", len(got), tt.want)
			}
			if got != nil {
				t.Errorf("returned %d bytes with the error", len(got))
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "render: ") {
				t.Errorf("error %q, want it to start with \"render: \" and contain %q", err, tt.want)
			}
		})
	}
	// A map of another name builds its own board and fails alone: the
	// classic board still renders afterwards.
	r := New(Options{Width: goldenWidth})
	s := fixtureMid(t)
	s.Map = &renamed
	if _, err := r.Render(context.Background(), s); err == nil {
		t.Error("a renamed territory rendered")
	}
	if _, err := r.Render(context.Background(), fixtureMid(t)); err != nil {
		t.Errorf("classic after a bad map: %v", err)
	}
	for range 3 {
		s := fixtureMid(t)
		s.Map = &other
		if _, err := r.Render(context.Background(), s); err == nil {
			t.Error("a map without geometry rendered")
		}
	}
	if n := len(r.boards); n != 1 {
		t.Errorf("the renderer keeps %d boards, want 1 (maps without geometry are not kept)", n)
	}
	if !errors.Is(func() error { _, err := r.Render(canceled, fixtureMid(t)); return err }(), context.Canceled) {
		t.Error("a canceled render does not wrap context.Canceled")
	}
}

// TestConcurrentRenders renders several matches at once with one renderer
// (run it with -race): each must come out as it does alone, pixel for
// pixel (the PNG's bytes depend on what the renderer encoded before: its
// bands keep their codes, internal/pngbands).
func TestConcurrentRenders(t *testing.T) {
	states := []*state.State{fixtureStart(t), fixtureMid(t), fixtureOver(t),
		playGame(t, 3, 11, 250).State, playGame(t, 5, 12, 400).State, playGame(t, 2, 13, -1).State,
		gridStart(t), gridMid(t), gridOver(t), // workers go from one palette to the other
		artMid(t), artTallOver(t)} // and to imported maps', one each
	alone := make([][]byte, len(states))
	for i, s := range states {
		var err error
		if alone[i], err = shared(Options{Width: goldenWidth}).Render(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	r := New(Options{Width: goldenWidth}) // cold: the first renders race to build the board
	var wg sync.WaitGroup
	errs := make([]error, 2*len(states))
	for k := range 2 {
		for i, s := range states {
			wg.Go(func() {
				got, err := r.Render(context.Background(), s)
				if err == nil && !samePixels(got, alone[i]) {
					err = errors.New("differs from the same state rendered alone")
				}
				errs[k*len(states)+i] = err
			})
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("render %d: %v", i, err)
		}
	}
}

// TestLayout checks the static layout at several widths: names never
// overlap each other, a badge, a connector's note or the legend, and stay on
// the map; badges do not overlap; the legend lies on the sea.
func TestLayout(t *testing.T) {
	widths := []int{800, 1600}
	if !testing.Short() {
		widths = append(widths, 1100)
	}
	for _, w := range widths {
		checkLayout(t, Options{Width: w})
	}
}

// checkLayout checks the classic board's static layout drawn with opts
// (TestLayout), and returns the board.
func checkLayout(t *testing.T, opts Options) *board {
	t.Helper()
	m := classicMap(t)
	w := opts.Width
	r := shared(opts)
	if err := r.init(); err != nil {
		t.Fatal(err)
	}
	b, err := r.board(m)
	if err != nil {
		t.Fatalf("width %d: %v", w, err)
	}
	if len(b.labelAt) != m.Len() {
		t.Fatalf("width %d: %d names placed, want %d", w, len(b.labelAt), m.Len())
	}
	name := func(i int) string { return m.Territories[i].Name }
	for i, l := range b.labelAt {
		if l.box.x0 < 0 || l.box.y0 < 0 || l.box.x1 > float64(b.w) || l.box.y1 > float64(b.mh) {
			t.Errorf("width %d: name of %s leaves the map: %+v", w, name(l.t), l.box)
		}
		for _, o := range b.labelAt[i+1:] {
			if l.box.overlaps(o.box) {
				t.Errorf("width %d: names of %s and %s overlap", w, name(l.t), name(o.t))
			}
		}
		for u := range b.anchor {
			if l.box.overlaps(b.badgeBox(u)) {
				t.Errorf("width %d: name of %s covers the badge of %s", w, name(l.t), name(u))
			}
		}
		if overlapsAny(l.box, b.obstacles) || l.box.overlaps(rectOf(b.legend.box)) {
			t.Errorf("width %d: name of %s covers a connector note or the legend", w, name(l.t))
		}
	}
	for u := range b.anchor {
		for v := u + 1; v < len(b.anchor); v++ {
			d := math.Hypot(b.anchor[u][0]-b.anchor[v][0], b.anchor[u][1]-b.anchor[v][1])
			if d < 2*b.badgeR {
				t.Errorf("width %d: badges of %s and %s overlap (%.0f px apart)", w, name(u), name(v), d)
			}
		}
		x, y := int(b.anchor[u][0]), int(b.anchor[u][1])
		if got := b.terr[y*b.w+x]; int(got) != u+1 {
			t.Errorf("width %d: the badge of %s is not on it", w, name(u))
		}
	}
	if land := b.landIn(rectOf(b.legend.box)); land > 0 {
		t.Errorf("width %d: the legend covers land (%.1f%%)", w, 100*land)
	}
	return b
}

// samePixels reports whether two PNGs decode to the same paletted image.
func samePixels(a, b []byte) bool {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return false
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return false
	}
	pa, ok := ia.(*image.Paletted)
	pb, ok2 := ib.(*image.Paletted)
	return ok && ok2 && pa.Rect == pb.Rect && slices.Equal(pa.Palette, pb.Palette) && bytes.Equal(pa.Pix, pb.Pix)
}
