package server

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// gamesRead bounds the rows /risk games reads of the store: a person's
// matches under way (their own rows of the seats index, not every open
// match), more than it shows so that it can count those of other
// servers out and still fill its lines.
const gamesRead = 100

// Games answers /risk games: the matches under way its author sits in,
// in this server (in direct messages, on every server), with whose move
// it is, the deadline and a link to each channel; only to them. Only the
// matches shown are loaded (through the cache), to say whose move it is.
func (sv *Servers) Games(ctx context.Context, req chat.Request, _ command.Args) (chat.Message, error) {
	rows, err := sv.cfg.Store.Seated(ctx, req.User.ID, sv.prefix(), gamesRead)
	if err != nil {
		return chat.Message{}, err
	}
	p := readerOf(req)
	where := p.T("server.games.here")
	if req.Server == "" {
		where = p.T("server.games.everywhere")
	}
	var games []voice.Game
	more := 0
	for _, r := range rows {
		if req.Server != "" {
			meta, err := hosted.DecodeMeta(r.Meta)
			if err != nil || meta.Server != req.Server {
				// A match of another server, or one whose data does not
				// read (which the admins of its own server can see).
				continue
			}
		}
		if len(games) == voice.GamesShown {
			more++
			continue
		}
		m, err := sv.cfg.Matches.ByID(ctx, r.ID)
		_, refused := errors.AsType[*chat.Refusal](err)
		_, corrupt := errors.AsType[*storage.CorruptError](err) // its log no longer replays
		if refused || corrupt || (err == nil && m.Game == nil) {
			games = append(games, voice.Game{Channel: r.Channel, Damaged: true})
			continue
		}
		if err != nil {
			return chat.Message{}, err
		}
		games = append(games, gameOf(m, req.User.ID, p))
	}
	// Those waiting for their reader first, each group by deadline.
	slices.SortStableFunc(games, func(a, b voice.Game) int {
		switch {
		case a.Yours && !b.Yours:
			return -1
		case b.Yours && !a.Yours:
			return 1
		}
		return 0
	})
	return voice.Speaking(p.Tag()).Status().Games(games, more, where), nil
}

// prefix is the start of the channels Seated is to look in: those of
// this process's chat platform ("discord:"), or all.
func (sv *Servers) prefix() string {
	if p, _, ok := strings.Cut(sv.cfg.Scope, ":"); ok {
		return p + ":"
	}
	return ""
}

// gameOf is the line of match m in the list of its player user, who
// reads p's language.
func gameOf(m *hosted.Match, user string, p lang.Printer) voice.Game {
	s := m.Game.State
	g := voice.Game{Channel: m.Channel, Turn: s.Turn, Deadline: m.Timers.Deadline}
	if seat := s.SeatByID(user); seat >= 0 && !s.Seats[seat].Alive() {
		g.Out = p.T("server.games.out")
	} else if i := m.Meta.Index(user); i >= 0 && (m.Meta.Seats[i].Autopilot || m.Meta.Seats[i].IsBot()) {
		g.Out = p.T("server.games.bot")
	}
	for _, i := range hosted.ToAct(s) {
		sm := m.Seat(i)
		switch {
		case sm.ID == user && g.Out == "":
			g.Yours = true
		case m.IsBotSeat(i):
			g.Bot = sm.Name
		default:
			g.Others = append(g.Others, sm.Name)
		}
	}
	if s.Phase == state.PhaseOver {
		g.Others, g.Bot, g.Yours = nil, "", false
	}
	return g
}
