// Package server keeps what concerns a whole chat server rather than one
// match: the defaults and limits its admins set for its matches (/risk
// admin), and its leaderboard and players' records (/risk me stats), fed by
// the results of the matches won.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A server's admins set defaults for its new matches and limits on them
// (/risk-admin ...), kept as a setting of scope "server": the options of
// /risk new that apply unless the host chooses otherwise, the computer
// levels allowed, who may open matches, how many may be open at once (per
// host, and in the server), and how long a lobby may wait.

// serverScope is the settings scope of a server's rules.
const serverScope = "server"

// Rules are a server's defaults and limits.
type Rules struct {
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

// Rules returns a server's rules (none outside a server).
func (sv *Servers) Rules(ctx context.Context, server string) (Rules, error) {
	var r Rules
	if server == "" {
		return r, nil
	}
	raw, err := sv.cfg.Store.Setting(ctx, serverScope, server)
	if errors.Is(err, storage.ErrNotFound) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return Rules{}, fmt.Errorf("bot: the rules of server %s: %w", server, err)
	}
	return r, nil
}

// adminOnly refuses anyone but a server's admins.
func adminOnly(req chat.Request) error {
	if req.Server == "" {
		return chat.RefuseMsg("server.no-server")
	}
	if !req.Admin {
		return chat.RefuseMsg("server.admins-only")
	}
	return nil
}

// rulesText describes a server's rules in p's language.
func (sv *Servers) rulesText(p lang.Printer, r Rules) string {
	set, err := sv.Defaults(r)
	lines := []string{p.T("server.rules.defaults", "Settings", lang.Text(voice.Speaking(p.Tag()).Status().Settings(set)))}
	if err != nil {
		lines = append(lines, p.T("server.rules.stale", "Reason", err))
	}
	levels := sv.cfg.Levels
	if len(r.Levels) > 0 {
		levels = r.Levels
	}
	lines = append(lines, p.T("server.rules.levels", "Levels", lang.Text(strings.Join(levels, ", "))))
	who := lang.M("server.rules.everyone")
	if r.Starters == "admins" {
		who = lang.M("server.rules.admins")
	}
	lines = append(lines, p.T("server.rules.who", "Who", who))
	limit := func(n int) any {
		if n == 0 {
			return lang.M("server.rules.no-limit")
		}
		return n
	}
	lines = append(lines, p.T("server.rules.limits", "PerHost", limit(r.PerHost), "PerServer", limit(r.PerServer)))
	ttl := sv.LobbyTTL(r)
	if ttl < 0 {
		lines = append(lines, p.T("server.rules.no-ttl"))
	} else {
		lines = append(lines, p.T("server.rules.ttl", "Duration", DurationMsg(ttl)))
	}
	return strings.Join(lines, "\n")
}

// DurationMsg words a long duration in days, or hours if shorter.
func DurationMsg(d time.Duration) lang.Msg {
	if days := int(d.Hours()/24 + 0.5); days >= 1 {
		return lang.M("server.n.days", "Count", days)
	}
	return lang.M("server.n.hours", "Count", int(d.Hours()+0.5))
}

// DurationText writes a long duration in days, or hours if shorter, in
// English.
func DurationText(d time.Duration) string {
	if days := int(d.Hours()/24 + 0.5); days >= 1 {
		return chat.Plural(days, "day", "days")
	}
	return chat.Plural(int(d.Hours()+0.5), "hour", "hours")
}

// LobbyTTL is how long a lobby of a server with these rules may wait;
// negative is for ever.
func (sv *Servers) LobbyTTL(r Rules) time.Duration {
	if r.LobbyDays > 0 {
		return time.Duration(r.LobbyDays) * 24 * time.Hour
	}
	return sv.cfg.LobbyTTL
}

