package play

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/luck"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

func (p *Play) status(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	lp := readerOf(c, m)
	if m.Status == storage.Lobby {
		return hosted.Result{Reply: chat.Private("%s", lp.T("play.status.lobby", "Seats", len(m.Meta.Seats), "Max", state.MaxSeats,
			"Settings", lang.Text(p.cfg.Look.To(m).Status().Settings(m.Meta.Settings)), "List", lang.Text(p.cfg.Look.To(m).Lobby().SeatList(m.Meta))))}, nil
	}
	return p.standings(ctx, m, c.Req.User)
}

// standings is /risk show status's answer to user: where the match
// stands, the standings, the map. With fog of war it is the asker's own
// view: their map, what they saw since their last turn, and the board's
// figures as they may know them.
func (p *Play) standings(ctx context.Context, m *hosted.Match, user chat.User) (hosted.Result, error) {
	if _, err := m.Started(); err != nil {
		return hosted.Result{}, err
	}
	full := m.Game.State
	seat := full.SeatByID(user.ID)
	v := p.cfg.Look.To(m).As(seat)
	lp := reader(m)
	footnote := lp.T("play.status.footnote", "Settings", lang.Text(chat.Capitalize(v.Status().Settings(m.Meta.Settings))))
	seen := m
	var saw []string
	if v.Hides(full) {
		seen = viewOf(m, seat)
		if seat >= 0 {
			saw = v.Digests().WithLines(seen, seat, p.sawSince(ctx, m, v, seat))
		}
	}
	s := seen.Game.State
	if hosted.IsCapitals(s) {
		lines := append([]string{v.Status().Line(seen)}, saw...)
		lines = append(lines, v.Status().Capitals(seen)...)
		if teams := v.Lobby().TeamsLine(s); teams != "" {
			lines = append(lines, teams)
		}
		lines = append(lines, footnote)
		return hosted.Result{Reply: v.Status().Standings(m, lines)}, nil
	}
	lines := append([]string{v.Status().Line(seen)}, saw...)
	lines = append(lines, "```", fmt.Sprintf("%-16s %5s %6s %5s %6s", lp.T("play.status.player"), lp.T("play.status.territories"), lp.T("play.status.armies"), lp.T("play.status.cards"), lp.T("play.status.income")))
	for i := range s.Seats {
		name := s.Seats[i].Name
		if sm := m.Seat(i); sm.IsBot() || sm.Autopilot {
			name += "*"
		}
		if i == s.Current && s.Phase != state.PhaseSetup && s.Phase != state.PhaseOver && s.Phase != state.PhaseOrders {
			// (A round is everyone's: nobody's turn in particular.)
			name = "▶ " + name
		}
		if !s.Seats[i].Alive() {
			lines = append(lines, fmt.Sprintf("%-16s %s", chat.Trunc(name, 16), s.Seats[i].Status))
			continue
		}
		income := fmt.Sprint(s.Income(i).Total)
		if s.Fogged() && i != seat {
			income = "?" // the continents they hold lie in the fog
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %5d %6s", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), s.HandSize(i), income))
	}
	lines = append(lines, "```", footnote)
	if teams := v.Lobby().TeamsLine(s); teams != "" {
		lines = append(lines, teams)
	}
	var held []string
	for ci, cont := range s.Map.Continents {
		if o := s.ContinentOwner(ci); o >= 0 {
			held = append(held, lp.T("play.status.continent", "Continent", lang.Place(cont.Name), "Bonus", cont.Bonus, "Player", lang.Text(s.Seats[o].Name)))
		}
	}
	switch {
	case len(held) > 0 && s.Fogged():
		lines = append(lines, lp.T("play.status.continents-fog", "Held", lang.Text(strings.Join(held, "; "))))
	case len(held) > 0:
		lines = append(lines, lp.T("play.status.continents", "Held", lang.Text(strings.Join(held, "; "))))
	}
	if voice.IsMissions(s) && s.Phase != state.PhaseOver && seat >= 0 {
		// The answer is the asker's alone (Standings is private): their own
		// mission, never another's.
		lines = append(lines, v.Missions().Line(s, seat))
	}
	return hosted.Result{Reply: v.Status().Standings(m, lines)}, nil
}

// OwnView is user's own view of the live match in channel, when its
// channel is told less than they may see (fog of war): their map, what
// they saw since their last turn and the standings as they know them, as
// /risk show status answers them. ok is false for a match without fog, one
// not being played, or someone without a seat. It reads the match without
// its channel's lock: the outbox asks while the change it tells holds it.
func (p *Play) OwnView(ctx context.Context, channel, user string, t lang.Tag) (chat.Message, bool) {
	m, err := p.cfg.Matches.Latest(ctx, channel)
	if err != nil || m.Status != storage.Active || m.Game == nil {
		return chat.Message{}, false
	}
	m.Reader = t
	full := m.Game.State
	seat := full.SeatByID(user)
	if seat < 0 || !full.Seats[seat].Alive() || !p.cfg.Look.Voice(m).As(seat).Hides(full) {
		return chat.Message{}, false
	}
	r, err := p.standings(ctx, m, chat.User{ID: user})
	if err != nil {
		p.cfg.Log.Warn("a player's own view for their direct message", "match", m.ID, "err", err)
		return chat.Message{}, false
	}
	return r.Reply, true
}

// viewOf is match m as seat sees it (a spectator for -1): its game's state
// is the seat's view, for the words that describe it. Only for reading.
func viewOf(m *hosted.Match, seat int) *hosted.Match {
	g := *m.Game
	g.State = m.Game.State.View(seat)
	loaded := *m.Loaded
	loaded.Game = &g
	cp := *m
	cp.Loaded = &loaded
	return &cp
}

// sawSince tells what seat saw since its last turn began, from the log,
// as its voice v tells it: the lines of each turn after its own last one
// (the whole turn in progress, if it is not seat's). In simultaneous
// rounds every round is everyone's turn, resolved after the orders were
// given: what seat saw since is the last round's resolution and the round
// in progress.
func (p *Play) sawSince(ctx context.Context, m *hosted.Match, v voice.Voice, seat int) []string {
	turns, live, err := p.retell(ctx, m, v, seat)
	if err != nil {
		p.cfg.Log.Warn("tell a player what they saw", "match", m.ID, "err", err)
		return nil
	}
	tt := toldTurns{done: turns, live: live}
	n, at := tt.len(), tt.at
	// From the last turn back to seat's own, the last of the turns before
	// the one in progress.
	from := 0
	for i := n - 2; i >= 0; i-- {
		t := at(i)
		if t.Seat == seat && (t.Turn > 0 || hosted.IsCapitals(m.Game.State)) {
			// (A classic initial placement is everyone's, and secret
			// until done: whoever it names saw no more of it than others.)
			from = i + 1
			break
		}
		if t.Seat < 0 && t.Turn > 0 {
			from = i // a round: its resolution came after seat's orders
			break
		}
	}
	var lines []string
	for i := from; i < n; i++ {
		t := at(i)
		if len(t.Lines) == 0 {
			continue
		}
		lines = append(lines, "**"+v.Turns().Title(m.Game.State, t)+"**")
		lines = append(lines, t.Lines...)
	}
	return lines
}

// toldTurns are a match's turns told again (retell): those finished, and
// the one in progress after them if it is told (live). They are read in
// place: a list of them all would copy every turn of the match at each
// ask.
type toldTurns struct {
	done []news.TurnRecord
	live *news.TurnRecord
}

func (tt toldTurns) len() int {
	if tt.live != nil {
		return len(tt.done) + 1
	}
	return len(tt.done)
}

func (tt toldTurns) at(i int) news.TurnRecord {
	if i == len(tt.done) {
		return *tt.live
	}
	return tt.done[i]
}

// retell is match m's log told again by v (voice.Teller.Retell), to
// viewer: the turns finished and the one in progress (nil once the match
// is over), as the log stands now. A player asks again and again as the
// match goes on (what they saw since their last turn, the history's
// pages), and an entry is told the same whatever follows it: each
// viewer's retelling is kept, and an ask reads and tells only the entries
// added since the last (a range read of the log), so that it costs the
// same at turn 200 as at turn 10.
func (p *Play) retell(ctx context.Context, m *hosted.Match, v voice.Voice, viewer int) ([]news.TurnRecord, *news.TurnRecord, error) {
	if m.Game == nil || !m.Game.State.HasFog() {
		viewer = -1
	}
	tl := v.Teller()
	rt := p.retold.GetOrAdd(retoldKey{match: m.ID, viewer: viewer, lang: v.Lang().Tag()}, func() *retold { return &retold{} })
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.r != nil && !rt.r.By(tl) {
		rt.r = nil // told in other colours: told anew
	}
	after := 0
	if rt.r != nil {
		after = rt.r.Len()
	}
	x, total, err := p.cfg.Store.ExportLog(ctx, m.ID, after, 0)
	if err != nil {
		return nil, nil, err
	}
	if after > total {
		rt.r = nil // (a log only grows: not the log it told)
		return nil, nil, fmt.Errorf("bot: match %d's log has %d entries, %d were told", m.ID, total, after)
	}
	if rt.r == nil {
		r, err := tl.Retelling(x.Record.Setup)
		if err != nil {
			return nil, nil, err
		}
		rt.r = r
	}
	if err := rt.r.Add(x.Record.Log...); err != nil {
		rt.r = nil // told anew at the next ask
		return nil, nil, err
	}
	turns, live := rt.r.Turns()
	return turns, live, nil
}

// cards shows the player's cards, privately.
func (p classic) cards(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	if c.Args.Has("use") {
		return hosted.Result{}, chat.RefuseMsg("play.cards.use-classic")
	}
	lp := reader(m)
	hand := s.Seats[seat].Hand.Cards()
	if len(hand) == 0 {
		return hosted.Result{Reply: chat.Private("%s", lp.T("play.cards.none"))}, nil
	}
	var lines []string
	for _, card := range hand {
		mark := ""
		if t, ok := s.Map.CardTerritory(card); ok && s.Terr[t].Owner == seat {
			mark = " — " + lp.T("play.cards.yours")
		}
		lines = append(lines, "• "+s.Map.CardName(card)+mark)
	}
	text := lp.T("play.cards.title") + "\n" + strings.Join(lines, "\n")
	if set, ok := engine.BestSet(s, seat); ok {
		// Cards are named by territory: names stay right from turn to turn,
		// where positions in the hand shift as cards come and go.
		text += "\n" + lp.T("play.cards.set", "Set", lang.Text(setNames(s, set)), "Value", engine.SetValue(s, set))
	} else {
		text += "\n" + lp.T("play.cards.no-set", "Next", nextSetText(s))
	}
	if len(hand) >= 5 {
		text += "\n" + lp.T("play.cards.must-trade")
	}
	return hosted.Result{Reply: chat.Message{Private: true, Text: text}}, nil
}

// nextSetText says what the next set traded in the match is worth.
func nextSetText(s *state.State) lang.Msg {
	if s.Options.Cards == state.Fixed {
		return lang.M("play.cards.fixed-values")
	}
	return lang.M("play.cards.next-value", "Value", engine.EscalatingValue(s.Trades))
}

func (p *Play) odds(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	a, d := c.Args.Num["attackers"], c.Args.Num["defenders"]
	what := lang.M("play.odds.numbers", "Attackers", a, "Defenders", d)
	lp := readerOf(c, nil)
	if c.Args.Has("from") || c.Args.Has("to") {
		if c.Args.Has("attackers") || c.Args.Has("defenders") {
			return hosted.Result{}, chat.RefuseMsg("play.odds.both")
		}
		m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel)
		if err != nil {
			return hosted.Result{}, err
		}
		lp = readerOf(c, m)
		g, err := m.Started()
		if err != nil {
			return hosted.Result{}, err
		}
		s := g.State
		if hosted.IsCapitals(s) {
			return hosted.Result{}, chat.RefuseMsg("play.odds.capitals")
		}
		from, to, err := fromTo(c, s)
		if err != nil {
			return hosted.Result{}, err
		}
		if !s.Map.Adjacent(from, to) {
			return hosted.Result{}, chat.RefuseMsg("play.odds.not-adjacent", "From", place(s, from), "To", place(s, to))
		}
		if s.HasFog() {
			sight := s.PublicSight()
			if seat := s.SeatByID(c.Req.User.ID); seat >= 0 && s.Seats[seat].Alive() {
				sight = s.Sight(seat)
			}
			for _, t := range []int{from, to} {
				if !sight.Has(t) {
					return hosted.Result{}, chat.RefuseMsg("play.odds.fog", "Territory", place(s, t))
				}
			}
		}
		a, d = s.Terr[from].Armies, s.Terr[to].Armies
		what = lang.M("play.odds.territories", "From", place(s, from), "Attackers", a, "To", place(s, to), "Defenders", d)
		if a < 2 {
			return hosted.Result{}, chat.RefuseMsg("play.odds.one-army", "From", place(s, from))
		}
	} else if !c.Args.Has("attackers") || !c.Args.Has("defenders") {
		if m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel); err == nil && (m.Meta.Settings.Options.Rules == state.Capitals || (m.Game != nil && hosted.IsCapitals(m.Game.State))) {
			// The example would name the classic map, and a capitals
			// battle rolls no dice.
			return hosted.Result{}, chat.RefuseMsg("play.odds.capitals-usage")
		}
		from, to := "Alaska", "Kamchatka"
		if m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel); err == nil && m.Game != nil {
			// An example on the match's own board: the caller's attack if
			// the rules allow one, else any border.
			s := m.Game.State
			if f, t, ok := oddsExample(s, s.SeatByID(c.Req.User.ID)); ok {
				from, to = f, t
			}
		}
		return hosted.Result{}, chat.RefuseMsg("play.odds.usage", "From", lang.Text(from), "To", lang.Text(to))
	}
	o, err := engine.AttackOdds(a, d)
	if err != nil {
		return hosted.Result{}, chat.Refuse("%s.", err)
	}
	return hosted.Result{Reply: chat.Private("%s", lp.T("play.odds.result", "What", what, "Win", decimal(lp, 100*o.Win),
		"AttackersLeft", decimal(lp, o.AttackerLeft), "DefendersLeft", decimal(lp, o.DefenderLeft)))}, nil
}

