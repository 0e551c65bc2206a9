// Package hosted is a match as the bot hosts it: the engine's game with the
// bot's own data (its host, settings and seats, who sits where and who
// plays for whom, the turn in progress), loaded from and saved to the
// store at the version it was read; what a command on it is (a Call) and
// produces (a Result); the IDs of its buttons; and the checks an imported
// match must pass to be hosted.
package hosted

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Record is a request to record with the first change it makes.
type Record struct {
	Req   storage.Request
	Saved bool
}

// Match is a loaded match with its decoded data.
type Match struct {
	*storage.Loaded
	Meta Meta
	// Rec, if set, is recorded with the first change saved.
	Rec *Record
	// Luck is the luck report of a match just won, for its victory post.
	Luck string
	// Reader is the language of whoever's command or click loaded the
	// match, for its private answer; empty for the match's own.
	Reader lang.Tag
	// Requires, if set, is the setting the command at hand is played on
	// the authority of (an API token's generation: TokenSeat.Requires):
	// its changes are saved only while the setting holds
	// (storage.Change.Requires).
	Requires *storage.Setting
	// Reads, if set, are the settings the command's changes read, for
	// its answer (storage.Change.Reads).
	Reads *storage.Reads
}

// ReaderLang is the language of the answer to the command at hand: its
// author's, or the match's.
func (m *Match) ReaderLang() lang.Tag {
	if m.Reader != "" {
		return m.Reader
	}
	return m.Meta.Settings.Language()
}

// ReaderOf is the language of the author of a request: their chat
// client's, or none said.
func ReaderOf(locale string) lang.Tag {
	if t, ok := lang.Parse(locale); ok {
		return t
	}
	if locale != "" {
		return lang.English // a locale the catalogue lacks
	}
	return ""
}

// Started returns the match's game, or a refusal while it is in its lobby.
func (m *Match) Started() (*engine.Game, error) {
	if m.Game == nil || m.Status == storage.Lobby {
		return nil, chat.RefuseMsg("hosted.not-started")
	}
	return m.Game, nil
}

// Says records text as what the change about to be saved did, for telling
// its author if the answer is lost, and returns it.
func (m *Match) Says(text string) string {
	if m.Rec != nil && !m.Rec.Saved {
		m.Rec.Req.Result = text
	}
	return text
}

// SeatOf returns the engine seat (turn order) of a user, or a refusal.
func (m *Match) SeatOf(u chat.User) (int, error) {
	g, err := m.Started()
	if err != nil {
		return -1, err
	}
	seat := g.State.SeatByID(u.ID)
	if seat < 0 {
		return -1, chat.RefuseMsg("hosted.not-playing")
	}
	if i := m.Meta.Index(u.ID); i >= 0 && m.Meta.Seats[i].IsBot() {
		// Removed by the host (KickSeat): the seat is a bot's for good.
		return -1, chat.RefuseMsg("hosted.removed")
	}
	if i := m.Meta.Index(u.ID); i >= 0 && m.Meta.Seats[i].Autopilot {
		return -1, chat.RefuseMsg("hosted.autopilot", "Count", MaxMissed, "Name", lang.Text(m.Meta.Seats[i].Name))
	}
	return seat, nil
}

// Seat returns the bot's data of engine seat i.
func (m *Match) Seat(i int) *Seat {
	id := m.Game.State.Seats[i].ID
	for j := range m.Meta.Seats {
		if m.Meta.Seats[j].ID == id {
			return &m.Meta.Seats[j]
		}
	}
	return &Seat{ID: id, Name: m.Game.State.Seats[i].Name}
}

// IsBotSeat reports whether a computer plays engine seat i now.
func (m *Match) IsBotSeat(i int) bool {
	sm := m.Seat(i)
	return sm.IsBot() || sm.Autopilot
}

// BotSeat returns the computer seat to act now, or -1 if the match waits
// for people (or for nobody).
func (m *Match) BotSeat() int {
	for _, i := range ToAct(m.Game.State) {
		if m.IsBotSeat(i) {
			return i
		}
	}
	return -1
}

// ButtonID is the ID of a button under a message of m, at its version,
// that does action with args.
func (m *Match) ButtonID(action button.Action, args ...int) string {
	return button.ID(m.ID, m.Version, action, args...)
}

// IsCapitals reports whether the match plays the capitals rules.
func IsCapitals(s *state.State) bool { return s.Options.Rules == state.Capitals }

// HeldBy lists the territories seat holds.
func HeldBy(s *state.State, seat int) []int {
	held := []int{}
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			held = append(held, t)
		}
	}
	return held
}

// BotsToPlay reports whether a computer player must act now.
func (m *Match) BotsToPlay() bool { return m.BotSeat() >= 0 }

// HumansToPlace reports whether people still have armies to place in the
// initial placement.
func (m *Match) HumansToPlace() bool {
	for _, i := range ToAct(m.Game.State) {
		if !m.IsBotSeat(i) {
			return true
		}
	}
	return false
}

// ToAct lists the seats the match waits for: during the classic initial
// placement, every seat with armies left to place; in a simultaneous
// round, every seat that has not committed its orders; otherwise the seat
// whose turn (or choice of a capital) it is.
func ToAct(s *state.State) []int {
	if s.Phase == state.PhaseOver {
		return nil
	}
	if s.Phase == state.PhaseOrders {
		var seats []int
		for i := range s.Seats {
			if s.Seats[i].Alive() && !s.Seats[i].Ready {
				seats = append(seats, i)
			}
		}
		return seats
	}
	if s.Phase != state.PhaseSetup || IsCapitals(s) {
		return []int{s.Current}
	}
	var seats []int
	for i := range s.Seats {
		if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
			seats = append(seats, i)
		}
	}
	return seats
}

// WaitingFor lists the people the match waits for.
func (m *Match) WaitingFor() []string {
	s := m.Game.State
	var ids []string
	for _, i := range ToAct(s) {
		if !m.IsBotSeat(i) {
			ids = append(ids, s.Seats[i].ID)
		}
	}
	return ids
}

// Call is one command being handled: the request, its options, and the
// record of it to save with the first change it makes.
type Call struct {
	Req  chat.Request
	Args command.Args
	// Rec is the request to record with the change the command makes.
	Rec *Record
	// Reads are the settings its changes read for its answer (Match.Reads).
	Reads *storage.Reads
}

// ErrMovedOn is the answer when another command changed the match first.
var ErrMovedOn error = chat.Refusing(lang.M("hosted.moved-on"))

// Result is what a handler produces: the reply, messages to post after it,
// and whether bot seats are now to play.
type Result struct {
	Reply chat.Message
	Posts news.Batch
	Bots  bool
	// Answers is the key of the request recorded with the change, marked
	// answered once the reply is out.
	Answers string
}

// Handler handles a command.
type Handler func(ctx context.Context, c *Call) (Result, error)

// ClickFunc answers a press of a button of match m (nil for the buttons
// that need no match), under its channel's lock.
type ClickFunc func(ctx context.Context, c chat.Click, bt button.Press, m *Match) (Result, error)
