package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/state"
)

// A lobby is one message in its channel, edited in place: its text says
// what happened last (who opened it, joined, left), its card who sits and
// the settings, and its buttons let anyone join and the host add a bot or
// start. Whoever changes it is answered privately. So a lobby filling up
// does not push the channel's talk out of sight, and nobody has to look
// for the latest copy of it.

// LobbyPost is the living message of match id's lobby, with latest, what
// happened last, for its text. Posted once, it is edited by every change
// after (posted anew if the chat lost it).
func LobbyPost(id int64, meta hosted.Meta, latest string) news.Post {
	return Voice{}.LobbyPost(id, meta, latest)
}

// LobbyPost is the package's LobbyPost in the voice's language.
func (v Voice) LobbyPost(id int64, meta hosted.Meta, latest string) news.Post {
	return news.Post{
		Message: chat.Message{Text: latest, Embed: v.LobbyEmbed(meta), Buttons: v.LobbyButtons(id, meta)},
		Ref:     news.LobbyRef(id),
		Mode:    news.Repost,
	}
}

// LobbyStarted is the last edit of a lobby whose match has started: who
// sat, without buttons. The start's own post follows it with the turn
// order and the map.
func LobbyStarted(id int64, meta hosted.Meta) news.Post { return Voice{}.LobbyStarted(id, meta) }

// LobbyStarted is the package's LobbyStarted in the voice's language.
func (v Voice) LobbyStarted(id int64, meta hosted.Meta) news.Post {
	return v.lobbyDone(id, meta, v.p.T("voice.lobby.started"), true)
}

// LobbyClosed is the last edit of match id's lobby, closed before it
// started (by its host, an admin, the last person leaving, or its
// expiry); why says so.
func LobbyClosed(id int64, meta hosted.Meta, why string) news.Post {
	return Voice{}.LobbyClosed(id, meta, why)
}

// LobbyClosed is the package's LobbyClosed in the voice's language.
func (v Voice) LobbyClosed(id int64, meta hosted.Meta, why string) news.Post {
	return v.lobbyDone(id, meta, why, false)
}

// lobbyDone is the last edit of a lobby, started or closed, with text.
func lobbyDone(id int64, meta hosted.Meta, text, how string) news.Post {
	return Voice{}.lobbyDone(id, meta, text, how == "started")
}

// lobbyDone is the package's lobbyDone in the voice's language.
func (v Voice) lobbyDone(id int64, meta hosted.Meta, text string, started bool) news.Post {
	e := v.LobbyEmbed(meta)
	seats := lang.M("n.seats", "Count", len(meta.Seats))
	e.Title = v.p.T("voice.lobby.title-closed", "Seats", seats)
	if started {
		e.Title = v.p.T("voice.lobby.title-started", "Seats", seats)
	}
	e.Fields = e.Fields[:1] // the settings; the tip is past
	e.Footer = ""
	return news.Post{Message: chat.Message{Text: text, Embed: e}, Ref: news.LobbyRef(id), Mode: news.Retire}
}

// TwoPlayerHint warns the lobby of a two-player match won by two thirds of
// the map: each player starts with half of it, so the first player can win
// before the second has played. The rule book makes two thirds the default;
// the host may choose otherwise. It is "" for any other lobby.
func TwoPlayerHint(meta hosted.Meta) string { return Voice{}.TwoPlayerHint(meta) }

// TwoPlayerHint is the package's TwoPlayerHint in the voice's language.
func (v Voice) TwoPlayerHint(meta hosted.Meta) string {
	o := meta.Settings.Options
	if o.Rules != state.Classic || o.Victory != state.TwoThirds {
		return ""
	}
	if o.Teams > 0 {
		// The same holds of two teams, each dealt half of the map.
		if len(meta.Seats) != 2*o.Teams {
			return ""
		}
		return v.p.T("voice.lobby.two-teams-hint")
	}
	if len(meta.Seats) != 2 {
		return ""
	}
	return v.p.T("voice.lobby.two-players-hint")
}

// SeatList lists a lobby's seats, a line each.
func SeatList(meta hosted.Meta) string { return Voice{}.SeatList(meta) }

