package imports

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Error lists what makes an exported match unfit to host: each
// problem names the field and says what is wrong with it.
type Error struct {
	Problems []string
}

// Error lists the problems, one a line.
func (e *Error) Error() string {
	return "the match cannot be hosted:\n  " + strings.Join(e.Problems, "\n  ")
}

// MaxMeta bounds the bot's data of an imported match (Export.Meta), in
// bytes. Six long matches of six computer players (classic, and capitals
// on large maps: up to 461 turns) wrote at most 1,097 bytes; most of it is
// the turn in progress, which a person's long turn makes longer. 256 KiB is
// some 2,500 history lines of a turn, and keeps an import (and every export
// of it) from carrying megabytes that nothing reads.
const MaxMeta = 256 << 10

// Options is what a bot takes in: the computer levels and palettes it
// offers, and whether it hosts a match whose dice it cannot check.
type Options struct {
	Levels     []string
	HasPalette func(name string) bool
	// Unverified hosts a match whose random outcomes do not follow from
	// its seed (risk import --unverified), marked so (Meta.Unverified): it
	// never claims fair dice.
	Unverified bool
	// Commitment is the commitment published when the match started,
	// if the importer has it (risk import --commitment): the dice are
	// checked against it rather than against the file's (CheckDice).
	Commitment string
	// Now is the time of the import: the mark of an imported match
	// (Meta.Imported), and the latest time its data may name (none if
	// zero).
	Now time.Time
}

// Admitted is an export as the bot stores it, once Check passed it.
type Admitted struct {
	// Export is the export with its meta as the bot read it: the fields it
	// does not know dropped, and marked imported (and unverified) if it
	// started.
	Export *storage.Export
	// Dice is the check of its random outcomes against its seed: nil for a
	// match that never started.
	Dice *engine.Verdict
}

