package voice

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// PlanReply lists the plan, each attack with its total against the
// defence as they stand, and offers the launch.
func (v Voice) PlanReply(m *hosted.Match, seat int, out Said) chat.Message {
	s := m.Game.State
	text := FitLines(out.Lines, 800) + "\n" + PlanText(s)
	text += "\nLaunch them in this order with /risk launch (or the button); plan more with /risk attack; /risk undo takes the last one back."
	n := int(s.Cap.NPlan)
	return chat.Message{Text: text, Buttons: [][]chat.Button{{
		{ID: m.ButtonID("launch"), Label: fmt.Sprintf("Launch %s", chat.Plural(n, "attack", "attacks")), Style: chat.Danger},
		{ID: m.ButtonID("end"), Label: "Pass", Style: chat.Secondary},
	}}}
}

// PlanText lists the turn's planned attacks with their totals now.
func PlanText(s *state.State) string {
	plans := s.Cap.Planned()
	if len(plans) == 0 {
		return "No attack is planned."
	}
	each := "each at "
	if len(plans) == 1 {
		each = "at "
	}
	lines := []string{fmt.Sprintf("Planned (%s, %s%s):", chat.Plural(len(plans), "attack", "attacks"), each, shareText(s, len(plans)))}
	for i, p := range plans {
		from, to := int(p.From), int(p.To)
		a := s.AttackTotal(from, to, len(plans))
		sea := ""
		if a.Reach == state.BySea {
			sea = ", by sea (half)"
		}
		d := s.DefenceTotal(to)
		lo, hi := engine.Damage(a.Total, d, engine.LuckMin), engine.Damage(a.Total, d, engine.LuckMin+engine.LuckSpan-1)
		troops := s.Terr[to].Armies
		outlook := fmt.Sprintf("kills %d to %d of its %s", lo, hi, chat.Plural(troops, "troop", "troops"))
		switch {
		case lo >= troops:
			outlook = fmt.Sprintf("takes it for sure (kills at least %d of its %d)", lo, troops)
		case hi >= troops:
			outlook = fmt.Sprintf("takes it with luck (kills %d to %d of its %d)", lo, hi, troops)
		}
		lines = append(lines, fmt.Sprintf("%d. %s → %s: total %s against %s%s; %s",
			i+1, s.Map.TerritoryName(from), s.Map.TerritoryName(to), state.FormatPower(a.Total), state.FormatPower(d), sea, outlook))
	}
	return strings.Join(lines, "\n")
}

// shareText says what each planned attack is worth: full power, or a
// fraction of its troops.
func shareText(s *state.State, n int) string {
	if n == 1 || s.Cap.Has(state.ItemFullPower) {
		return "full power"
	}
	return fmt.Sprintf("1/%d of its troops", n)
}

// ratios are the move's shares, by quarters.
var RatioNames = [5]string{"", "1/4", "1/2", "3/4", "all"}