// Defaults are the settings of a new match on a server with these
// rules, before the host's own choices.
func (sv *Servers) Defaults(r Rules) (hosted.Settings, error) {
	set := hosted.DefaultSettings()
	if len(r.Defaults) == 0 {
		return set, nil
	}
	a, err := command.Parse(command.Spec{Group: command.AdminGroup, Name: "defaults", Options: command.DefaultOptions()}, r.Defaults)
	if err != nil {
		return set, err
	}
	return set.Apply(a, sv.cfg.HasPalette)
}

// AdminShow answers /risk-admin show: the server's defaults and limits.
func (sv *Servers) AdminShow(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if req.Server == "" {
		return chat.Message{}, chat.RefuseMsg("server.no-server")
	}
	r, err := sv.Rules(ctx, req.Server)
	if err != nil {
		return chat.Message{}, err
	}
	return chat.Private("%s", sv.rulesText(readerOf(req), r)), nil
}

// AdminDefaults answers /risk-admin defaults: it sets defaults of the
// server's new matches, the computer levels allowed, and who may open
// matches.
func (sv *Servers) AdminDefaults(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	return sv.editRules(ctx, req, func(r *Rules) error {
		if r.Defaults == nil {
			r.Defaults = map[string]string{}
		}
		for _, o := range command.DefaultOptions() {
			if v, ok := req.Options[o.Name]; ok {
				r.Defaults[o.Name] = strings.TrimSpace(v)
			}
		}
		if _, err := sv.Defaults(*r); err != nil {
			return err
		}
		if v, ok := a.Str["bot-levels"]; ok {
			levels := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ',' || r == ' ' })
			for _, l := range levels {
				if !slices.Contains(sv.cfg.Levels, l) {
					return chat.RefuseMsg("server.no-level", "Level", lang.Text(chat.Quote(l)), "Levels", lang.Text(strings.Join(sv.cfg.Levels, ", ")))
				}
			}
			if len(levels) == 0 {
				return chat.RefuseMsg("server.name-a-level", "Levels", lang.Text(strings.Join(sv.cfg.Levels, ", ")))
			}
			r.Levels = levels
			if len(levels) == len(sv.cfg.Levels) {
				r.Levels = nil
			}
		}
		if v, ok := a.Str["who-starts"]; ok {
			r.Starters = ""
			if v == "admins" {
				r.Starters = "admins"
			}
		}
		return nil
	})
}

// AdminLimits answers /risk-admin limits: the open matches a host and the
// server may have, and how long a lobby may wait.
func (sv *Servers) AdminLimits(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	return sv.editRules(ctx, req, func(r *Rules) error {
		for name, field := range map[string]*int{"per-host": &r.PerHost, "per-server": &r.PerServer, "lobby-days": &r.LobbyDays} {
			if v, ok := a.Num[name]; ok {
				*field = v
			}
		}
		return nil
	})
}

// editRules answers an admin's change to the server's rules: edit changes
// them as they stand, and they are stored and shown, unless edit refuses.
func (sv *Servers) editRules(ctx context.Context, req chat.Request, edit func(r *Rules) error) (chat.Message, error) {
	if err := adminOnly(req); err != nil {
		return chat.Message{}, err
	}
	r, err := sv.Rules(ctx, req.Server)
	if err != nil {
		return chat.Message{}, err
	}
	if err := edit(&r); err != nil {
		return chat.Message{}, err
	}
	return sv.storeRules(ctx, req, r)
}

// AdminReset answers /risk-admin reset: the server's defaults and limits
// are forgotten.
func (sv *Servers) AdminReset(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	if err := adminOnly(req); err != nil {
		return chat.Message{}, err
	}
	return sv.storeRules(ctx, req, Rules{})
}

// storeRules stores a server's rules and shows them.
func (sv *Servers) storeRules(ctx context.Context, req chat.Request, r Rules) (chat.Message, error) {
	var raw json.RawMessage
	if !isZero(r) {
		var err error
		if raw, err = json.Marshal(r); err != nil {
			return chat.Message{}, fmt.Errorf("bot: encode the rules of %s: %w", req.Server, err)
		}
	}
	if err := sv.cfg.Store.SetSetting(ctx, serverScope, req.Server, raw, sv.cfg.Now()); err != nil {
		return chat.Message{}, err
	}
	return chat.Private("%s", readerOf(req).T("server.saved", "Rules", lang.Text(sv.rulesText(readerOf(req), r)))), nil
}