// SeatList is the package's SeatList in the voice's language.
func (v Voice) SeatList(meta hosted.Meta) string {
	var parts []string
	for i, s := range meta.Seats {
		label := s.Name
		if s.IsBot() {
			label += v.p.T("voice.lobby.bot", "Level", Level(s.Level))
		}
		if s.ID == meta.Host {
			label += v.p.T("voice.lobby.host")
		}
		if s.Team != 0 {
			label += v.p.T("voice.lobby.team", "N", s.Team)
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, label))
	}
	for i, in := range meta.Invites {
		parts = append(parts, v.p.T("voice.lobby.invited", "N", len(meta.Seats)+i+1,
			"Who", lang.Text(chat.Mention(in.ID)), "Until", lang.Text(chat.Timestamp(in.Until))))
	}
	return strings.Join(parts, "\n")
}

// LobbyEmbed is the card of a lobby: who sits, the host's settings, a
// tip if the settings call for one, and how to go on.
func LobbyEmbed(meta hosted.Meta) *chat.Embed { return Voice{}.LobbyEmbed(meta) }

// LobbyEmbed is the package's LobbyEmbed in the voice's language.
func (v Voice) LobbyEmbed(meta hosted.Meta) *chat.Embed {
	e := &chat.Embed{
		Title:       v.p.T("voice.lobby.title", "N", len(meta.Seats), "Max", state.MaxSeats, "Held", v.held(meta)),
		Description: v.SeatList(meta),
		Fields:      []chat.Field{{Name: v.p.T("voice.lobby.settings"), Value: chat.Capitalize(v.SettingsText(meta.Settings)) + "."}},
		Footer:      v.p.T("voice.lobby.footer"),
	}
	if teams := v.lobbyTeams(meta); teams != "" {
		e.Fields = append(e.Fields, chat.Field{Name: v.p.T("voice.lobby.teams"), Value: teams + "\n" + v.p.T("voice.lobby.pick-team")})
	}
	if tip := v.TwoPlayerHint(meta); tip != "" {
		e.Fields = append(e.Fields, chat.Field{Name: v.p.T("voice.lobby.tip"), Value: tip})
	}
	return e
}

// LobbyButtons are the buttons under match id's lobby: Join and Add a bot while a
// seat is free, and Start. Anyone may press them; the lobby refuses the
// host's buttons to the others, privately, since a chat shows everyone
// the same buttons.
func LobbyButtons(id int64, meta hosted.Meta) [][]chat.Button { return Voice{}.LobbyButtons(id, meta) }

// LobbyButtons is the package's LobbyButtons in the voice's language.
func (v Voice) LobbyButtons(id int64, meta hosted.Meta) [][]chat.Button {
	var row []chat.Button
	if meta.Free() > 0 {
		row = append(row,
			chat.Button{ID: hosted.LobbyButton(id, "join"), Label: v.p.T("voice.button.join"), Style: chat.Primary},
			chat.Button{ID: hosted.LobbyButton(id, "addbot"), Label: v.p.T("voice.button.add-bot"), Style: chat.Secondary})
	}
	row = append(row, chat.Button{ID: hosted.LobbyButton(id, "start"), Label: v.p.T("voice.button.start"), Style: chat.Success})
	return [][]chat.Button{row}
}

// held says how many seats of a lobby are held for invited people.
func (v Voice) held(meta hosted.Meta) string {
	if len(meta.Invites) == 0 {
		return ""
	}
	return v.p.T("voice.lobby.held", "Count", len(meta.Invites))
}

// InvitePost is the message that invites people to match id's lobby: it
// pings them alone, says until when their seat is held, and carries the
// buttons to answer (any of them may press them: each answers their own
// invitation).
func InvitePost(id int64, meta hosted.Meta, ids []string, by string) news.Post {
	return Voice{}.InvitePost(id, meta, ids, by)
}

// InvitePost is the package's InvitePost in the voice's language.
func (v Voice) InvitePost(id int64, meta hosted.Meta, ids []string, by string) news.Post {
	var who []string
	until := ""
	for _, in := range meta.Invites {
		for _, want := range ids {
			if in.ID == want {
				who = append(who, chat.Mention(in.ID))
				until = chat.Timestamp(in.Until)
			}
		}
	}
	args := []any{"Who", lang.Text(strings.Join(who, " ")), "By", lang.Text(by),
		"Settings", lang.Text(v.SettingsText(meta.Settings)), "Until", lang.Text(until)}
	text := v.p.T("voice.lobby.invite", args...)
	if meta.Rematch != 0 {
		text = v.p.T("voice.lobby.rematch", args...)
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: ids, Buttons: [][]chat.Button{{
		{ID: hosted.LobbyButton(id, "accept"), Label: v.p.T("voice.button.accept"), Style: chat.Success},
		{ID: hosted.LobbyButton(id, "decline"), Label: v.p.T("voice.button.decline"), Style: chat.Secondary},
	}}}}
}
