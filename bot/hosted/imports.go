package hosted

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

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

// Importing is what a bot takes in: the computer levels and palettes it
// offers, and whether it hosts a match whose dice it cannot check.
type Importing struct {
	Levels     []string
	HasPalette func(name string) bool
	// Unverified hosts a match whose random outcomes do not follow from
	// its seed (risk import --unverified), marked so (Meta.Unverified): it
	// never claims fair dice.
	Unverified bool
	// Now is the time of the import: the mark of an imported match
	// (Meta.Imported), and the latest time its data may name (none if
	// zero).
	Now time.Time
}

// Admitted is an export as the bot stores it, once CheckImport passed it.
type Admitted struct {
	// Export is the export with its meta as the bot read it: the fields it
	// does not know dropped, and marked imported (and unverified) if it
	// started.
	Export *storage.Export
	// Dice is the check of its random outcomes against its seed: nil for a
	// match that never started.
	Dice *engine.Verdict
}

// CheckImport checks an exported match without storing it and returns it
// as the bot will store it: the *ImportError lists every problem found. A
// match that started must follow from its seed (CheckDice) unless in
// admits it unverified.
func CheckImport(x *storage.Export, in Importing) (*Admitted, error) {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(x.Channel) == "" || len(x.Channel) > 200 || strings.ContainsFunc(x.Channel, func(r rune) bool { return !command.Visible(r) || r == ' ' }) {
		add("channel: %q is not a channel", x.Channel)
	}
	var g *engine.Game
	started := len(x.Record.Setup.Seats) > 0 || len(x.Record.Log) > 0
	if started {
		var err error
		if x.Record.Sealed {
			// It replays from its recorded outcomes, but its generator
			// would be seed 0's: every die to come known to everyone.
			add("seed: the export withholds it (a player's export of a live match): importing needs the host's full export (risk export --full)")
		}
		if g, err = engine.Replay(x.Record.Setup, x.Record.Log); err != nil {
			add("log: it does not replay: %v", err)
		} else if err := g.State.Check(); err != nil {
			add("log: the state it leads to is inconsistent: %v", err)
		}
	}
	var dice *engine.Verdict
	var unfair []string
	if g != nil && !x.Record.Sealed {
		var err error
		if dice, unfair, err = CheckDice(x.Record); err != nil {
			add("seed: %v", err)
		} else if len(unfair) > 0 && !in.Unverified {
			p = append(p, unfair...)
			add("dice: the match's random outcomes do not follow from its seed, so whoever wrote the file could have chosen them " +
				"(risk import --unverified hosts it all the same, marked so: it never claims fair dice)")
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
		return nil, &ImportError{Problems: p}
	}
	p = append(p, checkMeta(meta, x.Status, g, in)...)
	if len(p) > 0 {
		return nil, &ImportError{Problems: p}
	}
	if started {
		// Whoever exported and imported it held its seed: its victory
		// says its dice prove fair only as far as they are trusted.
		if meta.Imported.IsZero() {
			meta.Imported = in.Now
		}
		if len(unfair) > 0 && meta.Unverified == "" {
			meta.Unverified = clipLine(unfair[0])
		}
	}
	y := *x
	y.Meta = meta.Encode()
	return &Admitted{Export: &y, Dice: dice}, nil
}

// CheckDice checks that a started match's random outcomes follow from its
// seed (engine.Verify): that the seed hashes to the record's commitment,
// and that the turn order, the deal and every value its log recorded
// (dice, luck factors, card and item draws, random placements) are those
// the seed gives. It returns the verdict and, a line each, what does not
// follow (nothing if the match verifies), naming the first value that
// differs. A record without a commitment is checked against its seed's, as
// its JSON would carry it: a commitment that comes with the seed proves
// only that the two agree, whoever wrote them. The error is for a record
// that withholds its seed (engine.ErrSealed).
func CheckDice(rec engine.Record) (*engine.Verdict, []string, error) {
	if rec.Commitment == "" && !rec.Sealed {
		rec.Commitment = engine.Commitment(rec.Setup.Seed)
	}
	v, err := engine.Verify(rec, "")
	if err != nil {
		return nil, nil, err
	}
	var p []string
	if !v.CommitmentOK {
		p = append(p, fmt.Sprintf("commitment: the seed %d hashes to %s, not to the record's commitment %s", v.Seed, engine.Commitment(v.Seed), v.Commitment))
	}
	if v.Deal != "" {
		p = append(p, "deal: "+v.Deal)
	}
	if v.DiffCount > 0 {
		d := v.Diffs[0]
		p = append(p, fmt.Sprintf("log: command %d (seat %d, %s), value %d: recorded %d, the seed gives %d (%d of the log's %d random values differ from the seed's)",
			d.Entry, d.Seat, d.Command, d.Index+1, d.Recorded, d.Drawn, v.DiffCount, v.Values))
	}
	if v.Replay != nil {
		p = append(p, fmt.Sprintf("log: the seed's replay stops after %d commands: %v", v.Commands, v.Replay))
	}
	return v, p, nil
}

// MarkUnverified returns the bot's data of a match marked as unverified
// for why, unless it is already (risk migrate --unverified): the match
// then never claims fair dice.
func MarkUnverified(meta json.RawMessage, why string) (json.RawMessage, error) {
	m, err := DecodeMeta(meta)
	if err != nil {
		return nil, err
	}
	if m.Unverified == "" {
		m.Unverified = clipLine(why)
	}
	return m.Encode(), nil
}

// maxLine bounds a line of the bot's own that its data keeps (why a match
// is unverified).
const maxLine = 300

// clipLine keeps a line within maxLine bytes, cutting at a character.
func clipLine(s string) string {
	if len(s) <= maxLine {
		return s
	}
	return strings.ToValidUTF8(s[:maxLine-len("…")], "") + "…"
}

// decodeStrictMeta decodes meta that must be a JSON object of the bot's
// match data. Wrong types are refused; unknown fields (written by a newer
// version, or by hand) are not, but nor are they kept: CheckImport stores
// the meta it decoded, encoded again.
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
func checkMeta(m Meta, status storage.Status, g *engine.Game, in Importing) []string {
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
	if set.Palette != "" && !in.HasPalette(set.Palette) {
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
		case s.Level != "" && !slices.Contains(in.Levels, s.Level):
			add("%s.level: %q is not one of %s", where, s.Level, strings.Join(in.Levels, ", "))
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
	switch u := m.Unverified; {
	case len(u) > maxLine:
		add("meta.unverified: %d bytes, at most %d", len(u), maxLine)
	case markupOf(u) != "":
		add("meta.unverified: %s carries %s", chat.Quote(u), markupOf(u))
	}
	if g == nil && (m.Unverified != "" || !m.Imported.IsZero()) {
		add("meta: a match that never started is marked imported or unverified: it has no dice yet")
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
