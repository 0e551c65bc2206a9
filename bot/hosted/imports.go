package hosted

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// ImportError lists what makes an exported match unfit to host: each
// problem names the field and says what is wrong with it.
type ImportError struct {
	Problems []string
}

// Error lists the problems, one a line.
func (e *ImportError) Error() string {
	return "the match cannot be hosted:\n  " + strings.Join(e.Problems, "\n  ")
}

// CheckImport checks an exported match without storing it, for a bot
// offering these computer levels and palettes: the *ImportError lists
// every problem found.
func CheckImport(x *storage.Export, levels []string, hasPalette func(name string) bool) error {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(x.Channel) == "" || len(x.Channel) > 200 || strings.ContainsFunc(x.Channel, func(r rune) bool { return !command.Visible(r) || r == ' ' }) {
		add("channel: %q is not a channel", x.Channel)
	}
	var g *engine.Game
	started := len(x.Record.Setup.Seats) > 0 || len(x.Record.Log) > 0
	if started {
		var err error
		if g, err = engine.Replay(x.Record.Setup, x.Record.Log); err != nil {
			add("log: it does not replay: %v", err)
		} else if err := g.State.Check(); err != nil {
			add("log: the state it leads to is inconsistent: %v", err)
		}
	}
	switch x.Status {
	case storage.Lobby:
		if started {
			add("status: lobby, but the match has a setup or a log")
		}
	case storage.Active, storage.Finished:
		switch {
		case !started:
			add("status: %s, but the match has no setup", x.Status)
		case g == nil:
		case x.Status == storage.Finished && g.State.Phase != state.PhaseOver:
			add("status: finished, but nobody has won (turn %d, %s phase)", g.State.Turn, g.State.Phase)
		case x.Status == storage.Active && g.State.Phase == state.PhaseOver:
			add("status: active, but the match is won: it is finished")
		}
	case storage.Abandoned:
	default:
		add("status: %d is not a status (lobby, active, finished or abandoned)", int(x.Status))
	}
	var meta Meta
	if err := decodeStrictMeta(x.Meta, &meta); err != nil {
		add("meta: %v", err)
		return &ImportError{Problems: p}
	}
	p = append(p, checkMeta(meta, x.Status, g, levels, hasPalette)...)
	if len(p) > 0 {
		return &ImportError{Problems: p}
	}
	return nil
}

// decodeStrictMeta decodes meta that must be a JSON object of the bot's
// match data. Unknown fields (written by a newer version) are ignored;
// wrong types are not.
func decodeStrictMeta(raw json.RawMessage, m *Meta) error {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return errors.New("missing (the bot's data of the match: host, settings, seats)")
	}
	if !strings.HasPrefix(t, "{") {
		return fmt.Errorf("must be an object, not %s", jsonKind(t))
	}
	if err := json.Unmarshal(raw, m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s: must be %s, not %s", te.Field, jsonType(te.Type), te.Value)
		}
		return err
	}
	return nil
}

// jsonType names the JSON value a Go type is read from ("an array"): the
// error names what the file should hold, not the bot's types.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "a number"
}

