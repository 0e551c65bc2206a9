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
	"github.com/riskbot/riskbot/storage"
)

// Recap retells a match to a channel whose posts were lost: its lobby, its
// turns, where it stands or how it ended.
type Recap struct{ v Voice }

// Recap is v retelling a match.
func (v Voice) Recap() Recap { return Recap{v} }

// A chat that keeps its messages in memory (the web page) loses them when
// it restarts, while its matches go on from the store. Recap writes what
// such a channel showed of its latest match, open or over, from the match
// as it stands and its log told again (Retell): the public record only,
// as a spectator reads it. The private answers, which were their readers' alone, are not
// written again, for anyone.

// Posts is what the channel of match m shows of it, written again: for a
// lobby, its living message; for a match under way, a note saying so (with
// the dice commitment the start posted), the card of its lobby, the
// finished turns (turns, oldest first, as Retell tells them: the last with
// the map as it is), and the living message of the turn in progress, with
// its buttons; for a match that is over, its end (end). At most limit
// messages (the newest turns; limit <= 0: no bound).
func (rc Recap) Posts(m *hosted.Match, turns []news.TurnRecord, limit int) []news.Post {
	if !m.Status.Open() {
		return rc.end(m, turns, limit)
	}
	if m.Game == nil {
		host := ""
		if len(m.Meta.Seats) > 0 {
			host = m.Meta.Seats[0].Name
		}
		return []news.Post{rc.v.Lobby().Post(m.ID, m.Meta, rc.v.p.T("voice.recap.opened", "Host", lang.Text(host)))}
	}
	var tail []news.Post
	if p, ok := rc.v.Turns().Live(m); ok {
		tail = append(tail, p)
	} else if p, ok := rc.placement(m); ok {
		tail = append(tail, p)
	}
	return bounded(rc.head(m), rc.retold(m, turns, true), tail, limit)
}

// end is Recap of a match that is over, as its channel saw it end. A
// match won: its story, the last turn without the map, then the victory
// post with the map and its Rematch button, as the win posted them. A
// match ended without a winner: its story, what was done of the turn it
// stopped in, and the end said with the map as the match stood. A lobby
// closed before it started: its card, closed, saying why.
func (rc Recap) end(m *hosted.Match, turns []news.TurnRecord, limit int) []news.Post {
	if m.Game == nil {
		p := rc.v.Lobby().Closed(m.ID, m.Meta, rc.closedLobby(m.Meta.Ended))
		p.Ref, p.Mode = "", 0 // edited no more
		return []news.Post{p}
	}
	s := m.Game.State
	var tail []news.Post
	if m.Status == storage.Finished || s.Phase == state.PhaseOver {
		tail = append(tail, rc.v.Turns().Victory(m))
	} else {
		if p, ok := rc.stoppedTurn(m); ok {
			tail = append(tail, p)
		}
		tail = append(tail, news.Post{Message: chat.Message{
			Text:  rc.v.p.T("voice.recap.stopped", "Status", lang.Text(rc.v.Status().Line(m))),
			Image: rc.v.mapOf(m, rc.v.viewer()),
		}})
	}
	return bounded(rc.head(m), rc.retold(m, turns, false), tail, limit)
}

// closedLobby says why a lobby closed before its match started, from
// the bot's word for it (hosted.Meta.Ended: "by Ann (the host)", "the
// lobby expired", or nothing when everyone left).
func (rc Recap) closedLobby(ended string) string {
	switch {
	case ended == "the lobby expired":
		return rc.v.p.T("voice.recap.lobby-expired")
	case ended != "":
		return rc.v.p.T("voice.recap.lobby-ended-by", "Ended", lang.Text(ended))
	}
	return rc.v.p.T("voice.recap.lobby-ended")
}

