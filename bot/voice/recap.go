package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A chat that keeps its messages in memory (the web page) loses them when
// it restarts, while its matches go on from the store. Recap writes what
// such a channel showed of its latest match, open or over, from the match
// as it stands and its log told again (Retell): the public record only,
// as a spectator reads it. The private answers, which were their readers' alone, are not
// written again, for anyone.

// RecapNote opens a recap, in English: why the channel's messages are
// written again, and what is not. A recap words it in its reader's
// language (the catalogue's voice.recap.note, with the dice commitment).
const RecapNote = "📜 _This channel's messages were lost when the page restarted: here is the match told again from its log. " +
	"Private answers from before are not shown; /risk show history tells any turn, /risk show status where everyone stands._"

// Recap is what the channel of match m shows of it, written again: for a
// lobby, its living message; for a match under way, a note saying so (with
// the dice commitment the start posted), the card of its lobby, the
// finished turns (turns, oldest first, as Retell tells them: the last with
// the map as it is), and the living message of the turn in progress, with
// its buttons; for a match that is over, its end (recapEnd). At most limit
// messages (the newest turns; limit <= 0: no bound).
func (v Voice) Recap(m *hosted.Match, turns []news.TurnRecord, limit int) []news.Post {
	if !m.Status.Open() {
		return v.recapEnd(m, turns, limit)
	}
	if m.Game == nil {
		host := ""
		if len(m.Meta.Seats) > 0 {
			host = m.Meta.Seats[0].Name
		}
		return []news.Post{LobbyPost(m.ID, m.Meta, v.p.T("voice.recap.opened", "Host", lang.Text(host)))}
	}
	var tail []news.Post
	if p, ok := v.LivePost(m); ok {
		tail = append(tail, p)
	} else if p, ok := v.placementPost(m); ok {
		tail = append(tail, p)
	}
	return bounded(v.recapHead(m), v.retold(m, turns, true), tail, limit)
}

// recapEnd is Recap of a match that is over, as its channel saw it end. A
// match won: its story, the last turn without the map, then the victory
// post with the map and its Rematch button, as the win posted them. A
// match ended without a winner: its story, what was done of the turn it
// stopped in, and the end said with the map as the match stood. A lobby
// closed before it started: its card, closed, saying why.
func (v Voice) recapEnd(m *hosted.Match, turns []news.TurnRecord, limit int) []news.Post {
	if m.Game == nil {
		p := LobbyClosed(m.ID, m.Meta, v.closedLobbyText(m.Meta.Ended))
		p.Ref, p.Mode = "", 0 // edited no more
		return []news.Post{p}
	}
	s := m.Game.State
	var tail []news.Post
	if m.Status == storage.Finished || s.Phase == state.PhaseOver {
		tail = append(tail, v.VictoryPost(m))
	} else {
		if p, ok := v.stoppedTurn(m); ok {
			tail = append(tail, p)
		}
		tail = append(tail, news.Post{Message: chat.Message{
			Text:  v.p.T("voice.recap.stopped", "Status", lang.Text(v.StatusLine(m))),
			Image: v.mapOf(m, v.viewer()),
		}})
	}
	return bounded(v.recapHead(m), v.retold(m, turns, false), tail, limit)
}

// closedLobbyText says why a lobby closed before its match started, from
// the bot's word for it (hosted.Meta.Ended: "by Ann (the host)", "the
// lobby expired", or nothing when everyone left).
func (v Voice) closedLobbyText(ended string) string {
	switch {
	case ended == "the lobby expired":
		return v.p.T("voice.recap.lobby-expired")
	case ended != "":
		return v.p.T("voice.recap.lobby-ended-by", "Ended", lang.Text(ended))
	}
	return v.p.T("voice.recap.lobby-ended")
}

// recapHead opens the recap of a match that started: the note that says
// why its messages come again, and what is not (with the dice commitment
// the start posted), and the card of its lobby, which is over.
func (v Voice) recapHead(m *hosted.Match) []news.Post {
	head := []news.Post{
		{Message: chat.Message{Text: v.p.T("voice.recap.note", "Commitment", m.Game.Commitment())}},
		lobbyDone(m.ID, m.Meta, v.p.T("voice.recap.started-text"), v.p.T("voice.recap.started")),
	}
	head[1].Ref, head[1].Mode = "", 0 // the card of a lobby that is over: edited no more
	return head
}

// retold is each finished turn's posts, as they were told (a round's: its
// closed living message, then its result); the last with the map if
// lastMap (a match over shows its map after).
func (v Voice) retold(m *hosted.Match, turns []news.TurnRecord, lastMap bool) [][]news.Post {
	told := make([][]news.Post, len(turns))
	for i, t := range turns {
		told[i] = v.recordPosts(m, t, "", lastMap && i == len(turns)-1)
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
func (v Voice) stoppedTurn(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if len(m.Meta.Turn) == 0 || s.Phase == state.PhaseSetup && !hosted.IsCapitals(s) {
		return news.Post{}, false
	}
	t := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: m.Meta.Turn, Stats: m.Meta.Stats}
	if s.Phase == state.PhaseSetup {
		t.Turn = 0
	}
	if s.Phase == state.PhaseOrders {
		t.Seat = -1 // the round's record: everyone's
	}
	return news.Post{Message: chat.Message{Embed: v.TurnEmbed(s, t, "")}}, true
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

// placementPost is the living message of the initial placement of a
// classic match, which has no turn record (what is placed is secret until
// everyone has): who still places, and the button that places for them.
// The start posted these buttons; a recap posts them again.
func (v Voice) placementPost(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase != state.PhaseSetup || hosted.IsCapitals(s) {
		return news.Post{}, false
	}
	var waiting []string
	for i := range s.Seats {
		if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
			waiting = append(waiting, fmt.Sprintf("%s (%s)", v.Who(s, i), v.p.N("n.armies", s.Seats[i].Reserve)))
		}
	}
	text := v.p.T("voice.recap.placement")
	if !m.Timers.Deadline.IsZero() {
		text = v.p.T("voice.recap.placement-deadline", "Deadline", chat.Timestamp(m.Timers.Deadline))
	}
	e := &chat.Embed{Title: v.p.T("voice.recap.placement-title"), Description: v.p.T("voice.recap.still-placing", "Who", lang.Text(strings.Join(waiting, ", ")))}
	row := []chat.Button{{ID: m.ButtonID("autoplace", 0), Label: v.p.T("voice.turn.autoplace"), Style: chat.Secondary}}
	if IsMissions(s) {
		row = append(row, chat.Button{ID: m.ButtonID("mission"), Label: v.p.T("voice.recap.my-mission"), Style: chat.Secondary})
	}
	return news.Post{Message: chat.Message{Text: text, Embed: e, Buttons: [][]chat.Button{row}}}, true
}
