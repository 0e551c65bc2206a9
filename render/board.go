package render

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// The board is what every render of one map at one width shares: built
// once by buildBoard (pipeline.go), then only read. This file holds it and
// the types of what it holds: what its kind of map says (kind, style) and
// where its names, legend, markers and pontoons go.

// refWidth is the width every size is designed at; other widths scale.
const refWidth = 1600

// board is everything about one map at one width that does not change from
// turn to turn. It is built once and then only read, by any number of
// renders at once.
type board struct {
	m *state.Map
	p lang.Printer // the language of its words
	// localNames is set when the names drawn are the catalogue's in p's
	// language (the classic board's); other maps keep their own.
	localNames bool
	kind       kind  // what this kind of map draws its own way
	style      style // the numbers it is drawn with
	look       *look // its colours and palette
	w, h       int   // the whole image
	// mw and mh are the map area, at the top left: the whole width above
	// the panel (classic), or a square beside it (generated maps).
	mw, mh int
	s      float64 // scale: 1 at refWidth
	terr   []uint8 // w*mh: territory id + 1, or 0 for sea (and off the map area)
	lvl    []uint8 // w*mh: land shade level
	base   []uint8 // w*h RGBA: sea, legend and panel ground
	lines  sparse  // borders, coasts, connectors
	labels sparse  // territory names, and fortresses
	// anchor is each territory's badge centre; badgeR the badge radius.
	anchor  [][2]float64
	badgeR  float64
	labelAt []labelPlacement
	// bannerAt is where the winner's banner is centred: where it hides
	// the fewest badges and names.
	bannerAt [2]float64
	// obstacles are static marks names must not cover.
	obstacles []frect
	panel     image.Rectangle

	// What some kinds of map carry and others do not: a step draws what
	// its board has.

	// legend is the continent legend (classic); empty on maps whose
	// panel holds the key.
	legend legendLayout
	// slots are where each territory's markers go around its badge; nil
	// on maps without markers (classic).
	slots []markerSlots
	// piers are the pontoons of the coastal territories, drawn when the
	// territory has a port (nil for inland ones, and on maps without
	// ports); pierAt is where each goes.
	piers  []*sparse
	pierAt []*pier

	// grounds are the panel's backgrounds with n player cards, made on
	// first use, in RGBA and as palette indices.
	grounds [state.MaxSeats + 1]struct {
		once sync.Once
		img  *image.RGBA
		idx  []uint8
	}

	// tiles divide the frame for composeIndexed, which redraws some of
	// them; indexed is what it keeps, made on its first frame.
	tiles     tileGrid
	indexOnce sync.Once
	indexed   *frameIndex

	// The hit regions (Renderer.Regions): the territories as an index PNG
	// and each one's bounding box, made on the first ask.
	hitOnce sync.Once
	hitPNG  []byte
	hitBox  []image.Rectangle
	hitErr  error
}

// rule is the gold line along the panel's edge that faces the map: its
// top when it lies under the map, its left side when beside it.
func (b *board) rule() image.Rectangle {
	r, t := b.panel, max(1, int(2*b.s))
	if b.mw == b.w {
		r.Max.Y = r.Min.Y + t
	} else {
		r.Max.X = r.Min.X + t
	}
	return r
}

// kind is what one kind of map does its own way. There are three: the
// classic world board, drawn from a geometry (classicKind, classic.go,
// classicpanel.go), the generated maps of the capitals rules, drawn from
// their cells (gridKind, grid.go, gridpanel.go), and maps imported from a
// map maker's files, drawn from their own picture (artKind, art.go).
type kind interface {
	// frame sizes b for an image width pixels wide (b.w, b.h, the map
	// area b.mw x b.mh, b.panel) and returns the style it is drawn with.
	frame(b *board, width int) (style, error)
	// outline returns the territory (id + 1, or 0 for water) of every
	// sample of a grid twice as fine as the map area, 2mw x 2mh.
	outline(b *board) []uint8
	// anchors returns each territory's badge centre, before the badges are
	// pushed apart. terr are the map area's territories (mw x mh), inside
	// their insideDistance.
	anchors(b *board, terr []uint8, inside []float32) [][2]float64
	// ground sets the land's shade levels (b.lvl) and paints what lies
	// around the land on the map area into ly.base. terr are the map
	// area's territories (mw x mh), inside their insideDistance.
	ground(b *board, ly layers, terr []uint8, inside []float32)
	// features draws what the map shows besides its territories, before
	// the names are placed: names keep clear of b.obstacles.
	features(b *board, ly layers) error
	// finish adds what must keep clear of the names, once they are placed.
	finish(b *board, ly layers)
	// drawPanel draws the players' panel of s: its ground, the turn and
	// who plays, a card per player. tags are the seats' short tags.
	drawPanel(wk *worker, s *state.State, tags []string)
}

