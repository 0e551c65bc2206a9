package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Turns writes the posts of a match's turns: each turn's record and
// living post, the pings and reminders of the player to move, the victory.
type Turns struct{ v Voice }

// Turns is v writing the posts of the turns.
func (v Voice) Turns() Turns { return Turns{v} }

// capitalsPing is the ping of a person whose turn (or choice of capital)
// it is.
func (tu Turns) capitalsPing(m *hosted.Match) string {
	s := m.Game.State
	id := s.Seats[s.Current].ID
	args := []any{"Swatch", tu.v.Swatch(s.Current), "Mention", lang.Text(chat.MentionOf(id, s.Seats[s.Current].Name)),
		"Turn", s.Turn, "Deadline", chat.Timestamp(m.Timers.Deadline)}
	if s.Phase == state.PhaseSetup {
		return tu.v.p.T("voice.turn.choose-capital", args...)
	}
	item := ""
	if s.Seats[s.Current].Capitals.Item.Kept() {
		item = tu.v.p.T("voice.turn.hold-item")
	}
	if tu.v.Hides(s) {
		return tu.v.p.T("voice.turn.ping-fog", append(args, "Hint", lang.Text(tu.fogHint()))...)
	}
	return tu.v.p.T("voice.turn.ping-capitals", append(args, "Troops", lang.M("n.troops", "Count", s.Seats[s.Current].Reserve), "Item", lang.Text(item))...)
}

// Reveal says what the seed was, for checking the dice, and how much that
// check proves: of a match imported, only what its importer could not
// have chosen; of one imported unverified, nothing.
func (tu Turns) Reveal(m *hosted.Match) string {
	g := m.Game
	switch {
	case m.Meta.Unverified != "":
		return tu.v.p.T("voice.turn.reveal-unverified", "Seed", g.Setup.Seed, "Why", lang.Text(m.Meta.Unverified))
	case !m.Meta.Imported.IsZero():
		return tu.v.p.T("voice.turn.reveal-imported", "Seed", g.Setup.Seed, "Commitment", g.Commitment()[:16], "When", chat.Timestamp(m.Meta.Imported))
	}
	return tu.v.p.T("voice.turn.reveal", "Seed", g.Setup.Seed, "Commitment", g.Commitment()[:16])
}