// Check checks an exported match without storing it and returns it
// as the bot will store it: the *Error lists every problem found. A
// match that started must follow from its seed (CheckDice) unless in
// admits it unverified.
func Check(x *storage.Export, in Options) (*Admitted, error) {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(x.Channel) == "" || len(x.Channel) > maxID || strings.ContainsFunc(x.Channel, func(r rune) bool { return !state.Visible(r) || r == ' ' }) {
		add("channel: %s is not a channel", chat.Quote(x.Channel))
	}
	if len(x.Meta) > MaxMeta {
		// Refused before it is decoded: reading megabytes to find what
		// else is wrong with them is the cost the bound is there to avoid.
		add("meta: %d bytes, more than the %d the bot's data of a match may take", len(x.Meta), MaxMeta)
		return nil, &Error{Problems: p}
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
		if dice, unfair, err = CheckDice(x.Record, in.Commitment); err != nil {
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
	var meta hosted.Meta
	if err := decodeStrictMeta(x.Meta, &meta); err != nil {
		add("meta: %v", err)
		return nil, &Error{Problems: p}
	}
	p = append(p, checkMeta(meta, x.Status, g, in)...)
	if len(p) > 0 {
		return nil, &Error{Problems: p}
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

// CheckDice is the rule by which a started match's random outcomes follow
// from its seed, the one risk verify and risk import apply
// (engine.Verify): the seed hashes to the commitment published when the
// match started (published, or else the record's own, which proves less:
// whoever edits the seed can edit it too), and the turn order, the deal
// and every value its log recorded (dice, luck factors, card and item
// draws, random placements) are those the seed gives. It returns the
// verdict and, a line each, what does not follow (nothing if and only if
// the verdict is OK), naming the first value that differs. A record with
// no commitment, and none published, does not follow: nothing shows its
// seed was chosen before its dice. The error is for a record that
// withholds its seed (engine.ErrSealed), or a published commitment that
// is not one.
func CheckDice(rec engine.Record, published string) (*engine.Verdict, []string, error) {
	v, err := engine.Verify(rec, published)
	if err != nil {
		return nil, nil, err
	}
	var p []string
	switch {
	case v.Commitment == "":
		p = append(p, fmt.Sprintf("commitment: none, in the record or given, so nothing shows the seed %d was chosen before the dice it gives "+
			"(it hashes to %s: compare it with the commitment posted when the match started)", v.Seed, engine.Commitment(v.Seed)))
	case !v.CommitmentOK:
		from := "the record's"
		if v.Published {
			from = "the published"
		}
		p = append(p, fmt.Sprintf("commitment: the seed %d hashes to %s, not to %s commitment %s", v.Seed, engine.Commitment(v.Seed), from, v.Commitment))
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
	if (len(p) == 0) != v.OK() {
		// The rule is the verdict's: a check added to one and not the
		// other would make verify and import disagree again.
		return nil, nil, fmt.Errorf("hosted: the dice's check and the verdict disagree (verdict OK: %v; problems: %q)", v.OK(), p)
	}
	return v, p, nil
}

// MarkUnverified returns the bot's data of a match marked as unverified
// for why, unless it is already (risk migrate --unverified): the match
// then never claims fair dice.
func MarkUnverified(meta json.RawMessage, why string) (json.RawMessage, error) {
	m, err := hosted.DecodeMeta(meta)
	if err != nil {
		return nil, err
	}
	if m.Unverified == "" {
		m.Unverified = clipLine(why)
	}
	return m.Encode(), nil
}

// maxID bounds an identifier of the chat (a channel, a user, a server),
// and maxLine a line of the bot's own that its data keeps (how a match
// ended, why it is unverified).
const (
	maxID   = 200
	maxLine = 300
)

// clipLine keeps a line within maxLine bytes, cutting at a character.
func clipLine(s string) string {
	if len(s) <= maxLine {
		return s
	}
	return strings.ToValidUTF8(s[:maxLine-len("…")], "") + "…"
}

// decodeStrictMeta decodes meta that must be a JSON object of the bot's
// match data. Wrong types are refused; unknown fields (written by a newer
// version, or by hand) are not, but nor are they kept: Check stores
// the meta it decoded, encoded again.
func decodeStrictMeta(raw json.RawMessage, m *hosted.Meta) error {
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

// checkMeta checks the bot's data of a match, field by field: its
// identifiers those of the chat, its settings within what the commands
// allow, its seats those of the game (if it started), names fit to show,
// computer levels the bot offers, lines without markup, numbers and times
// in range. Its lists need no count of their own beyond what the game
// allows: MaxMeta bounds them all.
func checkMeta(m hosted.Meta, status storage.Status, g *engine.Game, in Options) []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	id := func(field, s string, required bool) {
		switch {
		case s == "" && !required:
		case strings.TrimSpace(s) == "":
			add("%s: missing", field)
		case len(s) > maxID || strings.ContainsFunc(s, func(r rune) bool { return !state.Visible(r) || r == ' ' }):
			add("%s: %s is not an identifier of the chat", field, chat.Quote(s))
		}
	}
	line := func(field, s string) {
		switch {
		case len(s) > maxLine:
			add("%s: %d bytes, at most %d", field, len(s), maxLine)
		case markupOf(s) != "":
			add("%s: %s carries %s", field, chat.Quote(s), markupOf(s))
		case strings.ContainsFunc(s, unicode.IsControl):
			add("%s: %s carries a control character", field, chat.Quote(s))
		}
	}
	when := func(field string, t time.Time) {
		if t.IsZero() {
			return
		}
		if t.Unix() < earliest || !in.Now.IsZero() && t.After(in.Now.Add(24*time.Hour)) {
			add("%s: %s is not a time the match could have known", field, t.Format(time.RFC3339))
		}
	}
	id("meta.host", m.Host, true)
	id("meta.server", m.Server, false)
	id("meta.parent", m.Parent, false)
	set := m.Settings
	hours := command.OptionRange("turn-hours")
	if set.TurnHours < hours.Min || set.TurnHours > hours.Max {
		add("meta.settings.turn_hours: %d, want %d to %d", set.TurnHours, hours.Min, hours.Max)
	}
	if set.OnTimeout != "bot" && set.OnTimeout != "skip" {
		add("meta.settings.on_timeout: %s, want bot or skip", chat.Quote(set.OnTimeout))
	}
	if set.Palette != "" && !in.HasPalette(set.Palette) {
		add("meta.settings.palette: %s is not a palette of this bot", chat.Quote(set.Palette))
	}
	switch o := set.Options; o.Rules {
	case state.Classic:
		if _, islands := engine.IslandsSize(o.Map); islands {
			break // generated from the seed when the match starts
		}
		if _, err := engine.LoadMap(o.Map); err != nil {
			add("meta.settings.options.map: %s is not a map of this bot", chat.Quote(o.Map))
		}
	case state.Capitals:
		if !slices.Contains(command.Maps(), o.Map) || o.Map == "classic" {
			add("meta.settings.options.map: %s is not a size of generated map (small, normal or large)", chat.Quote(o.Map))
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
		id(where+".id", s.ID, true)
		if ids[s.ID] {
			add("%s.id: %s is seated twice", where, chat.Quote(s.ID))
		}
		ids[s.ID] = true
		if s.Name != command.CleanName(s.Name) {
			add("%s.name: %s is not fit to show (it would be %s)", where, chat.Quote(s.Name), chat.Quote(command.CleanName(s.Name)))
		}
		if names[strings.ToLower(s.Name)] {
			add("%s.name: %s is taken by another seat", where, chat.Quote(s.Name))
		}
		names[strings.ToLower(s.Name)] = true
		isBotID := strings.HasPrefix(s.ID, "bot:")
		switch {
		case s.Level == "" && isBotID:
			add("%s: %s is a computer's seat without a level", where, chat.Quote(s.ID))
		case s.Level != "" && !isBotID:
			add("%s: %s is a person's seat, yet has the level %s", where, chat.Quote(s.ID), chat.Quote(s.Level))
		case s.Level != "" && !slices.Contains(in.Levels, s.Level):
			add("%s.level: %s is not one of %s", where, chat.Quote(s.Level), strings.Join(in.Levels, ", "))
		}
		var n int
		if isBotID {
			if _, err := fmt.Sscanf(s.ID, "bot:%d", &n); err != nil || fmt.Sprintf("bot:%d", n) != s.ID || n < 1 {
				add("%s.id: %s, want bot:N", where, chat.Quote(s.ID))
			}
			bots = max(bots, n)
		}
		if s.Missed < 0 || s.Missed > 1000 {
			add("%s.missed: %d", where, s.Missed)
		}
		if s.Autopilot && s.Level != "" {
			add("%s.autopilot: a computer's seat is not on autopilot", where)
		}
		// Held names territories of the map: a match that never started
		// has none yet.
		territories := 0
		if g != nil {
			territories = len(g.State.Terr)
		}
		held := map[int]bool{}
		for _, t := range s.Held {
			if t < 0 || t >= territories || held[t] {
				add("%s.held: territory %d, of a map of %d (each once)", where, t, territories)
				break
			}
			held[t] = true
		}
	}
	switch {
	case m.Bots < bots:
		add("meta.bots: %d, but bot:%d is seated (new computers would take its id)", m.Bots, bots)
	case m.Bots > maxBots:
		add("meta.bots: %d, at most %d", m.Bots, maxBots)
	}
	if g != nil {
		gs := g.Setup.Seats
		if len(gs) != len(m.Seats) {
			add("meta.seats: %d seats, but the game has %d", len(m.Seats), len(gs))
		}
		for _, s := range gs {
			if i := m.Index(s.ID); i < 0 {
				add("meta.seats: the game's seat %s (%s) is missing", chat.Trunc(s.ID, 41), chat.Quote(s.Name))
			} else if m.Seats[i].Name != s.Name {
				add("meta.seats: %s is %s, but %s in the game", chat.Trunc(s.ID, 41), chat.Quote(m.Seats[i].Name), chat.Quote(s.Name))
			}
		}
	}
	sum := 0
	for _, n := range m.Steps {
		if n < 0 {
			add("meta.steps: %d lines in a step", n)
		}
		sum += n
	}
	if sum > len(m.Turn) || len(m.Steps) > len(m.Turn) {
		add("meta.steps: %d lines in %d steps, but the turn has %d", sum, len(m.Steps), len(m.Turn))
	}
	st := m.Stats
	for _, f := range []struct {
		name string
		n    int
	}{{"income", st.Income}, {"traded", st.Traded}, {"conquests", st.Conquests}} {
		if f.n < 0 || f.n > maxStat {
			add("meta.stats.%s: %d, want 0 to %d", f.name, f.n, maxStat)
		}
	}
	seats := state.MaxSeats
	if g != nil {
		seats = len(g.Setup.Seats)
	}
	if len(st.Eliminated) > seats {
		add("meta.stats: %d seats eliminated, of %d", len(st.Eliminated), seats)
	}
	for _, e := range st.Eliminated {
		if e < 0 || e >= seats {
			add("meta.stats: seat %d eliminated, which the game does not have", e)
			break
		}
	}
	for _, l := range m.Turn {
		if bad := markupOf(l); bad != "" || len(l) > chat.MaxText || strings.ContainsFunc(l, unicode.IsControl) {
			add("meta: the history line %s carries %s", chat.Quote(l), cmp.Or(bad, "too many characters, or a control character"))
		}
	}
	when("meta.started", m.Started)
	when("meta.finished", m.Finished)
	when("meta.imported", m.Imported)
	if !m.Started.IsZero() && m.Finished.Before(m.Started) && !m.Finished.IsZero() {
		add("meta.finished: %s, before the match started (%s)", m.Finished.Format(time.RFC3339), m.Started.Format(time.RFC3339))
	}
	line("meta.ended", m.Ended)
	line("meta.unverified", m.Unverified)
	if g == nil && (m.Unverified != "" || !m.Imported.IsZero()) {
		add("meta: a match that never started is marked imported or unverified: it has no dice yet")
	}
	return p
}

// The bounds of the numbers in the bot's data of a match: the computers
// ever added to it (each /risk host addbot counts), and a turn's totals.
const (
	maxBots = 10000
	maxStat = 1 << 20
)

// earliest is a time before any match the bot hosted (2020-01-01, in Unix
// seconds).
const earliest = 1577836800

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
