package hosted

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Meta is what the bot keeps about a match beyond the engine's state: the
// lobby, the host's settings, who sits where, and the turn in progress. It
// is stored with the match and changes in the same transaction as the log.
type Meta struct {
	Host string `json:"host"`
	// Server is the server (guild) the match's channel is in, if any.
	Server string `json:"server,omitempty"`
	// Thread: the match's channel is a thread the bot opened for it in
	// Parent (archived when the match ends).
	Thread bool   `json:"thread,omitempty"`
	Parent string `json:"parent,omitempty"`
	// TeamThreads are the private threads opened for the teams of a match
	// with teams, the i-th for team i+1 ("" where none could be opened),
	// archived with the match.
	TeamThreads []string `json:"team_threads,omitempty"`
	Settings    Settings `json:"settings"`
	Seats       []Seat   `json:"seats"`
	// Turn holds the lines describing the turn in progress: its living
	// message shows them, and they are posted with the map when it ends.
	// (Finished turns are told again from the log: /risk show history.)
	Turn []string `json:"turn,omitempty"`
	// Steps counts the lines of Turn each command added, and Stats the
	// turn's numbers (see chronicle).
	Steps []int          `json:"steps,omitempty"`
	Stats news.TurnStats `json:"stats,omitzero"`
	// Bots counts the bots ever added, to name and identify new ones.
	Bots int `json:"bots,omitempty"`
	// Invites are the seats of the lobby held for people the host invited
	// (or, in a rematch, the players of the match before), until they
	// answer or the invitation expires (see Invite).
	Invites []Invite `json:"invites,omitempty"`
	// Rematch is the match this one is the rematch of, if it is one.
	Rematch int64 `json:"rematch,omitempty"`
	// Started and Finished are when the match started and ended.
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	// Ended says who ended the match without a winner, and how, if so.
	Ended string `json:"ended,omitempty"`
	// Imported is when the match, already started, came here by risk
	// import (its first import, if it moved again): whoever exported and
	// imported it held its seed, so its commitment proves its dice fair
	// only as far as they are trusted.
	Imported time.Time `json:"imported,omitzero"`
	// Unverified says why the match's random outcomes do not follow from
	// its seed (the first that does not), if it was hosted all the same
	// (risk import --unverified, risk migrate --unverified): it never
	// claims fair dice. Every later export and import keeps it.
	Unverified string `json:"unverified,omitempty"`
}

// Settings are the options the host chose.
type Settings struct {
	Options   state.Options `json:"options"`
	TurnHours int           `json:"turn_hours"`
	OnTimeout string        `json:"on_timeout"` // "bot" or "skip"
	// Palette names the player colours (Config.Palettes); empty for the
	// bot's default.
	Palette string `json:"palette,omitempty"`
	// Lang is the language of the match's public posts ("en", "fr"): the
	// host's choice, else the server's default, else the server's own
	// locale when the match was opened; empty for English.
	Lang string `json:"lang,omitempty"`
}

// Language is the language of the match's public posts.
func (set Settings) Language() lang.Tag { return lang.FromLocale(set.Lang) }

// Seat is a seat as the bot sees it, in join order.
type Seat struct {
	ID    string `json:"id"` // the user's ID, or "bot:N"
	Name  string `json:"name"`
	Level string `json:"level,omitempty"` // a computer player's level; empty for a person
	// Missed counts the turn deadlines missed in a row.
	Missed int `json:"missed,omitempty"`
	// Autopilot: a bot plays the seat after three missed turns, until the
	// host gives it back.
	Autopilot bool `json:"autopilot,omitempty"`
	// Held lists the territories the seat held when its last turn ended,
	// for telling the player what they missed since (digest); nil before
	// their first turn.
	Held []int `json:"held,omitempty"`
	// Team is the team the player chose in the lobby of a match with
	// teams, 0 for none yet (a team with room is given at the start).
	Team int `json:"team,omitempty"`
}

// IsBot reports whether a computer player sits here.
func (s Seat) IsBot() bool { return s.Level != "" }

// DefaultSettings are the settings of a match nobody configured.
func DefaultSettings() Settings {
	return Settings{Options: state.DefaultOptions(), TurnHours: 24, OnTimeout: "bot"}
}

