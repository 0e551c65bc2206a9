package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// capitalsPing is the ping of a person whose turn (or choice of capital)
// it is.
func (v Voice) capitalsPing(m *hosted.Match) string {
	s := m.Game.State
	id := s.Seats[s.Current].ID
	if s.Phase == state.PhaseSetup {
		return fmt.Sprintf("%s %s, choose your capital: /risk place territory:NAME (a neutral territory that borders no capital). Deadline %s.",
			v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), chat.Timestamp(m.Timers.Deadline))
	}
	item := ""
	if s.Seats[s.Current].Capitals.Item.Kept() {
		item = " You hold an item (/risk show cards)."
	}
	if v.Hides(s) {
		return fmt.Sprintf("%s %s, it is your turn %d. %s Deadline %s.",
			v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), s.Turn, v.fogHint(), chat.Timestamp(m.Timers.Deadline))
	}
	return fmt.Sprintf("%s %s, it is your turn %d: send your **%s** to one territory (/risk place).%s Deadline %s.",
		v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), s.Turn, chat.Plural(s.Seats[s.Current].Reserve, "troop", "troops"), item, chat.Timestamp(m.Timers.Deadline))
}

// Reveal says what the seed was, for checking the dice, and how much that
// check proves: of a match imported, only what its importer could not
// have chosen; of one imported unverified, nothing.
func (v Voice) Reveal(m *hosted.Match) string {
	g := m.Game
	switch {
	case m.Meta.Unverified != "":
		return fmt.Sprintf("⚠️ Not provably fair: this match was imported unverified, so its dice cannot be checked. The seed was %d. Why: %s",
			g.Setup.Seed, m.Meta.Unverified)
	case !m.Meta.Imported.IsZero():
		return fmt.Sprintf("🔓 The seed was %d; its commitment %s… came with the match's import, %s, not from a start post here. "+
			"/risk show history show:verify replays every roll from it, which proves the dice fair only as far as you trust "+
			"whoever exported and imported the match: they knew the seed.",
			g.Setup.Seed, g.Commitment()[:16], chat.Timestamp(m.Meta.Imported))
	}
	return fmt.Sprintf("🔓 The seed was %d; committed at the start as %s…. /risk show history show:verify replays every roll from it.",
		g.Setup.Seed, g.Commitment()[:16])
}

// FairDice names what Reveal says: "Fair dice", unless they cannot be
// checked.
func FairDice(m *hosted.Match) string {
	if m.Meta.Unverified != "" {
		return "Unverified dice"
	}
	return "Fair dice"
}

// LuckField is the luck report as an embed field's value.
func LuckField(report string) string {
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if len(lines) > 1 {
		lines = lines[1:] // the heading says what the field's name says
	}
	return strings.Join(lines, "\n")
}

// HistoryFooter says where a page of /risk show history stands among the
// match's pages (its turns, each capital chosen or the initial placement
// first), and whether its turn is still being played: "7 of 7 · in
// progress" left both to be guessed.
func HistoryFooter(page, pages int, live bool) string {
	text := fmt.Sprintf("Page %d of %d of the match's history", page+1, pages)
	if live {
		text += " · this turn is still being played: what is done so far"
	}
	return text
}

// ShortTitle names a turn on a button: "Turn 7", "Setup".
func (v Voice) ShortTitle(t news.TurnRecord) string {
	if t.Turn == 0 {
		return "Setup"
	}
	if t.Seat < 0 {
		return fmt.Sprintf("Round %d", t.Turn)
	}
	return fmt.Sprintf("Turn %d", t.Turn)
}