// MoveChoice offers the move's shares as buttons: a row without the hero
// and, where the hero stands, one with it; the remembered choice stands out.
func (v Voice) MoveChoice(m *hosted.Match, seat, from, to, defQ int, defHero bool) chat.Message {
	s := m.Game.State
	armies := s.Terr[from].Armies
	rows := [][]chat.Button{}
	for _, hero := range []bool{false, true} {
		if hero && s.Hero(seat) != from {
			continue
		}
		var row []chat.Button
		for q := 1; q <= 4; q++ {
			n := state.MoveCount(armies, q)
			if n == 0 && !hero {
				continue
			}
			label := fmt.Sprintf("%s (%d)", RatioNames[q], n)
			if hero {
				label += " + hero"
			}
			style := chat.Secondary
			if q == defQ && hero == defHero {
				style = chat.Primary
			}
			h := 0
			if hero {
				h = 1
			}
			row = append(row, chat.Button{ID: m.ButtonID("move", from, to, q, h), Label: label, Style: style})
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	return chat.Message{Private: true, Buttons: rows, Text: fmt.Sprintf("Move from %s (%s) to %s: how much? Your last choice is highlighted; one troop stays unless all go.",
		s.Map.TerritoryName(from), chat.Plural(armies, "troop", "troops"), s.Map.TerritoryName(to))}
}

// ItemWhat says what an item does.
func ItemWhat(it state.Item) string {
	switch it {
	case state.ItemDistant:
		return "this turn you may plan attacks on any enemy territory but a capital, as if next door"
	case state.ItemFullPower:
		return "this turn every planned attack strikes at full power, not divided by their number"
	case state.ItemAttackPort:
		return "this turn you may build a port and attack too"
	case state.ItemTwoTurns:
		return "you play another whole turn after this one"
	case state.ItemTroopBonus:
		return "10% more troops on each of your territories"
	case state.ItemTroopMalus:
		return "10% fewer troops on each of your territories"
	case state.ItemLoseLand:
		return "one of your territories turns neutral"
	case state.ItemFat:
		return "the biggest territory of each of the two strongest other players becomes yours"
	}
	return "nothing known"
}

// ItemEffect is the reply's reminder of what a used item now allows.
func ItemEffect(it state.Item) string {
	return "In effect for the rest of your turn: " + ItemWhat(it) + "."
}

// capitalsNextStep tells the player what to do now in a capitals match.
func (v Voice) capitalsNextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseSetup {
		if s.Current == seat {
			return "\nChoose your capital: /risk place territory:NAME."
		}
		return fmt.Sprintf("\nWaiting for %s to choose a capital.", s.Seats[s.Current].Name)
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		return fmt.Sprintf("\nSend your %s to one territory: /risk place territory:NAME.", chat.Plural(s.Seats[seat].Reserve, "troop", "troops"))
	case state.PhaseAction:
		if s.Cap.NPlan > 0 {
			return "\n" + PlanText(s) + "\nLaunch with /risk launch; plan more with /risk attack."
		}
		return "\nYour action: /risk attack on a neutral territory captures it, on an enemy one plans an attack; /risk port builds a port. Or go on to /risk fortify, or /risk end."
	case state.PhaseMove:
		if !s.Cap.Moved {
			q, _ := s.MoveDefault(seat)
			return fmt.Sprintf("\nMove troops once: /risk fortify from:… to:… (ratio %s by default), or /risk end.", RatioNames[q])
		}
		return "\nEnd your turn with /risk end."
	}
	return ""
}

// capitalsPing is the ping of a person whose turn (or choice of capital)
// it is.
func (v Voice) capitalsPing(m *hosted.Match) string {
	s := m.Game.State
	id := s.Seats[s.Current].ID
	if s.Phase == state.PhaseSetup {
		return fmt.Sprintf("%s %s, choose your capital: /risk place territory:NAME (a neutral territory that borders no capital). Deadline %s.",
			v.Swatch(s.Current), chat.Mention(id), chat.Timestamp(m.Timers.Deadline))
	}
	item := ""
	if s.Seats[s.Current].Capitals.Item.Kept() {
		item = " You hold an item (/risk cards)."
	}
	return fmt.Sprintf("%s %s, it is your turn %d: send your **%s** to one territory (/risk place).%s Deadline %s.",
		v.Swatch(s.Current), chat.Mention(id), s.Turn, chat.Plural(s.Seats[s.Current].Reserve, "troop", "troops"), item, chat.Timestamp(m.Timers.Deadline))
}

// CapitalsStatus is /risk status for a capitals match.
func (v Voice) CapitalsStatus(m *hosted.Match) []string {
	s := m.Game.State
	lines := []string{"```", fmt.Sprintf("%-16s %5s %6s %-10s %-6s %4s", "player", "terr", "troops", "capital", "hero", "item")}
	for i := range s.Seats {
		name := s.Seats[i].Name
		if sm := m.Seat(i); sm.IsBot() || sm.Autopilot {
			name += "*"
		}
		if i == s.Current && s.Phase != state.PhaseOver {
			name = "▶ " + name
		}
		if !s.Seats[i].Alive() {
			lines = append(lines, fmt.Sprintf("%-16s %s", chat.Trunc(name, 16), s.Seats[i].Status))
			continue
		}
		capital := "-"
		if t := s.Capital(i); t >= 0 {
			capital = chat.Trunc(s.Map.TerritoryName(t), 10)
		}
		hero := "locked"
		switch c := s.Seats[i].Capitals; {
		case c.Hero != 0:
			hero = "alive"
		case c.HeroWon:
			hero = "dead"
		}
		item := "-"
		if s.Seats[i].Capitals.Item != state.NoItem {
			item = "yes"
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %-10s %-6s %4s", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), capital, hero, item))
	}
	lines = append(lines, "```")
	if s.Phase == state.PhaseAction && s.Cap.NPlan > 0 {
		lines = append(lines, PlanText(s))
	}
	var lying []string
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem {
			what := "an item"
			if tr.Item == state.ItemFat {
				what = "the fat bonus"
			}
			lying = append(lying, fmt.Sprintf("%s on %s (%s left)", what, s.Map.TerritoryName(t), chat.Plural(state.ItemLife-int(tr.ItemAge)+1, "turn", "turns")))
		}
	}
	if len(lying) > 0 {
		lines = append(lines, "Items waiting: "+strings.Join(lying, "; ")+".")
	}
	return lines
}

// capitalsSettings words a capitals match's own options.
func capitalsSettings(o state.Options) string {
	size := o.Map
	if size == "" {
		size = "normal"
	}
	return fmt.Sprintf("capitals rules on %s generated islands; neutral territories start with %d to %d troops (fortresses 5 more), capitals with %d",
		size, o.NeutralMin, o.NeutralMax, o.CapitalTroops)
}

// describeCapitals turns a capitals event into a line for people, or
// reports that it is not one.
func (v Voice) describeCapitals(s *state.State, e engine.Event) (string, bool) {
	if !hosted.IsCapitals(s) {
		return "", false
	}
	t := s.Map.TerritoryName
	switch e := e.(type) {
	case engine.CapitalChosen:
		return fmt.Sprintf("👑 %s chose %s as capital (%s)", v.Who(s, e.Seat), t(e.Territory), chat.Plural(e.Troops, "troop", "troops")), true
	case engine.Captured:
		how := "next to"
		if !s.Map.Adjacent(e.From, e.To) {
			how = "by sea from"
		}
		return fmt.Sprintf("🏳️ %s captured %s and its %s (%s %s)", v.Who(s, e.Seat), t(e.To), chat.Plural(e.Troops, "troop", "troops"), how, t(e.From)), true
	case engine.Placed:
		if s.Phase == state.PhaseSetup {
			return "", false
		}
		return fmt.Sprintf("➕ %s sent %s to %s", v.Who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops"), t(e.Territory)), true
	case engine.PortBuilt:
		return fmt.Sprintf("⚓ %s built a port on %s", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.AttackPlanned:
		return fmt.Sprintf("🎯 %s planned attack %d: %s → %s (total %s against %s)", v.Who(s, e.Seat), e.Order, t(e.From), t(e.To),
			state.FormatPower(e.Attack), state.FormatPower(e.Defence)), true
	case engine.Struck:
		sea := ""
		if e.Reach == state.BySea {
			sea = " by sea"
		}
		return fmt.Sprintf("⚔️ %d. %s struck %s%s from %s: %s against %s, luck ×%.2f: %s killed, %s left",
			e.Order, v.Who(s, e.Seat), t(e.To), sea, t(e.From), state.FormatPower(e.Attack), state.FormatPower(e.Defence),
			float64(e.Luck)/1000, chat.Plural(e.Damage, "troop", "troops"), chat.Plural(e.Left, "troop", "troops")), true
	case engine.AttackSkipped:
		return fmt.Sprintf("⏭️ %d. %s → %s skipped: %s", e.Order, t(e.From), t(e.To), e.Why), true
	case engine.CapitalTaken:
		return fmt.Sprintf("👑 %s took %s, the capital of %s, and with it all %s had (%s)", v.Who(s, e.Seat), t(e.Capital), v.Who(s, e.Defender),
			s.Seats[e.Defender].Name, chat.Plural(e.Territories, "territory", "territories")), true
	case engine.Moved:
		hero := ""
		if e.Hero {
			hero = " with the hero"
		}
		return fmt.Sprintf("🚚 %s moved %s from %s to %s%s", v.Who(s, e.Seat), chat.Plural(e.Troops, "troop", "troops"), t(e.From), t(e.To), hero), true
	case engine.HeroUnlocked:
		return fmt.Sprintf("🦸 %s holds 4 terrains: a hero appears on %s", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.HeroDied:
		return fmt.Sprintf("💀 The hero of %s fell on %s: every one of their territories loses half its troops", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.ItemSpawned:
		if e.Kind == state.ItemFat {
			return fmt.Sprintf("🎁 The fat bonus appeared on %s (it waits %d turns)", t(e.Territory), state.ItemLife), true
		}
		return fmt.Sprintf("🎁 An item appeared on %s (it waits %d turns)", t(e.Territory), state.ItemLife), true
	case engine.ItemVanished:
		return fmt.Sprintf("💨 The item on %s vanished", t(e.Territory)), true
	case engine.ItemCollected:
		if e.Kind.Kept() {
			// The kind stays secret: its owner reads it with /risk cards.
			return fmt.Sprintf("🎁 %s collected the item on %s", v.Who(s, e.Seat), t(e.Territory)), true
		}
		return fmt.Sprintf("🎁 %s collected the item on %s: %s!", v.Who(s, e.Seat), t(e.Territory), e.Kind.Title()), true
	case engine.ItemUsed:
		return fmt.Sprintf("✨ %s used an item: %s", v.Who(s, e.Seat), e.Kind.Title()), true
	case engine.TroopsScaled:
		return fmt.Sprintf("📈 The troops of %s changed by %+d%% on every territory (%+d)", v.Who(s, e.Seat), e.Percent, e.Change), true
	case engine.TerritoryLost:
		return fmt.Sprintf("🏚️ %s lost %s: it is neutral now", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.Seized:
		return fmt.Sprintf("🍖 %s seized %s from %s, with %s", v.Who(s, e.Seat), t(e.Territory), v.Who(s, e.Victim), chat.Plural(e.Troops, "troop", "troops")), true
	}
	return "", false
}

// collectedKept reports whether seat collected a kept item in events: the
// reply tells them to look at it privately.
func collectedKept(events []engine.Event, seat int) bool {
	for _, e := range events {
		if c, ok := e.(engine.ItemCollected); ok && c.Seat == seat && c.Kind.Kept() {
			return true
		}
	}
	return false
}

// Position is where a match stood before a command.
type Position struct {
	turn, seat int
	setup      bool
}

// PositionOf returns where s stands.
func PositionOf(s *state.State) Position {
	return Position{turn: s.Turn, seat: s.Current, setup: s.Phase == state.PhaseSetup}
}

// Tell describes the events of one change, made from position at, and
// files the lines: into the turns that the change ended (returned, in
// order) and the turn still in progress (ch). It returns every line, for
// the reply to the command. An undo takes the lines of the command it
// undid out of the turn's record: what was taken back did not happen.
func (v Voice) Tell(s *state.State, at Position, events []engine.Event, ch *news.Chronicle) (lines []string, closed []news.TurnRecord) {
	var part []engine.Event
	var stepLines int
	flush := func() []string {
		ls := v.Describe(s, part)
		lines = append(lines, ls...)
		ch.Stats.Count(part)
		part = nil
		return ls
	}
	curTurn, curSeat := at.turn, at.seat
	if at.setup {
		curTurn = 0
	}
	closeTurn := func(ls []string) {
		if all := append(ch.Lines, ls...); len(all) > 0 {
			closed = append(closed, news.TurnRecord{Turn: curTurn, Seat: curSeat, Lines: all, Stats: ch.Stats})
		}
		*ch = news.Chronicle{}
		stepLines = 0
	}
	for _, e := range events {
		switch e := e.(type) {
		case engine.Undone:
			// An undo is a command of its own: the lines of the command it
			// undid leave the record, and the undo is told to its author
			// only.
			lines = append(lines, v.Describe(s, []engine.Event{e})...)
			if n := len(ch.Steps); n > 0 {
				ch.Lines = ch.Lines[:max(0, len(ch.Lines)-ch.Steps[n-1])]
				ch.Steps = ch.Steps[:n-1]
			}
			continue
		case engine.CapitalChosen:
			// Capitals are chosen in turn: each choice is its own post.
			part = append(part, e)
			curSeat = e.Seat
			closeTurn(flush())
			continue
		case engine.SetupDone:
			if hosted.IsCapitals(s) {
				break
			}
			ls := flush()
			part = []engine.Event{e}
			closeTurn(append(ls, flush()...))
			continue
		case engine.TurnStarted:
			if ls := flush(); curTurn > 0 {
				closeTurn(ls)
			} else {
				ch.Lines = append(ch.Lines, ls...)
				stepLines += len(ls)
			}
			curTurn, curSeat = e.Turn, e.Seat
		}
		part = append(part, e)
	}
	ls := flush()
	ch.Lines = append(ch.Lines, ls...)
	if n := stepLines + len(ls); n > 0 {
		ch.Steps = append(ch.Steps, n)
	}
	if s.Phase == state.PhaseOver {
		closed = append(closed, news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: ch.Lines, Stats: ch.Stats})
		*ch = news.Chronicle{}
	}
	return lines, closed
}

// Retell tells a match's whole log again, turn by turn, as it was told
// when it was played: the finished turns, and the one in progress (nil
// if the match is over).
func (v Voice) Retell(rec engine.Record) ([]news.TurnRecord, *news.TurnRecord, error) {
	g, err := engine.NewGame(rec.Setup)
	if err != nil {
		return nil, nil, err
	}
	var turns []news.TurnRecord
	var ch news.Chronicle
	for _, e := range rec.Log {
		at := PositionOf(g.State)
		events, err := g.Replay(e)
		if err != nil {
			return nil, nil, err
		}
		_, closed := v.Tell(g.State, at, events, &ch)
		turns = append(turns, closed...)
	}
	s := g.State
	if s.Phase == state.PhaseOver {
		return turns, nil, nil
	}
	live := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: ch.Lines, Stats: ch.Stats}
	if s.Phase == state.PhaseSetup {
		live.Turn = 0
	}
	return turns, &live, nil
}

// Digest is what happened to the player of seat since their last turn, in
// at most maxDigest lines; none before their first turn.
func (v Voice) Digest(m *hosted.Match, seat int) []string {
	s := m.Game.State
	i := m.Meta.Index(s.Seats[seat].ID)
	if i < 0 || m.Meta.Seats[i].Held == nil || s.Phase == state.PhaseSetup {
		return nil
	}
	type line struct {
		text  string
		score int
	}
	var lines []line
	unit := "armies"
	if hosted.IsCapitals(s) {
		unit = "troops"
	}
	held := map[int]bool{}
	lost := map[int][]string{} // by the seat that holds them now
	var takers []int
	for _, t := range m.Meta.Seats[i].Held {
		if t < 0 || t >= len(s.Terr) {
			continue
		}
		held[t] = true
		if o := s.Terr[t].Owner; o != seat {
			if _, ok := lost[o]; !ok {
				takers = append(takers, o)
			}
			lost[o] = append(lost[o], s.Map.TerritoryName(t))
		}
	}
	for _, o := range takers {
		names := lost[o]
		lines = append(lines, line{fmt.Sprintf("🔻 You lost %s to %s.", chat.AndList(names), v.Who(s, o)), 1000 + len(names)})
	}
	for c, cont := range s.Map.Continents {
		all := len(cont.Territories) > 0
		for _, t := range cont.Territories {
			all = all && held[t]
		}
		if all && s.ContinentOwner(c) != seat {
			lines = append(lines, line{fmt.Sprintf("💔 You no longer hold all of %s (+%d).", cont.Name, cont.Bonus), 900 + cont.Bonus})
		}
	}
	// Threats: an enemy stack that outnumbers a neighbour of theirs, the
	// greatest odds against first (two at most).
	type threat struct{ from, to, by int }
	var threats []threat
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		worst := -1
		for _, n := range s.Map.Territories[t].Adj {
			if o := s.Terr[n].Owner; o >= 0 && o != seat && s.Terr[n].Armies > s.Terr[t].Armies+1 && (worst < 0 || s.Terr[n].Armies > s.Terr[worst].Armies) {
				worst = n
			}
		}
		if worst >= 0 {
			threats = append(threats, threat{worst, t, s.Terr[worst].Armies - s.Terr[t].Armies})
		}
	}
	slices.SortStableFunc(threats, func(a, b threat) int { return cmp.Compare(b.by, a.by) })
	for k, th := range threats[:min(2, len(threats))] {
		lines = append(lines, line{fmt.Sprintf("⚠️ %d %s of %s on %s face your %d on %s.", s.Terr[th.from].Armies, unit, v.Who(s, s.Terr[th.from].Owner),
			s.Map.TerritoryName(th.from), s.Terr[th.to].Armies, s.Map.TerritoryName(th.to)), 500 - k})
	}
	// Who leads, by territories then armies.
	lead := -1
	for o := range s.Seats {
		if !s.Seats[o].Alive() {
			continue
		}
		if lead < 0 || s.Owned(o) > s.Owned(lead) || (s.Owned(o) == s.Owned(lead) && s.Armies(o) > s.Armies(lead)) {
			lead = o
		}
	}
	if lead >= 0 {
		who := v.Who(s, lead) + " leads"
		if lead == seat {
			who = "You lead"
		}
		lines = append(lines, line{fmt.Sprintf("📊 %s with %d territories and %d %s.", who, s.Owned(lead), s.Armies(lead), unit), 100})
	}
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.score, a.score) })
	var out []string
	for _, l := range lines[:min(maxDigest, len(lines))] {
		out = append(out, l.text)
	}
	if len(out) > 0 {
		out[0] = "**Since your last turn:** " + out[0]
	}
	return out
}

