package render

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
)

// Classic rules on generated islands (engine.ClassicMatchMap): the map's
// sea links are borders, drawn as lanes.

// lanesMap is the classic board made from the generated map of seed at
// size z.
func lanesMap(t testing.TB, seed uint64, z genmap.Size) *state.Map {
	t.Helper()
	m, err := engine.LoadMap(engine.LanesName(genmap.Name(seed, z)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// lanesMid is a five-seat classic middle game on a large map of two
// islands (seed 12): a continent held whole, an eliminated seat, cards in
// hand, and a conquest and an attack across lanes.
func lanesMid(t testing.TB) *state.State {
	m := lanesMap(t, 12, genmap.Large)
	s := newState(m, "Ann", "Bob", "Chloé", "Dmitri", "Farouk al-Rashid the Magnificent")
	s.Options.Map = m.Name
	rng := rand.New(rand.NewPCG(12, 12))
	for t := range s.Terr {
		s.Terr[t] = state.Terr{Owner: m.Territories[t].Continent % 4, Armies: 1 + rng.IntN(14)}
		if m.Territories[t].Continent != 0 && rng.IntN(3) == 0 {
			s.Terr[t].Owner = rng.IntN(5)
		}
	}
	s.Terr[0].Armies = 104
	// Bob was eliminated: nothing is his any more.
	for t := range s.Terr {
		if s.Terr[t].Owner == 1 {
			s.Terr[t].Owner = 4
		}
	}
	s.Seats[1].Status, s.Seats[1].HiddenCards = state.Eliminated, 0
	lanes := laneBorders(m)
	if len(lanes) < 2 {
		t.Fatalf("%s has %d lanes, want 2 or more", m.Name, len(lanes))
	}
	a, b := lanes[0][0], lanes[0][1]
	s.Terr[a].Owner, s.Terr[b].Owner = 2, 2
	s.This.Add(state.Arrow{From: int16(a), To: int16(b), Kind: state.ArrowConquest, Seat: 2, Count: 6})
	a, b = lanes[len(lanes)-1][0], lanes[len(lanes)-1][1]
	s.Terr[a].Owner, s.Terr[b].Owner = 2, 3
	s.This.Add(state.Arrow{From: int16(a), To: int16(b), Kind: state.ArrowAttack, Seat: 2, Count: 3})
	s.Turn, s.Current, s.Phase = 14, 2, state.PhaseAttack
	return s
}

// lanesSetup is the setup of a three-seat classic match on a small map:
// everyone still placing armies.
func lanesSetup(t testing.TB) *state.State {
	m := lanesMap(t, 1, genmap.Small)
	s := newState(m, "Ann", "Bob", "Chloé")
	s.Options.Map = m.Name
	for t := range s.Terr {
		s.Terr[t] = state.Terr{Owner: t % 3, Armies: 1 + t%3}
	}
	for i := range s.Seats {
		s.Seats[i].Reserve = 35 - s.Owned(i) - i*3
		s.Seats[i].HiddenCards = 0
	}
	s.Phase, s.Turn = state.PhaseSetup, 0
	return s
}

// TestGoldenClassicIslandsPhone compares a classic match on generated
// islands, rendered at the default width and shrunk to a phone's 400 px
// as chat shows it, with testdata/classic-islands-midgame-phone.png.
func TestGoldenClassicIslandsPhone(t *testing.T) {
	r := shared(Options{})
	data, err := r.Render(context.Background(), lanesMid(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, shrink(toRGBA(img), 400)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "classic-islands-midgame-phone.png")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run TestGoldenClassicIslandsPhone -update)", err)
	}
	if err := comparePNG(buf.Bytes(), want); err != nil {
		out := filepath.Join(t.TempDir(), "classic-islands-midgame-phone.png")
		os.WriteFile(out, buf.Bytes(), 0o644)
		t.Errorf("%s: %v (got image: %s)", path, err, out)
	}
}

// TestLanesAreTheSeaLinks: the lanes a classic board draws are the sea
// links of the generated map it is made from, every one with a line; a
// capitals map has none.
func TestLanesAreTheSeaLinks(t *testing.T) {
	for _, z := range genmap.Sizes() {
		for _, seed := range []uint64{1, 12} {
			g := genMap(t, seed, z)
			if got := laneBorders(g); len(got) != 0 {
				t.Errorf("%s: lanes %v on a capitals map, want none", g.Name, got)
			}
			m := lanesMap(t, seed, z)
			var want [][2]int
			for a, tr := range g.Territories {
				for _, b := range tr.Sea {
					if a < b {
						want = append(want, [2]int{a, b})
					}
				}
			}
			got := laneBorders(m)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: lanes %v, want the sea links %v", m.Name, got, want)
			}
			for _, p := range got {
				pts, ok := lanePath(m.Grid, p[0], p[1])
				if !ok || len(pts) < 2 {
					t.Errorf("%s: lane %s–%s has no line (%v)", m.Name, m.Territories[p[0]].Name, m.Territories[p[1]].Name, pts)
				}
			}
		}
	}
}

// TestLanesDrawn renders a classic match on islands and finds each lane's
// dashes (the connector colour) along its line, and the classic panel's
// words: a classic board has no markers, ports or hero.
func TestLanesDrawn(t *testing.T) {
	r := shared(Options{})
	s := lanesMid(t)
	data, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rgba := toRGBA(img)
	b, err := r.gridBoardFor(s.Map)
	if err != nil {
		t.Fatal(err)
	}
	k := b.kind.(*gridKind)
	if !k.classic || b.slots != nil || b.piers != nil && slices.ContainsFunc(b.piers, func(p *sparse) bool { return p != nil }) {
		t.Fatalf("classic %v, marker places %v, pontoons: want a classic board without markers or pontoons", k.classic, b.slots != nil)
	}
	if len(k.lanes) != len(laneBorders(s.Map)) {
		t.Errorf("%d lanes drawn, want %d", len(k.lanes), len(laneBorders(s.Map)))
	}
	for _, l := range k.lanes {
		hits, samples := 0, 0
		for i := 1; i < len(l.pts); i++ {
			p, q := l.pts[i-1], l.pts[i]
			n := int(math.Hypot(q[0]-p[0], q[1]-p[1]))
			for j := range n {
				f := float64(j) / float64(max(1, n))
				x, y := int(p[0]+(q[0]-p[0])*f), int(p[1]+(q[1]-p[1])*f)
				samples++
				c := rgba.RGBAAt(x, y)
				if colourDistance(c, r.th.connector) < 40 {
					hits++
				}
			}
		}
		// Dashes of 11 and gaps of 8, ends rounded: about half the line,
		// less where badges or names lie over it.
		if hits*4 < samples {
			t.Errorf("lane %s–%s: %d of %d pixels along it are the lane's colour, want a quarter at least",
				s.Map.Territories[l.a].Name, s.Map.Territories[l.b].Name, hits, samples)
		}
	}
}

// TestReadableInChatClassicIslands shrinks a classic board of generated
// islands to chat's inline widths: every badge shows its owner's colour,
// the numbers and the panel's lines keep a readable height, and the lanes
// stay a pixel wide at least.
func TestReadableInChatClassicIslands(t *testing.T) {
	for _, p := range []Palette{Default, ColorBlind} {
		t.Run(p.String(), func(t *testing.T) {
			r := shared(Options{Palette: p})
			s := lanesMid(t)
			data, err := r.Render(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			b, err := r.gridBoardFor(s.Map)
			if err != nil {
				t.Fatal(err)
			}
			f := r.newFacesForTest(t)
			for _, inline := range inlineWidths {
				checkBadgeColours(t, r, s, b, toRGBA(img), inline, "classic-islands-"+p.String())
				k := float64(inline) / float64(img.Bounds().Dx())
				for _, x := range []struct {
					what string
					h    float64
					want float64
				}{
					{"badge numbers", capHeight(f.badge), 6},
					{"three-digit badge numbers", capHeight(f.badgeSmall), 6},
					{"the player to move", capHeight(f.head), 6},
					{"player names", capHeight(f.name), 6},
					// Every kind of card's numbers use this face: 4.9 px
					// at 400 px wide, as on the capitals cards.
					{"the cards' numbers", capHeight(f.stat), 4.5},
					{"lane lines (their width)", 4 * b.s, 1},
				} {
					if h := x.h * k; h < x.want {
						t.Errorf("%s are %.1f px tall at %d px wide, want %.0f", x.what, h, inline, x.want)
					} else {
						t.Logf("%s: %.1f px at %d px wide", x.what, h, inline)
					}
				}
			}
		})
	}
}

// colourDistance is the largest difference of a channel of two colours.
func colourDistance(a, b color.RGBA) int {
	return int(max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B)))
}

// TestClassicIslandsEveryPhase renders a classic match on islands in each
// phase and view: in the fog, in a simultaneous round, and over.
func TestClassicIslandsEveryPhase(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	for _, tt := range []struct {
		name string
		f    func(testing.TB) *state.State
	}{
		{"fog", fogged(lanesMid)},
		{"orders", func(tb testing.TB) *state.State {
			s := lanesMid(tb)
			s.Options.Turns, s.Phase = state.Simultaneous, state.PhaseOrders
			s.Seats[0].Ready = true
			return s
		}},
		{"over", func(tb testing.TB) *state.State {
			s := lanesMid(tb)
			s.Phase, s.Winner = state.PhaseOver, 2
			return s
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := r.Render(context.Background(), tt.f(t)); err != nil {
				t.Fatal(err)
			}
		})
	}
}
