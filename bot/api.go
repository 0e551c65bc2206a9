package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The match API (bot/web) reaches matches by id rather than by channel,
// and plays engine commands sent as data. Its commands go through the same
// path as a typed one: the channel's living message is edited, the next
// player pinged, computer players play.

// Errors of the match API entry points.
var (
	// ErrNoMatch: no match has that id.
	ErrNoMatch = errors.New("bot: no such match")
	// ErrNotPlaying: the match is not being played (in its lobby, or
	// over): it takes no commands.
	ErrNotPlaying = errors.New("bot: the match is not being played")
	// ErrStale: the match moved on from the version the command was meant
	// for.
	ErrStale = errors.New("bot: the match moved on")
	// ErrRevoked: the setting the command was played on the authority of
	// changed (its API token was revoked): nothing was saved.
	ErrRevoked = errors.New("bot: the authority of the command is gone")
)

// RefusedCommand is a command the match refused, with the reason a person
// would be told: not their turn, against the rules.
type RefusedCommand struct{ Reason string }

// Error says the command was refused, and why.
func (e *RefusedCommand) Error() string { return "bot: refused: " + e.Reason }

// MatchInfo is a match as the match API shows it.
type MatchInfo struct {
	storage.Match
	// Game is the match as it stands; nil in the lobby.
	Game *engine.Game
	// RGB are the seats' colours in turn order, as 0xRRGGBB.
	RGB []int
	// Bots are the engine seats a computer plays now.
	Bots []bool

	m     *hosted.Match
	look  *look.Maps
	store Store
}

// Match returns match id, for the match API.
func (b *Bot) Match(ctx context.Context, id int64) (*MatchInfo, error) {
	l, err := b.cache.Load(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, ErrNoMatch
	}
	if err != nil {
		return nil, err
	}
	m, err := b.matches.Decode(l)
	if err != nil {
		return nil, err
	}
	p := b.look.Palette(m)
	info := &MatchInfo{Match: l.Match, Game: l.Game, RGB: p.RGB, m: m, look: b.look, store: b.cfg.Store}
	if l.Game != nil {
		for i := range l.Game.State.Seats {
			info.Bots = append(info.Bots, m.IsBotSeat(i))
		}
	}
	return info, nil
}

// Map is the match's map after its first at commands (all of them: the
// map as it is), the public view in the match's colours: drawn once in the
// process, whoever shows it (look.Maps).
func (mi *MatchInfo) Map(ctx context.Context, at int) ([]byte, error) {
	if mi.Game == nil || at < 0 || at > mi.Game.Version {
		return nil, fmt.Errorf("bot: no map of match %d after %d commands", mi.ID, at)
	}
	past := func(ctx context.Context) (*state.State, error) {
		x, err := mi.store.Export(ctx, mi.ID)
		if err != nil {
			return nil, err
		}
		g, err := engine.Replay(x.Record.Setup, x.Record.Log[:at])
		if err != nil {
			return nil, fmt.Errorf("bot: match %d after %d commands: %w", mi.ID, at, err)
		}
		return g.State, nil
	}
	return mi.look.ImageAt(mi.m, at, past).PNG(ctx)
}

// Regions is where the territories lie in the match's maps (Map), at
// their scale: the board's, public, the same at every moment; owners and
// armies are the state's, as the caller may see it.
func (mi *MatchInfo) Regions(ctx context.Context) (*render.Regions, error) {
	return mi.look.Regions(ctx, mi.m)
}

// Play applies engine command cmd for the seat of user in match id, if the
// match's log holds exactly version commands; the reply its author would
// have been given is returned, with the log's new length. Refusals are a
// *RefusedCommand (with the engine's reason), ErrStale, ErrNoMatch or
// ErrNotPlaying.
func (b *Bot) Play(ctx context.Context, id int64, user chat.User, version int, cmd engine.Command) (reply string, length int, err error) {
	return b.PlayRequiring(ctx, id, user, version, cmd, nil)
}

