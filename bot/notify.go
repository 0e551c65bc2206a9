package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/command"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/storage"
)

// Each player chooses how the bot reaches them (/risk notify), kept as a
// setting of scope "player": a direct message as well when it is their
// turn, reminders or not, and quiet hours. In quiet hours the bot does not
// ping them (the turn's post still names them, without a notification),
// and their turn's clock does not run: the deadline is the time at which
// they have had the match's turn hours outside their quiet hours, and the
// reminder comes at three quarters of that, never inside them. The
// initial placement, which everyone plays at once, keeps the match's
// plain clock.

// playerScope is the settings scope of a player's choices.
const playerScope = "player"

// prefs are a player's choices of notifications.
type prefs struct {
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
	Orders orders `json:"orders,omitzero"`
}

// quiet reports whether the player has quiet hours.
func (p prefs) quiet() bool { return p.QuietFrom != p.QuietTo }

// quietAt reports whether t is in the player's quiet hours.
func (p prefs) quietAt(t time.Time) bool {
	if !p.quiet() {
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
func (p prefs) nextFlip(t time.Time) time.Time {
	zone := time.FixedZone("", p.Offset*60)
	lt := t.In(zone)
	h := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), 0, 0, 0, zone)
	was := p.quietAt(t)
	for range 48 {
		h = h.Add(time.Hour)
		if p.quietAt(h) != was {
			return h
		}
	}
	return t.Add(24 * time.Hour) // not reached while quiet() holds
}

// awake returns the time at which the player, from start, has had d
// outside their quiet hours.
func (p prefs) awake(start time.Time, d time.Duration) time.Time {
	if !p.quiet() {
		return start.Add(d)
	}
	t := start
	for d > 0 {
		next := p.nextFlip(t)
		if p.quietAt(t) {
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

// prefsOf returns a player's choices (the defaults if none).
func (b *Bot) prefsOf(ctx context.Context, user string) (prefs, error) {
	var p prefs
	raw, err := b.cfg.Store.Setting(ctx, playerScope, user)
	if errors.Is(err, storage.ErrNotFound) || strings.HasPrefix(user, "bot:") {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return prefs{}, fmt.Errorf("bot: the notification choices of %s: %w", user, err)
	}
	return p, nil
}

// prefsText describes a player's choices.
func prefsText(p prefs) string {
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	quiet := "none"
	if p.quiet() {
		quiet = fmt.Sprintf("%02d:00 to %02d:00 (%s)", p.QuietFrom, p.QuietTo, offsetText(p.Offset))
	}
	text := fmt.Sprintf("Direct message when it is your turn: %s. Reminders: %s. Quiet hours: %s. Standing orders (when your time runs out): %s.",
		onOff(p.DM), onOff(!p.NoReminders), quiet, p.Orders.text())
	if p.Away != 0 {
		text += " Away until " + chat.Timestamp(time.Unix(p.Away, 0)) + ": your orders play your turns at once; any command of yours in a match ends it."
	}
	return text
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
		return 0, chat.Refuse("utc-offset takes hours from UTC, like +2, -5 or 5:30, not %s.", chat.Quote(s))
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
		return 0, 0, chat.Refuse("quiet takes two different hours, like 22-7 (from 22:00 to 07:00), or off; not %s.", chat.Quote(s))
	}
	return from, to, nil
}

func cmdNotify(ctx context.Context, c *call) (result, error) {
	b := c.bot
	p, err := b.prefsOf(ctx, c.req.User.ID)
	if err != nil {
		return result{}, err
	}
	if len(c.req.Options) == 0 {
		return result{reply: chat.Private("%s\nChange them with /risk notify dm:on reminders:off quiet:22-7 utc-offset:+2.", prefsText(p))}, nil
	}
	if v, ok := c.args.Str["dm"]; ok {
		p.DM = v == "on"
	}
	if v, ok := c.args.Str["reminders"]; ok {
		p.NoReminders = v == "off"
	}
	if v, ok := c.args.Str["quiet"]; ok {
		if p.QuietFrom, p.QuietTo, err = parseQuiet(v); err != nil {
			return result{}, err
		}
	}
	if v, ok := c.args.Str["utc-offset"]; ok {
		if p.Offset, err = parseOffset(v); err != nil {
			return result{}, err
		}
	}
	if v, ok := c.args.Str["away"]; ok {
		if p.Away, err = parseAway(v, b.cfg.Now()); err != nil {
			return result{}, err
		}
	}
	if v, ok := c.args.Str["defend"]; ok {
		if err := command.CheckTyped("defend", v); err != nil {
			return result{}, err
		}
		p.Orders.Defend = strings.TrimSpace(v)
		if strings.EqualFold(p.Orders.Defend, "off") {
			p.Orders.Defend = ""
		}
		if len(p.Orders.Defend) > 40 {
			return result{}, chat.Refuse("defend takes a continent's name, like Europe.")
		}
	}
	if v, ok := c.args.Str["attack"]; ok {
		p.Orders.NoAttack = v == "off"
	}
	if v, ok := c.args.Str["caution"]; ok {
		p.Orders.Caution = v
		if v == "careful" {
			p.Orders.Caution = ""
		}
	}
	if err := b.setPrefs(ctx, c.req.User.ID, p); err != nil {
		return result{}, err
	}
	text := "Saved, for all your matches. " + prefsText(p)
	if p.DM {
		text += "\nDirect messages need the server's members to be allowed to write to you (your privacy settings for the server)."
	}
	return result{reply: chat.Private("%s", text)}, nil
}

// setPrefs stores a player's choices (none: forgets them).
func (b *Bot) setPrefs(ctx context.Context, user string, p prefs) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("bot: encode the choices of %s: %w", user, err)
	}
	if p == (prefs{}) {
		raw = nil
	}
	return b.cfg.Store.SetSetting(ctx, playerScope, user, raw, b.cfg.Now())
}

