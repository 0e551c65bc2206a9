// Package play is a match under way: the commands of its players, for
// each rule set (classic.go, capitals.go), applied and saved with the news
// they make; the answers to the buttons under them; the suggestions as a
// player types; and what a player may look up (status, cards, odds,
// history, the whole match).
package play

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/lru"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Outcome is what applying commands did.
type Outcome struct {
	voice.Said
	Over bool
	// News is what the change queued to post, if anything.
	News *news.News
}

// Apply plays commands for engine seat and saves them, with the match data,
// the turn clock and the news to post (a note first, if not empty, then the
// turns that ended), in one change. A refused command leaves the match as
// it was (nothing is saved).
func (p *Play) Apply(ctx context.Context, m *hosted.Match, seat int, note string, cmds ...engine.Command) (Outcome, error) {
	g := m.Game
	var out Outcome
	var entries []engine.Entry
	at := voice.PositionOf(g.State)
	turn, current, phase := g.State.Turn, g.State.Current, g.State.Phase
	var roundHeld [][]int // in a round: what each seat holds before it resolves
	if phase == state.PhaseOrders {
		for i := range g.State.Seats {
			roundHeld = append(roundHeld, hosted.HeldBy(g.State, i))
		}
	}
	for _, c := range cmds {
		if err := inSight(g.State, seat, c); err != nil {
			return out, err
		}
		e, ev, err := g.Apply(seat, c)
		if err != nil {
			return out, ruleRefusal(err)
		}
		entries = append(entries, e)
		out.Events = append(out.Events, ev...)
	}
	s := g.State
	ch := m.Meta.Chronicle()
	var before news.Chronicle
	apart := m.ReaderLang() != m.Meta.Settings.Language()
	if apart {
		before = ch.Clone()
	}
	out.Lines, out.Turns = p.cfg.Look.Voice(m).As(seat).Teller().Tell(s, at, out.Events, &ch)
	m.Meta.SetChronicle(ch)
	if apart {
		// The record is the channel's, in the match's language; the
		// lines answer their author, in theirs (told again on a copy
		// of the record, which is dropped).
		scratch := before
		out.Lines, _ = p.cfg.Look.To(m).As(seat).Teller().Tell(s, at, out.Events, &scratch)
	}
	for _, t := range out.Turns {
		switch {
		case t.Turn > 0 && t.Seat >= 0 && t.Seat < len(s.Seats):
			if i := m.Meta.Index(s.Seats[t.Seat].ID); i >= 0 {
				m.Meta.Seats[i].Held = hosted.HeldBy(s, t.Seat)
			}
		case t.Turn > 0 && t.Seat < 0 && roundHeld != nil:
			// A round is everyone's turn, and its resolution came after
			// each seat's orders: what happened to a seat since its last
			// turn starts from what it held when it gave them.
			for seat, held := range roundHeld {
				if i := m.Meta.Index(s.Seats[seat].ID); i >= 0 {
					m.Meta.Seats[i].Held = held
				}
			}
		}
	}
	change := storage.Change{Entries: entries, Game: g}
	back := rolledBack(out.Events)
	if s.Phase == state.PhaseOver {
		out.Over = true
		m.Meta.Finished = p.cfg.Now()
		change.Status = storage.Finished
		change.Timers = &storage.Timers{}
	} else if back || s.Turn != turn || (phase == state.PhaseSetup) != (s.Phase == state.PhaseSetup) || s.Current != current {
		t := p.cfg.Matches.TurnTimers(ctx, m)
		change.Timers = &t
	}
	if note != "" || len(out.Turns) > 0 || out.Over {
		out.News = &news.News{Note: note, Turns: out.Turns, Over: out.Over, Everyone: back}
	}
	m.Says(p.cfg.Look.To(m).Replies().Fit(out.Lines, 1500))
	if err := p.cfg.Matches.SaveNews(ctx, m, change, out.News); err != nil {
		return out, err
	}
	if out.Over {
		p.cfg.Servers.RecordWin(ctx, m)
	}
	return out, nil
}

// inSight refuses, in a match with fog of war, a command of seat's that
// names a territory out of its sight: the engine's answer would tell who
// holds it and with what. A distant attack (the capitals item) strikes into
// the fog: its target may lie out of sight.
func inSight(s *state.State, seat int, c engine.Command) error {
	if !s.HasFog() || seat < 0 || seat >= len(s.Seats) {
		return nil
	}
	sight := s.Sight(seat)
	for i, t := range engine.Territories(c) {
		if t < 0 || t >= len(s.Terr) || sight.Has(t) {
			continue
		}
		if _, plan := c.(engine.Plan); plan && i == 1 && s.Cap.Has(state.ItemDistant) {
			continue
		}
		return chat.RefuseMsg("play.fog.out-of-sight", "Territory", place(s, t))
	}
	return nil
}

// playing loads the channel's match and the user's seat for a game command.
func (p *Play) playing(ctx context.Context, c *hosted.Call) (*hosted.Match, int, error) {
	m, err := p.cfg.Matches.For(ctx, c)
	if err != nil {
		return nil, -1, err
	}
	seat, err := m.SeatOf(c.Req.User)
	if err != nil {
		return nil, -1, err
	}
	return m, seat, nil
}

// seatedHandler is a command that only a player of the channel's match
// may give: it gets the match and the player's seat.
type seatedHandler func(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)