func (p *Play) historyCmd(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Reader = hosted.ReaderOf(c.Req.Locale) // the answer is its author's
	show := c.Args.Str["show"]
	if show != "" && show != "turn" {
		if c.Args.Has("turn") {
			return hosted.Result{}, chat.RefuseMsg("play.history.turn-with-show", "Show", show)
		}
		return p.wholeMatch(ctx, m, show)
	}
	turn, ok := c.Args.Num["turn"]
	if !ok {
		turn = -1
	}
	seat := -1
	if m.Game != nil {
		seat = m.Game.State.SeatByID(c.Req.User.ID)
	}
	return p.history(ctx, m, seat, turn, -1)
}

// history shows one turn of match m, told again from its log: turn
// number turn (the setup is 0), or page page of the turns, or the latest
// if both are negative. Buttons page through them. With fog of war it
// tells what viewer (a seat, or -1) saw.
func (p *Play) history(ctx context.Context, m *hosted.Match, viewer, turn, page int) (hosted.Result, error) {
	g, err := m.Started()
	if err != nil {
		return hosted.Result{}, err
	}
	v := p.cfg.Look.To(m).As(viewer)
	turns, live, err := p.retell(ctx, m, v, viewer)
	if err != nil {
		return hosted.Result{}, fmt.Errorf("bot: tell the history of match %d: %w", m.ID, err)
	}
	if live != nil && len(live.Lines) == 0 {
		live = nil
	}
	tt := toldTurns{done: turns, live: live}
	n := tt.len()
	if n == 0 {
		return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.history.nothing"))}, nil
	}
	s := g.State
	switch {
	case page >= 0:
		page = min(page, n-1)
	case turn >= 0:
		// After a rollback, the turn as it is played now.
		all := turns
		if live != nil {
			all = append(turns[:len(turns):len(turns)], *live)
		}
		page = news.Current(all, turn)
		if page < 0 {
			first, last := tt.at(0).Turn, tt.at(n-1).Turn
			return hosted.Result{}, chat.RefuseMsg("play.history.no-turn", "Turn", turn, "First", first, "Last", last)
		}
	default:
		page = n - 1
	}
	t := tt.at(page)
	em := v.Turns().Embed(s, t, "")
	em.Footer = v.Turns().HistoryFooter(page, n, live != nil && page == n-1)
	msg := chat.Message{Private: true, Embed: em}
	var row []chat.Button
	if page > 0 {
		row = append(row, chat.Button{ID: m.ButtonID(button.History, page-1), Label: "◀ " + v.Turns().ShortTitle(tt.at(page-1)), Style: chat.Secondary})
	}
	if page < n-1 {
		row = append(row, chat.Button{ID: m.ButtonID(button.History, page+1), Label: v.Turns().ShortTitle(tt.at(page+1)) + " ▶", Style: chat.Secondary})
	}
	if page < n-2 {
		row = append(row, chat.Button{ID: m.ButtonID(button.History, n-1), Label: reader(m).T("play.button.latest"), Style: chat.Secondary})
	}
	if len(row) > 0 {
		msg.Buttons = [][]chat.Button{row}
	}
	return hosted.Result{Reply: msg}, nil
}

