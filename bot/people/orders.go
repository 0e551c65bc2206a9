package people

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
)

// Standing orders (/risk me notify away: defend: attack: caution:) say how a
// player's seat is played when they are not there: when their turn's time
// runs out, and, while they are away (until a date), at once when their
// turn starts. The channel is told the orders played. Any command of
// theirs in a match says they are back: away ends (the orders stay, for
// the next time out).

// Orders are a player's standing orders, part of their choices (Prefs).
type Orders struct {
	// Defend names a continent (a region on generated maps) whose borders
	// get the reinforcements first.
	Defend string `json:"defend,omitempty"`
	// NoAttack: the seat never attacks (it still places and fortifies).
	NoAttack bool `json:"no_attack,omitempty"`
	// Caution is "careful" (the default, as "": the careful bot that
	// plays timed-out turns), "balanced" or "bold".
	Caution string `json:"caution,omitempty"`
}

// Given reports whether any order is given.
func (o Orders) Given() bool { return o != Orders{} }

// Text words the orders in English: "defend Europe, no attacks, careful".
func (o Orders) Text() string { return o.In(lang.For(lang.English)) }

// In words the orders in p's language.
func (o Orders) In(p lang.Printer) string {
	var parts []string
	if o.Defend != "" {
		parts = append(parts, p.T("people.orders.defend", "Continent", lang.Place(o.Defend)))
	}
	if o.NoAttack {
		parts = append(parts, p.T("people.orders.no-attacks"))
	}
	if o.Caution != "" {
		parts = append(parts, o.Caution)
	}
	if len(parts) == 0 {
		return p.T("people.orders.none")
	}
	return strings.Join(parts, ", ")
}

// Level is the computer level the orders play with.
func (o Orders) Level() string {
	switch o.Caution {
	case "bold":
		return "bold"
	case "balanced":
		return "normal"
	}
	return "cautious"
}

// AwayAt reports whether the player is away at now.
func (p Prefs) AwayAt(now time.Time) bool { return p.Away > now.Unix() }

// parseAway reads how long a player is away: a number of days ("3", "3d"),
// a date ("2026-12-24", to its end, UTC), or "off".
func parseAway(s string, now time.Time) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "off" || s == "no" {
		return 0, nil
	}
	var days int
	if _, err := fmt.Sscanf(strings.TrimSuffix(s, "d"), "%d", &days); err == nil && fmt.Sprint(days) == strings.TrimSuffix(s, "d") {
		if days < 1 || days > 60 {
			return 0, chat.RefuseMsg("people.away.days", "Days", days)
		}
		return now.Add(time.Duration(days) * 24 * time.Hour).Unix(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		end := t.Add(24 * time.Hour)
		if !end.After(now) || end.Sub(now) > 61*24*time.Hour {
			return 0, chat.RefuseMsg("people.away.date", "Date", lang.Text(s))
		}
		return end.Unix(), nil
	}
	return 0, chat.RefuseMsg("people.away.bad", "Value", lang.Text(chat.Quote(s)))
}

// Returning reports whether a command of the player whose choices are p,
// from a chat client in locale, changes them (WelcomeBack): their
// absence ends, or their client's language is new to the bot. A caller
// that read p already need not call WelcomeBack otherwise.
func (p Prefs) Returning(locale string) bool {
	return p.Away != 0 || seen(p, locale) != p.Locale
}

// seen is the language a player reads, as their chat client last said.
func seen(p Prefs, locale string) string {
	if t, ok := lang.Parse(locale); ok {
		return string(t)
	}
	return p.Locale
}

// WelcomeBack ends the absence of a player who plays again, and says so
// in p's language ("" if they were not away). It remembers the language
// their chat client says they read (locale), for their direct messages.
func (pe *People) WelcomeBack(ctx context.Context, user, locale string, p lang.Printer) string {
	prefs, err := pe.Of(ctx, user)
	if err != nil {
		return ""
	}
	if !prefs.Returning(locale) {
		return "" // nothing to change: no write
	}
	back := prefs.Away != 0
	prefs.Away, prefs.Locale = 0, seen(prefs, locale)
	if err := pe.Set(ctx, user, prefs); err != nil {
		pe.log.Error("end an absence", "user", user, "err", err)
		return ""
	}
	if !back {
		return ""
	}
	return "\n" + p.T("people.welcome-back")
}
