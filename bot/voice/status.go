package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Status words where a match stands and what the bot offers: the status,
// the standings, the settings, the games list, the help and the usage of a
// command.
type Status struct{ v Voice }

// Status is v saying where things stand.
func (v Voice) Status() Status { return Status{v} }

// Capitals is /risk show status for a capitals match.
func (st Status) Capitals(m *hosted.Match) []string {
	s := m.Game.State
	p := st.v.p
	lines := []string{"```", fmt.Sprintf("%-16s %5s %6s %-10s %-6s %4s", p.T("voice.status.col.player"), p.T("voice.status.col.territories"),
		p.T("voice.status.col.troops"), p.T("voice.status.col.capital"), p.T("voice.status.col.hero"), p.T("voice.status.col.item"))}
	locked := false // a living player's hero is still to be won
	for i := range s.Seats {
		name := s.Seats[i].Name
		if sm := m.Seat(i); sm.IsBot() || sm.Autopilot {
			name += "*"
		}
		if i == s.Current && s.Phase != state.PhaseOver {
			name = "▶ " + name
		}
		if !s.Seats[i].Alive() {
			lines = append(lines, fmt.Sprintf("%-16s %s", chat.Trunc(name, 16), st.v.Turns().seatStatus(s.Seats[i].Status)))
			continue
		}
		capital := "-"
		if t := s.Capital(i); t >= 0 {
			capital = chat.Trunc(p.PlaceName(s.Map.TerritoryName(t)), 10)
		}
		hero := p.T("voice.status.hero.locked")
		switch c := s.Seats[i].Capitals; {
		case c.Hero != 0:
			hero = p.T("voice.status.hero.alive")
		case c.HeroWon:
			hero = p.T("voice.status.hero.dead")
		default:
			locked = true
		}
		item := "-"
		if s.Seats[i].Capitals.Item != state.NoItem {
			item = p.T("voice.status.item.yes")
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %-10s %-6s %4s", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), capital, hero, item))
	}
	lines = append(lines, "```")
	if locked {
		// The table's word, and the map's padlock, explained where they
		// are met.
		lines = append(lines, p.T("voice.status.hero-locked"))
	}
	if s.Phase == state.PhaseAction && s.Cap.NPlan > 0 {
		lines = append(lines, st.v.Replies().PlanText(s))
	}
	var lying []string
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem {
			what := lang.M("voice.status.an-item")
			if tr.Item == state.ItemFat {
				what = lang.M("voice.status.fat", "What", lang.M("voice.tell.fat-what"))
			}
			lying = append(lying, p.T("voice.status.item", "What", what, "Territory", lang.Place(s.Map.TerritoryName(t)),
				"Turns", lang.M("n.turns", "Count", state.ItemLife-int(tr.ItemAge)+1)))
		}
	}
	if len(lying) > 0 {
		lines = append(lines, p.T("voice.status.items", "Items", lang.Text(strings.Join(lying, p.T("voice.tell.semicolon")))))
	}
	return lines
}

// capitalsSettings words a capitals match's own options.
func (st Status) capitalsSettings(o state.Options) string {
	size := o.Map
	if size == "" {
		size = "normal"
	}
	return st.v.p.T("voice.status.capitals-settings", "Size", size, "Min", o.NeutralMin, "Max", o.NeutralMax, "Capital", o.CapitalTroops)
}