// Messages writes the news of a change. Written late (fresh false), when
// the match has moved on since, they keep only what is still true: the
// summaries, without the map or a ping of a turn long gone.
func (v Voice) Messages(m *hosted.Match, n *news.News, fresh bool) []news.Post {
	var msgs []news.Post
	if n.Everyone {
		// The note, the pings and the map first; then the turns' records,
		// completed, and the turn now in play.
		msgs = append(msgs, v.everyonePost(m, n.Note))
		s := m.Game.State
		for _, t := range n.Turns {
			msgs = append(msgs, news.Post{Message: chat.Message{Embed: v.TurnEmbed(s, t, "")}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete})
		}
		if p, ok := v.LivePost(m); ok && fresh {
			msgs = append(msgs, p)
		}
		return msgs
	}
	if n.Note != "" && len(n.Turns) == 0 {
		msgs = append(msgs, news.Post{Message: chat.Message{Text: n.Note}})
	}
	if n.Remind && fresh {
		if r, ok := v.Reminder(m); ok {
			msgs = append(msgs, r)
		}
	}
	if fresh {
		return append(msgs, v.TurnPosts(m, n.Turns, n.Over, n.Note)...)
	}
	for i, t := range n.Turns {
		note := ""
		if i == 0 {
			note = n.Note
		}
		msgs = append(msgs, v.recordPosts(m, t, note, false)...)
	}
	if n.Over {
		msgs = append(msgs, v.VictoryPost(m))
	}
	return msgs
}

// TurnPosts are the messages that follow the end of turns: each turn's
// record completed (its living message edited, or posted if it had none),
// the last one with the map, then the living message of the turn now
// starting, which pings the person to play. note, if any, opens the first
// record (why the bot played for a person).
func (v Voice) TurnPosts(m *hosted.Match, turns []news.TurnRecord, over bool, note string) []news.Post {
	var posts []news.Post
	for i, t := range turns {
		if i > 0 {
			note = ""
		}
		posts = append(posts, v.recordPosts(m, t, note, i == len(turns)-1 && !over)...)
	}
	if over {
		return append(posts, v.VictoryPost(m))
	}
	if len(turns) > 0 {
		if p, ok := v.LivePost(m); ok {
			posts = append(posts, p)
		}
	}
	return posts
}

// Ping tells the person now to play that it is their turn, mentioning only
// them, with their deadline.
func (v Voice) Ping(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOrders {
		return v.roundPing(m)
	}
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || m.IsBotSeat(s.Current) {
		return news.Post{}, false
	}
	id := s.Seats[s.Current].ID
	if hosted.IsCapitals(s) {
		return news.Post{Message: chat.Message{Text: v.capitalsPing(m), Mentions: []string{id}}, Notice: news.TurnPing}, true
	}
	text := fmt.Sprintf("%s %s, it is your turn %d: you have **%s** to place%s. Deadline %s.",
		v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), s.Turn, chat.Plural(s.Seats[s.Current].Reserve, "army", "armies"), tradeHint(s.HandSize(s.Current)), chat.Timestamp(m.Timers.Deadline))
	if s.Phase != state.PhaseReinforce || s.Seats[s.Current].Reserve == 0 {
		// The turn's living post words the ping again as the turn goes
		// on: once placed, there is nothing left to place.
		text = fmt.Sprintf("%s %s, it is your turn %d. Deadline %s.",
			v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), s.Turn, chat.Timestamp(m.Timers.Deadline))
	}
	buttons := []chat.Button{{ID: m.ButtonID("autoplace", s.Turn), Label: "Place automatically", Style: chat.Secondary}}
	if v.Hides(s) {
		text = fmt.Sprintf("%s %s, it is your turn %d. %s Deadline %s.",
			v.Swatch(s.Current), chat.MentionOf(id, s.Seats[s.Current].Name), s.Turn, v.fogHint(), chat.Timestamp(m.Timers.Deadline))
		buttons = append(buttons, v.ViewButton(m))
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: []string{id}, Buttons: [][]chat.Button{buttons}}, Notice: news.TurnPing}, true
}