// head opens the recap of a match that started: the note that says
// why its messages come again, and what is not (with the dice commitment
// the start posted), and the card of its lobby, which is over.
func (rc Recap) head(m *hosted.Match) []news.Post {
	head := []news.Post{
		{Message: chat.Message{Text: rc.v.p.T("voice.recap.note", "Commitment", m.Game.Commitment())}},
		rc.v.Lobby().done(m.ID, m.Meta, rc.v.p.T("voice.recap.started-text"), true),
	}
	head[1].Ref, head[1].Mode = "", 0 // the card of a lobby that is over: edited no more
	return head
}

// retold is each finished turn's posts, as they were told (a round's: its
// closed living message, then its result); the last with the map if
// lastMap (a match over shows its map after).
func (rc Recap) retold(m *hosted.Match, turns []news.TurnRecord, lastMap bool) [][]news.Post {
	told := make([][]news.Post, len(turns))
	for i, t := range turns {
		told[i] = rc.v.Turns().recordPosts(m, t, "", lastMap && i == len(turns)-1)
		for j := range told[i] {
			if told[i][j].Mode == news.Retire {
				told[i][j].Ref, told[i][j].Mode = "", 0 // as it was left: edited no more
			}
		}
	}
	return told
}

// stoppedTurn is the record of the turn a match was ended in, as far as
// it was played, if anything was: its living message, without the ping
// or the buttons of a turn nobody will play.
func (rc Recap) stoppedTurn(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if len(m.Meta.Turn) == 0 || s.Phase == state.PhaseSetup && !hosted.IsCapitals(s) {
		return news.Post{}, false
	}
	return news.Post{Message: chat.Message{Embed: rc.v.Turns().Embed(s, currentTurn(m), "")}}, true
}

// bounded is head, the turns told and tail, at most limit posts (limit
// <= 0: all): the newest turns, whole, as many as fit with the head and
// the tail.
func bounded(head []news.Post, told [][]news.Post, tail []news.Post, limit int) []news.Post {
	if limit > 0 {
		room, n := max(0, limit-len(head)-len(tail)), 0
		from := len(told)
		for from > 0 && n+len(told[from-1]) <= room {
			from--
			n += len(told[from])
		}
		told = told[from:]
	}
	posts := head
	for _, ps := range told {
		posts = append(posts, ps...)
	}
	posts = append(posts, tail...)
	if limit > 0 && len(posts) > limit {
		posts = posts[len(posts)-limit:]
	}
	return posts
}

// placement is the living message of the initial placement of a
// classic match, which has no turn record (what is placed is secret until
// everyone has): who still places, and the button that places for them.
// The start posted these buttons; a recap posts them again.
func (rc Recap) placement(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase != state.PhaseSetup || hosted.IsCapitals(s) {
		return news.Post{}, false
	}
	var waiting []string
	for i := range s.Seats {
		if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
			waiting = append(waiting, fmt.Sprintf("%s (%s)", rc.v.Who(s, i), rc.v.p.N("n.armies", s.Seats[i].Reserve)))
		}
	}
	text := rc.v.p.T("voice.recap.placement")
	if !m.Timers.Deadline.IsZero() {
		text = rc.v.p.T("voice.recap.placement-deadline", "Deadline", chat.Timestamp(m.Timers.Deadline))
	}
	e := &chat.Embed{Title: rc.v.p.T("voice.recap.placement-title"), Description: rc.v.p.T("voice.recap.still-placing", "Who", lang.Text(strings.Join(waiting, ", ")))}
	row := []chat.Button{{ID: m.ButtonID(button.Autoplace, 0), Label: rc.v.p.T("voice.turn.autoplace"), Style: chat.Secondary}}
	if IsMissions(s) {
		row = append(row, chat.Button{ID: m.ButtonID(button.Mission), Label: rc.v.p.T("voice.recap.my-mission"), Style: chat.Secondary})
	}
	return news.Post{Message: chat.Message{Text: text, Embed: e, Buttons: [][]chat.Button{row}}}, true
}
