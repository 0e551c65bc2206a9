package voice

import (
	"fmt"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// Game is one line of a person's list of their matches (/risk games):
// where it is, whose move it is, and until when.
type Game struct {
	Channel string
	// Turn is the match's turn; 0 during the initial placement.
	Turn int
	// Yours: the match waits for the person asking (among others, during
	// a placement all play at once).
	Yours bool
	// Others are the names of the others it waits for; Bot is the name of
	// the computer playing now, if one is.
	Others []string
	Bot    string
	// Deadline is the move's deadline; zero if there is none (a
	// computer's turn, or a clock the match does not keep).
	Deadline time.Time
	// Out says why the person no longer plays their seat, if so ("a bot
	// plays your seat", "you are out").
	Out string
	// Damaged: the match cannot be loaded; only its channel is known.
	Damaged bool
}

// GamesShown bounds the lines of /risk games: each is about 150
// characters at most, so the answer stays within a chat message (2000
// on Discord) and a phone's screen.
const GamesShown = 10

// Games words a person's list of their matches under way: games, at most
// GamesShown of them, the first with their move; more is how many else
// there are (counted up to the store's bound), where says where ("in this
// server", "on every server").
func Games(games []Game, more int, where string) chat.Message {
	if len(games) == 0 {
		return chat.Private("You play in no match under way %s. Open one with /risk new, or join one with /risk join in its channel. (Lobbies are not listed: their message has their seats.)", where)
	}
	yours := 0
	for _, g := range games {
		if g.Yours {
			yours++
		}
	}
	waits := fmt.Sprintf("%d wait for you", yours)
	if yours == 1 {
		waits = "1 waits for you"
	}
	head := fmt.Sprintf("**Your matches %s** (%d; %s):", where, len(games)+more, waits)
	lines := []string{head}
	for _, g := range games {
		lines = append(lines, "• "+gameLine(g))
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("…and %d more, with later deadlines.", more))
	}
	return chat.Private("%s", strings.Join(lines, "\n"))
}

// gameLine is one match of Games: short, so that it keeps to one line on
// a phone where it can.
func gameLine(g Game) string {
	where := chat.ChannelLink(g.Channel)
	if g.Damaged {
		return where + ": damaged, it cannot be loaded (an admin can end it with /risk host abandon)"
	}
	turn := "placing armies"
	if g.Turn > 0 {
		turn = fmt.Sprintf("turn %d", g.Turn)
	}
	var who string
	others := make([]string, len(g.Others))
	for i, n := range g.Others {
		others[i] = chat.Trunc(n, 24)
	}
	switch {
	case g.Out != "":
		who = g.Out
	case g.Yours && len(others) == 0:
		who = "**your move**"
	case g.Yours:
		who = "**your move**, and " + joinShort(others) + "'s"
	case g.Bot != "":
		who = chat.Trunc(g.Bot, 24) + " (bot) is playing"
	case len(others) > 0:
		who = joinShort(others) + "'s move"
	default:
		who = "waiting"
	}
	line := fmt.Sprintf("%s: %s, %s", where, turn, who)
	if !g.Deadline.IsZero() && g.Out == "" {
		line += ", deadline " + chat.Timestamp(g.Deadline)
	}
	return line
}

// joinShort names up to two people, and counts the rest.
func joinShort(names []string) string {
	if len(names) <= 2 {
		return chat.AndList(names)
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}
