package people

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"
)

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
