package voice

import (
	"fmt"
	"strings"

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
	return news.Post{
		Message: chat.Message{Text: latest, Embed: LobbyEmbed(meta), Buttons: LobbyButtons(id, meta)},
		Ref:     news.LobbyRef(id),
		Mode:    news.Repost,
	}
}

// LobbyStarted is the last edit of a lobby whose match has started: who
// sat, without buttons. The start's own post follows it with the turn
// order and the map.
func LobbyStarted(id int64, meta hosted.Meta) news.Post {
	return lobbyDone(id, meta, "**The match has started!** The turn order, the colours and the map follow below.", "started")
}

// LobbyClosed is the last edit of match id's lobby, closed before it
// started (by its host, an admin, the last person leaving, or its
// expiry); why says so.
func LobbyClosed(id int64, meta hosted.Meta, why string) news.Post {
	return lobbyDone(id, meta, why, "closed")
}

func lobbyDone(id int64, meta hosted.Meta, text, how string) news.Post {
	e := LobbyEmbed(meta)
	e.Title = fmt.Sprintf("Lobby — %s, %s", how, chat.Plural(len(meta.Seats), "seat", "seats"))
	e.Fields = e.Fields[:1] // the settings; the tip is past
	e.Footer = ""
	return news.Post{Message: chat.Message{Text: text, Embed: e}, Ref: news.LobbyRef(id), Mode: news.Retire}
}

// TwoPlayerHint warns the lobby of a two-player match won by two thirds of
// the map: each player starts with half of it, so the first player can win
// before the second has played. The rule book makes two thirds the default;
// the host may choose otherwise. It is "" for any other lobby.
func TwoPlayerHint(meta hosted.Meta) string {
	o := meta.Settings.Options
	if o.Rules != state.Classic || o.Victory != state.TwoThirds {
		return ""
	}
	if o.Teams > 0 {
		// The same holds of two teams, each dealt half of the map.
		if len(meta.Seats) != 2*o.Teams {
			return ""
		}
		return "With two teams, each is dealt half of the map, and two thirds together may come in the first round. For a longer match: /risk host settings victory:domination, or a third team."
	}
	if len(meta.Seats) != 2 {
		return ""
	}
	return "With two players, the first can win in the first turn (two thirds of the map). For a longer match: /risk host settings victory:domination, or a third player."
}

// SeatList lists a lobby's seats, a line each.
func SeatList(meta hosted.Meta) string {
	var parts []string
	for i, s := range meta.Seats {
		label := s.Name
		if s.IsBot() {
			label += fmt.Sprintf(" (bot, %s)", s.Level)
		}
		if s.ID == meta.Host {
			label += " (host)"
		}
		if s.Team != 0 {
			label += fmt.Sprintf(" — team %d", s.Team)
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, label))
	}
	for i, in := range meta.Invites {
		parts = append(parts, fmt.Sprintf("%d. ⏳ %s (invited, seat held until %s)", len(meta.Seats)+i+1, chat.Mention(in.ID), chat.Timestamp(in.Until)))
	}
	return strings.Join(parts, "\n")
}

// LobbyEmbed is the card of a lobby: who sits, the host's settings, a
// tip if the settings call for one, and how to go on.
func LobbyEmbed(meta hosted.Meta) *chat.Embed {
	e := &chat.Embed{
		Title:       fmt.Sprintf("Lobby — %d/%d seats%s", len(meta.Seats), state.MaxSeats, held(meta)),
		Description: SeatList(meta),
		Fields:      []chat.Field{{Name: "Settings", Value: chat.Capitalize(SettingsText(meta.Settings)) + "."}},
		Footer:      "Join with the button or /risk join (2 to 6 players). The host adds computer players with Add a bot (or /risk host addbot) and starts with Start (or /risk start).",
	}
	if teams := lobbyTeams(meta); teams != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Teams", Value: teams + "\nPick yours with /risk join team:N."})
	}
	if tip := TwoPlayerHint(meta); tip != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Tip", Value: tip})
	}
	return e
}

// LobbyButtons are the buttons under match id's lobby: Join and Add a bot while a
// seat is free, and Start. Anyone may press them; the lobby refuses the
// host's buttons to the others, privately, since a chat shows everyone
// the same buttons.
func LobbyButtons(id int64, meta hosted.Meta) [][]chat.Button {
	var row []chat.Button
	if meta.Free() > 0 {
		row = append(row,
			chat.Button{ID: hosted.LobbyButton(id, "join"), Label: "Join", Style: chat.Primary},
			chat.Button{ID: hosted.LobbyButton(id, "addbot"), Label: "Add a bot", Style: chat.Secondary})
	}
	row = append(row, chat.Button{ID: hosted.LobbyButton(id, "start"), Label: "Start", Style: chat.Success})
	return [][]chat.Button{row}
}

// held says how many seats of a lobby are held for invited people.
func held(meta hosted.Meta) string {
	if len(meta.Invites) == 0 {
		return ""
	}
	return fmt.Sprintf(", %d held", len(meta.Invites))
}

// InvitePost is the message that invites people to match id's lobby: it
// pings them alone, says until when their seat is held, and carries the
// buttons to answer (any of them may press them: each answers their own
// invitation).
func InvitePost(id int64, meta hosted.Meta, ids []string, by string) news.Post {
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
	text := fmt.Sprintf("📨 %s: %s invites you to a Risk match (%s). Your seat is held until %s.", strings.Join(who, " "), by, SettingsText(meta.Settings), until)
	if meta.Rematch != 0 {
		text = fmt.Sprintf("📨 %s: %s asks for a rematch, with the same seats and settings (%s). Your seat is held until %s.", strings.Join(who, " "), by, SettingsText(meta.Settings), until)
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: ids, Buttons: [][]chat.Button{{
		{ID: hosted.LobbyButton(id, "accept"), Label: "Accept", Style: chat.Success},
		{ID: hosted.LobbyButton(id, "decline"), Label: "Decline", Style: chat.Secondary},
	}}}}
}