// FairDice names what Reveal says: "Fair dice", unless they cannot be
// checked.
func (tu Turns) FairDice(m *hosted.Match) string {
	if m.Meta.Unverified != "" {
		return tu.v.p.T("voice.turn.unverified-dice")
	}
	return tu.v.p.T("voice.turn.fair-dice")
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
func (tu Turns) HistoryFooter(page, pages int, live bool) string {
	if live {
		return tu.v.p.T("voice.turn.history-footer-live", "Page", page+1, "Pages", pages)
	}
	return tu.v.p.T("voice.turn.history-footer", "Page", page+1, "Pages", pages)
}

// ShortTitle names a turn on a button: "Turn 7", "Setup".
func (tu Turns) ShortTitle(t news.TurnRecord) string {
	if t.Turn == 0 {
		return tu.v.p.T("voice.turn.setup")
	}
	if t.Seat < 0 {
		return tu.v.p.T("voice.turn.round", "Round", t.Turn)
	}
	return tu.v.p.T("voice.turn.turn", "Turn", t.Turn)
}

// Messages writes the news of a change. Written late (fresh false), when
// the match has moved on since, they keep only what is still true: the
// summaries, without the map or a ping of a turn long gone.
func (tu Turns) Messages(m *hosted.Match, n *news.News, fresh bool) []news.Post {
	var msgs []news.Post
	if n.Everyone {
		// The note, the pings and the map first; then the turns' records,
		// completed, and the turn now in play.
		msgs = append(msgs, tu.everyonePost(m, n.Note))
		s := m.Game.State
		for _, t := range n.Turns {
			msgs = append(msgs, news.Post{Message: chat.Message{Embed: tu.Embed(s, t, "")}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete})
		}
		if p, ok := tu.Live(m); ok && fresh {
			msgs = append(msgs, p)
		}
		return msgs
	}
	if n.Note != "" && len(n.Turns) == 0 {
		msgs = append(msgs, news.Post{Message: chat.Message{Text: n.Note}})
	}
	if n.Remind && fresh {
		if r, ok := tu.Reminder(m); ok {
			msgs = append(msgs, r)
		}
	}
	if fresh {
		return append(msgs, tu.Posts(m, n.Turns, n.Over, n.Note)...)
	}
	for i, t := range n.Turns {
		note := ""
		if i == 0 {
			note = n.Note
		}
		msgs = append(msgs, tu.recordPosts(m, t, note, false)...)
	}
	if n.Over {
		msgs = append(msgs, tu.Victory(m))
	}
	return msgs
}

// Posts are the messages that follow the end of turns: each turn's
// record completed (its living message edited, or posted if it had none),
// the last one with the map, then the living message of the turn now
// starting, which pings the person to play. note, if any, opens the first
// record (why the bot played for a person).
func (tu Turns) Posts(m *hosted.Match, turns []news.TurnRecord, over bool, note string) []news.Post {
	var posts []news.Post
	for i, t := range turns {
		if i > 0 {
			note = ""
		}
		posts = append(posts, tu.recordPosts(m, t, note, i == len(turns)-1 && !over)...)
	}
	if over {
		return append(posts, tu.Victory(m))
	}
	if len(turns) > 0 {
		if p, ok := tu.Live(m); ok {
			posts = append(posts, p)
		}
	}
	return posts
}

// Ping tells the person now to play that it is their turn, mentioning only
// them, with their deadline.
func (tu Turns) Ping(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOrders {
		return tu.roundPing(m)
	}
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || m.IsBotSeat(s.Current) {
		return news.Post{}, false
	}
	id := s.Seats[s.Current].ID
	if hosted.IsCapitals(s) {
		return news.Post{Message: chat.Message{Text: tu.capitalsPing(m), Mentions: []string{id}}, Notice: news.TurnPing}, true
	}
	args := []any{"Swatch", tu.v.Swatch(s.Current), "Mention", lang.Text(chat.MentionOf(id, s.Seats[s.Current].Name)),
		"Turn", s.Turn, "Deadline", chat.Timestamp(m.Timers.Deadline)}
	text := tu.v.p.T("voice.turn.ping", append(args, "Armies", lang.M("n.armies", "Count", s.Seats[s.Current].Reserve),
		"Trade", lang.Text(tu.tradeHint(s.HandSize(s.Current))))...)
	if s.Phase != state.PhaseReinforce || s.Seats[s.Current].Reserve == 0 {
		// The turn's living post words the ping again as the turn goes
		// on: once placed, there is nothing left to place.
		text = tu.v.p.T("voice.turn.ping-placed", args...)
	}
	buttons := []chat.Button{{ID: m.ButtonID(button.Autoplace, s.Turn), Label: tu.v.p.T("voice.turn.autoplace"), Style: chat.Secondary}}
	if tu.v.Hides(s) {
		text = tu.v.p.T("voice.turn.ping-fog", append(args, "Hint", lang.Text(tu.fogHint()))...)
		buttons = append(buttons, tu.ViewButton(m))
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: []string{id}, Buttons: [][]chat.Button{buttons}}, Notice: news.TurnPing}, true
}

// roundPing tells the people a round waits for that it has begun, each
// with their armies to place, mentioning only them.
func (tu Turns) roundPing(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	var ids, who []string
	for _, i := range hosted.ToAct(s) {
		if m.IsBotSeat(i) {
			continue
		}
		ids = append(ids, s.Seats[i].ID)
		if tu.v.Hides(s) {
			who = append(who, tu.v.Swatch(i)+" "+chat.MentionOf(s.Seats[i].ID, s.Seats[i].Name))
			continue
		}
		// What the round gave them, not what they have left: the ping is
		// public, and edited as the round is played, so what is left would
		// tell who has placed or traded before the round resolves.
		who = append(who, fmt.Sprintf("%s %s (%s%s)", tu.v.Swatch(i), chat.MentionOf(s.Seats[i].ID, s.Seats[i].Name),
			tu.v.p.N("n.armies", s.Income(i).Total), tu.tradeHint(s.HandSize(i)+s.Seats[i].Traded.Len())))
	}
	if len(ids) == 0 {
		return news.Post{}, false
	}
	text := tu.v.p.T("voice.turn.round-ping", "Round", s.Turn, "Who", lang.Text(strings.Join(who, ", ")), "Deadline", chat.Timestamp(m.Timers.Deadline))
	msg := chat.Message{Text: text, Mentions: ids}
	if tu.v.Hides(s) {
		msg.Text += " " + tu.fogHint()
		msg.Buttons = [][]chat.Button{{tu.ViewButton(m)}}
	}
	return news.Post{Message: msg, Notice: news.TurnPing}, true
}