// WithDigest puts the digest of seat's player above a ping's text.
func (v Voice) WithDigest(m *hosted.Match, seat int, text string) string {
	d := v.Digest(m, seat)
	if len(d) == 0 {
		return text
	}
	return strings.Join(d, "\n") + "\n" + text
}

// Reveal says what the seed was, for checking the dice.
func (v Voice) Reveal(m *hosted.Match) string {
	g := m.Game
	return fmt.Sprintf("🔓 The seed was %d; committed at the start as %s…. /risk history show:verify replays every roll from it.",
		g.Setup.Seed, g.Commitment()[:16])
}

// LuckField is the luck report as an embed field's value.
func LuckField(report string) string {
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if len(lines) > 1 {
		lines = lines[1:] // the heading says what the field's name says
	}
	return strings.Join(lines, "\n")
}

// StatusLine says in one line where the match is.
func (v Voice) StatusLine(m *hosted.Match) string {
	s := m.Game.State
	if m.Status == storage.Abandoned {
		how := ""
		if m.Meta.Ended != "" {
			how = " " + m.Meta.Ended
		}
		return fmt.Sprintf("The match was ended without a winner%s, at turn %d.", how, s.Turn)
	}
	switch s.Phase {
	case state.PhaseOver:
		return fmt.Sprintf("The match is over: %s won after %s.", v.Who(s, s.Winner), chat.Plural(s.Turn, "turn", "turns"))
	case state.PhaseSetup:
		if hosted.IsCapitals(s) {
			return fmt.Sprintf("Choosing capitals: %s to choose.", v.Who(s, s.Current))
		}
		var waiting []string
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				waiting = append(waiting, fmt.Sprintf("%s (%d)", v.Who(s, i), s.Seats[i].Reserve))
			}
		}
		return "Initial placement: waiting for " + strings.Join(waiting, ", ") + "."
	}
	line := fmt.Sprintf("Turn %d: %s to play (%s phase)", s.Turn, v.Who(s, s.Current), s.Phase)
	if o := s.Occupy; s.Phase == state.PhaseOccupy {
		line = fmt.Sprintf("Turn %d: %s to move %d to %d armies from %s into %s, just taken (/risk occupy)",
			s.Turn, v.Who(s, s.Current), o.Min, o.Max, s.Map.TerritoryName(o.From), s.Map.TerritoryName(o.To))
	}
	if !m.Timers.Deadline.IsZero() && !m.IsBotSeat(s.Current) {
		line += ", deadline " + chat.Timestamp(m.Timers.Deadline)
	}
	return line + "."
}