// MaxMissed is the number of missed turns in a row after which a bot takes
// over the seat.
const MaxMissed = 3

// DecodeMeta reads the bot's data of a match.
func DecodeMeta(b []byte) (Meta, error) {
	var m Meta
	if len(b) == 0 {
		return m, fmt.Errorf("bot: match has no data")
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("bot: decode match data: %w", err)
	}
	return m, nil
}

// Encode writes the bot's data of a match, to store.
func (m Meta) Encode() json.RawMessage {
	b, err := json.Marshal(m)
	if err != nil {
		// Meta holds only plain values; failing to encode is a bug.
		panic(fmt.Sprintf("bot: encode match data: %v", err))
	}
	return b
}

// Chronicle returns the turn in progress, as the match data keeps it.
func (m *Meta) Chronicle() news.Chronicle {
	return news.Chronicle{Lines: m.Turn, Steps: m.Steps, Stats: m.Stats}
}

// SetChronicle keeps the turn in progress in the match data.
func (m *Meta) SetChronicle(ch news.Chronicle) {
	m.Turn, m.Steps, m.Stats = ch.Lines, ch.Steps, ch.Stats
}

// Index returns the index of the Index of user id in join order, or -1.
func (m Meta) Index(id string) int {
	for i, s := range m.Seats {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// PassHost hands the host's role to the first person seated, if there is
// one, and says so (the seat of the host was just removed): a message
// without a key if nobody takes it.
func (m *Meta) PassHost() lang.Msg {
	for _, s := range m.Seats {
		if !s.IsBot() && s.ID != m.Host {
			m.Host = s.ID
			return lang.M("hosted.host-now", "Name", lang.Text(s.Name))
		}
	}
	return lang.Msg{}
}

// FindSeat resolves what a host typed for a player: a user ID, a mention,
// or a (prefix of a) name. Its error is a refusal (lang.Worded), worded
// as the middle of a sentence.
func (m Meta) FindSeat(q string) (int, error) {
	q = strings.TrimSpace(q)
	q = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(q, "<@"), ">"), "@")
	if q == "" {
		return -1, lang.Refuse("hosted.seat.which")
	}
	for i, s := range m.Seats {
		if s.ID == q || strings.HasSuffix(s.ID, ":"+q) || strings.EqualFold(s.Name, q) {
			return i, nil
		}
	}
	var hits []int
	for i, s := range m.Seats {
		if strings.HasPrefix(strings.ToLower(s.Name), strings.ToLower(q)) {
			hits = append(hits, i)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	var names []string
	for _, s := range m.Seats {
		names = append(names, s.Name)
	}
	if len(hits) > 1 {
		return -1, lang.Refuse("hosted.seat.several", "Player", lang.Text(strconv.Quote(q)), "Players", lang.Text(strings.Join(names, ", ")))
	}
	return -1, lang.Refuse("hosted.seat.none", "Player", lang.Text(strconv.Quote(q)), "Players", lang.Text(strings.Join(names, ", ")))
}

// StatusMsg names a match's status in a sentence ("lobby", "active", …).
// Its key is built from the status's stable name (TestStatusKeysExist).
func StatusMsg(s storage.Status) lang.Msg {
	if _, err := s.MarshalText(); err != nil {
		// A status without a name: said as the number it is.
		return lang.M("chat.as-is", "Text", lang.Text(s.String()))
	}
	return lang.M("hosted.status." + s.String())
}

// Invite is a seat of a lobby held for a person: the host invited them
// (/risk host invite), or they played the match this one is the rematch
// of. It holds the seat until they accept or decline (the buttons of the
// invitation's message), or until Until; an expired invitation holds
// nothing, and the next change of the lobby drops it.
type Invite struct {
	ID    string    `json:"id"`
	Until time.Time `json:"until"`
}

// InviteTTL is how long an invitation holds its seat: a day, as a turn's
// default clock, so that a person who looks in once a day can answer;
// the lobby itself closes later if nobody changes it (Config.LobbyTTL).
const InviteTTL = 24 * time.Hour
