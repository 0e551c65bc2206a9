package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
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

// Post is the living message of match id's lobby, with latest, what
// happened last, for its text. Posted once, it is edited by every change
// after (posted anew if the chat lost it).
func (lb Lobby) Post(id int64, meta hosted.Meta, latest string) news.Post {
	return news.Post{
		Message: chat.Message{Text: latest, Embed: lb.Embed(meta), Buttons: lb.Buttons(id, meta)},
		Ref:     news.LobbyRef(id),
		Mode:    news.Repost,
	}
}

// Started is the last edit of a lobby whose match has started: who
// sat, without buttons. The start's own post follows it with the turn
// order and the map.
func (lb Lobby) Started(id int64, meta hosted.Meta) news.Post {
	return lb.done(id, meta, lb.v.p.T("voice.lobby.started"), true)
}

// Closed is the last edit of match id's lobby, closed before it
// started (by its host, an admin, the last person leaving, or its
// expiry); why says so.
func (lb Lobby) Closed(id int64, meta hosted.Meta, why string) news.Post {
	return lb.done(id, meta, why, false)
}

// done is the last edit of a lobby, started or closed, with text.
func (lb Lobby) done(id int64, meta hosted.Meta, text string, started bool) news.Post {
	e := lb.Embed(meta)
	seats := lang.M("n.seats", "Count", len(meta.Seats))
	e.Title = lb.v.p.T("voice.lobby.title-closed", "Seats", seats)
	if started {
		e.Title = lb.v.p.T("voice.lobby.title-started", "Seats", seats)
	}
	e.Fields = e.Fields[:1] // the settings; the tip is past
	e.Footer = ""
	return news.Post{Message: chat.Message{Text: text, Embed: e}, Ref: news.LobbyRef(id), Mode: news.Retire}
}

// TwoPlayerHint warns the lobby of a two-player match won by two thirds of
// the map: each player starts with half of it, so the first player can win
// before the second has played. The rule book makes two thirds the default;
// the host may choose otherwise. It is "" for any other lobby.
func (lb Lobby) TwoPlayerHint(meta hosted.Meta) string {
	o := meta.Settings.Options
	if o.Rules != state.Classic || o.Victory != state.TwoThirds {
		return ""
	}
	if o.Teams > 0 {
		// The same holds of two teams, each dealt half of the map.
		if len(meta.Seats) != 2*o.Teams {
			return ""
		}
		return lb.v.p.T("voice.lobby.two-teams-hint")
	}
	if len(meta.Seats) != 2 {
		return ""
	}
	return lb.v.p.T("voice.lobby.two-players-hint")
}

// SeatList lists a lobby's seats, a line each.
func (lb Lobby) SeatList(meta hosted.Meta) string {
	var parts []string
	for i, s := range meta.Seats {
		label := s.Name
		if s.IsBot() {
			label += lb.v.p.T("voice.lobby.bot", "Level", Level(s.Level))
		}
		if s.ID == meta.Host {
			label += lb.v.p.T("voice.lobby.host")
		}
		if s.Team != 0 {
			label += lb.v.p.T("voice.lobby.team", "N", s.Team)
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, label))
	}
	for i, in := range meta.Invites {
		parts = append(parts, lb.v.p.T("voice.lobby.invited", "N", len(meta.Seats)+i+1,
			"Who", lang.Text(chat.Mention(in.ID)), "Until", lang.Text(chat.Timestamp(in.Until))))
	}
	return strings.Join(parts, "\n")
}

// Embed is the card of a lobby: who sits, the host's settings, a
// tip if the settings call for one, and how to go on.
func (lb Lobby) Embed(meta hosted.Meta) *chat.Embed {
	e := &chat.Embed{
		Title:       lb.v.p.T("voice.lobby.title", "N", len(meta.Seats), "Max", state.MaxSeats, "Held", lb.held(meta)),
		Description: lb.SeatList(meta),
		Fields:      []chat.Field{{Name: lb.v.p.T("voice.lobby.settings"), Value: chat.Capitalize(lb.v.Status().Settings(meta.Settings)) + "."}},
		Footer:      lb.v.p.T("voice.lobby.footer"),
	}
	if teams := lb.teams(meta); teams != "" {
		e.Fields = append(e.Fields, chat.Field{Name: lb.v.p.T("voice.lobby.teams"), Value: teams + "\n" + lb.v.p.T("voice.lobby.pick-team")})
	}
	if tip := lb.TwoPlayerHint(meta); tip != "" {
		e.Fields = append(e.Fields, chat.Field{Name: lb.v.p.T("voice.lobby.tip"), Value: tip})
	}
	return e
}

// Buttons are the buttons under match id's lobby: Join and Add a bot while a
// seat is free, and Start. Anyone may press them; the lobby refuses the
// host's buttons to the others, privately, since a chat shows everyone
// the same buttons.
func (lb Lobby) Buttons(id int64, meta hosted.Meta) [][]chat.Button {
	var row []chat.Button
	if meta.Free() > 0 {
		row = append(row,
			chat.Button{ID: button.ID(id, 0, button.Join), Label: lb.v.p.T("voice.button.join"), Style: chat.Primary},
			chat.Button{ID: button.ID(id, 0, button.AddBot), Label: lb.v.p.T("voice.button.add-bot"), Style: chat.Secondary})
	}
	row = append(row, chat.Button{ID: button.ID(id, 0, button.Start), Label: lb.v.p.T("voice.button.start"), Style: chat.Success})
	return [][]chat.Button{row}
}

// held says how many seats of a lobby are held for invited people.
func (lb Lobby) held(meta hosted.Meta) string {
	if len(meta.Invites) == 0 {
		return ""
	}
	return lb.v.p.T("voice.lobby.held", "Count", len(meta.Invites))
}

// Invite is the message that invites people to match id's lobby: it
// pings them alone, says until when their seat is held, and carries the
// buttons to answer (any of them may press them: each answers their own
// invitation).
func (lb Lobby) Invite(id int64, meta hosted.Meta, ids []string, by string) news.Post {
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
		"Settings", lang.Text(lb.v.Status().Settings(meta.Settings)), "Until", lang.Text(until)}
	text := lb.v.p.T("voice.lobby.invite", args...)
	if meta.Rematch != 0 {
		text = lb.v.p.T("voice.lobby.rematch", args...)
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: ids, Buttons: [][]chat.Button{{
		{ID: button.ID(id, 0, button.Accept), Label: lb.v.p.T("voice.button.accept"), Style: chat.Success},
		{ID: button.ID(id, 0, button.Decline), Label: lb.v.p.T("voice.button.decline"), Style: chat.Secondary},
	}}}}
}
