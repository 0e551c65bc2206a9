package web

import (
	"fmt"
	"net/http"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The board of a channel's match as the page's player sees it, for the
// clickable map (docs/playing.md, "Playing on the map"): who holds each
// territory and with how many armies, with the fog of war of that player
// (state.View), and what the player may click now, from the engine's
// legal moves (engine.Legal), so that a click answers at once without
// asking the server, and the rules stay the engine's.
//
//	GET /web/board?channel=NAME&as=PLAYER

// boardTerr is a territory as the viewer sees it: Owner -1 is neutral,
// or unknown when Fog is set (out of the viewer's sight).
type boardTerr struct {
	Owner  int  `json:"owner"`
	Armies int  `json:"armies"`
	Fog    bool `json:"fog,omitempty"`
}

// boardSeat is a seat of the board: its name and colour.
type boardSeat struct {
	Name  string `json:"name"`
	Color string `json:"color,omitempty"`
}

// targetsJSON is a territory the viewer may act from and where to: To
// the territories, Max the most armies that may go (fortify).
type targetsJSON struct {
	From int   `json:"from"`
	To   []int `json:"to"`
	Max  int   `json:"max,omitempty"`
}

// movesJSON is what the viewer may do now by clicking the map (empty
// when nothing): place armies (up to Reserve) on Place; attack from a
// territory to its targets; move armies (fortify) between territories;
// trade a set; end the turn. Occupy is the move owed after a conquest.
type movesJSON struct {
	Place   []int         `json:"place,omitempty"`
	Reserve int           `json:"reserve,omitempty"`
	Attack  []targetsJSON `json:"attack,omitempty"`
	Fortify []targetsJSON `json:"fortify,omitempty"`
	Occupy  *state.Occupy `json:"occupy,omitempty"`
	Trade   bool          `json:"trade,omitempty"`
	End     bool          `json:"end,omitempty"`
}

// boardJSON is the answer of GET /web/board.
type boardJSON struct {
	Match int64 `json:"match"`
	// Commands is the length of the match's log: the moment shown.
	Commands int    `json:"commands"`
	Rules    string `json:"rules"`
	Phase    string `json:"phase"`
	Turn     int    `json:"turn"`
	Current  int    `json:"current"`
	// Viewer is the seat whose view this is, -1 for the public's.
	Viewer int `json:"viewer"`
	// Fog: the match hides what lies out of sight; the public map
	// (map.png) is then not the viewer's.
	Fog         bool        `json:"fog,omitempty"`
	Seats       []boardSeat `json:"seats"`
	Territories []boardTerr `json:"territories"`
	Moves       movesJSON   `json:"moves"`
}

// board answers the board of a channel's match: ?channel=&as=. The view
// is the seat's of the player named only if this browser plays that name
// already (a GET claims nothing); otherwise the public's.
func (s *Server) board(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	channel, err := s.channelName(q.Get("channel"))
	if err != nil {
		problem(w, http.StatusBadRequest, "%v", err)
		return
	}
	user := chat.User{}
	if as := q.Get("as"); as != "" {
		if u := userIn(channel, as); s.browsers.owns(s.browsers.sessionOf(w, r), u.ID) {
			user = u
		}
	}
	l, err := s.store.OpenHead(r.Context(), channel)
	if err != nil {
		problem(w, http.StatusNotFound, "no match under way here")
		return
	}
	mi, err := s.bot.Match(r.Context(), l.ID)
	if err != nil || mi.Game == nil {
		problem(w, http.StatusNotFound, "no match under way here")
		return
	}
	st := mi.Game.State
	viewer := -1
	if user.ID != "" {
		viewer = st.SeatByID(user.ID)
	}
	v := st.View(viewer)
	out := boardJSON{Match: mi.ID, Commands: mi.Game.Version, Rules: v.Options.Rules.String(), Phase: v.Phase.String(),
		Turn: v.Turn, Current: v.Current, Viewer: viewer, Fog: st.HasFog(), Territories: make([]boardTerr, len(v.Terr))}
	for i, seat := range v.Seats {
		bs := boardSeat{Name: seat.Name}
		if i < len(mi.RGB) {
			bs.Color = fmt.Sprintf("#%06x", mi.RGB[i])
		}
		out.Seats = append(out.Seats, bs)
	}
	for i, t := range v.Terr {
		out.Territories[i] = boardTerr{Owner: t.Owner, Armies: t.Armies, Fog: t.Fog}
	}
	if viewer >= 0 && v.Options.Rules == state.Classic {
		out.Moves = classicMoves(v, viewer)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// classicMoves reads what seat may do by clicking from the engine's legal
// commands on its view v of a classic match: the view is enough, since
// each of these acts on what the seat sees (its territories and their
// neighbours).
func classicMoves(v *state.State, seat int) movesJSON {
	var m movesJSON
	attack := map[int][]int{}
	fortify := map[int][]int{}
	most := map[int]int{}
	var froms, moves []int
	seen := map[[2]int]bool{}
	for _, c := range engine.Legal(v, seat) {
		switch c := c.(type) {
		case engine.Place:
			if len(m.Place) == 0 || m.Place[len(m.Place)-1] != c.Territory {
				m.Place = append(m.Place, c.Territory)
			}
			m.Reserve = max(m.Reserve, c.Armies)
		case engine.Attack:
			if k := [2]int{c.From, c.To}; !seen[k] {
				seen[k] = true
				if _, ok := attack[c.From]; !ok {
					froms = append(froms, c.From)
				}
				attack[c.From] = append(attack[c.From], c.To)
			}
		case engine.Fortify:
			if _, ok := fortify[c.From]; !ok {
				moves = append(moves, c.From)
			}
			if l := fortify[c.From]; len(l) == 0 || l[len(l)-1] != c.To {
				fortify[c.From] = append(fortify[c.From], c.To)
			}
			most[c.From] = max(most[c.From], c.Armies)
		case engine.Occupy:
			o := v.Occupy
			m.Occupy = &o
		case engine.Trade:
			m.Trade = true
		case engine.EndTurn, engine.Discard:
			m.End = true
		}
	}
	for _, f := range froms {
		m.Attack = append(m.Attack, targetsJSON{From: f, To: attack[f]})
	}
	for _, f := range moves {
		m.Fortify = append(m.Fortify, targetsJSON{From: f, To: fortify[f], Max: most[f]})
	}
	return m
}
