package web

import (
	"fmt"
	"net/http"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/voice"
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
// In a simultaneous round (phase "orders") Assault are the attack orders
// (Max: the armies that may go), Fortify the move orders, Undo takes the
// last order back and End commits (Ready). The capitals fields are
// capitalsMoves's.
type movesJSON struct {
	Place   []int         `json:"place,omitempty"`
	Reserve int           `json:"reserve,omitempty"`
	Attack  []targetsJSON `json:"attack,omitempty"`
	Fortify []targetsJSON `json:"fortify,omitempty"`
	Occupy  *state.Occupy `json:"occupy,omitempty"`
	Trade   bool          `json:"trade,omitempty"`
	End     bool          `json:"end,omitempty"`
	Assault []targetsJSON `json:"assault,omitempty"`
	Undo    bool          `json:"undo,omitempty"`

	// Capitals: where the capital may go (the setup), which territory may
	// take the reinforcements (Reserve of them), captures of neutral
	// territories, attacks that may be planned, ports to build, the plan
	// to launch (how many attacks), the turn's move, the item to use.
	Capital   []int         `json:"capital,omitempty"`
	Reinforce []int         `json:"reinforce,omitempty"`
	Capture   []targetsJSON `json:"capture,omitempty"`
	Plan      []planJSON    `json:"plan,omitempty"`
	Port      []int         `json:"port,omitempty"`
	Launch    int           `json:"launch,omitempty"`
	Move      []moveJSON    `json:"move,omitempty"`
	// Ratio and Hero are the move's defaults (state.MoveDefault): the
	// quarters (1 to 4) and whether the hero goes along.
	Ratio int       `json:"ratio,omitempty"`
	Hero  bool      `json:"hero,omitempty"`
	Item  *itemJSON `json:"item,omitempty"`
}

// planJSON is a territory that may plan attacks, and on what.
type planJSON struct {
	From int          `json:"from"`
	To   []planTarget `json:"to"`
}

// planTarget is an attack that may be planned, with its numbers as the
// planner sees them, were it added to the plan: the attack and defence
// totals (state.FormatPower) and the damage at the least and the most
// luck (engine.Damage), against Troops on the target. Fog: out of sight.
type planTarget struct {
	To      int    `json:"to"`
	Attack  string `json:"attack"`
	Defence string `json:"defence"`
	Lo      int    `json:"lo"`
	Hi      int    `json:"hi"`
	Troops  int    `json:"troops"`
	Sea     bool   `json:"sea,omitempty"`
	Fog     bool   `json:"fog,omitempty"`
}

// moveJSON is a territory troops may move from, where to, and whether
// the hero stands there (and may go along).
type moveJSON struct {
	From int   `json:"from"`
	To   []int `json:"to"`
	Hero bool  `json:"hero,omitempty"`
}

// itemJSON is the viewer's kept item: its name and what it does, in the
// page's language; Use: it may be used now.
type itemJSON struct {
	Title string `json:"title"`
	What  string `json:"what"`
	Use   bool   `json:"use,omitempty"`
}

// arrowJSON is an order drawn on the map: a simultaneous round's order of
// the viewer ("place", "attack", "move"; From -1 for a placement), or an
// attack of the capitals plan ("plan"), in the order given.
type arrowJSON struct {
	Kind   string `json:"kind"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Armies int    `json:"armies,omitempty"`
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
	// Orders are the viewer's orders of a simultaneous round, or the
	// attacks planned in a capitals turn, drawn as arrows; Ready: the
	// viewer has committed the round's orders.
	Orders []arrowJSON `json:"orders,omitempty"`
	Ready  bool        `json:"ready,omitempty"`
}

// board answers the board of a channel's match: ?channel=&as=. The view
// is the seat's of the player named only if this browser plays that name
// already (a GET claims nothing); otherwise the public's.
func (pl *play) board(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	channel, ok := pl.checkChannel(w, q.Get("channel"))
	if !ok {
		return
	}
	user := chat.User{}
	if as := q.Get("as"); as != "" {
		if u := userIn(channel, as); pl.browsers.owns(pl.browsers.sessionOf(w, r), u.ID) {
			user = u
		}
	}
	l, err := pl.store.OpenHead(r.Context(), channel)
	if err != nil {
		problem(w, http.StatusNotFound, "no match under way here")
		return
	}
	mi, err := pl.bot.Match(r.Context(), l.ID)
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
	switch {
	case viewer >= 0 && v.Options.Rules == state.Classic:
		out.Moves = classicMoves(v, viewer)
	case viewer >= 0 && v.Options.Rules == state.Capitals:
		out.Moves = capitalsMoves(v, viewer, voice.Speaking(lang.FromLocale(pageLocale(r))))
	}
	out.Orders = arrows(v)
	if viewer >= 0 {
		out.Ready = v.Phase == state.PhaseOrders && v.Seats[viewer].Ready
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
	assault := map[int][]int{}
	most := map[int]int{}
	var froms, moves, orders []int
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
			moves = addTarget(fortify, moves, c.From, c.To)
			most[c.From] = max(most[c.From], c.Armies)
		case engine.Occupy:
			o := v.Occupy
			m.Occupy = &o
		case engine.Assault:
			orders = addTarget(assault, orders, c.From, c.To)
			most[c.From] = max(most[c.From], c.Armies)
		case engine.Trade:
			m.Trade = true
		case engine.EndTurn, engine.Discard:
			m.End = true
		case engine.Undo:
			m.Undo = true
		}
	}
	for _, f := range froms {
		m.Attack = append(m.Attack, targetsJSON{From: f, To: attack[f]})
	}
	for _, f := range orders {
		m.Assault = append(m.Assault, targetsJSON{From: f, To: assault[f], Max: most[f]})
	}
	for _, f := range moves {
		m.Fortify = append(m.Fortify, targetsJSON{From: f, To: fortify[f], Max: most[f]})
	}
	return m
}

// addTarget adds to to the targets of from, unless it was the last added
// (the legal commands list one move for each number of armies), and
// returns order, the origins in the order they came, with from added the
// first time.
func addTarget(targets map[int][]int, order []int, from, to int) []int {
	l, ok := targets[from]
	if !ok {
		order = append(order, from)
	}
	if len(l) == 0 || l[len(l)-1] != to {
		targets[from] = append(l, to)
	}
	return order
}

// capitalsMoves reads what seat may do by clicking from the engine's legal
// commands on its view v of a capitals match (as the autocomplete does:
// with fog of war a defence is what the seat sees of it), with the plan's
// numbers for each attack that may be planned and the seat's item worded
// by vo.
func capitalsMoves(v *state.State, seat int, vo voice.Voice) movesJSON {
	var m movesJSON
	capture := map[int][]int{}
	plan := map[int][]planTarget{}
	move := map[int]*moveJSON{}
	var captures, plans, moves []int
	pv := engine.PlanningView(v, seat)
	n := int(v.Cap.NPlan) + 1
	for _, c := range engine.Legal(v, seat) {
		switch c := c.(type) {
		case engine.Capital:
			m.Capital = append(m.Capital, c.Territory)
		case engine.Reinforce:
			m.Reinforce = append(m.Reinforce, c.Territory)
			m.Reserve = v.Seats[seat].Reserve
		case engine.Capture:
			if _, ok := capture[c.From]; !ok {
				captures = append(captures, c.From)
			}
			capture[c.From] = append(capture[c.From], c.To)
		case engine.Plan:
			if _, ok := plan[c.From]; !ok {
				plans = append(plans, c.From)
			}
			a, d := pv.AttackTotal(c.From, c.To, n), pv.DefenceTotal(c.To)
			plan[c.From] = append(plan[c.From], planTarget{To: c.To, Attack: state.FormatPower(a.Total), Defence: state.FormatPower(d),
				Lo: engine.Damage(a.Total, d, engine.LuckMin), Hi: engine.Damage(a.Total, d, engine.LuckMin+engine.LuckSpan-1),
				Troops: pv.Terr[c.To].Armies, Sea: a.Reach == state.BySea, Fog: pv.Terr[c.To].Fog})
		case engine.BuildPort:
			m.Port = append(m.Port, c.Territory)
		case engine.Launch:
			m.Launch = int(v.Cap.NPlan)
		case engine.Move:
			mv := move[c.From]
			if mv == nil {
				mv = &moveJSON{From: c.From}
				move[c.From] = mv
				moves = append(moves, c.From)
			}
			if l := mv.To; len(l) == 0 || l[len(l)-1] != c.To {
				mv.To = append(mv.To, c.To)
			}
			mv.Hero = mv.Hero || c.Hero
		case engine.UseItem:
			m.Item = &itemJSON{Use: true}
		case engine.EndTurn:
			m.End = true
		}
	}
	for _, f := range captures {
		m.Capture = append(m.Capture, targetsJSON{From: f, To: capture[f]})
	}
	for _, f := range plans {
		m.Plan = append(m.Plan, planJSON{From: f, To: plan[f]})
	}
	for _, f := range moves {
		m.Move = append(m.Move, *move[f])
	}
	if len(m.Move) > 0 {
		m.Ratio, m.Hero = v.MoveDefault(seat)
	}
	if it := v.Seats[seat].Capitals.Item; it.Kept() {
		if m.Item == nil {
			m.Item = &itemJSON{}
		}
		m.Item.Title, m.Item.What = it.Title(), vo.Replies().ItemWhat(it)
	}
	return m
}

// arrows are the orders v shows on the map: the viewer's orders of a
// simultaneous round (a view holds only its viewer's), or the attacks
// planned in a capitals turn.
func arrows(v *state.State) []arrowJSON {
	var out []arrowJSON
	for _, o := range v.Orders {
		if o.Seat != v.Viewer {
			continue
		}
		kind := "place"
		switch o.Kind {
		case state.OrderAttack:
			kind = "attack"
		case state.OrderMove:
			kind = "move"
		}
		out = append(out, arrowJSON{Kind: kind, From: o.From, To: o.To, Armies: o.Armies})
	}
	if v.Options.Rules == state.Capitals {
		for _, p := range v.Cap.Planned() {
			out = append(out, arrowJSON{Kind: "plan", From: int(p.From), To: int(p.To)})
		}
	}
	return out
}