// tradeHint reminds a player holding n cards that they must trade a set.
// A ping is public: it says nothing the hand size does not (whether the
// hand holds a set is the player's to know, with /risk show cards).
func (tu Turns) tradeHint(n int) string {
	if n >= 5 {
		return tu.v.p.T("voice.turn.trade-hint", "Count", n)
	}
	return ""
}

func (tu Turns) victoryText(m *hosted.Match) string {
	s := m.Game.State
	var lines []string
	turns := lang.M("n.turns", "Count", s.Turn)
	if IsSimultaneous(s) {
		turns = lang.M("n.rounds", "Count", s.Turn)
	}
	if engine.EndedAtRoundLimit(s) {
		lines = append(lines, tu.v.p.T("voice.turn.victory-round-limit", "Winners", lang.Text(tu.v.Lobby().Winners(s)), "Turns", turns))
	} else {
		lines = append(lines, tu.v.p.T("voice.turn.victory", "Winners", lang.Text(tu.v.Lobby().Winners(s)), "Turns", turns))
	}
	if IsMissions(s) && engine.MissionDone(s, s.Winner) {
		lines = append(lines, tu.v.p.T("voice.turn.victory-mission", "Name", lang.Text(s.Seats[s.Winner].Name), "Mission", lang.Text(tu.v.Missions().Text(s, s.Winner))))
	}
	for i := range s.Seats {
		status := tu.seatStatus(s.Seats[i].Status) // eliminated, surrendered
		switch {
		case s.Won(i) && !s.Seats[i].Alive():
			status = tu.v.p.T("voice.turn.winner-with-team", "Status", lang.Text(status))
		case s.Won(i):
			status = tu.v.p.T("voice.turn.winner", "Count", s.Owned(i))
		case s.Seats[i].Alive():
			status = tu.v.p.T("voice.turn.territories-left", "Count", s.Owned(i))
		}
		lines = append(lines, fmt.Sprintf("%s — %s", tu.v.Who(s, i), status))
	}
	if IsMissions(s) {
		lines = append(lines, tu.v.Missions().revealed(s)...)
	}
	lines = append(lines, tu.v.p.T("voice.turn.rematch-hint"))
	return strings.Join(lines, "\n")
}

// seatStatus words a seat's status: "eliminated", "surrendered".
func (tu Turns) seatStatus(st state.Status) string {
	switch st {
	case state.Eliminated:
		return tu.v.p.T("voice.turn.status.eliminated")
	case state.Surrendered:
		return tu.v.p.T("voice.turn.status.surrendered")
	}
	return st.String()
}

// Title names a turn: "Turn 7 — 🟥 Ann".
func (tu Turns) Title(s *state.State, t news.TurnRecord) string {
	switch {
	case t.Turn == 0 && hosted.IsCapitals(s):
		return tu.v.p.T("voice.turn.title-capital", "Player", lang.Text(tu.v.Who(s, t.Seat)))
	case t.Turn == 0:
		return tu.v.p.T("voice.turn.title-setup")
	case t.Seat < 0:
		return tu.v.p.T("voice.turn.round", "Round", t.Turn)
	}
	return tu.v.p.T("voice.turn.title", "Turn", t.Turn, "Player", lang.Text(tu.v.Lobby().WhoPlays(s, t.Seat)))
}

// maxDescription keeps an embed's description within Discord's 4096
// characters, with room for markup to grow.
const maxDescription = 3800