// roundPing tells the people a round waits for that it has begun, each
// with their armies to place, mentioning only them.
func (v Voice) roundPing(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	var ids, who []string
	for _, i := range hosted.ToAct(s) {
		if m.IsBotSeat(i) {
			continue
		}
		ids = append(ids, s.Seats[i].ID)
		if v.Hides(s) {
			who = append(who, v.Swatch(i)+" "+chat.MentionOf(s.Seats[i].ID, s.Seats[i].Name))
			continue
		}
		// What the round gave them, not what they have left: the ping is
		// public, and edited as the round is played, so what is left would
		// tell who has placed or traded before the round resolves.
		who = append(who, fmt.Sprintf("%s %s (%s%s)", v.Swatch(i), chat.MentionOf(s.Seats[i].ID, s.Seats[i].Name),
			chat.Plural(s.Income(i).Total, "army", "armies"), tradeHint(s.HandSize(i)+s.Seats[i].Traded.Len())))
	}
	if len(ids) == 0 {
		return news.Post{}, false
	}
	text := fmt.Sprintf("Round %d: %s — place your armies and give your orders (only you see them: /risk place, /risk attack from: to: armies:, /risk fortify), then /risk end. Deadline %s.",
		s.Turn, strings.Join(who, ", "), chat.Timestamp(m.Timers.Deadline))
	msg := chat.Message{Text: text, Mentions: ids}
	if v.Hides(s) {
		msg.Text += " " + v.fogHint()
		msg.Buttons = [][]chat.Button{{v.ViewButton(m)}}
	}
	return news.Post{Message: msg, Notice: news.TurnPing}, true
}

// tradeHint reminds a player holding n cards that they must trade a set.
// A ping is public: it says nothing the hand size does not (whether the
// hand holds a set is the player's to know, with /risk show cards).
func tradeHint(n int) string {
	if n >= 5 {
		return fmt.Sprintf(" — you hold %d cards and must trade a set first (/risk trade)", n)
	}
	return ""
}

func (v Voice) victoryText(m *hosted.Match) string {
	s := m.Game.State
	var lines []string
	unit, units := "turn", "turns"
	if IsSimultaneous(s) {
		unit, units = "round", "rounds"
	}
	limit := ""
	if engine.EndedAtRoundLimit(s) {
		limit = " at the round limit"
	}
	lines = append(lines, fmt.Sprintf("🏆 **%s wins%s after %s!**", v.Winners(s), limit, chat.Plural(s.Turn, unit, units)))
	if IsMissions(s) && engine.MissionDone(s, s.Winner) {
		lines = append(lines, fmt.Sprintf("%s completed their secret mission: %s.", s.Seats[s.Winner].Name, v.MissionText(s, s.Winner)))
	}
	for i := range s.Seats {
		status := s.Seats[i].Status.String() // eliminated, surrendered
		switch {
		case s.Won(i) && !s.Seats[i].Alive():
			status = fmt.Sprintf("winner with their team (%s during the match)", s.Seats[i].Status)
		case s.Won(i):
			status = fmt.Sprintf("winner, %d territories", s.Owned(i))
		case s.Seats[i].Alive():
			status = fmt.Sprintf("%d territories left", s.Owned(i))
		}
		lines = append(lines, fmt.Sprintf("%s — %s", v.Who(s, i), status))
	}
	if IsMissions(s) {
		lines = append(lines, v.missionsRevealed(s)...)
	}
	lines = append(lines, "Rematch: its button opens a lobby with the same seats and settings; or /risk new.")
	return strings.Join(lines, "\n")
}

// TurnTitle names a turn: "Turn 7 — 🟥 Ann".
func (v Voice) TurnTitle(s *state.State, t news.TurnRecord) string {
	switch {
	case t.Turn == 0 && hosted.IsCapitals(s):
		return "Capital — " + v.Who(s, t.Seat)
	case t.Turn == 0:
		return "Initial placement done"
	case t.Seat < 0:
		return fmt.Sprintf("Round %d", t.Turn)
	}
	return fmt.Sprintf("Turn %d — %s", t.Turn, v.WhoPlays(s, t.Seat))
}