// Standings is /risk status's answer: where the match is, then the
// Standings in a card in the colour of the player to play, with the map.
func (v Voice) Standings(m *hosted.Match, lines []string) chat.Message {
	s := m.Game.State
	seat := s.Current
	if s.Phase == state.PhaseOver {
		seat = s.Winner
	}
	return chat.Message{Private: true, Text: lines[0], Image: v.mapOf(m),
		Embed: &chat.Embed{Title: "Standings", Description: strings.Join(lines[1:], "\n"), Color: v.Color(seat)}}
}

// ShortTitle names a turn on a button: "Turn 7", "Setup".
func (v Voice) ShortTitle(t news.TurnRecord) string {
	if t.Turn == 0 {
		return "Setup"
	}
	return fmt.Sprintf("Turn %d", t.Turn)
}

func SettingsText(set hosted.Settings) string {
	o := set.Options
	if o.Rules == state.Capitals {
		timeout := "a careful bot plays for anyone out of time"
		if set.OnTimeout == "skip" {
			timeout = "a turn out of time is skipped"
		}
		colours := ""
		if set.Palette == command.PaletteColorBlind {
			colours = "; colour-blind palette"
		}
		return fmt.Sprintf("%s; %d h per turn, %s%s", capitalsSettings(o), set.TurnHours, timeout, colours)
	}
	victory := "two thirds of the map wins"
	if o.Victory == state.Domination {
		victory = "total domination wins"
	}
	timeout := "a careful bot plays for anyone out of time"
	if set.OnTimeout == "skip" {
		timeout = "a turn out of time is skipped"
	}
	colours := ""
	if set.Palette == command.PaletteColorBlind {
		colours = "; colour-blind palette"
	}
	return fmt.Sprintf("%s rules on the %s map; %s; %s cards; %s fortification; %d h per turn, %s%s",
		o.Rules, o.Map, victory, o.Cards, o.Fortify, set.TurnHours, timeout, colours)
}

// TwoPlayerHint warns the lobby of a two-player match won by two thirds of
// the map: each player starts with half of it, so the first player can win
// before the second has played. The rule book makes two thirds the default;
// the host may choose otherwise.
func TwoPlayerHint(m *hosted.Match) string {
	if o := m.Meta.Settings.Options; len(m.Meta.Seats) != 2 || o.Rules != state.Classic || o.Victory != state.TwoThirds {
		return ""
	}
	return "\nTip: with two players, the first can win in the first turn (two thirds of the map). For a longer match: /risk settings victory:domination, or a third player."
}

func SeatList(meta hosted.Meta) string {
	var parts []string
	for i, s := range meta.Seats {
		label := s.Name
		if s.IsBot() {
			label += fmt.Sprintf(" (bot, %s)", s.Level)
		}
		if s.ID == meta.Host {
			label += " (host)"
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, label))
	}
	return strings.Join(parts, "\n")
}

// LobbyEmbed is the card of a lobby: who sits, the host's settings, and
// how to go on.
func LobbyEmbed(meta hosted.Meta) *chat.Embed {
	return &chat.Embed{
		Title:       fmt.Sprintf("Lobby — %d/%d seats", len(meta.Seats), state.MaxSeats),
		Description: SeatList(meta),
		Fields:      []chat.Field{{Name: "Settings", Value: chat.Capitalize(SettingsText(meta.Settings)) + "."}},
		Footer:      "Join with /risk join or the button (2 to 6 players). The host adds computer players with /risk addbot and starts with /risk start.",
	}
}

