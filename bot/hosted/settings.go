package hosted

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Apply reads the match options of /risk new and settings into set:
// hasPalette reports whether a palette may be chosen.
func (set Settings) Apply(a command.Args, hasPalette func(name string) bool) (Settings, error) {
	if v, ok := a.Str["palette"]; ok {
		if !hasPalette(v) {
			return set, chat.RefuseMsg("hosted.settings.no-palette", "Palette", lang.Text(strconv.Quote(v)))
		}
		set.Palette = v
	}
	if v, ok := a.Str["language"]; ok {
		t, ok := lang.Parse(v)
		if !ok {
			return set, chat.RefuseMsg("hosted.settings.no-language", "Language", lang.Text(chat.Quote(v)))
		}
		set.Lang = string(t)
	}
	if v, ok := a.Str["rules"]; ok {
		rules, err := state.ParseRules(v)
		if err != nil {
			return set, chat.RefuseMsg("hosted.sentence", "Reason", err)
		}
		if rules != set.Options.Rules {
			// Each rule set has its own options: start from its defaults.
			o := state.DefaultOptions()
			if rules == state.Capitals {
				o = state.CapitalsOptions()
			}
			set.Options = o
		}
	}
	if v, ok := a.Str["map"]; ok && engine.IsLibraryName(v) {
		// A map of the server's library, its name resolved by the caller
		// (server.Library.Resolve), which loaded it.
		if set.Options.Rules != state.Classic {
			return set, chat.RefuseMsg("hosted.settings.library-capitals")
		}
		if _, err := engine.LoadMap(v); err != nil {
			return set, chat.RefuseMsg("hosted.settings.map-unplayable", "Reason", err)
		}
		set.Options.Map = v
	} else if ok {
		if z, islands := engine.IslandsSize(v); islands && set.Options.Rules == state.Capitals {
			v = z.String() // a capitals match is always on islands
		}
		switch {
		case set.Options.Rules == state.Capitals && v == "classic":
			return set, chat.RefuseMsg("hosted.settings.capitals-classic-map")
		case set.Options.Rules == state.Classic && slices.Contains(MapChoices(state.Capitals), v):
			return set, chat.RefuseMsg("hosted.settings.capitals-size", "Map", lang.Text(v))
		case !slices.Contains(MapChoices(set.Options.Rules), v):
			return set, chat.RefuseMsg("hosted.settings.no-map-for", "Map", lang.Text(chat.Quote(v)), "Rules", lang.Text(set.Options.Rules.String()), "Choices", orList(MapChoices(set.Options.Rules)))
		}
		if _, islands := engine.IslandsSize(v); set.Options.Rules == state.Classic && !islands {
			if _, err := engine.LoadMap(v); err != nil {
				return set, chat.RefuseMsg("hosted.settings.no-map", "Map", lang.Text(strconv.Quote(v)), "Maps", lang.Text(strings.Join(engine.MapNames(), ", ")))
			}
		}
		set.Options.Map = v
	}
	if err := capitalsOptions(&set, a); err != nil {
		return set, err
	}
	// The first option refused is the answer.
	if err := cmp.Or(
		parseOption(a, "victory", &set.Options.Victory, state.ParseVictory),
		parseOption(a, "cards", &set.Options.Cards, state.ParseCardMode),
		parseOption(a, "fortify", &set.Options.Fortify, state.ParseFortify),
		parseOption(a, "turns", &set.Options.Turns, state.ParseTurnMode),
	); err != nil {
		return set, err
	}
	if set.Options.Turns == state.Simultaneous && set.Options.Rules != state.Classic {
		return set, chat.RefuseMsg("hosted.settings.simultaneous-capitals")
	}
	if v, ok := a.Str["fog"]; ok {
		set.Options.Fog = v == "on"
	}
	if v, ok := a.Num["rounds"]; ok {
		set.Options.Rounds = v
	}
	if v, ok := a.Str["teams"]; ok {
		switch v {
		case "off":
			set.Options.Teams = 0
		case "2", "3":
			set.Options.Teams, _ = strconv.Atoi(v)
		default:
			return set, chat.RefuseMsg("hosted.settings.teams", "Value", lang.Text(chat.Quote(v)))
		}
	}
	if set.Options.Victory == state.Missions {
		if err := missionsPlayable(set.Options.Map); err != nil {
			return set, err
		}
	}
	if set.Options.Teams > 0 && set.Options.Victory == state.Missions {
		return set, chat.RefuseMsg("hosted.settings.missions-teams")
	}
	if v, ok := a.Num["turn-hours"]; ok {
		set.TurnHours = v
	}
	if v, ok := a.Str["on-timeout"]; ok {
		set.OnTimeout = v
	}
	return set, nil
}