// maxDescription keeps an embed's description within Discord's 4096
// characters, with room for markup to grow.
const maxDescription = 3800

// TurnEmbed is the card of a turn: its lines, and its numbers as fields.
func (v Voice) TurnEmbed(s *state.State, t news.TurnRecord, note string) *chat.Embed {
	e := &chat.Embed{Title: v.TurnTitle(s, t), Color: v.Color(t.Seat)}
	lines := t.Lines
	if note != "" {
		lines = append([]string{"*" + note + "*"}, lines...)
	}
	if len(lines) == 0 {
		lines = []string{"(nothing happened yet)"}
	}
	e.Description = FitLinesAs(lines, maxDescription, "… and %d more lines")
	st := t.Stats
	capitals := hosted.IsCapitals(s)
	if v.hidesFrom(s, t.Seat) || t.Seat < 0 {
		// Income and trades would tell the continents held in the fog.
		// A round's are everyone's: their sum says nothing (each seat's
		// is told in its lines, to whom may see it), and in the fog it
		// would tell the others' continents too.
		st.Income, st.Traded = 0, 0
	}
	if st.Income > 0 {
		unit := "armies"
		if capitals {
			unit = "troops"
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Reinforcements", Value: fmt.Sprintf("%d %s", st.Income, unit), Inline: true})
	}
	if st.Traded > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Cards traded", Value: fmt.Sprintf("+%d armies", st.Traded), Inline: true})
	}
	if st.Conquests > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Conquests", Value: chat.Plural(st.Conquests, "territory", "territories"), Inline: true})
	}
	if len(st.Eliminated) > 0 {
		var names []string
		for _, i := range st.Eliminated {
			names = append(names, v.Who(s, i))
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Eliminated", Value: strings.Join(names, ", "), Inline: true})
	}
	return e
}

// TurnPost is the completed record of a finished turn, with the map if
// withMap (the last turn of a change: the map shows the match as it is).
// A turn's record completes its living message, where the turn was
// followed as it was played; a round's is posted anew (see recordPosts).
func (v Voice) TurnPost(m *hosted.Match, t news.TurnRecord, note string, withMap bool) news.Post {
	s := m.Game.State
	msg := news.Post{Message: chat.Message{Embed: v.TurnEmbed(s, t, note)}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete}
	if isRound(t) {
		msg.Ref, msg.Mode = "", 0
	}
	if withMap {
		msg.Image = v.mapOf(m, v.viewer())
	}
	return msg
}

// isRound reports whether t is the record of a simultaneous round.
func isRound(t news.TurnRecord) bool { return t.Seat < 0 && t.Turn > 0 }

// recordPosts are the posts of a finished turn's record. A round's living
// message shows only who is ready while the round lasts, and by its end
// it lies far above, under a day of talk and replies: its result is
// posted anew, where the channel's readers are, and the living message
// is closed with a word that the result follows.
func (v Voice) recordPosts(m *hosted.Match, t news.TurnRecord, note string, withMap bool) []news.Post {
	post := v.TurnPost(m, t, note, withMap)
	if !isRound(t) {
		return []news.Post{post}
	}
	closed := news.Post{Message: chat.Message{Embed: &chat.Embed{
		Title:       v.TurnTitle(m.Game.State, t),
		Color:       v.Color(t.Seat),
		Description: fmt.Sprintf("Round %d is over: its orders and the map are posted below.", t.Turn),
	}}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Retire}
	return []news.Post{closed, post}
}

