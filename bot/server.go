package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/voice"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/command"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/storage"
)

// A server's admins set defaults for its new matches and limits on them
// (/risk admin ...), kept as a setting of scope "server": the options of
// /risk new that apply unless the host chooses otherwise, the computer
// levels allowed, who may open matches, how many may be open at once (per
// host, and in the server), and how long a lobby may wait.

// serverScope is the settings scope of a server's rules.
const serverScope = "server"

// serverRules are a server's defaults and limits.
type serverRules struct {
	// Defaults are options of /risk new, by name, as typed ("turn-hours":
	// "12"): applied before the host's own.
	Defaults map[string]string `json:"defaults,omitempty"`
	// Levels are the computer levels allowed; empty allows all.
	Levels []string `json:"levels,omitempty"`
	// Starters is who may open matches: "admins", or everyone ("").
	Starters string `json:"starters,omitempty"`
	// PerHost and PerServer bound the open matches a person hosts, and
	// those of the whole server; zero is no bound.
	PerHost   int `json:"per_host,omitempty"`
	PerServer int `json:"per_server,omitempty"`
	// LobbyDays closes lobbies idle that long; zero keeps the bot's rule.
	LobbyDays int `json:"lobby_days,omitempty"`
}

// rulesOf returns a server's rules (none outside a server).
func (b *Bot) rulesOf(ctx context.Context, server string) (serverRules, error) {
	var r serverRules
	if server == "" {
		return r, nil
	}
	raw, err := b.cfg.Store.Setting(ctx, serverScope, server)
	if errors.Is(err, storage.ErrNotFound) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return serverRules{}, fmt.Errorf("bot: the rules of server %s: %w", server, err)
	}
	return r, nil
}

// adminOnly refuses anyone but a server's admins.
func adminOnly(c *call) error {
	if c.req.Server == "" {
		return chat.Refuse("Server settings exist only in a server.")
	}
	if !c.req.Admin {
		return chat.Refuse("Only the server's admins (Manage Server, or Manage Channels here) can change its settings for matches.")
	}
	return nil
}

// rulesText describes a server's rules.
func (b *Bot) rulesText(r serverRules) string {
	set, err := b.serverDefaults(r)
	lines := []string{"New matches here: " + voice.SettingsText(set) + "."}
	if err != nil {
		lines = append(lines, fmt.Sprintf("(A default no longer applies: %v.)", err))
	}
	levels := b.cfg.Levels
	if len(r.Levels) > 0 {
		levels = r.Levels
	}
	lines = append(lines, "Computer levels: "+strings.Join(levels, ", ")+".")
	who := "everyone"
	if r.Starters == "admins" {
		who = "admins only"
	}
	lines = append(lines, "Who may open matches: "+who+".")
	limit := func(n int) string {
		if n == 0 {
			return "no limit"
		}
		return fmt.Sprint(n)
	}
	lines = append(lines, fmt.Sprintf("Open matches: %s per host, %s in the server.", limit(r.PerHost), limit(r.PerServer)))
	ttl := b.lobbyTTL(r)
	if ttl < 0 {
		lines = append(lines, "Lobbies wait as long as it takes.")
	} else {
		lines = append(lines, fmt.Sprintf("A lobby closes after %s without a change.", durationText(ttl)))
	}
	return strings.Join(lines, "\n")
}

// durationText writes a long duration in days, or hours if shorter.
func durationText(d time.Duration) string {
	if days := int(d.Hours()/24 + 0.5); days >= 1 {
		return chat.Plural(days, "day", "days")
	}
	return chat.Plural(int(d.Hours()+0.5), "hour", "hours")
}

// lobbyTTL is how long a lobby of a server with these rules may wait;
// negative is for ever.
func (b *Bot) lobbyTTL(r serverRules) time.Duration {
	if r.LobbyDays > 0 {
		return time.Duration(r.LobbyDays) * 24 * time.Hour
	}
	return b.cfg.LobbyTTL
}

// serverDefaults are the settings of a new match on a server with these
// rules, before the host's own choices.
func (b *Bot) serverDefaults(r serverRules) (hosted.Settings, error) {
	set := hosted.DefaultSettings()
	if len(r.Defaults) == 0 {
		return set, nil
	}
	a, err := command.Parse(command.Spec{Name: "admin defaults", Options: command.DefaultOptions()}, r.Defaults)
	if err != nil {
		return set, err
	}
	return b.applySettings(set, a)
}

func cmdAdminShow(ctx context.Context, c *call) (result, error) {
	if c.req.Server == "" {
		return result{}, chat.Refuse("Server settings exist only in a server.")
	}
	r, err := c.bot.rulesOf(ctx, c.req.Server)
	if err != nil {
		return result{}, err
	}
	return result{reply: chat.Private("%s", c.bot.rulesText(r))}, nil
}

