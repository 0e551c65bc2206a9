package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

var replayOut = flag.String("replay-out", "", "write the replays the tests make to this `folder`, to look at them")

// playedTurns plays a match of purposeful random moves until it ends or
// reaches turn maxTurn, and returns its turns as a replay shows them.
func playedTurns(t testing.TB, o state.Options, players int, seed uint64, maxTurn int) []*state.State {
	t.Helper()
	names := []string{"Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farouk"}
	var seats []engine.SeatInfo
	for i := range players {
		seats = append(seats, engine.SeatInfo{ID: names[i], Name: names[i]})
	}
	g, err := engine.NewGame(engine.Setup{Options: o, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.Record{Setup: g.Setup}
	rng := rand.New(rand.NewPCG(seed, 7))
	attacks := 0
	for n := 0; g.State.Phase != state.PhaseOver && g.State.Turn <= maxTurn && n < 50000; n++ {
		s := g.State
		seat := s.Current
		var c engine.Command
		legal := engine.Legal(s, seat)
		if s.Options.Rules == state.Capitals {
			var moves []engine.Command
			for _, m := range legal {
				if _, ok := m.(engine.Surrender); !ok {
					moves = append(moves, m)
				}
			}
			c = moves[rng.IntN(len(moves))]
		} else {
			if s.Phase == state.PhaseSetup {
				for i := range s.Seats {
					if s.Seats[i].Reserve > 0 {
						seat = i
						break
					}
				}
				legal = engine.Legal(s, seat)
			}
			c = pickMove(rng, s, legal, &attacks)
		}
		e, _, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("apply %#v: %v", c, err)
		}
		rec.Log = append(rec.Log, e)
	}
	turns, err := rec.Turns()
	if err != nil {
		t.Fatal(err)
	}
	return turns
}

func capitalsOptions(size string) state.Options {
	o := state.CapitalsOptions()
	o.Map = size
	return o
}

// composite plays a decoded GIF's frames over each other, as a viewer
// does (a transparent pixel shows the one beneath), and returns the palette
// indices seen after each frame. Every frame must use the global palette.
func composite(t *testing.T, g *gif.GIF) [][]uint8 {
	t.Helper()
	w := g.Config.Width
	canvas := make([]uint8, w*g.Config.Height)
	var out [][]uint8
	for i, f := range g.Image {
		hole := -1
		for j, c := range f.Palette {
			if _, _, _, a := c.RGBA(); a == 0 {
				hole = j
				break
			}
		}
		if len(f.Palette) != len(g.Config.ColorModel.(color.Palette)) {
			t.Fatalf("frame %d has a palette of its own", i)
		}
		b := f.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if v := f.Pix[f.PixOffset(x, y)]; int(v) != hole {
					canvas[y*w+x] = v
				}
			}
		}
		out = append(out, slices.Clone(canvas))
	}
	return out
}

func save(t *testing.T, name string, b []byte) {
	t.Helper()
	if *replayOut == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(*replayOut, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The GIF shows every turn, and what a viewer sees after each frame is
// exactly that turn's board: the frames that store only what changed add
// up to the whole.
func TestReplayGIF(t *testing.T) {
	ctx := context.Background()
	r := shared(Options{Width: goldenWidth})
	for _, tt := range []struct {
		name  string
		turns []*state.State
	}{
		{"classic", playedTurns(t, state.DefaultOptions(), 3, 2, replayTurns())},
		{"capitals", playedTurns(t, capitalsOptions("small"), 2, 3, replayTurns())},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, info, err := r.Replay(ctx, tt.turns, ReplayOptions{Width: 480})
			if err != nil {
				t.Fatal(err)
			}
			save(t, tt.name+".gif", b)
			g, err := gif.DecodeAll(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Image) != len(tt.turns) || info.Frames != len(tt.turns) || info.Dropped != 0 || info.Bytes != len(b) {
				t.Fatalf("%d frames (info %+v) for %d turns", len(g.Image), info, len(tt.turns))
			}
			if g.Config.Width != 480 || info.Width != 480 || g.Config.Height != info.Height {
				t.Errorf("size %dx%d, info %+v", g.Config.Width, g.Config.Height, info)
			}
			if g.LoopCount != 0 || g.Delay[0] != 70 || g.Delay[len(g.Delay)-1] != 400 {
				t.Errorf("loop %d, delays %v", g.LoopCount, g.Delay)
			}
			f, err := r.shoot(ctx, tt.turns, 480)
			if err != nil {
				t.Fatal(err)
			}
			for i, got := range composite(t, g) {
				if !bytes.Equal(got, f.frames[i].Pix) {
					t.Fatalf("frame %d: what a viewer sees is not the turn's board", i)
				}
				if i > 0 && g.Image[i].Bounds() == f.frames[i].Rect {
					// A whole frame is allowed, but the arrows and
					// badges of one turn never cover every pixel.
					t.Errorf("frame %d stores the whole picture", i)
				}
			}
		})
	}
}