// Embed is the card of a turn: its lines, and its numbers as fields.
func (tu Turns) Embed(s *state.State, t news.TurnRecord, note string) *chat.Embed {
	e := &chat.Embed{Title: tu.Title(s, t), Color: tu.v.Color(t.Seat)}
	lines := t.Lines
	if note != "" {
		lines = append([]string{"*" + note + "*"}, lines...)
	}
	if len(lines) == 0 {
		lines = []string{tu.v.p.T("voice.turn.nothing-yet")}
	}
	e.Description = fitLines(lines, maxDescription, func(n int) string { return tu.v.p.T("voice.turn.more-lines", "Count", n) })
	st := t.Stats
	capitals := hosted.IsCapitals(s)
	if tu.v.hidesFrom(s, t.Seat) || t.Seat < 0 {
		// Income and trades would tell the continents held in the fog.
		// A round's are everyone's: their sum says nothing (each seat's
		// is told in its lines, to whom may see it), and in the fog it
		// would tell the others' continents too.
		st.Income, st.Traded = 0, 0
	}
	if st.Income > 0 {
		income := tu.v.p.T("voice.turn.field.income-armies", "Count", st.Income)
		if capitals {
			income = tu.v.p.T("voice.turn.field.income-troops", "Count", st.Income)
		}
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.reinforcements"), Value: income, Inline: true})
	}
	if st.Traded > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.traded"), Value: tu.v.p.T("voice.turn.field.traded-armies", "Count", st.Traded), Inline: true})
	}
	if st.Conquests > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.conquests"), Value: tu.v.p.N("n.territories", st.Conquests), Inline: true})
	}
	if len(st.Eliminated) > 0 {
		var names []string
		for _, i := range st.Eliminated {
			names = append(names, tu.v.Who(s, i))
		}
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.eliminated"), Value: strings.Join(names, ", "), Inline: true})
	}
	return e
}

