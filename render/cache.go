package render

import (
	"fmt"
	"slices"
	"sync"

	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
)

// A renderer keeps the boards it builds: the classic board for good, the
// boards of generated maps a few at a time (every capitals match has its
// own map).

// board returns the board of map m, building it on first use: a generated
// map's from its cells, any other map's from its geometry.
func (r *Renderer) board(m *state.Map) (*board, error) {
	if m.Grid != nil {
		return r.gridBoardFor(m)
	}
	return r.classicBoard(m)
}

// boardEntry is a cached board of a map drawn from its geometry: the
// geometry is loaded once, the board built once.
type boardEntry struct {
	load     sync.Once
	geo      *world.Geometry
	mask     []uint8
	err      error
	build    sync.Once
	b        *board
	buildErr error
}

// classicBoard returns the board of a map drawn from its geometry,
// building it on first use; boards are kept for good (the classic board is
// one map). The geometry is found by the map's name; a map whose
// territories are not the geometry's is refused without spoiling the cache
// for the real one.
func (r *Renderer) classicBoard(m *state.Map) (*board, error) {
	r.mu.Lock()
	e, ok := r.boards[m.Name]
	if !ok {
		e = &boardEntry{}
		r.boards[m.Name] = e
	}
	r.mu.Unlock()
	e.load.Do(func() {
		e.geo, e.mask, e.err = loadGeometry(worldFS(), m.Name)
	})
	if e.err != nil {
		// Forget maps without geometry: generated maps have names of their
		// own, and their failures must not pile up.
		r.mu.Lock()
		if r.boards[m.Name] == e {
			delete(r.boards, m.Name)
		}
		r.mu.Unlock()
		return nil, e.err
	}
	if err := matchGeometry(e.geo, m); err != nil {
		return nil, err
	}
	e.build.Do(func() {
		e.b, e.buildErr = r.buildBoard(m, &classicKind{geo: e.geo, mask: e.mask}, r.classic)
	})
	if e.buildErr != nil {
		return nil, e.buildErr
	}
	if e.b.m != m && !sameTerritories(e.b.m, m) {
		return nil, fmt.Errorf("render: map %q differs from the one its board was built for", m.Name)
	}
	return e.b, nil
}

func sameTerritories(a, b *state.Map) bool {
	if a.Len() != b.Len() || len(a.Continents) != len(b.Continents) {
		return false
	}
	for i := range a.Territories {
		if a.Territories[i].Name != b.Territories[i].Name || a.Territories[i].Continent != b.Territories[i].Continent {
			return false
		}
	}
	return true
}

// maxGridBoards bounds the cache of generated maps' boards: unlike the
// classic board, every capitals match has its own map. A board at the
// default width takes about 20 MB. (A variable for tests.)
var maxGridBoards = 8

// gridEntry is a cached board of a generated map.
type gridEntry struct {
	build sync.Once
	m     *state.Map
	b     *board
	err   error
	used  uint64 // for eviction: the render count when last used
}

// gridBoardFor returns the board of generated map m, building it on first
// use. Boards are cached by map name, at most maxGridBoards of them; a map
// whose name is cached but whose cells or names differ gets a board of its
// own.
func (r *Renderer) gridBoardFor(m *state.Map) (*board, error) {
	r.mu.Lock()
	r.gridUses++
	e, ok := r.grids[m.Name]
	if ok && e.m != m && !sameGrid(e.m, m) {
		ok = false
	}
	if !ok {
		if len(r.grids) >= maxGridBoards {
			// Evict the least recently used board.
			var oldest string
			first := true
			for name, o := range r.grids {
				if first || o.used < r.grids[oldest].used || (o.used == r.grids[oldest].used && name < oldest) {
					oldest, first = name, false
				}
			}
			delete(r.grids, oldest)
		}
		e = &gridEntry{m: m}
		r.grids[m.Name] = e
	}
	e.used = r.gridUses
	r.mu.Unlock()
	r.gridSetup.Do(func() { r.gridLook = newGridLook(r.th, r.colors) })
	e.build.Do(func() {
		e.b, e.err = r.buildBoard(m, &gridKind{g: m.Grid}, r.gridLook)
	})
	return e.b, e.err
}

// sameGrid reports whether two maps draw the same: same cells, names and
// features.
func sameGrid(a, b *state.Map) bool {
	if a.Grid == nil || b.Grid == nil || a.Grid.W != b.Grid.W || a.Grid.H != b.Grid.H ||
		!slices.Equal(a.Grid.Cells, b.Grid.Cells) || a.Len() != b.Len() {
		return false
	}
	for i := range a.Territories {
		ta, tb := &a.Territories[i], &b.Territories[i]
		if ta.Name != tb.Name || ta.Terrain != tb.Terrain || ta.Fortress != tb.Fortress {
			return false
		}
	}
	return true
}