// isZero reports whether rules set nothing.
func isZero(r Rules) bool {
	return len(r.Defaults) == 0 && len(r.Levels) == 0 && r.Starters == "" && r.PerHost == 0 && r.PerServer == 0 && r.LobbyDays == 0
}

// MayOpen refuses a new match that the server's rules do not allow: only
// admins open matches, or too many are open.
func (sv *Servers) MayOpen(ctx context.Context, req chat.Request, r Rules) error {
	if r.Starters == "admins" && !req.Admin {
		return chat.RefuseMsg("server.admins-open")
	}
	if r.PerHost == 0 && r.PerServer == 0 {
		return nil
	}
	open, err := sv.cfg.Store.OpenMatches(ctx, sv.cfg.Scope)
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
		return chat.RefuseMsg("server.per-host", "Open", lang.M("server.n.open-matches", "Count", theirs))
	case r.PerServer > 0 && here >= r.PerServer:
		return chat.RefuseMsg("server.per-server", "Open", lang.M("server.n.open-matches", "Count", here))
	}
	return nil
}

// LevelAllowed refuses a computer level the server does not allow, and
// returns the level to use (the first allowed if the default is not).
func (sv *Servers) LevelAllowed(r Rules, level string, chosen bool) (string, error) {
	if len(r.Levels) == 0 || slices.Contains(r.Levels, level) {
		return level, nil
	}
	if !chosen {
		return r.Levels[0], nil
	}
	return "", chat.RefuseMsg("server.levels-only", "Levels", orList(r.Levels))
}

// Store is what the servers' concerns need of the database.
type Store interface {
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	Export(ctx context.Context, id int64) (*storage.Export, error)
	RecordResult(ctx context.Context, r storage.Result) error
	Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error)
	PlayerStats(ctx context.Context, server, player string) ([]storage.Standing, error)
	Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error)
	LibraryStore
}

// Config is what Servers are made of.
type Config struct {
	Store   Store
	Matches *hosted.Matches
	// HasPalette reports whether a palette may be chosen.
	HasPalette func(name string) bool
	// Levels are the computer levels the bot offers.
	Levels []string
	// Preview draws a library map unowned, with its names (look.Maps.Preview);
	// nil shows none.
	Preview func(m *state.Map, t lang.Tag) *chat.Image
	// LobbyTTL is how long a lobby may wait, unless a server says
	// otherwise; negative is for ever.
	LobbyTTL time.Duration
	// Scope is the channels this process looks after.
	Scope string
	Now   func() time.Time
	Log   *slog.Logger
}

// Servers keeps the rules and the records of the chat servers.
type Servers struct {
	cfg Config
	lib *Library
}

// New returns Servers.
func New(c Config) *Servers {
	return &Servers{cfg: c, lib: &Library{Store: c.Store, Prefix: c.Scope, Now: c.Now}}
}

// Library is the servers' libraries of maps.
func (sv *Servers) Library() *Library { return sv.lib }

// orList offers choices as a sentence does: "easy, normal or hard".
func orList(choices []string) any {
	if len(choices) < 2 {
		return lang.Text(strings.Join(choices, ""))
	}
	return lang.M("hosted.or-list", "Head", lang.Text(strings.Join(choices[:len(choices)-1], ", ")), "Last", lang.Text(choices[len(choices)-1]))
}

// readerOf is the printer of the private answer to req: its author's
// language.
func readerOf(req chat.Request) lang.Printer { return lang.For(lang.FromLocale(req.Locale)) }

// publicOf is the printer of an answer to req shown in its channel: the
// server's language, else its author's.
func publicOf(req chat.Request) lang.Printer {
	return lang.For(lang.First(req.GuildLocale, req.Locale))
}
