package play

import (
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The words of play's own answers are the catalogue's (assets/lang, keys
// "play."): a refusal is raised as a message (chat.RefuseMsg), worded in
// its author's language when it is shown; a private answer is worded here,
// in the language of whoever asked (reader).

// reader is the printer of the answer to the command at hand on match m:
// its author's language, or the match's.
func reader(m *hosted.Match) lang.Printer { return lang.For(m.ReaderLang()) }

// readerOf is the printer of the answer to a call whose match is loaded
// without it (Latest): the author's language, else the match's.
func readerOf(c *hosted.Call, m *hosted.Match) lang.Printer {
	if m != nil {
		if m.Reader == "" {
			m.Reader = hosted.ReaderOf(c.Req.Locale)
		}
		return reader(m)
	}
	return lang.For(lang.FromLocale(c.Req.Locale))
}

// ruleRefusal is the chat's refusal of a command the rules refused: their
// reason, as a sentence in its reader's language. Any other error is
// returned as it is.
func ruleRefusal(err error) error {
	if re, ok := engine.IsRule(err); ok {
		return chat.Refusing(lang.M("play.refusal", "Text", re.Message()))
	}
	return err
}

// place is a territory's name as a sentence says it.
func place(s *state.State, t int) lang.Place { return lang.Place(s.Map.TerritoryName(t)) }

// armies is a count of armies, as an argument.
func armies(n int) lang.Msg { return lang.M("n.armies", "Count", n) }

// troops is a count of a capitals match's troops, as an argument.
func troops(n int) lang.Msg { return lang.M("play.n.troops", "Count", n) }

// decimal is x with one decimal, as the language writes it ("52.3",
// "52,3").
func decimal(lp lang.Printer, x float64) lang.Text {
	s := strconv.FormatFloat(x, 'f', 1, 64)
	if lp.Tag() == lang.French {
		s = strings.Replace(s, ".", ",", 1)
	}
	return lang.Text(s)
}

// cardValue names a card as /risk trade and /risk end discard: take it:
// its territory, or "wild".
func cardValue(s *state.State, c state.Card) string {
	if t, ok := s.Map.CardTerritory(c); ok {
		return s.Map.Territories[t].Name
	}
	return "wild"
}

// setNames names the cards of a set as /risk trade takes them.
func setNames(s *state.State, set [3]state.Card) string {
	var names []string
	for _, c := range set {
		names = append(names, cardValue(s, c))
	}
	return strings.Join(names, ", ")
}
