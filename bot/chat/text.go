package chat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
)

// Refusal is the answer to a command that is refused (a mistake, or
// against the rules): shown to its author alone, with nothing changed.
type Refusal struct {
	// Msg is the refusal in English; Say, if set, is the refusal as the
	// catalogue words it in its reader's language.
	Msg string
	Say lang.Msg
	// Buttons, if any, go under the answer: the way past a refusal that
	// only warns (the rules allow the command, but it costs more than its
	// author may think), taken once they have read why.
	Buttons [][]Button
}

// Error returns the refusal's words.
func (e *Refusal) Error() string { return e.Msg }

// Refuse returns a Refusal saying so.
func Refuse(format string, args ...any) error { return &Refusal{Msg: fmt.Sprintf(format, args...)} }

// RefuseMsg returns a Refusal the catalogue words: the message key with
// its arguments (lang.M).
func RefuseMsg(key string, args ...any) error { return Refusing(lang.M(key, args...)) }

// Refusing returns a Refusal of a message the catalogue words.
func Refusing(m lang.Msg) *Refusal { return &Refusal{Msg: m.String(), Say: m} }

// In is the refusal in language p.
func (e *Refusal) In(p lang.Printer) string {
	if e.Say.IsZero() {
		return e.Msg
	}
	return p.Msg(e.Say)
}

// Message is the refusal's message (lang.Worded), or its English words
// as they are.
func (e *Refusal) Message() lang.Msg {
	if e.Say.IsZero() {
		return lang.M("chat.as-is", "Text", lang.Text(e.Msg))
	}
	return e.Say
}

// Quote quotes what a user typed, cut to a length fit for a reply.
func Quote(s string) string {
	s = strings.ToValidUTF8(s, "�")
	// What was typed must not come back as the bot's markup.
	s = strings.NewReplacer("{", "(", "}", ")").Replace(s)
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}

// Clip keeps a text within a chat message, cutting at a character.
func Clip(text string) string {
	if len(text) <= MaxText {
		return text
	}
	return strings.ToValidUTF8(text[:MaxText], "") + "…"
}

// Trunc cuts s to n characters, the last an ellipsis.
func Trunc(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Capitalize upper-cases the first letter, for engine messages shown alone.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}

// MaxText keeps a message within Discord's 2000 characters, with room for
// the mention markup to grow.
const MaxText = 1900

// OrList joins names as "A, B or C".
func OrList(names []string) string { return joinList(names, " or ") }

// AndList joins names as "A, B and C".
func AndList(names []string) string { return joinList(names, " and ") }

func joinList(names []string, last string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}

// Plural counts: "1 army", "3 armies".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
