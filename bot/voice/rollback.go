package voice

import (
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// What the bot says of a rollback (/risk host rollback): the question to
// the host, with what would be lost; the line in the turn's record; the
// note to the channel, which pings every person playing, with the map as
// the match stands again.

// TurnWord is "turn", or "round" in a match of simultaneous rounds.
func TurnWord(s *state.State) string { return Voice{}.TurnWord(s) }

// TurnWord is the package's TurnWord in the voice's language.
func (v Voice) TurnWord(s *state.State) string {
	if IsSimultaneous(s) {
		return v.p.T("voice.rollback.round-word")
	}
	return v.p.T("voice.rollback.turn-word")
}

// turnN names turn n of s, or its round n: "turn 4", "round 4".
func turnN(s *state.State, n int) lang.Msg {
	if IsSimultaneous(s) {
		return lang.M("voice.rollback.round", "N", n)
	}
	return lang.M("voice.rollback.turn", "N", n)
}

// RollbackLoss says what going back from before to after (the state a
// rollback would restore) takes back: the turns (with undone, the
// commands of the line of play, if not 0), the territories that change
// hands again, the seats that come back, the cards. With fog of war the
// territories are not counted: the count would tell what the fog hides.
func (v Voice) RollbackLoss(before, after *state.State, undone int) string {
	span := turnN(before, before.Turn)
	if before.Turn != after.Turn {
		span = lang.M("voice.rollback.turns", "From", after.Turn, "To", before.Turn)
		if IsSimultaneous(before) {
			span = lang.M("voice.rollback.rounds", "From", after.Turn, "To", before.Turn)
		}
	}
	if undone > 0 {
		span = lang.M("voice.rollback.commands-of", "Commands", lang.M("n.commands", "Count", undone), "Span", span)
	}
	var parts []string
	if before.Turn == after.Turn {
		parts = append(parts, v.p.T("voice.rollback.so-far", "Span", span))
	} else {
		parts = append(parts, v.p.Msg(span))
	}
	if !before.HasFog() {
		changed := 0
		for t := range before.Terr {
			if before.Terr[t].Owner != after.Terr[t].Owner {
				changed++
			}
		}
		if changed > 0 {
			parts = append(parts, v.p.T("voice.rollback.territories", "Count", changed))
		}
	}
	var back lang.List
	for i := range before.Seats {
		if !before.Seats[i].Alive() && after.Seats[i].Alive() {
			back = append(back, lang.Text(v.Who(before, i)))
		}
	}
	if len(back) > 0 {
		parts = append(parts, v.p.T("voice.rollback.back", "Count", len(back), "Players", back))
	}
	if before.Options.Rules == state.Classic {
		for i := range before.Seats {
			if before.Seats[i].Hand != after.Seats[i].Hand {
				parts = append(parts, v.p.T("voice.rollback.cards"))
				break
			}
		}
	}
	return strings.Join(parts, v.p.T("voice.list.sep"))
}

// RollbackQuestion asks the host (or an admin) whether to take m back to
// the start of turn, restored being the state it would restore and undone
// the commands it would take back; the question expires.
func (v Voice) RollbackQuestion(m *hosted.Match, restored *state.State, turn, undone int, expires time.Time) string {
	s := m.Game.State
	who := ""
	if restored.Phase != state.PhaseOrders {
		who = v.p.T("voice.rollback.to-play", "Player", lang.Text(v.Who(restored, restored.Current)))
	}
	return v.p.T("voice.rollback.question", "Turn", turnN(s, turn), "Who", who,
		"Lost", lang.Text(v.RollbackLoss(s, restored, undone)), "Expires", lang.Text(chat.Timestamp(expires)))
}

// RollbackNote is the channel's record of a rollback by who (a name, and
// "the host" or "an admin"), taking the match from before back to the
// start of turn (restored): what was lost.
func (v Voice) RollbackNote(before, restored *state.State, who, role string, turn, undone int) string {
	return v.p.T("voice.rollback.note", "Who", lang.Text(who), "Role", lang.Text(role), "Turn", turnN(before, turn),
		"Commands", lang.M("n.commands", "Count", undone), "Lost", lang.Text(v.RollbackLoss(before, restored, 0)))
}

// rolledBackLine ends the record of the turn a rollback left.
func (v Voice) rolledBackLine(s *state.State, e engine.RolledBack) string {
	return v.p.T("voice.rollback.line", "Turn", turnN(s, e.Turn), "Commands", lang.M("n.commands", "Count", e.Undone))
}

// againLine opens the record of the turn a rollback went back to.
func (v Voice) againLine(s *state.State, e engine.RolledBack) string {
	switch {
	case e.Seat >= 0 && v.hidesFrom(s, e.Seat):
		// With fog of war a reserve tells the continents held.
		return v.p.T("voice.rollback.again-to-play", "N", e.Turn, "Player", lang.Text(v.Who(s, e.Seat)))
	case e.Seat < 0:
		return v.p.T("voice.rollback.again-round", "N", e.Turn)
	case hosted.IsCapitals(s):
		return v.p.T("voice.rollback.again-send", "N", e.Turn, "Player", lang.Text(v.Who(s, e.Seat)), "Troops", lang.M("n.troops", "Count", e.Armies))
	}
	return v.p.T("voice.rollback.again-place", "N", e.Turn, "Player", lang.Text(v.Who(s, e.Seat)), "Armies", lang.M("n.armies", "Count", e.Armies))
}

// everyonePost is a note that pings every person still playing m, with
// the map as the match stands: a rollback changed every player's game.
func (v Voice) everyonePost(m *hosted.Match, note string) news.Post {
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
	return news.Post{Message: chat.Message{Text: text, Mentions: ids, Image: v.mapOf(m, v.viewer())}, Notice: news.TurnPing}
}