// Line says in one line where the match is.
func (st Status) Line(m *hosted.Match) string {
	s := m.Game.State
	p := st.v.p
	if m.Status == storage.Abandoned {
		if m.Meta.Ended != "" {
			return p.T("voice.status.ended-by", "Ended", lang.Text(m.Meta.Ended), "Turn", s.Turn)
		}
		return p.T("voice.status.ended", "Turn", s.Turn)
	}
	switch s.Phase {
	case state.PhaseOver:
		args := []any{"Winners", lang.Text(st.v.Lobby().Winners(s)), "Turns", lang.M("n.turns", "Count", s.Turn)}
		if engine.EndedAtRoundLimit(s) {
			return p.T("voice.status.over-round-limit", args...)
		}
		return p.T("voice.status.over", args...)
	case state.PhaseSetup:
		if hosted.IsCapitals(s) {
			return p.T("voice.status.choosing-capitals", "Player", lang.Text(st.v.Who(s, s.Current)))
		}
		var waiting []string
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				waiting = append(waiting, fmt.Sprintf("%s (%d)", st.v.Who(s, i), s.Seats[i].Reserve))
			}
		}
		return p.T("voice.status.placing", "Who", lang.Text(strings.Join(waiting, ", ")))
	}
	note := lang.Text(st.v.Teller().round(s, s.Round))
	if s.Phase == state.PhaseOrders {
		line := p.T("voice.status.orders", "Round", s.Turn, "Note", note, "Readiness", lang.Text(st.Readiness(s)))
		if !m.Timers.Deadline.IsZero() {
			line += p.T("voice.status.orders-deadline", "Deadline", chat.Timestamp(m.Timers.Deadline))
		}
		return line + "."
	}
	line := p.T("voice.status.turn", "Turn", s.Turn, "Note", note, "Player", lang.Text(st.v.Lobby().WhoPlays(s, s.Current)), "Phase", st.phase(s.Phase))
	if o := s.Occupy; s.Phase == state.PhaseOccupy && o.From == o.To {
		// A conquest out of the viewer's sight (the fog of war hides it).
		line = p.T("voice.status.occupy-unseen", "Turn", s.Turn, "Note", note, "Player", lang.Text(st.v.Lobby().WhoPlays(s, s.Current)))
	} else if s.Phase == state.PhaseOccupy {
		line = p.T("voice.status.occupy", "Turn", s.Turn, "Note", note, "Player", lang.Text(st.v.Who(s, s.Current)), "Min", o.Min, "Max", o.Max,
			"From", lang.Place(s.Map.TerritoryName(o.From)), "To", lang.Place(s.Map.TerritoryName(o.To)))
	}
	if !m.Timers.Deadline.IsZero() && !m.IsBotSeat(s.Current) {
		line += p.T("voice.status.deadline", "Deadline", chat.Timestamp(m.Timers.Deadline))
	}
	return line + "."
}

// phase names a phase of a turn: "attack", "fortify". Its key is built
// from the phase's stable name (TestPhaseKeysExist), so a new phase needs
// only its words in the catalogue.
func (st Status) phase(ph state.Phase) lang.Msg {
	if _, err := ph.MarshalText(); err != nil {
		// A phase without a name: said as the number it is.
		return lang.M("voice.status.phase.other", "Phase", ph.String())
	}
	return lang.M("voice.status.phase." + ph.String())
}

// Standings is /risk show status's answer: where the match is, then the
// Standings in a card in the colour of the player to play, with the map.
func (st Status) Standings(m *hosted.Match, lines []string) chat.Message {
	s := m.Game.State
	seat := s.Current
	if s.Phase == state.PhaseOver {
		seat = s.Winner
	}
	return chat.Message{Private: true, Text: lines[0], Image: st.v.mapOf(m, st.v.viewer()),
		Embed: &chat.Embed{Title: st.v.p.T("voice.status.standings"), Description: strings.Join(lines[1:], "\n"), Color: st.v.Color(seat)}}
}