func cmdAdminDefaults(ctx context.Context, c *call) (result, error) {
	b := c.bot
	if err := adminOnly(c); err != nil {
		return result{}, err
	}
	r, err := b.rulesOf(ctx, c.req.Server)
	if err != nil {
		return result{}, err
	}
	if r.Defaults == nil {
		r.Defaults = map[string]string{}
	}
	for _, o := range command.DefaultOptions() {
		if v, ok := c.req.Options[o.Name]; ok {
			r.Defaults[o.Name] = strings.TrimSpace(v)
		}
	}
	if _, err := b.serverDefaults(r); err != nil {
		return result{}, err
	}
	if v, ok := c.args.Str["bot-levels"]; ok {
		levels := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ',' || r == ' ' })
		for _, l := range levels {
			if !slices.Contains(b.cfg.Levels, l) {
				return result{}, chat.Refuse("There is no computer level %s (levels: %s).", chat.Quote(l), strings.Join(b.cfg.Levels, ", "))
			}
		}
		if len(levels) == 0 {
			return result{}, chat.Refuse("Name at least one computer level (levels: %s).", strings.Join(b.cfg.Levels, ", "))
		}
		r.Levels = levels
		if len(levels) == len(b.cfg.Levels) {
			r.Levels = nil
		}
	}
	if v, ok := c.args.Str["who-starts"]; ok {
		r.Starters = ""
		if v == "admins" {
			r.Starters = "admins"
		}
	}
	return b.storeRules(ctx, c, r)
}

func cmdAdminLimits(ctx context.Context, c *call) (result, error) {
	b := c.bot
	if err := adminOnly(c); err != nil {
		return result{}, err
	}
	r, err := b.rulesOf(ctx, c.req.Server)
	if err != nil {
		return result{}, err
	}
	for name, field := range map[string]*int{"per-host": &r.PerHost, "per-server": &r.PerServer, "lobby-days": &r.LobbyDays} {
		if v, ok := c.args.Num[name]; ok {
			*field = v
		}
	}
	return b.storeRules(ctx, c, r)
}

func cmdAdminReset(ctx context.Context, c *call) (result, error) {
	if err := adminOnly(c); err != nil {
		return result{}, err
	}
	return c.bot.storeRules(ctx, c, serverRules{})
}

// storeRules stores a server's rules and shows them.
func (b *Bot) storeRules(ctx context.Context, c *call, r serverRules) (result, error) {
	var raw json.RawMessage
	if !isZero(r) {
		var err error
		if raw, err = json.Marshal(r); err != nil {
			return result{}, fmt.Errorf("bot: encode the rules of %s: %w", c.req.Server, err)
		}
	}
	if err := b.cfg.Store.SetSetting(ctx, serverScope, c.req.Server, raw, b.cfg.Now()); err != nil {
		return result{}, err
	}
	return result{reply: chat.Private("Saved. %s", b.rulesText(r))}, nil
}

// isZero reports whether rules set nothing.
func isZero(r serverRules) bool {
	return len(r.Defaults) == 0 && len(r.Levels) == 0 && r.Starters == "" && r.PerHost == 0 && r.PerServer == 0 && r.LobbyDays == 0
}

// mayOpen refuses a new match that the server's rules do not allow: only
// admins open matches, or too many are open.
func (b *Bot) mayOpen(ctx context.Context, req chat.Request, r serverRules) error {
	if r.Starters == "admins" && !req.Admin {
		return chat.Refuse("On this server only admins open matches. Join one of theirs, or ask them.")
	}
	if r.PerHost == 0 && r.PerServer == 0 {
		return nil
	}
	open, err := b.cfg.Store.OpenMatches(ctx, b.cfg.Scope)
	if err != nil {
		return err
	}
	theirs, here := 0, 0
	for _, m := range open {
		meta, err := hosted.DecodeMeta(m.Meta)
		if err != nil || meta.Server != req.Server {
			continue
		}
		here++
		if meta.Host == req.User.ID {
			theirs++
		}
	}
	switch {
	case r.PerHost > 0 && theirs >= r.PerHost:
		return chat.Refuse("You host %s on this server already, the most it allows: finish or end one first (/risk abandon).", chat.Plural(theirs, "open match", "open matches"))
	case r.PerServer > 0 && here >= r.PerServer:
		return chat.Refuse("This server has %s, the most it allows: try again when one ends.", chat.Plural(here, "open match", "open matches"))
	}
	return nil
}

// levelAllowed refuses a computer level the server does not allow, and
// returns the level to use (the first allowed if the default is not).
func (b *Bot) levelAllowed(r serverRules, level string, chosen bool) (string, error) {
	if len(r.Levels) == 0 || slices.Contains(r.Levels, level) {
		return level, nil
	}
	if !chosen {
		return r.Levels[0], nil
	}
	return "", chat.Refuse("On this server, computer players are %s only.", chat.OrList(r.Levels))
}
