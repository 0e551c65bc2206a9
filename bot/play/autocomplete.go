package play

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Autocomplete suggests values for the focused option of a request, as the
// user types: only what is legal for that option in the current phase, best
// matches first. It never fails; no match means no suggestions.
func (p *Play) Autocomplete(ctx context.Context, req chat.Request, focused string) []chat.Choice {
	if focused == "map" {
		return p.mapChoices(ctx, req)
	}
	if focused == "name" && strings.HasPrefix(req.Command, command.MapGroup+" ") {
		return p.libraryChoices(ctx, lang.For(lang.FromLocale(req.Locale)), req.Server, req.Options["name"])
	}
	m, err := p.cfg.Matches.Load(ctx, req.Channel)
	if err != nil {
		return nil
	}
	typed := req.Options[focused]
	switch {
	case focused == "player" && (req.Command == "host kick" || req.Command == "join"):
		return p.playerChoices(m, req.Command, typed)
	case m.Status != storage.Active:
		return nil
	}
	s := m.Game.State
	seat := s.SeatByID(req.User.ID)
	if seat < 0 {
		return nil
	}
	return choices(s, seat, req, focused)
}

// choices suggests values for the focused option of seat's request on s:
// with fog of war, from what seat sees of it (state.View), lest the
// suggestions tell what lies in the fog (issue 42).
func choices(s *state.State, seat int, req chat.Request, focused string) []chat.Choice {
	if s.HasFog() {
		s = s.View(seat)
	}
	typed := req.Options[focused]
	lp := lang.For(lang.FromLocale(req.Locale))
	if hosted.IsCapitals(s) {
		return capitalsChoices(s, seat, req, focused)
	}
	var ids []int
	command := req.Command
	if command == "show odds" {
		command = "attack" // the same territories
	}
	switch command + "." + focused {
	case "place.territory":
		if s.Seats[seat].Reserve > 0 {
			ids = owned(s, seat, func(int) bool { return true })
		}
	case "attack.from":
		ids = owned(s, seat, func(t int) bool { return s.Terr[t].Armies >= 2 && s.BordersEnemy(t) })
	case "attack.to":
		if from, err := s.Map.Lookup(req.Options["from"]); err == nil && s.Terr[from].Owner == seat {
			ids = enemyNeighbours(s, from, seat)
		} else {
			seen := map[int]bool{}
			for _, f := range owned(s, seat, func(t int) bool { return s.Terr[t].Armies >= 2 }) {
				for _, n := range enemyNeighbours(s, f, seat) {
					if !seen[n] {
						seen[n] = true
						ids = append(ids, n)
					}
				}
			}
		}
	case "attack.until":
		return untilChoices(lp, s, req.Options["from"], typed)
	case "fortify.from":
		ids = owned(s, seat, func(t int) bool { return engine.Movable(s, t) > 0 })
	case "fortify.to":
		if from, err := s.Map.Lookup(req.Options["from"]); err == nil && s.Terr[from].Owner == seat {
			// Own territories, and a teammate's: armies may go there too.
			ids = friendly(s, seat, func(t int) bool {
				if t == from {
					return false
				}
				if s.Options.Fortify == state.Adjacent {
					return s.Map.Adjacent(from, t)
				}
				return engine.Connected(s, seat, from, t)
			})
		} else {
			ids = owned(s, seat, func(int) bool { return true })
		}
	case "trade.cards":
		return tradeChoices(lp, s, seat)
	case "end.discard":
		var out []chat.Choice
		for _, c := range s.Seats[seat].Hand.Cards() {
			out = append(out, chat.Choice{Name: s.Map.CardName(c), Value: cardValue(s, c)})
		}
		return out
	default:
		return nil
	}
	// An attack's target shows the odds of taking it from the source given.
	from := -1
	if command == "attack" && focused == "to" {
		if f, err := s.Map.Lookup(req.Options["from"]); err == nil && s.Terr[f].Owner == seat && s.Terr[f].Armies >= 2 {
			from = f
		}
	}
	var out []chat.Choice
	for _, id := range s.Map.Rank(typed, ids) {
		t := s.Terr[id]
		name := lp.T("play.choice.territory", "Territory", lang.Text(lp.PlaceName(s.Map.Territories[id].Name)), "Armies", armies(t.Armies))
		if from >= 0 {
			if o, err := engine.AttackOdds(s.Terr[from].Armies, t.Armies); err == nil {
				name += " — " + voice.Speaking(lp.Tag()).Replies().Odds(o)
			}
		}
		out = append(out, chat.Choice{Name: name, Value: s.Map.Territories[id].Name})
		if len(out) == chat.MaxChoices {
			break
		}
	}
	return out
}

func owned(s *state.State, seat int, keep func(t int) bool) []int {
	var ids []int
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && keep(t) {
			ids = append(ids, t)
		}
	}
	return ids
}

// friendly is owned with the territories of seat's teammates too.
func friendly(s *state.State, seat int, keep func(t int) bool) []int {
	var ids []int
	for t := range s.Terr {
		if o := s.Terr[t].Owner; (o == seat || s.Sides().Teammates(seat, o)) && keep(t) {
			ids = append(ids, t)
		}
	}
	return ids
}

// enemyNeighbours are t's neighbours seat may attack: neither its own nor
// a teammate's.
func enemyNeighbours(s *state.State, t, seat int) []int {
	var ids []int
	for _, n := range s.Map.Territories[t].Adj {
		if !s.Sides().Same(s.Terr[n].Owner, seat) {
			ids = append(ids, n)
		}
	}
	return ids
}