// A limit shrinks the frames, then leaves turns out, and the image always
// fits; one too small for a single frame is an error.
func TestReplayFits(t *testing.T) {
	ctx := context.Background()
	r := shared(Options{Width: goldenWidth})
	turns := playedTurns(t, state.DefaultOptions(), 3, 2, replayTurns())
	// One film, fitted to several limits: drawing it is the slow part.
	f, err := r.shoot(ctx, turns, 480)
	if err != nil {
		t.Fatal(err)
	}
	asGIF := func(fr []*image.Paletted) ([]byte, error) { return encodeGIF(fr, f.palette, defaultDelay) }
	labels := make([]string, len(turns))
	asStrip := func(fr []*image.Paletted) ([]byte, error) { return encodeStrip(fr, labels[:len(fr)], f.palette) }
	full, err := asGIF(f.frames)
	if err != nil {
		t.Fatal(err)
	}
	narrow := f.shrink(minReplayWidth)
	narrowest, err := asGIF(narrow)
	if err != nil {
		t.Fatal(err)
	}
	one, err := asGIF(narrow[:1])
	if err != nil {
		t.Fatal(err)
	}
	strip, err := asStrip(f.frames)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		limit      int
		encode     func([]*image.Paletted) ([]byte, error)
		wantShrink bool
		wantDrop   bool
	}{
		{"no need", len(full), asGIF, false, false},
		{"half", len(full) / 2, asGIF, true, false},
		{"below the narrowest", (len(narrowest) + len(one)) / 2, asGIF, true, true},
		{"strip, a third", len(strip) / 3, asStrip, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, info, err := f.fit(ctx, tt.limit, tt.encode)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > tt.limit || info.Bytes != len(b) {
				t.Fatalf("%d bytes (info %+v) for a limit of %d", len(b), info, tt.limit)
			}
			if shrunk := info.Width < 480; shrunk != tt.wantShrink {
				t.Errorf("width %d", info.Width)
			}
			// Shrinking may not be enough: leaving turns out is allowed
			// whenever it is expected, or the limit is tight.
			if dropped := info.Dropped > 0; dropped && !tt.wantDrop && tt.limit > len(narrowest) || !dropped && tt.wantDrop || info.Frames+info.Dropped != len(turns) {
				t.Errorf("frames %d, dropped %d of %d turns", info.Frames, info.Dropped, len(turns))
			}
			if tt.name == "strip, a third" {
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				cols := columns(info.Frames)
				rows := (info.Frames + cols - 1) / cols
				if want := image.Rect(0, 0, cols*(info.Width+4)+4, rows*(info.Height+captionHeight+4)+4); img.Bounds() != want {
					t.Errorf("strip %v, want %v", img.Bounds(), want)
				}
				return
			}
			g, err := gif.DecodeAll(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Image) != info.Frames || g.Config.Width != info.Width {
				t.Errorf("decoded %d frames %d wide, info %+v", len(g.Image), g.Config.Width, info)
			}
		})
	}
	if _, _, err := f.fit(ctx, 2000, asGIF); err == nil {
		t.Error("a limit below one frame fitted")
	}
}

// replayTurns is how long the matches of the replay tests are.
func replayTurns() int {
	if racetest.Enabled {
		return 3
	}
	return 6
}