// PlayRequiring is Play on the authority of a setting: the command is
// saved only while requires holds (the player's API token is still good:
// tokens.Seat.Requires), else it fails with ErrRevoked.
//
// A match the process keeps (storage.Cache.Kept) is played on without a
// read of the database: the save checks, in its transaction, that the
// match is still at the version played on. Any other outcome from it is
// found again from the database before it is told, since another process
// may have moved the match on.
func (b *Bot) PlayRequiring(ctx context.Context, id int64, user chat.User, version int, cmd engine.Command, requires *storage.Setting) (reply string, length int, err error) {
	h, ok := b.cache.KeptHead(id) // its channel is enough: that never changes
	if !ok {
		if h, err = b.cfg.Store.Head(ctx, id); errors.Is(err, storage.ErrNotFound) {
			return "", 0, ErrNoMatch
		}
		if err != nil {
			return "", 0, err
		}
	}
	channel := h.Channel
	name := "api " + cmd.Name()
	as := aside(channel, user.ID, true)
	unlock := b.locks.Lock(channel)
	var res played
	kept := b.cache.Kept(id)
	if kept != nil {
		res, err = b.playAPI(ctx, id, kept, user, version, cmd, requires, as.reads)
	}
	if kept == nil || (err != nil && !errors.Is(err, storage.ErrRequirement)) {
		var l *storage.Loaded
		if l, err = b.cache.Active(ctx, channel); errors.Is(err, storage.ErrNotFound) {
			err = ErrNotPlaying
		} else if err == nil {
			res, err = b.playAPI(ctx, id, l, user, version, cmd, requires, as.reads)
		}
	}
	unlock()
	b.cfg.Meter.Command(name, resultOf(err))
	var ue *chat.Refusal
	switch {
	case errors.As(err, &ue):
		return "", 0, &RefusedCommand{Reason: ue.Msg}
	case errors.Is(err, storage.ErrConflict):
		return "", 0, ErrStale
	case errors.Is(err, storage.ErrRequirement):
		return "", 0, ErrRevoked
	case err != nil:
		return "", 0, err
	}
	var said chat.Message
	r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { said = m; return nil })
	if err := b.finish(ctx, channel, user, name, nil, "", res.Result, nil, r, as); err != nil {
		return "", 0, err
	}
	return said.Text, res.length, nil
}

type played struct {
	hosted.Result
	length int
}

// playAPI is Play under the channel's lock, on l: the channel's open
// match as read from the database, or match id as kept in memory.
func (b *Bot) playAPI(ctx context.Context, id int64, l *storage.Loaded, user chat.User, version int, cmd engine.Command, requires *storage.Setting, reads *storage.Reads) (played, error) {
	if l.ID != id || l.Status != storage.Active || l.Game == nil {
		return played{}, ErrNotPlaying
	}
	m, err := b.matches.Decode(l)
	if err != nil {
		return played{}, err
	}
	m.Rec = &hosted.Record{}
	m.Requires, m.Reads = requires, reads
	if m.Game.Version != version {
		return played{}, fmt.Errorf("%w (at %d commands, not %d)", ErrStale, m.Game.Version, version)
	}
	seat, err := m.SeatOf(user)
	if err != nil {
		return played{}, err
	}
	res, err := b.play.Act(ctx, m, seat, nil, cmd)
	if err != nil {
		return played{}, err
	}
	return played{res, m.Game.Version}, nil
}

// TeamThread is the private thread of a team of a match, with its people.
type TeamThread struct {
	ID string
	// Team is the team's number, from 1.
	Team int
	// Members are the user IDs of the team's people (its computer players
	// read nothing).
	Members []string
}

// TeamThreads lists the private threads the teams of the match were given
// at its start, with their people: for a chat that keeps its threads in
// memory to open them again when it restarts.
func (mi *MatchInfo) TeamThreads() []TeamThread {
	if mi.Game == nil {
		return nil
	}
	s := mi.Game.State
	var out []TeamThread
	for t, id := range mi.m.Meta.TeamThreads {
		if id == "" {
			continue
		}
		th := TeamThread{ID: id, Team: t + 1}
		for _, i := range s.Sides().Members(t + 1) {
			if !mi.m.Seat(i).IsBot() {
				th.Members = append(th.Members, s.Seats[i].ID)
			}
		}
		out = append(out, th)
	}
	return out
}