// LobbyButtons are the buttons under a lobby: Join while a seat is free.
func LobbyButtons(m *hosted.Match) [][]chat.Button {
	if len(m.Meta.Seats) >= state.MaxSeats {
		return nil
	}
	return [][]chat.Button{{{ID: hosted.LobbyButton(m.ID, "join"), Label: "Join", Style: chat.Primary}}}
}

// Messages writes the news of a change. Written late (fresh false), when
// the match has moved on since, they keep only what is still true: the
// summaries, without the map or a ping of a turn long gone.
func (v Voice) Messages(m *hosted.Match, n *news.News, fresh bool) []news.Post {
	var msgs []news.Post
	if n.Note != "" && len(n.Turns) == 0 {
		msgs = append(msgs, news.Post{Message: chat.Message{Text: n.Note}})
	}
	if n.Remind && fresh {
		if r, ok := v.Reminder(m); ok {
			msgs = append(msgs, r)
		}
	}
	if fresh {
		return append(msgs, v.TurnPosts(m, n.Turns, n.Over, n.Note)...)
	}
	s := m.Game.State
	for i, t := range n.Turns {
		note := ""
		if i == 0 {
			note = n.Note
		}
		msgs = append(msgs, news.Post{Message: chat.Message{Embed: v.TurnEmbed(s, t, note)}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete})
	}
	if n.Over {
		msgs = append(msgs, v.VictoryPost(m))
	}
	return msgs
}

// Said is what a command did, as it is told: what an answer is made from.
type Said struct {
	Events []engine.Event
	// Lines describe the events, for the reply.
	Lines []string
	// Turns are the turns that ended (with the setup as turn 0).
	Turns []news.TurnRecord
}

// Reply words the answer to a command from what it did.
type Reply func(Said) chat.Message

// TurnPosts are the messages that follow the end of turns: each turn's
// record completed (its living message edited, or posted if it had none),
// the last one with the map, then the living message of the turn now
// starting, which pings the person to play. note, if any, opens the first
// record (why the bot played for a person).
func (v Voice) TurnPosts(m *hosted.Match, turns []news.TurnRecord, over bool, note string) []news.Post {
	var posts []news.Post
	for i, t := range turns {
		if i > 0 {
			note = ""
		}
		posts = append(posts, v.TurnPost(m, t, note, i == len(turns)-1 && !over))
	}
	if over {
		return append(posts, v.VictoryPost(m))
	}
	if len(turns) > 0 {
		if p, ok := v.LivePost(m); ok {
			posts = append(posts, p)
		}
	}
	return posts
}

// FitLines joins lines within limit bytes, replacing the ones that do not
// fit by a count.
func FitLines(lines []string, limit int) string {
	return FitLinesAs(lines, limit, "… and %d more (see /risk history)")
}

// FitLinesAs is fitLines with its own words for the lines left out (a
// format with one %d).
func FitLinesAs(lines []string, limit int, more string) string {
	total := 0
	for i, l := range lines {
		total += len(l) + 1
		if total > limit-40 && i < len(lines)-1 {
			return strings.Join(lines[:i], "\n") + "\n" + fmt.Sprintf(more, len(lines)-i)
		}
	}
	return strings.Join(lines, "\n")
}

// Ping tells the person now to play that it is their turn, mentioning only
// them, with their deadline.
func (v Voice) Ping(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || m.IsBotSeat(s.Current) {
		return news.Post{}, false
	}
	id := s.Seats[s.Current].ID
	if hosted.IsCapitals(s) {
		return news.Post{Message: chat.Message{Text: v.capitalsPing(m), Mentions: []string{id}}, Notice: news.TurnPing}, true
	}
	text := fmt.Sprintf("%s %s, it is your turn %d: you have **%s** to place%s. Deadline %s.",
		v.Swatch(s.Current), chat.Mention(id), s.Turn, chat.Plural(s.Seats[s.Current].Reserve, "army", "armies"), tradeHint(s, s.Current), chat.Timestamp(m.Timers.Deadline))
	return news.Post{Message: chat.Message{Text: text, Mentions: []string{id}, Buttons: [][]chat.Button{{
		{ID: m.ButtonID("autoplace", s.Turn), Label: "Place automatically", Style: chat.Secondary},
	}}}, Notice: news.TurnPing}, true
}

// tradeHint reminds a player of a set they can (or must) trade.
func tradeHint(s *state.State, seat int) string {
	n := s.Seats[seat].Hand.Len()
	if n >= 5 {
		return fmt.Sprintf(" — you hold %d cards and must trade a set first (/risk trade)", n)
	}
	if set, ok := engine.BestSet(s, seat); ok {
		return fmt.Sprintf(" — you may trade a set for %d more (/risk trade)", engine.SetValue(s, set))
	}
	return ""
}

func (v Voice) victoryText(m *hosted.Match) string {
	s := m.Game.State
	var lines []string
	lines = append(lines, fmt.Sprintf("🏆 **%s wins after %s!**", v.Who(s, s.Winner), chat.Plural(s.Turn, "turn", "turns")))
	for i := range s.Seats {
		status := s.Seats[i].Status.String() // eliminated, surrendered
		switch {
		case i == s.Winner:
			status = fmt.Sprintf("winner, %d territories", s.Owned(i))
		case s.Seats[i].Alive():
			status = fmt.Sprintf("%d territories left", s.Owned(i))
		}
		lines = append(lines, fmt.Sprintf("%s — %s", v.Who(s, i), status))
	}
	lines = append(lines, "Start another with /risk new.")
	return strings.Join(lines, "\n")
}

// Next is the usual reply to a command: what happened, then what to
// do next.
func (v Voice) Next(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		text := FitLines(out.Lines, 1600)
		if collectedKept(out.Events, seat) {
			text += "\nYou collected an item: /risk cards shows what it is (only to you)."
		}
		return chat.Message{Text: text + v.NextStep(m, seat)}
	}
}

// Autoplaced is replyNext for an automatic placement: it says where
// every army went, which the public record only counts.
func (v Voice) Autoplaced(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		lines := out.Lines
		if where := placedWhere(m.Game.State, out.Events, seat); where != "" {
			// Right under the line that counts them.
			at := 0
			for i, l := range lines {
				if strings.HasPrefix(l, "➕") {
					at = i + 1
					break
				}
			}
			lines = slices.Insert(slices.Clone(lines), at, where)
		}
		return chat.Message{Text: FitLines(lines, 1600) + v.NextStep(m, seat)}
	}
}