func TestReplayBadInput(t *testing.T) {
	ctx := context.Background()
	r := shared(Options{Width: goldenWidth})
	classic := fixtureMid(t)
	caps := gridMid(t)
	for _, tt := range []struct {
		name  string
		turns []*state.State
		o     ReplayOptions
	}{
		{"no turns", nil, ReplayOptions{}},
		{"a nil turn", []*state.State{classic, nil}, ReplayOptions{}},
		{"two maps", []*state.State{classic, caps}, ReplayOptions{}},
		{"a negative limit", []*state.State{classic}, ReplayOptions{Limit: -1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := r.Replay(ctx, tt.turns, tt.o); err == nil {
				t.Error("Replay: no error")
			}
			if _, _, err := r.Strip(ctx, tt.turns, tt.o); err == nil {
				t.Error("Strip: no error")
			}
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := r.Replay(cancelled, []*state.State{classic}, ReplayOptions{}); err == nil {
		t.Error("a cancelled replay: no error")
	}
}

func TestPick(t *testing.T) {
	for _, tt := range []struct {
		total, n int
		want     []int
	}{
		{10, 10, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{10, 20, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{10, 3, []int{0, 5, 9}},
		{101, 5, []int{0, 25, 50, 75, 100}},
		{7, 1, []int{6}},
	} {
		if got := pickFrames(tt.total, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("pickFrames(%d, %d) = %v, want %v", tt.total, tt.n, got, tt.want)
		}
	}
}

// BenchmarkReplay100 makes the replay of a 100-turn classic match (and a
// capitals one as long) with the default 8 MB limit: time per replay, and
// the size in bytes as a metric.
func BenchmarkReplay100(b *testing.B) {
	for _, tt := range []struct {
		name string
		o    state.Options
		n    int
	}{
		{"classic", state.DefaultOptions(), 5},
		{"capitals", capitalsOptions("large"), 6},
	} {
		turns := playedTurns(b, tt.o, tt.n, 11, 100)
		if len(turns) < 100 {
			b.Fatalf("%s: only %d turns", tt.name, len(turns))
		}
		turns = turns[:100]
		for _, kind := range []string{"gif", "strip"} {
			b.Run(fmt.Sprintf("%s/%s", tt.name, kind), func(b *testing.B) {
				r := New(Options{Width: minWidth})
				var size, width, frames int
				for b.Loop() {
					f := r.Replay
					if kind == "strip" {
						f = r.Strip
					}
					img, info, err := f(context.Background(), turns, ReplayOptions{})
					if err != nil {
						b.Fatal(err)
					}
					size, width, frames = len(img), info.Width, info.Frames
					if *replayOut != "" {
						ext := map[string]string{"gif": ".gif", "strip": ".png"}[kind]
						if err := os.WriteFile(filepath.Join(*replayOut, tt.name+"-100"+ext), img, 0o644); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(size), "bytes")
				b.ReportMetric(float64(width), "px-wide")
				b.ReportMetric(float64(frames), "frames")
			})
		}
	}
}

// roundTurns plays a match of simultaneous rounds (each seat places
// automatically, orders its strongest territory against its weakest
// neighbour, commits) and returns its record's turns: a frame a round.
func roundTurns(t testing.TB, players int, seed uint64, maxRound int) []*state.State {
	t.Helper()
	names := []string{"Ann", "Bob", "Chloé", "Dmitri"}
	var seats []engine.SeatInfo
	for i := range players {
		seats = append(seats, engine.SeatInfo{ID: names[i], Name: names[i]})
	}
	o := state.DefaultOptions()
	o.Turns = state.Simultaneous
	g, err := engine.NewGame(engine.Setup{Options: o, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.Record{Setup: g.Setup}
	apply := func(seat int, c engine.Command) {
		e, _, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("%#v: %v", c, err)
		}
		rec.Log = append(rec.Log, e)
	}
	for g.State.Phase != state.PhaseOver && g.State.Turn <= maxRound {
		s := g.State
		for seat := range s.Seats {
			if !s.Seats[seat].Alive() || (s.Phase == state.PhaseSetup && s.Seats[seat].Reserve == 0) || (s.Phase == state.PhaseOrders && s.Seats[seat].Ready) {
				continue
			}
			if s.Phase == state.PhaseSetup {
				apply(seat, engine.AutoPlace{})
				continue
			}
			if set, ok := engine.BestSet(s, seat); ok {
				apply(seat, engine.Trade{Cards: set})
			}
			if s.Seats[seat].Reserve > 0 {
				apply(seat, engine.AutoPlace{})
			}
			from, to := -1, -1
			for u := range s.Terr {
				if s.Terr[u].Owner != seat || (from >= 0 && engine.Projected(s, seat, u) <= engine.Projected(s, seat, from)) {
					continue
				}
				for _, n := range s.Map.Territories[u].Adj {
					if s.Terr[n].Owner != seat {
						from, to = u, n
					}
				}
			}
			if from >= 0 && engine.Projected(s, seat, from) > 1 {
				apply(seat, engine.Assault{From: from, To: to, Armies: engine.Projected(s, seat, from) - 1})
			}
			turn := s.Turn
			apply(seat, engine.EndTurn{})
			if g.State.Turn != turn || g.State.Phase == state.PhaseOver {
				break
			}
		}
	}
	turns, err := rec.Turns()
	if err != nil {
		t.Fatal(err)
	}
	return turns
}

// TestReplayOfRounds: a match of simultaneous rounds replays a frame a
// round, none showing an order.
func TestReplayOfRounds(t *testing.T) {
	turns := roundTurns(t, 3, 4, 12)
	for i, s := range turns {
		if len(s.Orders) > 0 {
			t.Fatalf("frame %d holds orders", i)
		}
	}
	b, info, err := shared(Options{Width: goldenWidth}).Replay(context.Background(), turns, ReplayOptions{Width: 480})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) < 10 || len(g.Image) != len(turns) || info.Frames != len(turns) {
		t.Fatalf("%d frames (info %+v) for %d rounds", len(g.Image), info, len(turns))
	}
}