// Post is the completed record of a finished turn, with the map if
// withMap (the last turn of a change: the map shows the match as it is).
// A turn's record completes its living message, where the turn was
// followed as it was played; a round's is posted anew (see recordPosts).
func (tu Turns) Post(m *hosted.Match, t news.TurnRecord, note string, withMap bool) news.Post {
	s := m.Game.State
	msg := news.Post{Message: chat.Message{Embed: tu.Embed(s, t, note)}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete}
	if isRound(t) {
		msg.Ref, msg.Mode = "", 0
	}
	if withMap {
		msg.Image = tu.v.mapOf(m, tu.v.viewer())
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
func (tu Turns) recordPosts(m *hosted.Match, t news.TurnRecord, note string, withMap bool) []news.Post {
	post := tu.Post(m, t, note, withMap)
	if !isRound(t) {
		return []news.Post{post}
	}
	closed := news.Post{Message: chat.Message{Embed: &chat.Embed{
		Title:       tu.Title(m.Game.State, t),
		Color:       tu.v.Color(t.Seat),
		Description: tu.v.p.T("voice.turn.round-over", "Round", t.Turn),
	}}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Retire}
	return []news.Post{closed, post}
}

// currentTurn is the record of m's turn in progress as played so far:
// the initial placement is turn 0, and a round of orders is everyone's.
func currentTurn(m *hosted.Match) news.TurnRecord {
	s := m.Game.State
	t := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: m.Meta.Turn, Stats: m.Meta.Stats}
	if s.Phase == state.PhaseSetup {
		t.Turn = 0
	}
	if s.Phase == state.PhaseOrders {
		t.Seat = -1 // the round's record: everyone's
	}
	return t
}

// Live is the record of the turn in progress, if it has one: a
// person's turn (a computer's is posted when done), not the initial
// placement, which is secret until everyone has placed. Its text pings
// the player, with what to do now and the deadline.
func (tu Turns) Live(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || (s.Phase != state.PhaseOrders && m.IsBotSeat(s.Current)) {
		return news.Post{}, false
	}
	t := currentTurn(m)
	e := tu.Embed(s, t, "")
	if r := tu.v.Status().Readiness(s); r != "" {
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.ready"), Value: r})
	}
	if !m.Timers.Deadline.IsZero() {
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.deadline"), Value: chat.Timestamp(m.Timers.Deadline), Inline: true})
	}
	e.Footer = tu.v.p.T("voice.turn.footer")
	msg, _ := tu.Ping(m)
	switch {
	case tu.v.Hides(s):
		// With fog of war, what happened to the player is theirs to see
		// (/risk show status).
	case s.Phase == state.PhaseOrders:
		msg.Text = tu.v.Digests().withRound(m, msg.Text)
	default:
		msg.Text = tu.v.Digests().With(m, s.Current, msg.Text)
	}
	msg.Embed = e
	msg.Ref = news.PostRef(m.ID, t.Turn, t.Seat)
	msg.Mode = news.PostOrEdit
	if s.Phase == state.PhaseOrders {
		e.Footer = tu.v.p.T("voice.turn.footer-round")
	}
	if !(s.Phase == state.PhaseReinforce && s.Seats[s.Current].Reserve > 0) {
		msg.Buttons = nil // placed: the button's moment is gone
		if tu.v.Hides(s) {
			msg.Buttons = [][]chat.Button{{tu.ViewButton(m)}}
		}
	}
	if tu.v.onMap {
		// Good at any moment of the match: it opens the map, which shows
		// the match as it is then.
		b := chat.Button{ID: m.ButtonID(button.Map), Label: tu.v.p.T("voice.turn.on-map"), Style: chat.Primary}
		if len(msg.Buttons) == 0 {
			msg.Buttons = [][]chat.Button{{b}}
		} else {
			msg.Buttons[0] = append(msg.Buttons[0], b)
		}
	}
	return msg, true
}

// Victory announces the end of a match, with the map.
func (tu Turns) Victory(m *hosted.Match) news.Post {
	s := m.Game.State
	lines := strings.Split(tu.victoryText(m), "\n")
	e := &chat.Embed{Title: "🏆 " + strings.Trim(lines[0], "🏆 *"), Color: tu.v.Color(s.Winner)}
	e.Description = strings.Join(lines[1:len(lines)-1], "\n")
	if m.Luck != "" {
		e.Fields = append(e.Fields, chat.Field{Name: tu.v.p.T("voice.turn.field.luck"), Value: LuckField(m.Luck)})
	}
	e.Fields = append(e.Fields, chat.Field{Name: tu.FairDice(m), Value: tu.Reveal(m)})
	e.Footer = lines[len(lines)-1]
	return news.Post{Message: chat.Message{Embed: e, Image: tu.v.mapOf(m, tu.v.viewer()), Buttons: [][]chat.Button{{
		{ID: button.ID(m.ID, 0, button.Rematch), Label: tu.v.p.T("voice.turn.rematch"), Style: chat.Primary},
	}}}}
}

// Reminder is the message that pings whoever the match waits for.
func (tu Turns) Reminder(m *hosted.Match) (news.Post, bool) {
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
	what := lang.M("voice.turn.remind.your-turn")
	action := lang.M("voice.turn.remind.bot-plays")
	if m.Meta.Settings.OnTimeout == "skip" {
		action = lang.M("voice.turn.remind.skipped")
	}
	switch s := m.Game.State; {
	case s.Phase == state.PhaseSetup && hosted.IsCapitals(s):
		what = lang.M("voice.turn.remind.choose-capital")
		action = lang.M("voice.turn.remind.bot-chooses")
	case s.Phase == state.PhaseSetup:
		what = lang.M("voice.turn.remind.place")
	}
	return news.Post{Message: chat.Message{
		Text: tu.v.p.T("voice.turn.reminder", "Names", lang.Text(strings.Join(names, " ")), "What", what,
			"When", chat.Timestamp(m.Timers.Deadline), "Action", action),
		Mentions: waiting,
	}, Notice: news.ReminderPing}, true
}

// everyonePost is a note that pings every person still playing m, with
// the map as the match stands: a rollback changed every player's game.
func (tu Turns) everyonePost(m *hosted.Match, note string) news.Post {
	s := m.Game.State
	var ids, who []string
	for i := range s.Seats {
		if s.Seats[i].Alive() && !m.IsBotSeat(i) {
			ids = append(ids, s.Seats[i].ID)
			who = append(who, chat.MentionOf(s.Seats[i].ID, s.Seats[i].Name))
		}
	}
	text := note
	if len(who) > 0 {
		text += " " + strings.Join(who, " ")
	}
	return news.Post{Message: chat.Message{Text: text, Mentions: ids, Image: tu.v.mapOf(m, tu.v.viewer())}, Notice: news.TurnPing}
}

// fogHint tells a player of a match with fog of war where their view is.
func (tu Turns) fogHint() string { return tu.v.p.T("voice.fog.hint") }

// ViewButton opens a player's own view of the match: their map, what they
// saw since their last turn, the standings (play's "view" action).
func (tu Turns) ViewButton(m *hosted.Match) chat.Button {
	return chat.Button{ID: m.ButtonID(button.View), Label: tu.v.p.T("voice.fog.my-view"), Style: chat.Secondary}
}
