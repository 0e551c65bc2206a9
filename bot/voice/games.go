package voice

import (
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
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
	return Voice{}.Games(games, more, where)
}

// Games is the package's Games in the voice's language.
func (v Voice) Games(games []Game, more int, where string) chat.Message {
	if len(games) == 0 {
		return chat.Private("%s", v.p.T("voice.games.none", "Where", lang.Text(where)))
	}
	yours := 0
	for _, g := range games {
		if g.Yours {
			yours++
		}
	}
	waits := lang.M("voice.games.waits", "Count", yours)
	head := v.p.T("voice.games.head", "Where", lang.Text(where), "Count", len(games)+more, "Waits", waits)
	lines := []string{head}
	for _, g := range games {
		lines = append(lines, "• "+v.gameLine(g))
	}
	if more > 0 {
		lines = append(lines, v.p.T("voice.games.more", "Count", more))
	}
	return chat.Private("%s", strings.Join(lines, "\n"))
}

// gameLine is one match of Games: short, so that it keeps to one line on
// a phone where it can.
func (v Voice) gameLine(g Game) string {
	where := lang.Text(chat.ChannelLink(g.Channel))
	if g.Damaged {
		return v.p.T("voice.games.damaged", "Where", where)
	}
	turn := v.p.T("voice.games.placing")
	if g.Turn > 0 {
		turn = v.p.T("voice.games.turn", "N", g.Turn)
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
		who = v.p.T("voice.games.your-move")
	case g.Yours:
		who = v.p.T("voice.games.your-move-and", "Others", lang.Text(v.joinShort(others)))
	case g.Bot != "":
		who = v.p.T("voice.games.bot-playing", "Bot", lang.Text(chat.Trunc(g.Bot, 24)))
	case len(others) > 0:
		who = v.p.T("voice.games.their-move", "Others", lang.Text(v.joinShort(others)))
	default:
		who = v.p.T("voice.games.waiting")
	}
	line := v.p.T("voice.games.line", "Where", where, "Turn", turn, "Who", lang.Text(who))
	if !g.Deadline.IsZero() && g.Out == "" {
		line += v.p.T("voice.games.deadline", "At", lang.Text(chat.Timestamp(g.Deadline)))
	}
	return line
}

// joinShort names up to two people, and counts the rest.
func (v Voice) joinShort(names []string) string {
	if len(names) <= 2 {
		return v.p.Join(names)
	}
	return v.p.T("voice.games.and-more", "First", lang.Text(names[0]), "Second", lang.Text(names[1]), "Count", len(names)-2)
}