// replayLimit is the most bytes a replay may take: the smallest upload
// limit a Discord server may have.
const replayLimit = 8 << 20

// replayer is a renderer that can draw a whole match (package render's).
type replayer interface {
	Replay(ctx context.Context, turns []*state.State, o render.ReplayOptions) ([]byte, render.ReplayInfo, error)
	Strip(ctx context.Context, turns []*state.State, o render.ReplayOptions) ([]byte, render.ReplayInfo, error)
}

// wholeMatch answers /risk show history show:replay|strip|luck|verify.
func (p *Play) wholeMatch(ctx context.Context, m *hosted.Match, show string) (hosted.Result, error) {
	if _, err := m.Started(); err != nil {
		return hosted.Result{}, err
	}
	if m.Game.State.HasFog() && (show == "replay" || show == "strip" || show == "luck") {
		return hosted.Result{}, chat.RefuseMsg("play.whole.fog", "Show", show)
	}
	x, err := p.cfg.Store.Export(ctx, m.ID)
	if err != nil {
		return hosted.Result{}, err
	}
	switch show {
	case "luck":
		rep, err := luck.Of(x.Record)
		if err != nil {
			return hosted.Result{}, fmt.Errorf("bot: the luck of match %d: %w", m.ID, err)
		}
		return hosted.Result{Reply: chat.Message{Private: true, Embed: &chat.Embed{Title: reader(m).T("play.luck.title"), Description: voice.LuckField(rep.String())}}}, nil
	case "verify":
		unverified := m.Meta.Unverified != ""
		switch {
		case unverified && m.Status.Open():
			return hosted.Result{}, chat.RefuseMsg("play.verify.unverified", "Why", lang.Text(m.Meta.Unverified))
		case m.Status.Open() && !m.Meta.Imported.IsZero():
			return hosted.Result{}, chat.RefuseMsg("play.verify.imported-open", "Commitment", m.Game.Commitment())
		case m.Status.Open():
			return hosted.Result{}, chat.RefuseMsg("play.verify.open", "Commitment", m.Game.Commitment())
		}
		// The commitment that counts is the one posted at the start, in
		// everyone's channel: the answer shows it, to compare.
		published := x.Record.Commitment
		if published == "" {
			published = m.Game.Commitment()
		}
		v, err := engine.Verify(x.Record, published)
		if err != nil {
			return hosted.Result{}, fmt.Errorf("bot: verify match %d: %w", m.ID, err)
		}
		lp := reader(m)
		footer := lp.T("play.verify.compare", "Commitment", published)
		switch {
		case unverified:
			footer = lp.T("play.verify.unverified-footer", "Why", lang.Text(m.Meta.Unverified))
		case !m.Meta.Imported.IsZero():
			footer = lp.T("play.verify.imported-footer", "Commitment", published)
		}
		return hosted.Result{Reply: chat.Message{Private: true, Embed: &chat.Embed{Title: p.cfg.Look.To(m).Turns().FairDice(m), Description: strings.TrimSpace(v.In(lp)),
			Footer: footer}}}, nil
	}
	r := p.cfg.Look.Renderer(m) // in the match's language
	for {
		w, ok := r.(interface{ Unwrap() look.Renderer })
		if _, can := r.(replayer); can || !ok {
			break
		}
		r = w.Unwrap() // a renderer wrapped for metrics
	}
	rp, ok := r.(replayer)
	if !ok {
		return hosted.Result{}, chat.RefuseMsg("play.replay.unsupported")
	}
	turns, err := x.Record.Turns()
	if err != nil {
		return hosted.Result{}, fmt.Errorf("bot: the turns of match %d: %w", m.ID, err)
	}
	draw, name, what := rp.Replay, fmt.Sprintf("risk-replay-%d.gif", m.ID), lang.M("play.replay.animation")
	if show == "strip" {
		draw, name, what = rp.Strip, fmt.Sprintf("risk-replay-%d.png", m.ID), lang.M("play.replay.strip")
	}
	im := p.cfg.Look.Whole(m, show, func() *chat.Image {
		return chat.NewImage(name, func(ctx context.Context) ([]byte, error) {
			data, _, err := draw(ctx, turns, render.ReplayOptions{Limit: replayLimit})
			return data, err
		})
	})
	return hosted.Result{Reply: chat.Message{Private: true, Text: reader(m).T("play.replay.whole", "Turns", len(turns)-1, "What", what), Image: im}}, nil
}

// oddsExample names two bordering territories of s's board for an example
// of /risk show odds: one of seat's that can attack and its enemy
// neighbour (its neighbours are in its sight, fog or not), else the
// board's first border (the board is public).
func oddsExample(s *state.State, seat int) (from, to string, ok bool) {
	n := s.Map.TerritoryName
	if seat >= 0 && seat < len(s.Seats) {
		for a := range s.Terr {
			if s.Terr[a].Owner != seat || s.Terr[a].Armies < 2 {
				continue
			}
			for _, b := range s.Map.Territories[a].Adj {
				if !s.Sides().Same(s.Terr[b].Owner, seat) {
					return n(a), n(b), true
				}
			}
		}
	}
	if bs := s.Map.Borders(); len(bs) > 0 {
		return n(bs[0][0]), n(bs[0][1]), true
	}
	return "", "", false
}
