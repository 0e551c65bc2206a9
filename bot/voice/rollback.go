package voice

import (
	"fmt"
	"strings"
	"time"

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
func TurnWord(s *state.State) string {
	if IsSimultaneous(s) {
		return "round"
	}
	return "turn"
}

// RollbackLoss says what going back from before to after (the state a
// rollback would restore) takes back: the turns (with undone, the
// commands of the line of play, if not 0), the territories that change
// hands again, the seats that come back, the cards. With fog of war the
// territories are not counted: the count would tell what the fog hides.
func (v Voice) RollbackLoss(before, after *state.State, undone int) string {
	w := TurnWord(before)
	var parts []string
	cmds := ""
	if undone > 0 {
		cmds = chat.Plural(undone, "command", "commands") + " of "
	}
	if before.Turn == after.Turn {
		parts = append(parts, fmt.Sprintf("%s%s %d so far", cmds, w, before.Turn))
	} else {
		parts = append(parts, fmt.Sprintf("%s%ss %d to %d", cmds, w, after.Turn, before.Turn))
	}
	if !before.HasFog() {
		changed := 0
		for t := range before.Terr {
			if before.Terr[t].Owner != after.Terr[t].Owner {
				changed++
			}
		}
		if changed > 0 {
			parts = append(parts, fmt.Sprintf("%s taken since go back", chat.Plural(changed, "territory", "territories")))
		}
	}
	var back []string
	for i := range before.Seats {
		if !before.Seats[i].Alive() && after.Seats[i].Alive() {
			back = append(back, v.Who(before, i))
		}
	}
	if len(back) > 0 {
		parts = append(parts, chat.AndList(back)+" "+pluralVerb(len(back), "is", "are")+" back in the match")
	}
	if before.Options.Rules == state.Classic {
		for i := range before.Seats {
			if before.Seats[i].Hand != after.Seats[i].Hand {
				parts = append(parts, "the cards drawn and traded since are undone")
				break
			}
		}
	}
	return strings.Join(parts, "; ")
}

// pluralVerb is one for a count of 1, many otherwise.
func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// RollbackQuestion asks the host (or an admin) whether to take m back to
// the start of turn, restored being the state it would restore and undone
// the commands it would take back; the question expires.
func (v Voice) RollbackQuestion(m *hosted.Match, restored *state.State, turn, undone int, expires time.Time) string {
	s := m.Game.State
	w := TurnWord(s)
	who := ""
	if restored.Phase != state.PhaseOrders {
		who = fmt.Sprintf(" (%s to play)", v.Who(restored, restored.Current))
	}
	return fmt.Sprintf("Take the match back to the start of %s %d%s? Lost: %s. "+
		"Everyone plays on from there; the dice from then on are new ones from the match's seed, so its fairness still verifies. "+
		"Every player is pinged, and the channel is told who did it. This question expires %s.",
		w, turn, who, v.RollbackLoss(s, restored, undone), chat.Timestamp(expires))
}

// RollbackNote is the channel's record of a rollback by who (a name, and
// "the host" or "an admin"), taking the match from before back to the
// start of turn (restored): what was lost.
func (v Voice) RollbackNote(before, restored *state.State, who, role string, turn, undone int) string {
	return fmt.Sprintf("↩️ %s (%s) rolled the match back to the start of %s %d (%s undone). Lost: %s.",
		who, role, TurnWord(before), turn, chat.Plural(undone, "command", "commands"), v.RollbackLoss(before, restored, 0))
}

// rolledBackLine ends the record of the turn a rollback left.
func (v Voice) rolledBackLine(s *state.State, e engine.RolledBack) string {
	return fmt.Sprintf("↩️ Rolled back: the match went back to the start of %s %d (%s undone)",
		TurnWord(s), e.Turn, chat.Plural(e.Undone, "command", "commands"))
}

// againLine opens the record of the turn a rollback went back to.
func (v Voice) againLine(s *state.State, e engine.RolledBack) string {
	switch {
	case e.Seat >= 0 && v.hidesFrom(s, e.Seat):
		// With fog of war a reserve tells the continents held.
		return fmt.Sprintf("↩️ Turn %d again, after a rollback: %s to play", e.Turn, v.Who(s, e.Seat))
	case e.Seat < 0:
		return fmt.Sprintf("↩️ Round %d again, after a rollback: everyone gives their orders anew", e.Turn)
	case hosted.IsCapitals(s):
		return fmt.Sprintf("↩️ Turn %d again, after a rollback: %s has %s to send", e.Turn, v.Who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops"))
	}
	return fmt.Sprintf("↩️ Turn %d again, after a rollback: %s has %s to place", e.Turn, v.Who(s, e.Seat), chat.Plural(e.Armies, "army", "armies"))
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