// style is the numbers and words one kind of map is drawn with, in the
// steps that are otherwise the same for every kind.
type style struct {
	lines    lineRules // how borders and coasts are drawn
	contrast float64   // how strongly the terrain textures shade land
	sea      seaStyle
	// badge is the badges' radius at refWidth: large enough for digits
	// that read when a phone shows the image 400 px wide (see newFaces).
	badge float64
	// nameSizes are the sizes of territory names at refWidth, tried in
	// turn until every name has room; nameHalo is their halo's.
	nameSizes []float64
	nameHalo  float64
	// dropNames lets the names that have no room at the last of the
	// nameSizes be left out rather than fail the board.
	dropNames bool
	// nearBadge is what a name's spot costs when it is nearer another
	// territory's badge than its own (see layoutLabels).
	nearBadge float64
	// wraps is set when the map's east and west edges meet (the world):
	// arrows take the shorter way round.
	wraps bool
	// numbered is set when a capitals match's attacks show their launch
	// order, and its planned attacks show too.
	numbered bool
	// armies is the catalogue key of a count of a player's troops
	// ("n.armies": "3 armies").
	armies string
}

// The classes of line on a map, weakest first: where samples of two
// classes meet, the stronger wins.
const (
	lnNone = iota
	lnBorder
	lnCoast
	lnContinent
	lnKinds
)

// lineRules are how a kind of map draws its borders and coasts.
type lineRules struct {
	// class is the line between samples of two different territories, a
	// and c (0 for water).
	class func(a, c uint8) uint8
	// widen returns the classes of the 2mw x 2mh samples (hi their
	// territories) with some lines made thicker, or nil to leave them.
	widen func(cls, hi []uint8, hw, hh int) []uint8
	// colour is the colour and opacity of a pixel whose four samples are
	// on each class of line in the shares cov (at least one line).
	colour func(th *theme, cov [lnKinds]float64) (color.RGBA, float64)
}

// seaStyle is how a kind of map's water darkens away from the coast.
type seaStyle struct {
	unit  float64 // the unit of the distances below, in pixels
	glow  float64 // the width of a glow of the nearest continent's colour along the coast; 0 for none
	deep  float64 // how far past the glow the sea takes to reach its deepest shade
	swell float64 // how many shades the sea texture moves it by
}

// layers are a board's static layers while buildBoard draws them, and
// what they are drawn with.
type layers struct {
	base  *image.RGBA // sea, legend and panel ground: opaque
	lines *image.RGBA // borders, coasts, connectors
	names *image.RGBA // names, and what lies with them (fortresses)
	th    *theme
	fs    *fonts
	tex   *textures
}

// labelPlacement is where a territory's name goes: one or two lines
// centred on (cx, cy).
type labelPlacement struct {
	t      int
	lines  []string
	cx, cy float64
	lineH  float64
	box    frect
}

// legendLayout is the continent legend's box and rows.
type legendLayout struct {
	box                    image.Rectangle
	rowY                   []float64 // centre of each continent's row
	swatchX, nameX, bonusX float64
	holderX                float64
}

// markerSlots are the centres of a territory's markers.
type markerSlots struct {
	capital, fortress, hero, item [2]float64
}

// pier is a pontoon: from the middle of a coast edge of its territory,
// one cell out into the water.
type pier struct {
	x, y   float64 // on the coast, in pixels
	dx, dy float64 // the unit direction out to sea
}

// box is the room the pontoon takes, with its outline: names and the other
// pontoons keep clear of it.
func (p pier) box(cell float64) frect {
	x1, y1 := p.x+p.dx*cell*0.95, p.y+p.dy*cell*0.95
	pad := cell * 0.35
	return frect{math.Min(p.x, x1) - pad, math.Min(p.y, y1) - pad, math.Max(p.x, x1) + pad, math.Max(p.y, y1) + pad}
}

// territoryName is territory t's name as the board shows it: the
// catalogue's in the board's language on the classic board ("Pérou"),
// the map's own elsewhere.
func (b *board) territoryName(t int) string {
	return b.placeName(b.m.Territories[t].Name)
}

// continentName is continent c's name as the board shows it.
func (b *board) continentName(c int) string {
	return b.placeName(b.m.Continents[c].Name)
}

func (b *board) placeName(name string) string {
	if !b.localNames {
		return name
	}
	return b.p.PlaceName(name)
}