// notice tells which messages notify a player of their turn.
type notice int

const (
	plainMessage notice = iota
	turnPing            // it is someone's turn
	reminderPing        // their time is running out
)

// direct is a direct message to send with a post.
type direct struct {
	user string
	msg  chat.Message
}

// reach adjusts a ping to the choices of the people it notifies, as it
// is sent: nobody is pinged in their quiet hours, nor reminded if they
// do not want reminders; those who asked get a direct message too. It
// returns the message to post (ok false if none is left to post) and the
// direct messages to send after it.
func (b *Bot) reach(ctx context.Context, channel string, m post) (post, []direct, bool) {
	if m.notice == plainMessage || len(m.Mentions) == 0 {
		return m, nil, true
	}
	now := b.cfg.Now()
	var keep []string
	var dms []direct
	for _, id := range m.Mentions {
		p, err := b.prefsOf(ctx, id)
		if err != nil {
			b.cfg.Log.Error("read notification choices", "user", id, "err", err)
		}
		if m.notice == reminderPing && p.NoReminders {
			continue
		}
		if p.quietAt(now) {
			continue
		}
		keep = append(keep, id)
		if p.DM {
			dms = append(dms, direct{user: id, msg: chat.Message{Text: fmt.Sprintf("🔔 In %s: %s", chat.ChannelLink(channel), m.Text)}})
		}
	}
	if m.notice == reminderPing && len(keep) == 0 {
		return m, nil, false // a reminder is only its pings
	}
	m.Mentions = keep
	return m, dms, true
}

// sendDirect sends direct messages, if the bot can.
func (b *Bot) sendDirect(ctx context.Context, dms []direct) {
	dp, ok := b.cfg.Poster.(chat.DirectPoster)
	if !ok {
		return
	}
	for _, d := range dms {
		if err := dp.DM(ctx, d.user, d.msg); err != nil {
			b.cfg.Log.Warn("direct message", "user", d.user, "err", err)
		}
	}
}

// clockFor returns the deadline (and reminder) of the turn of the person
// in seat, starting now, after their choices: their quiet hours do not
// count.
func (b *Bot) clockFor(ctx context.Context, m *match, seat int, d time.Duration) storage.Timers {
	now := b.cfg.Now()
	p, err := b.prefsOf(ctx, m.Game.State.Seats[seat].ID)
	if err != nil {
		b.cfg.Log.Error("read notification choices", "user", m.Game.State.Seats[seat].ID, "err", err)
	}
	if p.away(now) {
		// Away: the standing orders play at once.
		return storage.Timers{Deadline: now}
	}
	return storage.Timers{Remind: p.awake(now, d*3/4), Deadline: p.awake(now, d)}
}