// Settings words a match's settings.
func (st Status) Settings(set hosted.Settings) string {
	p := st.v.p
	o := set.Options
	timeout := p.T("voice.status.set.bot-plays")
	if set.OnTimeout == "skip" {
		timeout = p.T("voice.status.set.skipped")
	}
	colours := ""
	if set.Palette == command.PaletteColorBlind {
		colours = p.T("voice.status.set.colour-blind")
	}
	limit := ""
	if o.Fog {
		limit = p.T("voice.status.set.fog")
	}
	if o.Rounds > 0 {
		limit += p.T("voice.status.set.rounds", "Rounds", lang.M("n.rounds", "Count", o.Rounds))
		if o.Teams > 0 {
			limit += p.T("voice.status.set.rounds-teams")
		}
	}
	if o.Teams > 0 {
		limit += p.T("voice.status.set.teams", "Count", o.Teams)
	}
	rest := []any{"Limit", lang.Text(limit), "Hours", set.TurnHours, "Timeout", lang.Text(timeout), "Colours", lang.Text(colours)}
	if o.Rules == state.Capitals {
		return p.T("voice.status.set.capitals", append(rest, "Capitals", lang.Text(st.capitalsSettings(o)))...)
	}
	victory := lang.M("voice.status.set.two-thirds")
	switch o.Victory {
	case state.Domination:
		victory = lang.M("voice.status.set.domination")
	case state.Missions:
		victory = lang.M("voice.status.set.missions")
	}
	// The options' values as a sentence says them (French agrees them).
	cards := lang.M("voice.status.set.cards-escalating")
	if o.Cards == state.Fixed {
		cards = lang.M("voice.status.set.cards-fixed")
	}
	rest = append(rest, "Rules", lang.M("voice.status.set.rules-classic"), "Board", lang.Text(st.BoardName(o.Map)), "Victory", victory, "Cards", cards)
	if o.Turns == state.Simultaneous {
		// Moves go one step at a time in rounds, whatever the fortify option.
		return p.T("voice.status.set.simultaneous", rest...)
	}
	fortify := lang.M("voice.status.set.fortify-connected")
	if o.Fortify == state.Adjacent {
		fortify = lang.M("voice.status.set.fortify-adjacent")
	}
	return p.T("voice.status.set.classic", append(rest, "Fortify", fortify)...)
}

// BoardName names a match's map in a sentence: "the classic map", "the
// islands-large map", or a library map by its title, "the map “Old
// Town”" ("a server's own map" if this process cannot load it).
func (st Status) BoardName(name string) string {
	if name == "classic" {
		return st.v.p.T("voice.status.board-classic")
	}
	if !engine.IsLibraryName(name) {
		return st.v.p.T("voice.status.board", "Name", name)
	}
	if m, err := engine.LoadMap(name); err == nil && m.Title != "" {
		return st.v.p.T("voice.status.board-titled", "Title", chat.Quote(m.Title))
	}
	return st.v.p.T("voice.status.board-own")
}

// MapChoiceName names a value of the map option as a suggestion shows it:
// "classic — the world of the rule book (42 territories)", "small —
// generated islands, 12 to 18 territories".
func (st Status) MapChoiceName(name string) string {
	if z, err := genmap.ParseSize(name); err == nil {
		lo, hi := z.Territories()
		return st.v.p.T("voice.status.map-generated", "Name", name, "Min", lo, "Max", hi)
	}
	if z, ok := engine.IslandsSize(name); ok {
		lo, hi := z.Territories()
		return st.v.p.T("voice.status.map-islands", "Name", name, "Min", lo, "Max", hi)
	}
	if m, err := engine.LoadMap(name); err == nil {
		return st.v.p.T("voice.status.map-rule-book", "Name", name, "Count", m.Len())
	}
	return name
}

// Readiness says who the round waits for: "2 of 3 ready; waiting for
// 🟦 Bob". Empty outside a simultaneous round.
func (st Status) Readiness(s *state.State) string {
	if s.Phase != state.PhaseOrders {
		return ""
	}
	ready, alive := 0, 0
	var waiting []string
	for i := range s.Seats {
		if !s.Seats[i].Alive() {
			continue
		}
		alive++
		if s.Seats[i].Ready {
			ready++
		} else {
			waiting = append(waiting, st.v.Who(s, i))
		}
	}
	return st.v.p.T("voice.order.readiness", "Count", ready, "Alive", alive, "Players", lang.Text(strings.Join(waiting, ", ")))
}