// placedWhere lists where seat's placements went, most first: "Where: 4
// on Alaska, 2 on Peru"; empty if they fit the usual line already.
func placedWhere(s *state.State, events []engine.Event, seat int) string {
	armies := map[int]int{}
	var order []int
	for _, e := range events {
		if p, ok := e.(engine.Placed); ok && p.Seat == seat {
			if _, seen := armies[p.Territory]; !seen {
				order = append(order, p.Territory)
			}
			armies[p.Territory] += p.Armies
		}
	}
	if len(order) <= 4 {
		return ""
	}
	slices.SortStableFunc(order, func(a, b int) int { return armies[b] - armies[a] })
	parts := make([]string, len(order))
	for i, t := range order {
		parts[i] = fmt.Sprintf("%d on %s", armies[t], s.Map.TerritoryName(t))
	}
	return "Where: " + strings.Join(parts, ", ") + "."
}

// NextStep tells the player what to do now, after their command.
func (v Voice) NextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseOver {
		return ""
	}
	if hosted.IsCapitals(s) {
		return v.capitalsNextStep(m, seat)
	}
	if s.Phase == state.PhaseSetup {
		if r := s.Seats[seat].Reserve; r > 0 {
			return fmt.Sprintf("\nYou have %s left to place.", chat.Plural(r, "army", "armies"))
		}
		var waiting []string
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				waiting = append(waiting, s.Seats[i].Name)
			}
		}
		return fmt.Sprintf("\nAll placed. Waiting for %s.", strings.Join(waiting, ", "))
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		if s.Seats[seat].Hand.Len() >= 5 {
			return fmt.Sprintf("\nYou hold %d cards: trade a set (/risk trade) before placing.", s.Seats[seat].Hand.Len())
		}
		return fmt.Sprintf("\n%s left to place.", chat.Capitalize(chat.Plural(s.Seats[seat].Reserve, "army", "armies")))
	case state.PhaseAttack:
		return "\nNext: /risk attack, /risk fortify, or /risk end."
	case state.PhaseOccupy:
		o := s.Occupy
		return fmt.Sprintf("\nMove %d to %d armies into %s with /risk occupy.", o.Min, o.Max, s.Map.TerritoryName(o.To))
	}
	return ""
}

// OddsText words the exact odds of attacking to the end: "81% to take it,
// you keep about 5".
func OddsText(o engine.Odds) string {
	return fmt.Sprintf("%.0f%% to take it, you keep about %.0f", 100*o.Win, o.AttackerLeft)
}

// BlitzNote says why a blitz stopped without taking its target.
func BlitzNote(s *state.State, from, to, keep int) string {
	switch {
	case s.Phase != state.PhaseAttack || s.Terr[to].Owner == s.Current:
		return ""
	case s.Terr[from].Armies <= 1:
		return fmt.Sprintf("Stopped: %s has 1 army left and cannot attack; %s still holds %d.", s.Map.TerritoryName(from), s.Map.TerritoryName(to), s.Terr[to].Armies)
	default:
		return fmt.Sprintf("Stopped: %s is down to %d, as asked; %s still holds %d.", s.Map.TerritoryName(from), s.Terr[from].Armies, s.Map.TerritoryName(to), s.Terr[to].Armies)
	}
}

// AttackReply shows the battle and offers the next clicks.
func (v Voice) AttackReply(m *hosted.Match, seat, from, to int, out Said) chat.Message {
	s := m.Game.State
	msg := chat.Message{Text: FitLines(out.Lines, 1600)}
	switch {
	case s.Phase == state.PhaseOver:
	case s.Phase == state.PhaseOccupy:
		o := s.Occupy
		half := max(o.Min, (o.Min+o.Max+1)/2)
		msg.Text += fmt.Sprintf("\nMove %d to %d armies into %s: /risk occupy, or click.", o.Min, o.Max, s.Map.TerritoryName(o.To))
		row := []chat.Button{{ID: m.ButtonID("occupy", o.Min), Label: fmt.Sprintf("Move %d", o.Min), Style: chat.Secondary}}
		if half > o.Min && half < o.Max {
			row = append(row, chat.Button{ID: m.ButtonID("occupy", half), Label: fmt.Sprintf("Move %d", half), Style: chat.Secondary})
		}
		row = append(row, chat.Button{ID: m.ButtonID("occupy", o.Max), Label: fmt.Sprintf("Move all %d", o.Max), Style: chat.Primary})
		msg.Buttons = [][]chat.Button{row}
	case s.Phase == state.PhaseReinforce:
		msg.Text += v.NextStep(m, seat)
	case s.Phase == state.PhaseAttack:
		var row []chat.Button
		if s.Terr[to].Owner != seat && s.Terr[from].Armies >= 2 {
			odds, _ := engine.AttackOdds(s.Terr[from].Armies, s.Terr[to].Armies)
			msg.Text += fmt.Sprintf("\n%s has %d, %s has %d: %s attacking to the end.",
				s.Map.TerritoryName(from), s.Terr[from].Armies, s.Map.TerritoryName(to), s.Terr[to].Armies, OddsText(odds))
			row = append(row,
				chat.Button{ID: m.ButtonID("attack", from, to), Label: fmt.Sprintf("Attack again (%d dice)", engine.MaxDice(s.Terr[from].Armies)), Style: chat.Danger},
				chat.Button{ID: m.ButtonID("blitz", from, to), Label: fmt.Sprintf("Blitz %s: %.0f%%, keep ~%.0f", chat.Trunc(s.Map.TerritoryName(to), 24), 100*odds.Win, odds.AttackerLeft), Style: chat.Danger},
				chat.Button{ID: m.ButtonID("stop"), Label: "Stop", Style: chat.Secondary},
			)
		}
		row = append(row, chat.Button{ID: m.ButtonID("end"), Label: "End turn", Style: chat.Success})
		msg.Buttons = [][]chat.Button{row}
	}
	return msg
}

// TurnTitle names a turn: "Turn 7 — 🟥 Ann".
func (v Voice) TurnTitle(s *state.State, t news.TurnRecord) string {
	switch {
	case t.Turn == 0 && hosted.IsCapitals(s):
		return "Capital — " + v.Who(s, t.Seat)
	case t.Turn == 0:
		return "Initial placement done"
	}
	return fmt.Sprintf("Turn %d — %s", t.Turn, v.Who(s, t.Seat))
}

// maxDescription keeps an embed's description within Discord's 4096
// characters, with room for markup to grow.
const maxDescription = 3800

// TurnEmbed is the card of a turn: its lines, and its numbers as fields.
func (v Voice) TurnEmbed(s *state.State, t news.TurnRecord, note string) *chat.Embed {
	e := &chat.Embed{Title: v.TurnTitle(s, t), Color: v.Color(t.Seat)}
	lines := t.Lines
	if note != "" {
		lines = append([]string{"*" + note + "*"}, lines...)
	}
	if len(lines) == 0 {
		lines = []string{"(nothing happened yet)"}
	}
	e.Description = FitLinesAs(lines, maxDescription, "… and %d more lines")
	st := t.Stats
	capitals := hosted.IsCapitals(s)
	if st.Income > 0 {
		unit := "armies"
		if capitals {
			unit = "troops"
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Reinforcements", Value: fmt.Sprintf("%d %s", st.Income, unit), Inline: true})
	}
	if st.Traded > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Cards traded", Value: fmt.Sprintf("+%d armies", st.Traded), Inline: true})
	}
	if st.Conquests > 0 {
		e.Fields = append(e.Fields, chat.Field{Name: "Conquests", Value: chat.Plural(st.Conquests, "territory", "territories"), Inline: true})
	}
	if len(st.Eliminated) > 0 {
		var names []string
		for _, i := range st.Eliminated {
			names = append(names, v.Who(s, i))
		}
		e.Fields = append(e.Fields, chat.Field{Name: "Eliminated", Value: strings.Join(names, ", "), Inline: true})
	}
	return e
}

