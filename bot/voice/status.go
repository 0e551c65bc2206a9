package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// CapitalsStatus is /risk show status for a capitals match.
func (v Voice) CapitalsStatus(m *hosted.Match) []string {
	s := m.Game.State
	lines := []string{"```", fmt.Sprintf("%-16s %5s %6s %-10s %-6s %4s", "player", "terr", "troops", "capital", "hero", "item")}
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
		default:
			locked = true
		}
		item := "-"
		if s.Seats[i].Capitals.Item != state.NoItem {
			item = "yes"
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %-10s %-6s %4s", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), capital, hero, item))
	}
	lines = append(lines, "```")
	if locked {
		// The table's word, and the map's padlock, explained where they
		// are met.
		lines = append(lines, "Hero *locked*: it appears on its player's capital once they hold territories of 4 different terrains "+
			"(plain, forest, mountain, desert, coastal), and fights with 20% of all their troops where it stands.")
	}
	if s.Phase == state.PhaseAction && s.Cap.NPlan > 0 {
		lines = append(lines, PlanText(s))
	}
	var lying []string
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem {
			what := "an item"
			if tr.Item == state.ItemFat {
				what = "the fat bonus (" + fatWhat + ")"
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
		limit := ""
		if engine.EndedAtRoundLimit(s) {
			limit = " at the round limit"
		}
		return fmt.Sprintf("The match is over: %s won%s after %s.", v.Winners(s), limit, chat.Plural(s.Turn, "turn", "turns"))
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
	if s.Phase == state.PhaseOrders {
		line := fmt.Sprintf("Round %d%s: everyone orders at once; %s", s.Turn, roundNote(s, s.Round), v.Readiness(s))
		if !m.Timers.Deadline.IsZero() {
			line += "; deadline " + chat.Timestamp(m.Timers.Deadline)
		}
		return line + "."
	}
	line := fmt.Sprintf("Turn %d%s: %s to play (%s phase)", s.Turn, roundNote(s, s.Round), v.WhoPlays(s, s.Current), s.Phase)
	if o := s.Occupy; s.Phase == state.PhaseOccupy && o.From == o.To {
		// A conquest out of the viewer's sight (the fog of war hides it).
		line = fmt.Sprintf("Turn %d%s: %s to play (moving into a territory just taken)", s.Turn, roundNote(s, s.Round), v.WhoPlays(s, s.Current))
	} else if s.Phase == state.PhaseOccupy {
		line = fmt.Sprintf("Turn %d%s: %s to move %d to %d armies from %s into %s, just taken (/risk occupy)",
			s.Turn, roundNote(s, s.Round), v.Who(s, s.Current), o.Min, o.Max, s.Map.TerritoryName(o.From), s.Map.TerritoryName(o.To))
	}
	if !m.Timers.Deadline.IsZero() && !m.IsBotSeat(s.Current) {
		line += ", deadline " + chat.Timestamp(m.Timers.Deadline)
	}
	return line + "."
}

// Standings is /risk show status's answer: where the match is, then the
// Standings in a card in the colour of the player to play, with the map.
func (v Voice) Standings(m *hosted.Match, lines []string) chat.Message {
	s := m.Game.State
	seat := s.Current
	if s.Phase == state.PhaseOver {
		seat = s.Winner
	}
	return chat.Message{Private: true, Text: lines[0], Image: v.mapOf(m, v.viewer()),
		Embed: &chat.Embed{Title: "Standings", Description: strings.Join(lines[1:], "\n"), Color: v.Color(seat)}}
}

// SettingsText words a match's settings.
func SettingsText(set hosted.Settings) string {
	o := set.Options
	timeout := "a careful bot plays for anyone out of time"
	if set.OnTimeout == "skip" {
		timeout = "a turn out of time is skipped"
	}
	colours := ""
	if set.Palette == command.PaletteColorBlind {
		colours = "; colour-blind palette"
	}
	limit := ""
	if o.Fog {
		limit = "; fog of war (each player sees their territories and their neighbours)"
	}
	if o.Rounds > 0 {
		limit += fmt.Sprintf("; ends after %s, the most territories winning", chat.Plural(o.Rounds, "round", "rounds"))
		if o.Teams > 0 {
			limit += " (a team's together)"
		}
	}
	if o.Teams > 0 {
		limit += fmt.Sprintf("; teams of %d (teammates never attack each other, may move armies to each other, and win together)", o.Teams)
	}
	if o.Rules == state.Capitals {
		return fmt.Sprintf("%s%s; %d h per turn, %s%s", capitalsSettings(o), limit, set.TurnHours, timeout, colours)
	}
	victory := "two thirds of the map wins"
	switch o.Victory {
	case state.Domination:
		victory = "total domination wins"
	case state.Missions:
		victory = "secret missions (the first to fulfil theirs wins)"
	}
	if o.Turns == state.Simultaneous {
		// Moves go one step at a time in rounds, whatever the fortify option.
		return fmt.Sprintf("%s rules on %s; simultaneous turns (everyone orders at once, each round resolves when all are ready); %s%s; %s cards; %d h per round, %s%s",
			o.Rules, BoardName(o.Map), victory, limit, o.Cards, set.TurnHours, timeout, colours)
	}
	return fmt.Sprintf("%s rules on %s; %s%s; %s cards; %s fortification; %d h per turn, %s%s",
		o.Rules, BoardName(o.Map), victory, limit, o.Cards, o.Fortify, set.TurnHours, timeout, colours)
}

// BoardName names a match's map in a sentence: "the classic map", "the
// islands-large map", or a library map by its title, "the map “Old
// Town”" ("a server's own map" if this process cannot load it).
func BoardName(name string) string {
	if !engine.IsLibraryName(name) {
		return "the " + name + " map"
	}
	if m, err := engine.LoadMap(name); err == nil && m.Title != "" {
		return "the map " + chat.Quote(m.Title)
	}
	return "a server's own map"
}

// MapChoiceName names a value of the map option as a suggestion shows it:
// "classic — the world of the rule book (42 territories)", "small —
// generated islands, 12 to 18 territories".
func MapChoiceName(name string) string {
	if z, err := genmap.ParseSize(name); err == nil {
		lo, hi := z.Territories()
		return fmt.Sprintf("%s — generated islands, %d to %d territories", name, lo, hi)
	}
	if z, ok := engine.IslandsSize(name); ok {
		lo, hi := z.Territories()
		return fmt.Sprintf("%s — generated islands, sea lanes, %d to %d territories", name, lo, hi)
	}
	if m, err := engine.LoadMap(name); err == nil {
		return fmt.Sprintf("%s — the world of the rule book (%d territories)", name, m.Len())
	}
	return name
}
