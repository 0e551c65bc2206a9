// Package people keeps each player's choices across matches (/risk
// notify): how the bot reaches them, their quiet hours, their absences and
// their standing orders.
//
// A player chooses a direct message as well when it is their turn,
// reminders or not, and quiet hours. In quiet hours the bot does not ping
// them (the turn's post still names them, without a notification), and
// their turn's clock does not run: the deadline is the time at which they
// have had the match's turn hours outside their quiet hours, and the
// reminder comes at three quarters of that, never inside them. The initial
// placement, which everyone plays at once, keeps the match's plain clock.
package people

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/storage"
)

// Store is where the choices are kept: as settings of scope "player".
type Store interface {
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// People reads and keeps the players' choices.
type People struct {
	store Store
	now   func() time.Time
	log   *slog.Logger
}

// New returns People keeping choices in store; now is the clock.
func New(store Store, now func() time.Time, log *slog.Logger) *People {
	return &People{store: store, now: now, log: log}
}

// playerScope is the settings scope of a player's choices.
const playerScope = "player"

// Prefs are a player's choices of notifications.
type Prefs struct {
	// DM sends the turn's ping (and reminders) as a direct message too.
	DM bool `json:"dm,omitempty"`
	// NoReminders: no reminder at three quarters of the time.
	NoReminders bool `json:"no_reminders,omitempty"`
	// Quiet hours, local: from QuietFrom to QuietTo (o'clock, 0 to 23;
	// the same hour twice for none), in a zone Offset minutes east of UTC.
	QuietFrom int `json:"quiet_from,omitempty"`
	QuietTo   int `json:"quiet_to,omitempty"`
	Offset    int `json:"utc_offset,omitempty"`
	// Away is when the player is back (Unix seconds; 0 if not away):
	// until then their standing orders play their turns at once.
	Away int64 `json:"away,omitempty"`
	// Orders are their standing orders (orders.go).
	Orders Orders `json:"orders,omitzero"`
	// Lang is the language they chose for their direct messages ("en",
	// "fr"; empty: Locale's), and Locale their chat client's language as
	// their last command said it.
	Lang   string `json:"lang,omitempty"`
	Locale string `json:"locale,omitempty"`
}

// Language is the language of the player's direct messages: the one they
// chose, else their chat client's, else fallback (the match's).
func (p Prefs) Language(fallback lang.Tag) lang.Tag {
	return lang.First(p.Lang, p.Locale, string(fallback))
}

// Quiet reports whether the player has quiet hours.
func (p Prefs) Quiet() bool { return p.QuietFrom != p.QuietTo }

// QuietAt reports whether t is in the player's quiet hours.
func (p Prefs) QuietAt(t time.Time) bool {
	if !p.Quiet() {
		return false
	}
	h := t.In(time.FixedZone("", p.Offset*60)).Hour()
	if p.QuietFrom < p.QuietTo {
		return h >= p.QuietFrom && h < p.QuietTo
	}
	return h >= p.QuietFrom || h < p.QuietTo
}

// nextFlip returns the next whole local hour after t at which quietAt
// changes: where a stretch of quiet (or awake) time ends.
func (p Prefs) nextFlip(t time.Time) time.Time {
	zone := time.FixedZone("", p.Offset*60)
	lt := t.In(zone)
	h := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), 0, 0, 0, zone)
	was := p.QuietAt(t)
	for range 48 {
		h = h.Add(time.Hour)
		if p.QuietAt(h) != was {
			return h
		}
	}
	return t.Add(24 * time.Hour) // not reached while quiet() holds
}

// Awake returns the time at which the player, from start, has had d
// outside their quiet hours.
func (p Prefs) Awake(start time.Time, d time.Duration) time.Time {
	if !p.Quiet() {
		return start.Add(d)
	}
	t := start
	for d > 0 {
		next := p.nextFlip(t)
		if p.QuietAt(t) {
			t = next
			continue
		}
		if step := next.Sub(t); step < d {
			d -= step
			t = next
			continue
		}
		t = t.Add(d)
		d = 0
	}
	return t.In(start.Location())
}

// Of returns a player's choices (the defaults if none).
func (pe *People) Of(ctx context.Context, user string) (Prefs, error) {
	raw, err := pe.store.Setting(ctx, playerScope, user)
	if errors.Is(err, storage.ErrNotFound) {
		raw, err = nil, nil
	}
	if err != nil && !strings.HasPrefix(user, "bot:") {
		return Prefs{}, err
	}
	return Decode(user, raw)
}

// Key is the setting of a player's choices, for a caller that reads it
// with others (Decode reads its value).
func Key(user string) storage.Setting { return storage.Setting{Scope: playerScope, ID: user} }

// Decode returns the choices of user stored as raw (Key): the defaults
// for none, and for a computer player.
func Decode(user string, raw json.RawMessage) (Prefs, error) {
	var p Prefs
	if raw == nil || strings.HasPrefix(user, "bot:") {
		return p, nil
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return Prefs{}, fmt.Errorf("bot: the notification choices of %s: %w", user, err)
	}
	return p, nil
}

// Text describes a player's choices.
func (p Prefs) Text() string { return p.In(lang.For(lang.English)) }