// TurnPost is the completed record of a finished turn, with the map if
// withMap (the last turn of a change: the map shows the match as it is).
func (v Voice) TurnPost(m *hosted.Match, t news.TurnRecord, note string, withMap bool) news.Post {
	s := m.Game.State
	msg := news.Post{Message: chat.Message{Embed: v.TurnEmbed(s, t, note)}, Ref: news.PostRef(m.ID, t.Turn, t.Seat), Mode: news.Complete}
	if withMap {
		msg.Image = v.mapOf(m)
	}
	return msg
}

// LivePost is the record of the turn in progress, if it has one: a
// person's turn (a computer's is posted when done), not the initial
// placement, which is secret until everyone has placed. Its text pings
// the player, with what to do now and the deadline.
func (v Voice) LivePost(m *hosted.Match) (news.Post, bool) {
	s := m.Game.State
	if s.Phase == state.PhaseOver || (s.Phase == state.PhaseSetup && !hosted.IsCapitals(s)) || m.IsBotSeat(s.Current) {
		return news.Post{}, false
	}
	t := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: m.Meta.Turn, Stats: m.Meta.Stats}
	if s.Phase == state.PhaseSetup {
		t.Turn = 0
	}
	e := v.TurnEmbed(s, t, "")
	if !m.Timers.Deadline.IsZero() {
		e.Fields = append(e.Fields, chat.Field{Name: "Deadline", Value: chat.Timestamp(m.Timers.Deadline), Inline: true})
	}
	e.Footer = "This message follows the turn as it is played."
	msg, _ := v.Ping(m)
	msg.Text = v.WithDigest(m, s.Current, msg.Text)
	msg.Embed = e
	msg.Ref = news.PostRef(m.ID, t.Turn, t.Seat)
	msg.Mode = news.PostOrEdit
	if !(s.Phase == state.PhaseReinforce && s.Seats[s.Current].Reserve > 0) {
		msg.Buttons = nil // placed: the button's moment is gone
	}
	return msg, true
}

// VictoryPost announces the end of a match, with the map.
func (v Voice) VictoryPost(m *hosted.Match) news.Post {
	s := m.Game.State
	lines := strings.Split(v.victoryText(m), "\n")
	e := &chat.Embed{Title: "🏆 " + strings.Trim(lines[0], "🏆 *"), Color: v.Color(s.Winner)}
	e.Description = strings.Join(lines[1:len(lines)-1], "\n")
	if m.Luck != "" {
		e.Fields = append(e.Fields, chat.Field{Name: "Luck against the exact odds", Value: LuckField(m.Luck)})
	}
	e.Fields = append(e.Fields, chat.Field{Name: "Fair dice", Value: v.Reveal(m)})
	e.Footer = lines[len(lines)-1]
	return news.Post{Message: chat.Message{Embed: e, Image: v.mapOf(m)}}
}

// colorEmoji gives a square of roughly the seat's colour for chat text, so
// that the colour is never only on the map.
var colorEmoji = map[string]string{
	"red": "🟥", "cyan": "🟦", "blue": "🟦", "yellow": "🟨", "violet": "🟪", "purple": "🟪",
	"black": "⬛", "pink": "🩷", "magenta": "🩷", "orange": "🟧", "green": "🟩", "brown": "🟫", "white": "⬜",
	// The colour-blind palette (render.ColorBlind).
	"vermillion": "🟧", "sky blue": "🟦",
}

// Voice writes the chat text of one match, naming its seats with the
// colours of the match's palette.
type Voice struct {
	colors []string // colour names, in turn order
	rgb    []int    // the colours as 0xRRGGBB (may be empty)
	// mapOf is the map of a match as it stands, drawn when first shown.
	mapOf func(*hosted.Match) *chat.Image
}

// New returns the voice of a match whose seats have these colours
// (names, and 0xRRGGBB values, which may be missing); mapOf gives the map
// of a match as it stands.
func New(colors []string, rgb []int, mapOf func(*hosted.Match) *chat.Image) Voice {
	return Voice{colors: colors, rgb: rgb, mapOf: mapOf}
}

// Color is seat i's colour as 0xRRGGBB, for an embed's side bar; 0 if
// unknown.
func (v Voice) Color(i int) int {
	if i >= 0 && i < len(v.rgb) {
		return v.rgb[i]
	}
	return 0
}

// Who names engine seat i with its colour: "🟥 Ann".
func (v Voice) Who(s *state.State, i int) string {
	if i < 0 || i >= len(s.Seats) {
		return "⬜ neutral"
	}
	return v.Swatch(i) + " " + s.Seats[i].Name
}

// Swatch is the emoji of seat i's colour.
func (v Voice) Swatch(i int) string {
	if i < len(v.colors) {
		if e, ok := colorEmoji[v.colors[i]]; ok {
			return e
		}
	}
	return "▪️"
}

// ColorName names seat i's colour.
func (v Voice) ColorName(i int) string {
	if i < len(v.colors) {
		return v.colors[i]
	}
	return fmt.Sprintf("colour %d", i+1)
}