// missionsPlayable refuses secret missions on a map without the classic
// continents, which the rule book's mission cards name (the engine would
// refuse the match at its start).
func missionsPlayable(name string) error {
	if !engine.IsLibraryName(name) {
		return nil // the built-in boards: the classic world has them
	}
	m, err := engine.LoadMap(name)
	if err != nil {
		return nil // the map's own check says what is wrong
	}
	var missing []string
	for _, c := range state.MissionContinentNames() {
		if !slices.ContainsFunc(m.Continents, func(mc state.Continent) bool { return strings.EqualFold(mc.Name, c) }) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return chat.RefuseMsg("hosted.settings.missions-continents", "Map", lang.Text(m.Title), "Missing", orList(missing))
	}
	return nil
}

// MapChoices are the values of the map option that a match of rule set
// rules takes: the built-in maps for classic, the sizes of generated
// islands for capitals.
func MapChoices(rules state.Rules) []string {
	var out []string
	for _, c := range command.Maps() {
		_, islands := engine.IslandsSize(c)
		builtin := slices.Contains(engine.MapNames(), c)
		if rules == state.Capitals && !builtin && !islands || rules == state.Classic && (builtin || islands) {
			out = append(out, c)
		}
	}
	return out
}

// orList lists choices as a sentence offers them: "small, normal or large".
func orList(choices []string) any {
	if len(choices) < 2 {
		return lang.Text(strings.Join(choices, ""))
	}
	return lang.M("hosted.or-list", "Head", lang.Text(strings.Join(choices[:len(choices)-1], ", ")), "Last", lang.Text(choices[len(choices)-1]))
}

// capitalsOptions reads the options of capitals matches; classic ones refuse
// them, saying why.
func capitalsOptions(set *Settings, a command.Args) error {
	o := &set.Options
	for _, name := range []string{"neutral", "capital-troops"} {
		if a.Has(name) && o.Rules != state.Capitals {
			return chat.RefuseMsg("hosted.settings.capitals-option", "Option", lang.Text(name))
		}
	}
	if o.Rules == state.Capitals {
		if a.Str["victory"] == "missions" {
			return chat.RefuseMsg("hosted.settings.missions-capitals")
		}
		for _, name := range []string{"victory", "cards", "fortify"} {
			if a.Has(name) {
				return chat.RefuseMsg("hosted.settings.classic-option", "Option", lang.Text(name))
			}
		}
	}
	if v, ok := a.Str["neutral"]; ok {
		lo, hi, err := parseRange(v)
		if err != nil || lo < 0 || hi > state.MaxNeutral || lo > hi {
			return chat.RefuseMsg("hosted.settings.neutral", "Max", state.MaxNeutral, "Value", lang.Text(chat.Quote(v)))
		}
		o.NeutralMin, o.NeutralMax = lo, hi
	}
	if v, ok := a.Num["capital-troops"]; ok {
		o.CapitalTroops = v
	}
	return nil
}

// parseOption sets *field to option name's value, if given, as parse
// reads it: a value parse refuses is refused with parse's reason.
func parseOption[T any](a command.Args, name string, field *T, parse func(string) (T, error)) error {
	v, ok := a.Str[name]
	if !ok {
		return nil
	}
	got, err := parse(v)
	if err != nil {
		return chat.RefuseMsg("hosted.sentence", "Reason", err)
	}
	*field = got
	return nil
}

// parseRange reads "1-5", "1 to 5" or "3".
func parseRange(v string) (lo, hi int, err error) {
	v = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(v)), " to ", "-")
	a, b, found := strings.Cut(v, "-")
	if lo, err = strconv.Atoi(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	if !found {
		return lo, lo, nil
	}
	hi, err = strconv.Atoi(strings.TrimSpace(b))
	return lo, hi, err
}