// In words the choices in pr's language.
func (p Prefs) In(pr lang.Printer) string {
	onOff := func(b bool) lang.Msg {
		if b {
			return lang.M("people.on")
		}
		return lang.M("people.off")
	}
	quiet := lang.M("people.quiet.none")
	if p.Quiet() {
		quiet = lang.M("people.quiet.hours", "From", lang.Text(fmt.Sprintf("%02d:00", p.QuietFrom)), "To", lang.Text(fmt.Sprintf("%02d:00", p.QuietTo)), "Zone", lang.Text(offsetText(p.Offset)))
	}
	var away lang.Msg
	if p.Away != 0 {
		away = lang.M("people.away.until", "Until", lang.Text(chat.Timestamp(time.Unix(p.Away, 0))))
	}
	return pr.T("people.prefs", "DM", onOff(p.DM), "Reminders", onOff(!p.NoReminders), "Quiet", quiet, "Orders", lang.Text(p.Orders.In(pr)), "Then", away)
}

// offsetText writes a zone as UTC+H or UTC+H:MM.
func offsetText(minutes int) string {
	sign := "+"
	if minutes < 0 {
		sign, minutes = "-", -minutes
	}
	if minutes%60 == 0 {
		return fmt.Sprintf("UTC%s%d", sign, minutes/60)
	}
	return fmt.Sprintf("UTC%s%d:%02d", sign, minutes/60, minutes%60)
}

// parseOffset reads a zone as hours from UTC: "+2", "-5", "5:30", "0".
func parseOffset(s string) (int, error) {
	s = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "UTC")
	sign := 1
	switch {
	case strings.HasPrefix(s, "-"):
		sign, s = -1, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	hs, ms, _ := strings.Cut(s, ":")
	h, err := strconv.Atoi(hs)
	m := 0
	if err == nil && ms != "" {
		m, err = strconv.Atoi(ms)
	}
	if err != nil || h > 14 || m < 0 || m >= 60 || (m != 0 && m != 30 && m != 45) {
		return 0, chat.RefuseMsg("people.offset", "Value", lang.Text(chat.Quote(s)))
	}
	return sign * (h*60 + m), nil
}

// parseQuiet reads quiet hours: "22-7" (from 22:00 to 07:00) or "off".
func parseQuiet(s string) (from, to int, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "off" || s == "none" {
		return 0, 0, nil
	}
	a, z, ok := strings.Cut(s, "-")
	from, err1 := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(a), ":00"))
	to, err2 := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(z), ":00"))
	if !ok || err1 != nil || err2 != nil || from < 0 || from > 23 || to < 0 || to > 23 || from == to {
		return 0, 0, chat.RefuseMsg("people.quiet.bad", "Value", lang.Text(chat.Quote(s)))
	}
	return from, to, nil
}

// Notify answers /risk me notify: the user's choices, changed as the options
// say.
func (pe *People) Notify(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	p, err := pe.Of(ctx, req.User.ID)
	if err != nil {
		return chat.Message{}, err
	}
	pr := lang.For(lang.FromLocale(req.Locale))
	if len(req.Options) == 0 {
		return chat.Private("%s", pr.T("people.notify.show", "Prefs", lang.Text(p.In(pr)))), nil
	}
	if v, ok := a.Str["dm"]; ok {
		p.DM = v == "on"
	}
	if v, ok := a.Str["language"]; ok {
		p.Lang = ""
		if t, ok := lang.Parse(v); ok {
			p.Lang = string(t) // "auto" forgets the choice
		}
	}
	if v, ok := a.Str["reminders"]; ok {
		p.NoReminders = v == "off"
	}
	if v, ok := a.Str["quiet"]; ok {
		if p.QuietFrom, p.QuietTo, err = parseQuiet(v); err != nil {
			return chat.Message{}, err
		}
	}
	if v, ok := a.Str["utc-offset"]; ok {
		if p.Offset, err = parseOffset(v); err != nil {
			return chat.Message{}, err
		}
	}
	if v, ok := a.Str["away"]; ok {
		if p.Away, err = parseAway(v, pe.now()); err != nil {
			return chat.Message{}, err
		}
	}
	if v, ok := a.Str["defend"]; ok {
		if err := command.CheckTyped("defend", v); err != nil {
			return chat.Message{}, err
		}
		p.Orders.Defend = strings.TrimSpace(v)
		if strings.EqualFold(p.Orders.Defend, "off") {
			p.Orders.Defend = ""
		}
		if len(p.Orders.Defend) > 40 {
			return chat.Message{}, chat.RefuseMsg("people.defend")
		}
	}
	if v, ok := a.Str["attack"]; ok {
		p.Orders.NoAttack = v == "off"
	}
	if v, ok := a.Str["caution"]; ok {
		p.Orders.Caution = v
		if v == "careful" {
			p.Orders.Caution = ""
		}
	}
	if err := pe.Set(ctx, req.User.ID, p); err != nil {
		return chat.Message{}, err
	}
	var dm lang.Msg
	if p.DM {
		dm = lang.M("people.notify.dm")
	}
	return chat.Private("%s", pr.T("people.notify.saved", "Prefs", lang.Text(p.In(pr)), "Then", dm)), nil
}

// Set stores a player's choices (none: forgets them).
func (pe *People) Set(ctx context.Context, user string, p Prefs) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("bot: encode the choices of %s: %w", user, err)
	}
	if p == (Prefs{}) {
		raw = nil
	}
	return pe.store.SetSetting(ctx, playerScope, user, raw, pe.now())
}

// Clock returns the deadline (and reminder) of a turn of d for user,
// starting now, after their choices: their quiet hours do not count.
func (pe *People) Clock(ctx context.Context, user string, d time.Duration) storage.Timers {
	now := pe.now()
	p, err := pe.Of(ctx, user)
	if err != nil {
		pe.log.Error("read notification choices", "user", user, "err", err)
	}
	if p.AwayAt(now) {
		// Away: the standing orders play at once.
		return storage.Timers{Deadline: now}
	}
	return storage.Timers{Remind: p.Awake(now, d*3/4), Deadline: p.Awake(now, d)}
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