// Describe turns events into lines for people. Consecutive rolls of one
// attack (a blitz) become one line. Private events (the card drawn) are
// described without the card.
func (v Voice) Describe(s *state.State, events []engine.Event) []string {
	var lines []string
	t := s.Map.TerritoryName
	for i := 0; i < len(events); i++ {
		if line, ok := v.describeCapitals(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		switch e := events[i].(type) {
		case engine.TurnStarted:
			if hosted.IsCapitals(s) {
				lines = append(lines, fmt.Sprintf("⏩ Turn %d: %s receives %s (3 for each territory)", e.Turn, v.Who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops")))
				continue
			}
			lines = append(lines, fmt.Sprintf("⏩ Turn %d: %s receives %s", e.Turn, v.Who(s, e.Seat), incomeText(s, e.Income)))
		case engine.SetupDone:
			if hosted.IsCapitals(s) {
				lines = append(lines, "📯 Every capital is chosen: the war begins!")
				continue
			}
			lines = append(lines, "📯 Everyone has placed their armies: the war begins!")
		case engine.Placed:
			// Merge the placements of one seat in a row (an "autoplace", or
			// a bot's placements) into a line, one part per territory.
			var order []int
			armies := map[int]int{}
			total := 0
			for j := i; j < len(events); j++ {
				n, ok := events[j].(engine.Placed)
				if !ok || n.Seat != e.Seat {
					break
				}
				if _, seen := armies[n.Territory]; !seen {
					order = append(order, n.Territory)
				}
				armies[n.Territory] += n.Armies
				total += n.Armies
				i = j
			}
			if len(order) > 4 {
				lines = append(lines, fmt.Sprintf("➕ %s placed %d armies on %d territories", v.Who(s, e.Seat), total, len(order)))
				break
			}
			parts := make([]string, len(order))
			for k, terr := range order {
				parts[k] = fmt.Sprintf("%d on %s", armies[terr], t(terr))
			}
			lines = append(lines, fmt.Sprintf("➕ %s placed %s", v.Who(s, e.Seat), strings.Join(parts, ", ")))
		case engine.Traded:
			bonus := ""
			if e.Bonus > 0 {
				bonus = fmt.Sprintf(" (+%d on %s)", e.Bonus, t(e.BonusTerritory))
			}
			lines = append(lines, fmt.Sprintf("🃏 %s traded %s for %d armies%s", v.Who(s, e.Seat), CardList(s.Map, e.Cards[:]), e.Armies, bonus))
		case engine.Rolled:
			rolls := []engine.Rolled{e}
			for i+1 < len(events) {
				n, ok := events[i+1].(engine.Rolled)
				if !ok || n.From != e.From || n.To != e.To {
					break
				}
				rolls = append(rolls, n)
				i++
			}
			lines = append(lines, v.battleLine(s, rolls))
		case engine.Conquered:
			lines = append(lines, fmt.Sprintf("🚩 %s took %s from %s", v.Who(s, e.Seat), t(e.To), v.Who(s, e.Defender)))
		case engine.Occupied:
			lines = append(lines, fmt.Sprintf("🚶 %s moved %d into %s", v.Who(s, e.Seat), e.Armies, t(e.To)))
		case engine.Fortified:
			lines = append(lines, fmt.Sprintf("🚚 %s moved %d from %s to %s", v.Who(s, e.Seat), e.Armies, t(e.From), t(e.To)))
		case engine.CardDrawn:
			lines = append(lines, fmt.Sprintf("🂠 %s drew a card (%d in hand)", v.Who(s, e.Seat), s.HandSize(e.Seat)))
		case engine.Discarded:
			lines = append(lines, fmt.Sprintf("🗑️ %s discarded %s", v.Who(s, e.Seat), s.Map.CardName(e.Card)))
		case engine.Reshuffled:
			lines = append(lines, fmt.Sprintf("🔀 The %d discarded cards were shuffled into a new deck", e.Cards))
		case engine.Eliminated:
			cards := ""
			if e.Cards > 0 {
				cards = fmt.Sprintf(" and takes %s", chat.Plural(e.Cards, "card", "cards"))
			}
			lines = append(lines, fmt.Sprintf("☠️ %s is eliminated by %s%s", v.Who(s, e.Seat), v.Who(s, e.By), cards))
		case engine.Surrendered:
			lines = append(lines, fmt.Sprintf("🏳️ %s surrendered; their territories are neutral now", v.Who(s, e.Seat)))
		case engine.Won:
			lines = append(lines, fmt.Sprintf("🏆 **%s wins the match!**", v.Who(s, e.Seat)))
		case engine.Undone:
			lines = append(lines, fmt.Sprintf("↩️ %s took back: %s", v.Who(s, e.Seat), engine.Describe(s.Map, e.Command)))
		}
	}
	return lines
}

// battleLine describes one attack, of one roll or many.
func (v Voice) battleLine(s *state.State, rolls []engine.Rolled) string {
	first, last := rolls[0], rolls[len(rolls)-1]
	lostA, lostD := 0, 0
	for _, r := range rolls {
		lostA += r.AttackerLost
		lostD += r.DefenderLost
	}
	var dice []string
	for _, r := range rolls {
		dice = append(dice, diceText(r))
	}
	if len(dice) > 4 {
		dice = append(dice[:2], "…", dice[len(dice)-1])
	}
	how := "attacked"
	if len(rolls) > 1 {
		how = fmt.Sprintf("blitzed (%d rolls)", len(rolls))
	}
	return fmt.Sprintf("⚔️ %s %s %s from %s: %s — %s lost %d, %s lost %d",
		v.Who(s, first.Seat), how, s.Map.TerritoryName(first.To), s.Map.TerritoryName(first.From),
		strings.Join(dice, " · "), s.Seats[last.Seat].Name, lostA, defenderName(s, first.Defender), lostD)
}

func defenderName(s *state.State, seat int) string {
	if seat < 0 {
		return "neutral"
	}
	return s.Seats[seat].Name
}

// diceText shows a roll: "🎲 6 5 3 v 4 2".
func diceText(r engine.Rolled) string {
	var a, d []string
	for _, x := range r.AttackDice() {
		a = append(a, strconv.Itoa(x))
	}
	for _, x := range r.DefendDice() {
		d = append(d, strconv.Itoa(x))
	}
	return "🎲 " + strings.Join(a, " ") + " v " + strings.Join(d, " ")
}

func incomeText(s *state.State, in state.Income) string {
	text := chat.Plural(in.Total, "army", "armies")
	var parts []string
	parts = append(parts, fmt.Sprintf("%d for territories", in.Territories))
	for _, c := range in.Continents {
		parts = append(parts, fmt.Sprintf("%d for %s", s.Map.Continents[c].Bonus, s.Map.Continents[c].Name))
	}
	if len(parts) > 1 {
		text += " (" + strings.Join(parts, ", ") + ")"
	}
	return text
}

func CardList(m *state.Map, cards []state.Card) string {
	var names []string
	for _, c := range cards {
		names = append(names, m.CardName(c))
	}
	return strings.Join(names, ", ")
}

// Reminder is the message that pings whoever the match waits for.
func (v Voice) Reminder(m *hosted.Match) (news.Post, bool) {
	waiting := m.WaitingFor()
	if len(waiting) == 0 {
		return news.Post{}, false
	}
	var names []string
	for _, id := range waiting {
		names = append(names, chat.Mention(id))
	}
	what := "it is your turn"
	action := "a careful bot will play it for you"
	if m.Meta.Settings.OnTimeout == "skip" {
		action = "it will be skipped"
	}
	switch s := m.Game.State; {
	case s.Phase == state.PhaseSetup && hosted.IsCapitals(s):
		what = "it is your turn to choose a capital"
		action = "a careful bot will choose it for you"
	case s.Phase == state.PhaseSetup:
		what = "you still have armies to place"
	}
	return news.Post{Message: chat.Message{
		Text:     fmt.Sprintf("⏰ %s: %s. Time runs out %s; then %s.", strings.Join(names, " "), what, chat.Timestamp(m.Timers.Deadline), action),
		Mentions: waiting,
	}, Notice: news.ReminderPing}, true
}

// maxDigest bounds the digest's lines.
const maxDigest = 5