// LivePost is the record of the turn in progress, if it has one: a
// person's turn (a computer's is posted when done), not the initial
// placement, which is secret until everyone has placed. Its text pings
// the player, with what to do now and the deadline.
func (v Voice) LivePost(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || (s.Phase != state.PhaseOrders && m.IsBotSeat(s.Current)) {
		return news.Post{}, false
	}
	t := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: m.Meta.Turn, Stats: m.Meta.Stats}
	if s.Phase == state.PhaseSetup {
		t.Turn = 0
	}
	if s.Phase == state.PhaseOrders {
		t.Seat = -1 // the round's record: everyone's
	}
	e := v.TurnEmbed(s, t, "")
	if r := v.Readiness(s); r != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Ready", Value: r})
	}
	if !m.Timers.Deadline.IsZero() {
		e.Fields = append(e.Fields, chat.Field{Name: "Deadline", Value: chat.Timestamp(m.Timers.Deadline), Inline: true})
	}
	e.Footer = "This message follows the turn as it is played."
	msg, _ := v.Ping(m)
	switch {
	case v.Hides(s):
		// With fog of war, what happened to the player is theirs to see
		// (/risk show status).
	case s.Phase == state.PhaseOrders:
		msg.Text = v.withRoundDigest(m, msg.Text)
	default:
		msg.Text = v.WithDigest(m, s.Current, msg.Text)
	}
	msg.Embed = e
	msg.Ref = news.PostRef(m.ID, t.Turn, t.Seat)
	msg.Mode = news.PostOrEdit
	if s.Phase == state.PhaseOrders {
		e.Footer = "This message follows the round: who is ready; the orders show when it resolves."
	}
	if !(s.Phase == state.PhaseReinforce && s.Seats[s.Current].Reserve > 0) {
		msg.Buttons = nil // placed: the button's moment is gone
		if v.Hides(s) {
			msg.Buttons = [][]chat.Button{{v.ViewButton(m)}}
		}
	}
	return msg, true
}

// VictoryPost announces the end of a match, with the map.
func (v Voice) VictoryPost(m *hosted.Match) news.Post {
	s := m.Game.State
	lines := strings.Split(v.victoryText(m), "\n")
	e := &chat.Embed{Title: "🏆 " + strings.Trim(lines[0], "🏆 *"), Color: v.Color(s.Winner)}
	e.Description = strings.Join(lines[1:len(lines)-1], "\n")
	if m.Luck != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Luck against the exact odds", Value: LuckField(m.Luck)})
	}
	e.Fields = append(e.Fields, chat.Field{Name: FairDice(m), Value: v.Reveal(m)})
	e.Footer = lines[len(lines)-1]
	return news.Post{Message: chat.Message{Embed: e, Image: v.mapOf(m, v.viewer()), Buttons: [][]chat.Button{{
		{ID: hosted.LobbyButton(m.ID, "rematch"), Label: "Rematch", Style: chat.Primary},
	}}}}
}

// Reminder is the message that pings whoever the match waits for.
func (v Voice) Reminder(m *hosted.Match) (news.Post, bool) {
	waiting := m.WaitingFor()
	if len(waiting) == 0 {
		return news.Post{}, false
	}
	var names []string
	for _, id := range waiting {
		name := ""
		if i := m.Game.State.SeatByID(id); i >= 0 {
			name = m.Game.State.Seats[i].Name
		}
		names = append(names, chat.MentionOf(id, name))
	}
	what := "it is your turn"
	action := "a careful bot will play it for you"
	if m.Meta.Settings.OnTimeout == "skip" {
		action = "it will be skipped"
	}
	switch s := m.Game.State; {
	case s.Phase == state.PhaseSetup && hosted.IsCapitals(s):
		what = "it is your turn to choose a capital"
		action = "a careful bot will choose it for you"
	case s.Phase == state.PhaseSetup:
		what = "you still have armies to place"
	}
	return news.Post{Message: chat.Message{
		Text:     fmt.Sprintf("⏰ %s: %s. Time runs out %s; then %s.", strings.Join(names, " "), what, chat.Timestamp(m.Timers.Deadline), action),
		Mentions: waiting,
	}, Notice: news.ReminderPing}, true
}
