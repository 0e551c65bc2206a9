package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"net/http"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/render"
)

// The hit regions of a match's map (docs/api.md, "Where the territories
// are"): where each territory lies in map.png, so that a client can make
// the map clickable.
//
//	GET /api/matches/{id}/regions      the regions, as JSON
//	GET /api/matches/{id}/regions.png  the index: territory id + 1 per pixel
//
// They are the board's: public (fog of war hides owners and armies, not
// where territories are), the same at every moment of the match, at the
// width and in the palette of map.png.

// rectJSON is a rectangle of image pixels: its top left corner and size.
type rectJSON struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

func rectOf(r image.Rectangle) rectJSON { return rectJSON{r.Min.X, r.Min.Y, r.Dx(), r.Dy()} }

// pointJSON is a pixel of the image.
type pointJSON struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// labelJSON is where a territory's name is drawn.
type labelJSON struct {
	pointJSON
	Box   rectJSON `json:"box"`
	Lines []string `json:"lines"`
}

// territoryJSON is where a territory lies.
type territoryJSON struct {
	ID     int        `json:"id"`
	Name   string     `json:"name"`
	Anchor pointJSON  `json:"anchor"`
	Label  *labelJSON `json:"label,omitempty"`
	Box    rectJSON   `json:"box"`
}

// regionsJSON is the answer of GET /api/matches/{id}/regions.
type regionsJSON struct {
	Match  int64    `json:"match"`
	Width  int      `json:"width"`
	Height int      `json:"height"`
	Map    rectJSON `json:"map"`
	// Index is the address of the index PNG, with its version: an address
	// that never changes what it serves.
	Index       string          `json:"index"`
	Territories []territoryJSON `json:"territories"`
}

// regionsOf answers the regions of the match of r, or says why not.
func (ap *api) regionsOf(w http.ResponseWriter, r *http.Request) (*bot.MatchInfo, *render.Regions, bool) {
	mi, ok := ap.loadMatch(w, r)
	if !ok {
		return nil, nil, false
	}
	if mi.Game == nil {
		problem(w, http.StatusServiceUnavailable, "the match has not started")
		return nil, nil, false
	}
	reg, err := mi.Regions(r.Context())
	if err != nil {
		ap.log.Error("find the regions of a map for the API", "match", mi.ID, "err", err)
		problem(w, http.StatusServiceUnavailable, "the map's regions could not be found")
		return nil, nil, false
	}
	return mi, reg, true
}

// version names an answer by its content, for ETags and addresses.
func version(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// regionsCache is how long a client keeps the regions before asking again
// (with the ETag, answered 304 while they are the same): the regions of
// a match never change, but a new version of the server may draw its map
// otherwise.
const regionsCache = "public, max-age=86400"

func (ap *api) apiRegions(w http.ResponseWriter, r *http.Request) {
	mi, reg, ok := ap.regionsOf(w, r)
	if !ok {
		return
	}
	out := regionsJSON{Match: mi.ID, Width: reg.Width, Height: reg.Height, Map: rectOf(reg.Map),
		Index:       fmt.Sprintf("/api/matches/%d/regions.png?v=%s", mi.ID, version(reg.Index)),
		Territories: make([]territoryJSON, len(reg.Territories))}
	for i, t := range reg.Territories {
		tj := territoryJSON{ID: t.ID, Name: t.Name, Anchor: pointJSON{t.Anchor.X, t.Anchor.Y}, Box: rectOf(t.Box)}
		if l := t.Label; l != nil {
			tj.Label = &labelJSON{pointJSON: pointJSON{l.At.X, l.At.Y}, Box: rectOf(l.Box), Lines: l.Lines}
		}
		out.Territories[i] = tj
	}
	body, err := json.Marshal(out)
	if err != nil {
		ap.log.Error("write the regions of a map for the API", "match", mi.ID, "err", err)
		problem(w, http.StatusServiceUnavailable, "the map's regions could not be found")
		return
	}
	body = append(body, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", regionsCache)
	w.Header().Set("ETag", `"`+version(body)+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

func (ap *api) apiRegionsPNG(w http.ResponseWriter, r *http.Request) {
	_, reg, ok := ap.regionsOf(w, r)
	if !ok {
		return
	}
	v := version(reg.Index)
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("ETag", `"`+v+`"`)
	if r.URL.Query().Get("v") == v {
		// The address names this very index: it never changes.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", regionsCache)
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(reg.Index))
}