// seated makes h a handler that finds the match and the seat first
// (playing), so that every such command refuses those without a seat alike.
func (p *Play) seated(h seatedHandler) hosted.Handler {
	return func(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
		m, seat, err := p.playing(ctx, c)
		if err != nil {
			return hosted.Result{}, err
		}
		return h(ctx, c, m, seat)
	}
}

// Act applies a person's commands and builds the result: the reply lines,
// the posts of turns that ended, and whether bots play next.
func (p *Play) Act(ctx context.Context, m *hosted.Match, seat int, extra voice.Reply, cmds ...engine.Command) (hosted.Result, error) {
	wasSetup := m.Game.State.Phase == state.PhaseSetup
	wasOrders := m.Game.State.Phase == state.PhaseOrders
	if i := m.Meta.Index(m.Game.State.Seats[seat].ID); i >= 0 {
		m.Meta.Seats[i].Missed = 0
	}
	out, err := p.Apply(ctx, m, seat, "", cmds...)
	if err != nil {
		return hosted.Result{}, err
	}
	if surrendered(cmds) {
		// A seat given up keeps no API tokens. The surrender stands if
		// this fails: the engine refuses its seat's commands all the same.
		if err := tokens.Revoke(ctx, p.cfg.Tokens, m.ID, m.Game.State.Seats[seat].ID, p.cfg.Now()); err != nil {
			p.cfg.Log.Warn("revoke the tokens of a seat given up", "match", m.ID, "err", err)
		}
	}
	var reply chat.Message
	if extra != nil {
		reply = extra(out.Said)
	} else {
		reply = chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600)}
	}
	if wasOrders && !surrendered(cmds) {
		// A simultaneous round: the player's orders so far, to them alone,
		// or, from the last commit, that the round resolved.
		reply = p.cfg.Look.To(m).Replies().Orders(m, seat, reply, len(out.Turns) > 0)
	}
	if wasSetup || !surrendered(cmds) {
		// The public record is the turn's message: the player's own
		// answers are theirs alone.
		reply.Private = true
	}
	res := hosted.Result{Reply: reply, Posts: p.cfg.Outbox.Batch(m, out.News)}
	if out.News == nil {
		// The turn goes on: its message shows what was done.
		if live, ok := p.cfg.Look.Voice(m).Turns().Live(m); ok {
			live.Mode = news.EditOnly
			res.Posts = news.Batch{Posts: []news.Post{live}}
		}
	}
	res.Bots = m.BotsToPlay()
	return res, nil
}

// surrendered reports whether the commands give up a seat: that is said
// in public.
func surrendered(cmds []engine.Command) bool {
	for _, c := range cmds {
		if _, ok := c.(engine.Surrender); ok {
			return true
		}
	}
	return false
}

// Store is what play needs of the database beyond loading and saving
// matches: a match's whole log, for its history.
type Store interface {
	Export(ctx context.Context, id int64) (*storage.Export, error)
	// ExportLog reads a match's log after its first entries (after), at
	// most limit of them (all if limit <= 0), with the whole log's length.
	ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error)
}

// Config is what a Play is made of.
type Config struct {
	Store   Store
	Matches *hosted.Matches
	Look    *look.Maps
	Servers *server.Servers
	Outbox  *outbox.Outbox
	// Tokens keeps the seats' API tokens, revoked when a seat is given up.
	Tokens tokens.Store
	// Leave takes a player out of a match still in its lobby (/risk
	// surrender there).
	Leave func(ctx context.Context, c *hosted.Call, m *hosted.Match) (hosted.Result, error)
	Now   func() time.Time
	Log   *slog.Logger
}

// Play plays the matches under way.
type Play struct {
	cfg Config
	// retold keeps the logs of matches told again to their viewers, told
	// on as they grow (retell).
	retold *lru.Cache[retoldKey, *retold]
}

// gate is what a click must pass before its handler runs.
type gate int

const (
	// anyTime: reading only, good at any version and once the match is
	// over.
	anyTime gate = iota
	// whileOpen: the match is in its lobby or under way; the handler
	// checks who may (the host's or an admin's rollback needs no seat).
	whileOpen
	// seated: open, and the clicker holds a seat; good at any version
	// (the handler checks what its button was posted for).
	seated
	// inTurn: open, the button of the match's present version, and the
	// clicker's turn.
	inTurn
)

// clickFunc handles a click that passed its gate; seat is the clicker's
// (-1 for the gates that need none).
type clickFunc func(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error)

// handler is one action's gate and handler.
type handler struct {
	gate gate
	run  clickFunc
}

// cachedRetold is how many logs told again (retell) a Play keeps, each
// with its match's game as told so far: the lines of each turn, and the
// state at the start of each turn (a rollback may return to any), a few
// kilobytes a turn.
const cachedRetold = 64

// retoldKey names a match's log told again: to a viewer (-1 for all, in
// a match without fog of war, where everyone is told the same), in a
// language.
type retoldKey struct {
	match  int64
	viewer int
	lang   lang.Tag
}

// retold is a match's log told again to a viewer as far as it was read.
type retold struct {
	mu sync.Mutex
	r  *voice.Retelling // nil until first read
}

// rolledBack reports whether events hold a rollback.
func rolledBack(events []engine.Event) bool {
	for _, e := range events {
		if _, ok := e.(engine.RolledBack); ok {
			return true
		}
	}
	return false
}
