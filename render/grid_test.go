package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// TestCapitalsSize: a capitals board at the default width is a paletted
// PNG of at most 800 KB, with the map square and the panel beside it.
func TestCapitalsSize(t *testing.T) {
	data, err := shared(Options{}).Render(context.Background(), gridMid(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds(); got.Dx() != DefaultWidth || got.Dy() != 64*gridCell {
		t.Errorf("size %v, want %d x %d", got.Size(), DefaultWidth, 64*gridCell)
	}
	if _, ok := img.(*image.Paletted); !ok {
		t.Errorf("image is %T, want a paletted PNG", img)
	}
	if len(data) > 800<<10 {
		t.Errorf("PNG is %d bytes, want at most 800 KB", len(data))
	}
	t.Logf("%d bytes", len(data))
}

// TestReadableInChatCapitals shrinks capitals boards to Discord's inline
// widths (400 and 550 px): every badge must still show its owner's colour,
// and the badge numbers, the panel's lines and the territory names keep a
// readable height.
func TestReadableInChatCapitals(t *testing.T) {
	fixtures := []struct {
		name  string
		state func(testing.TB) *state.State
	}{{"midgame", gridMid}, {"start", gridStart}}
	if racetest.Enabled {
		fixtures = fixtures[:1] // each board takes seconds under the race detector
	}
	for _, p := range []Palette{Default, ColorBlind} {
		for _, fx := range fixtures {
			t.Run(p.String()+"/"+fx.name, func(t *testing.T) {
				r := shared(Options{Palette: p})
				s := fx.state(t)
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
					checkBadgeColours(t, r, s, b, toRGBA(img), inline, "capitals-"+fx.name+"-"+p.String())
					k := float64(inline) / float64(img.Bounds().Dx())
					// Territory names are words under a badge, not numbers:
					// 5 px at 550 px wide, 4 at 400 (see docs/render.md).
					names := 5.0
					if inline < 550 {
						names = 4
					}
					for _, x := range []struct {
						what string
						h    float64
						want float64
					}{
						{"badge numbers", capHeight(f.badge), 6},
						{"three-digit badge numbers", capHeight(f.badgeSmall), 6},
						{"the player to move", capHeight(f.head), 6},
						{"player names", capHeight(f.name), 6},
						{"territory names", capHeight(gridNameFace(t, r)), names},
					} {
						if h := x.h * k; h < x.want {
							t.Errorf("%s are %.1f px tall at %d px wide, want %.0f", x.what, h, inline, x.want)
						} else {
							t.Logf("%s: %.1f px tall at %d px wide", x.what, h, inline)
						}
					}
				}
			})
		}
	}
}

// gridNameFace is the face territory names are drawn with on generated
// maps.
func gridNameFace(t *testing.T, r *Renderer) font.Face {
	t.Helper()
	fc, err := face(r.fonts.bold, gridNameSize*float64(r.width)/refWidth)
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

// TestGridLayout checks the static layout of generated maps of every size,
// at two widths: each badge sits on its own territory, badges do not
// overlap, names stay on the map square, under or near their own badge and
// clear of each other, of every badge and marker place and of the
// pontoons; each coastal territory has a pontoon from its coast out over
// the water.
func TestGridLayout(t *testing.T) {
	seeds := []uint64{1, 2, 3, 42}
	widths := []int{800, 1600}
	if testing.Short() || racetest.Enabled {
		seeds, widths = seeds[:2], widths[:1]
	}
	for _, w := range widths {
		r := shared(Options{Width: w})
		if err := r.init(); err != nil {
			t.Fatal(err)
		}
		for _, z := range genmap.Sizes() {
			for _, seed := range seeds {
				m := genMap(t, seed, z)
				t.Run(fmt.Sprintf("%d/%s", w, m.Name), func(t *testing.T) {
					b, err := r.gridBoardFor(m)
					if err != nil {
						t.Fatal(err)
					}
					checkGridLayout(t, b)
				})
			}
		}
	}
}

func checkGridLayout(t *testing.T, b *board) {
	t.Helper()
	m, gb := b.m, b.kind.(*gridKind)
	name := func(i int) string { return m.Territories[i].Name }
	side := float64(b.mw)
	for u := range b.anchor {
		x, y := b.anchor[u][0], b.anchor[u][1]
		if got := b.terr[int(y)*b.w+int(x)]; int(got) != u+1 {
			t.Errorf("the badge of %s is not on it", name(u))
		}
		for v := u + 1; v < len(b.anchor); v++ {
			if d := math.Hypot(x-b.anchor[v][0], y-b.anchor[v][1]); d < 2*b.badgeR {
				t.Errorf("badges of %s and %s overlap (%.0f px apart)", name(u), name(v), d)
			}
		}
		sl := b.slots[u]
		for _, p := range [][2]float64{sl.capital, sl.fortress, sl.hero, sl.item} {
			if p[0] < 0 || p[1] < 0 || p[0] > side || p[1] > float64(b.h) {
				t.Errorf("a marker of %s is off the map at %v", name(u), p)
			}
		}
	}
	var piers []frect
	for u, tr := range m.Territories {
		if !tr.Coast {
			continue
		}
		p := b.pierAt[u]
		if p == nil || b.piers[u] == nil || len(b.piers[u].off) == 0 {
			t.Errorf("coastal %s has no pontoon", name(u))
			continue
		}
		piers = append(piers, p.box(gb.cell))
		// From its own coast out over the water.
		back := b.terr[int(p.y-p.dy*gb.cell*0.3)*b.w+int(p.x-p.dx*gb.cell*0.3)]
		out := b.terr[int(p.y+p.dy*gb.cell*0.8)*b.w+int(p.x+p.dx*gb.cell*0.8)]
		if int(back) != u+1 || out != 0 {
			t.Errorf("%s: the pontoon starts on territory %d and ends on %d, want %d and water", name(u), int(back)-1, int(out)-1, u)
		}
	}
	for i, l := range b.labelAt {
		if l.box.x0 < 0 || l.box.y0 < 0 || l.box.x1 > side || l.box.y1 > float64(b.h) {
			t.Errorf("name of %s leaves the map square: %+v", name(l.t), l.box)
		}
		for _, o := range b.labelAt[i+1:] {
			if l.box.overlaps(o.box) {
				t.Errorf("names of %s and %s overlap", name(l.t), name(o.t))
			}
		}
		for u := range b.anchor {
			if l.box.overlaps(b.badgeBox(u)) {
				t.Errorf("name of %s covers the badge of %s", name(l.t), name(u))
			}
		}
		if overlapsAny(l.box, b.obstacles) {
			t.Errorf("name of %s covers a marker place", name(l.t))
		}
		// Nearer its own badge than any other.
		own := l.box.dist(b.anchor[l.t][0], b.anchor[l.t][1])
		for u := range b.anchor {
			if u != l.t && l.box.dist(b.anchor[u][0], b.anchor[u][1]) < own {
				t.Errorf("name of %s is nearer the badge of %s", name(l.t), name(u))
			}
		}
		for _, p := range piers {
			if l.box.overlaps(p) {
				t.Errorf("name of %s covers a pontoon", name(l.t))
			}
		}
	}
}

// gridStartOn is a capitals start on m: two seats with their capitals.
func gridStartOn(t testing.TB, m *state.Map) *state.State {
	rng := rand.New(rand.NewPCG(5, 5))
	s := capitalsState(m, rng, "Ann", "Bob")
	spread(s, rng, 1)
	return s
}

// region returns the part of the decoded PNG around p, for comparing.
func region(t *testing.T, data []byte, p [2]float64, r float64) []uint8 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rgba := toRGBA(img)
	var out []uint8
	for y := int(p[1] - r); y <= int(p[1]+r); y++ {
		for x := int(p[0] - r); x <= int(p[0]+r); x++ {
			o := rgba.PixOffset(x, y)
			out = append(out, rgba.Pix[o:o+3]...)
		}
	}
	return out
}

// TestGridMarkers: every marker shows where it belongs (a port, a capital,
// a hero, an item lying, the fat bonus, an item kept), and what must stay
// hidden does: the kind of an item lying on a territory (other than the fat
// bonus) and of an item a player keeps never changes a pixel.
func TestGridMarkers(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	ctx := context.Background()
	base := gridMid(t)
	b, err := func() (*board, error) {
		if _, err := r.Render(ctx, base); err != nil {
			return nil, err
		}
		return r.gridBoardFor(base.Map)
	}()
	if err != nil {
		t.Fatal(err)
	}
	render := func(s *state.State) []byte {
		t.Helper()
		data, err := r.Render(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// A neutral coastal territory without item, port or capital.
	target := -1
	for u, tr := range base.Map.Territories {
		if tr.Coast && !tr.Fortress && base.Terr[u].Owner == state.Neutral && base.Terr[u].Item == state.NoItem && !base.Terr[u].Port {
			target = u
			break
		}
	}
	if target < 0 {
		t.Fatal("no neutral coastal territory in the fixture")
	}
	sl := b.slots[target]
	rad := b.badgeR * 0.6
	plain := render(base)
	for _, tt := range []struct {
		name   string
		change func(s *state.State)
		at     [2]float64
	}{
		{"item", func(s *state.State) { s.Terr[target].Item = state.ItemHidden }, sl.item},
		{"fat bonus", func(s *state.State) { s.Terr[target].Item = state.ItemFat }, sl.item},
		{"capital", func(s *state.State) {
			s.Terr[target].Owner = 0
			s.Seats[0].Capitals.Capital = int16(target + 1)
		}, sl.capital},
		{"hero", func(s *state.State) {
			s.Terr[target].Owner = 1
			s.Seats[1].Capitals.Hero = int16(target + 1)
		}, sl.hero},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := gridMid(t)
			tt.change(s)
			if bytes.Equal(region(t, render(s), tt.at, rad), region(t, plain, tt.at, rad)) {
				t.Errorf("the %s does not show at its place", tt.name)
			}
		})
	}
	t.Run("port", func(t *testing.T) {
		s := gridMid(t)
		s.Terr[target].Port = true
		if bytes.Equal(render(s), plain) {
			t.Error("the port does not show")
		}
	})
	t.Run("hidden item kinds", func(t *testing.T) {
		var first []byte
		for _, kind := range []state.Item{state.ItemHidden, state.ItemDistant, state.ItemFullPower, state.ItemAttackPort,
			state.ItemTwoTurns, state.ItemTroopBonus, state.ItemTroopMalus, state.ItemLoseLand} {
			s := gridMid(t)
			s.Terr[target].Item = kind
			got := render(s)
			if first == nil {
				first = got
			} else if !bytes.Equal(got, first) {
				t.Errorf("an item of kind %s lying on the map looks different from a hidden one", kind)
			}
		}
	})
	t.Run("kept items", func(t *testing.T) {
		var first []byte
		for kind := range state.Item(state.NumItems) {
			if kind == state.NoItem {
				kind = state.ItemHidden
			}
			s := gridMid(t)
			s.Seats[0].Capitals.Item = kind
			got := render(s)
			if first == nil {
				first = got
			} else if !bytes.Equal(got, first) {
				t.Errorf("a kept item of kind %s shows differently from a hidden one", kind)
			}
		}
		s := gridMid(t)
		s.Seats[0].Capitals.Item = state.NoItem
		if bytes.Equal(render(s), first) {
			t.Error("holding an item does not show in the panel")
		}
	})
}

// TestHeroState: the panel's word for each hero situation.
func TestHeroState(t *testing.T) {
	for _, tt := range []struct {
		c    state.CapitalsSeat
		want string
	}{
		{state.CapitalsSeat{}, "locked"},
		{state.CapitalsSeat{Hero: 3}, "locked"}, // not won: whatever Hero says
		{state.CapitalsSeat{HeroWon: true, Hero: 3}, "alive"},
		{state.CapitalsSeat{HeroWon: true}, "dead"},
	} {
		if got := heroState(tt.c); got != tt.want {
			t.Errorf("heroState(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

// TestGridCache: boards of generated maps are kept for at most
// maxGridBoards maps, and a map that shares a cached map's name but not its
// cells gets a board of its own.
func TestGridCache(t *testing.T) {
	defer func(n int) { maxGridBoards = n }(maxGridBoards)
	maxGridBoards = 2
	r := New(Options{Width: goldenWidth})
	ctx := context.Background()
	for seed := range uint64(maxGridBoards + 2) {
		if _, err := r.Render(ctx, gridStartOn(t, genMap(t, 100+seed, genmap.Small))); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(r.grids); n > maxGridBoards {
		t.Errorf("%d boards cached, want at most %d", n, maxGridBoards)
	}
	a := genMap(t, 1, genmap.Small)
	other := *genMap(t, 2, genmap.Small)
	other.Name = a.Name // same name, other cells
	pa, err := r.Render(ctx, gridStartOn(t, a))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := r.Render(ctx, gridStartOn(t, &other))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(pa, pb) {
		t.Error("two different maps of one name rendered the same")
	}
	if _, err := r.Render(ctx, fixtureMid(t)); err != nil {
		t.Errorf("classic after generated maps: %v", err)
	}
}

// TestGridBadInput: capitals fields naming unknown territories are errors.
func TestGridBadInput(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	for _, tt := range []struct {
		name   string
		mutate func(s *state.State)
	}{
		{"capital", func(s *state.State) { s.Seats[0].Capitals.Capital = int16(s.Map.Len() + 1) }},
		{"hero", func(s *state.State) { s.Seats[1].Capitals.Hero = -2 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := gridMid(t)
			tt.mutate(s)
			_, err := r.Render(context.Background(), s)
			if err == nil || !strings.Contains(err.Error(), "unknown territory") {
				t.Errorf("error %v, want one about an unknown territory", err)
			}
		})
	}
}

// TestRenderCapitalsGames renders capitals matches played by the engine
// (random legal moves), as spectators see them, every few commands and at
// the end: whatever the engine makes of a match, the board draws it.
func TestRenderCapitalsGames(t *testing.T) {
	games, every := 3, 7
	if testing.Short() || racetest.Enabled {
		games, every = 1, 25
	}
	r := shared(Options{Width: goldenWidth})
	for seed := range uint64(games) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			o := state.CapitalsOptions()
			o.Map = []string{"small", "normal", "large"}[seed%3]
			seats := []engine.SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Chloé"}}
			g, err := engine.NewGame(engine.Setup{Options: o, Seats: seats, Seed: 40 + seed})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 3))
			for step := 0; step < 600 && g.State.Phase != state.PhaseOver; step++ {
				if step%every == 0 {
					if _, err := r.Render(context.Background(), g.State.View(-1)); err != nil {
						t.Fatalf("step %d (%s): %v", step, g.State.Phase, err)
					}
				}
				seat := g.State.Current
				var moves []engine.Command
				for _, c := range engine.Legal(g.State, seat) {
					if _, ok := c.(engine.Surrender); !ok {
						moves = append(moves, c)
					}
				}
				if len(moves) == 0 {
					t.Fatalf("step %d: no move for seat %d", step, seat)
				}
				if _, _, err := g.Apply(seat, moves[rng.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.Render(context.Background(), g.State.View(-1)); err != nil {
				t.Fatalf("the end (%s): %v", g.State.Phase, err)
			}
		})
	}
}