// jsonKind names the kind of a JSON value by its first character.
func jsonKind(t string) string {
	switch t[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// checkMeta checks the bot's data of a match: its settings within what
// the commands allow, its seats those of the game (if it started), names
// fit to show, computer levels the bot offers, and history lines without
// markup.
func checkMeta(m Meta, status storage.Status, g *engine.Game, levels []string, hasPalette func(string) bool) []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(m.Host) == "" {
		add("meta.host: missing")
	}
	set := m.Settings
	hours := command.OptionRange("turn-hours")
	if set.TurnHours < hours.Min || set.TurnHours > hours.Max {
		add("meta.settings.turn_hours: %d, want %d to %d", set.TurnHours, hours.Min, hours.Max)
	}
	if set.OnTimeout != "bot" && set.OnTimeout != "skip" {
		add("meta.settings.on_timeout: %q, want bot or skip", set.OnTimeout)
	}
	if set.Palette != "" && !hasPalette(set.Palette) {
		add("meta.settings.palette: %q is not a palette of this bot", set.Palette)
	}
	switch o := set.Options; o.Rules {
	case state.Classic:
		if _, err := engine.LoadMap(o.Map); err != nil {
			add("meta.settings.options.map: %q is not a map of this bot", o.Map)
		}
	case state.Capitals:
		if !slices.Contains(command.OptionRange("map").Choices, o.Map) || o.Map == "classic" {
			add("meta.settings.options.map: %q is not a size of generated map (small, normal or large)", o.Map)
		}
		if o.NeutralMin < 0 || o.NeutralMax > state.MaxNeutral || o.NeutralMin > o.NeutralMax {
			add("meta.settings.options: neutral troops %d to %d, want a range within 0 to %d", o.NeutralMin, o.NeutralMax, state.MaxNeutral)
		}
		if o.CapitalTroops < 1 || o.CapitalTroops > state.MaxCapitalTroops {
			add("meta.settings.options.capital_troops: %d, want 1 to %d", o.CapitalTroops, state.MaxCapitalTroops)
		}
	default:
		add("meta.settings.options.rules: %s is not a rule set of this bot", o.Rules)
	}
	if g != nil && set.Options != g.Setup.Options {
		add("meta.settings.options: %+v, but the match is played with %+v", set.Options, g.Setup.Options)
	}
	if len(m.Seats) > state.MaxSeats {
		add("meta.seats: %d seats, at most %d", len(m.Seats), state.MaxSeats)
	}
	if len(m.Seats) == 0 && status.Open() {
		add("meta.seats: an open match needs a seat")
	}
	ids, names := map[string]bool{}, map[string]bool{}
	bots := 0
	for i, s := range m.Seats {
		where := fmt.Sprintf("meta.seats[%d]", i)
		switch {
		case strings.TrimSpace(s.ID) == "":
			add("%s.id: missing", where)
		case ids[s.ID]:
			add("%s.id: %q is seated twice", where, s.ID)
		}
		ids[s.ID] = true
		if s.Name != command.CleanName(s.Name) {
			add("%s.name: %q is not fit to show (it would be %q)", where, s.Name, command.CleanName(s.Name))
		}
		if names[strings.ToLower(s.Name)] {
			add("%s.name: %q is taken by another seat", where, s.Name)
		}
		names[strings.ToLower(s.Name)] = true
		isBotID := strings.HasPrefix(s.ID, "bot:")
		switch {
		case s.Level == "" && isBotID:
			add("%s: %s is a computer's seat without a level", where, s.ID)
		case s.Level != "" && !isBotID:
			add("%s: %s is a person's seat, yet has the level %q", where, s.ID, s.Level)
		case s.Level != "" && !slices.Contains(levels, s.Level):
			add("%s.level: %q is not one of %s", where, s.Level, strings.Join(levels, ", "))
		}
		var n int
		if isBotID {
			if _, err := fmt.Sscanf(s.ID, "bot:%d", &n); err != nil || fmt.Sprintf("bot:%d", n) != s.ID || n < 1 {
				add("%s.id: %q, want bot:N", where, s.ID)
			}
			bots = max(bots, n)
		}
		if s.Missed < 0 || s.Missed > 1000 {
			add("%s.missed: %d", where, s.Missed)
		}
		if s.Autopilot && s.Level != "" {
			add("%s.autopilot: a computer's seat is not on autopilot", where)
		}
	}
	if m.Bots < bots {
		add("meta.bots: %d, but bot:%d is seated (new computers would take its id)", m.Bots, bots)
	}
	if g != nil {
		gs := g.Setup.Seats
		if len(gs) != len(m.Seats) {
			add("meta.seats: %d seats, but the game has %d", len(m.Seats), len(gs))
		}
		for _, s := range gs {
			if i := m.Index(s.ID); i < 0 {
				add("meta.seats: the game's seat %s (%q) is missing", s.ID, s.Name)
			} else if m.Seats[i].Name != s.Name {
				add("meta.seats: %s is %q, but %q in the game", s.ID, m.Seats[i].Name, s.Name)
			}
		}
	}
	lines := m.Turn
	sum := 0
	for _, n := range m.Steps {
		if n < 0 {
			add("meta.steps: %d lines in a step", n)
		}
		sum += n
	}
	if sum > len(m.Turn) {
		add("meta.steps: %d lines in steps, but the turn has %d", sum, len(m.Turn))
	}
	for _, e := range m.Stats.Eliminated {
		if g != nil && (e < 0 || e >= len(g.Setup.Seats)) {
			add("meta.stats: seat %d eliminated, which the game does not have", e)
		}
	}
	for _, l := range lines {
		if bad := markupOf(l); bad != "" || len(l) > chat.MaxText {
			add("meta: the history line %q carries %s", chat.Quote(l), cmp.Or(bad, "too many characters"))
		}
	}
	return p
}

// markupOf names the mention markup a stored line carries ("" if none):
// the bot writes none in history lines, so any there was put in by hand,
// to ping or to pass for the bot.
func markupOf(s string) string {
	for _, bad := range []string{"{{", "}}", "<@", "<#", "@everyone", "@here"} {
		if strings.Contains(s, bad) {
			return bad
		}
	}
	return ""
}