func untilChoices(lp lang.Printer, s *state.State, fromName, typed string) []chat.Choice {
	out := []chat.Choice{{Name: lp.T("play.choice.until-win"), Value: "win"}}
	if from, err := s.Map.Lookup(fromName); err == nil {
		for k := 2; k < s.Terr[from].Armies && len(out) < chat.MaxChoices; k++ {
			out = append(out, chat.Choice{Name: lp.T("play.choice.until-keep", "Keep", k, "From", place(s, from)), Value: fmt.Sprint(k)})
		}
	}
	var kept []chat.Choice
	for _, c := range out {
		if strings.HasPrefix(c.Value, strings.ToLower(strings.TrimSpace(typed))) {
			kept = append(kept, c)
		}
	}
	return kept
}

func tradeChoices(lp lang.Printer, s *state.State, seat int) []chat.Choice {
	var out []chat.Choice
	for _, set := range engine.Sets(s.Map, s.Seats[seat].Hand) {
		var names []string
		for _, c := range set {
			names = append(names, s.Map.CardName(c))
		}
		name := lp.T("play.choice.set", "Cards", lang.Text(strings.Join(names, ", ")), "Value", engine.SetValue(s, set))
		if len(name) > 100 {
			name = name[:99] + "…"
		}
		// Named by territory, as /risk show cards shows them: a name stays right
		// when the hand changes, a position would not.
		out = append(out, chat.Choice{Name: name, Value: setNames(s, set)})
		if len(out) == chat.MaxChoices {
			break
		}
	}
	return out
}

func (p *Play) playerChoices(m *hosted.Match, command, typed string) []chat.Choice {
	var out []chat.Choice
	for _, s := range m.Meta.Seats {
		if command == "join" && !s.Autopilot {
			continue
		}
		if command == "host kick" && s.ID == m.Meta.Host {
			continue
		}
		if typed != "" && !strings.HasPrefix(strings.ToLower(s.Name), strings.ToLower(strings.TrimSpace(typed))) {
			continue
		}
		out = append(out, chat.Choice{Name: s.Name, Value: s.Name})
	}
	return out
}

// mapChoices suggests the maps of the rule set a match is set to play:
// the rules typed beside the map, else (host settings) the lobby's, else
// classic's. A capitals match is never offered the classic world.
func (p *Play) mapChoices(ctx context.Context, req chat.Request) []chat.Choice {
	rules := state.Classic
	if r, err := state.ParseRules(strings.TrimSpace(req.Options["rules"])); err == nil {
		rules = r
	} else if req.Command == "host settings" {
		if m, err := p.cfg.Matches.Load(ctx, req.Channel); err == nil && m.Status == storage.Lobby {
			rules = m.Meta.Settings.Options.Rules
		}
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options["map"]))
	v := voice.Voice{}.In(lang.FromLocale(req.Locale))
	var out []chat.Choice
	for _, name := range hosted.MapChoices(rules) {
		if strings.HasPrefix(name, typed) {
			out = append(out, chat.Choice{Name: v.Status().MapChoiceName(name), Value: name})
		}
	}
	if rules == state.Classic {
		// The server's own maps are played with the classic rules.
		out = append(out, p.libraryChoices(ctx, lang.For(lang.FromLocale(req.Locale)), req.Server, typed)...)
	}
	return out
}

// maxLibraryChoices bounds the maps of a server's library suggested at
// once (Discord shows 25 choices).
const maxLibraryChoices = 20

// libraryChoices suggests the maps of a server's library whose name
// starts with what was typed (or holds it, after those), with their size.
func (p *Play) libraryChoices(ctx context.Context, lp lang.Printer, scope, typed string) []chat.Choice {
	if scope == "" {
		return nil
	}
	ms, err := p.cfg.Servers.Library().List(ctx, scope)
	if err != nil {
		p.cfg.Log.Warn("autocomplete: list the maps of a server", "server", scope, "err", err)
		return nil
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	var first, then []chat.Choice
	for _, m := range ms {
		c := chat.Choice{Name: lp.T("play.choice.library-map", "Map", lang.Text(m.Name), "Territories", lang.M("play.n.territories", "Count", m.Territories)), Value: m.Name}
		switch folded := strings.ToLower(m.Name); {
		case strings.HasPrefix(folded, typed):
			first = append(first, c)
		case strings.Contains(folded, typed):
			then = append(then, c)
		}
	}
	out := append(first, then...)
	return out[:min(len(out), maxLibraryChoices)]
}

// Offered reports whether a page or console should offer option of
// command (by its full name) to someone adding options in channel: an
// option the match as it stands refuses is not offered (armies: of an
// attack outside simultaneous rounds, dice: and until: inside them or in
// capitals, ratio: and hero: outside capitals). Without a match under way
// every option is offered.
func (p *Play) Offered(ctx context.Context, channel, command, option string) bool {
	m, err := p.cfg.Matches.Load(ctx, channel)
	if err != nil || m.Status != storage.Active || m.Game == nil {
		return true
	}
	return applies(m.Game.State, command, option)
}

// applies reports whether the rules of s take option of command.
func applies(s *state.State, command, option string) bool {
	capitals := hosted.IsCapitals(s)
	rounds := s.Options.Turns == state.Simultaneous
	switch command + "." + option {
	case "attack.armies":
		return rounds
	case "attack.dice", "attack.until":
		return !rounds && !capitals
	case "fortify.armies", "place.armies":
		return !capitals
	case "fortify.ratio", "fortify.hero":
		return capitals
	}
	return true
}
