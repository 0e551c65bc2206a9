package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Standing orders (/risk notify away: defend: attack: caution:) say how a
// player's seat is played when they are not there: when their turn's time
// runs out, and, while they are away (until a date), at once when their
// turn starts. The channel is told the orders played. Any command of
// theirs in a match says they are back: away ends (the orders stay, for
// the next time out).

// orders are a player's standing orders, part of their choices (prefs).
type orders struct {
	// Defend names a continent (a region on generated maps) whose borders
	// get the reinforcements first.
	Defend string `json:"defend,omitempty"`
	// NoAttack: the seat never attacks (it still places and fortifies).
	NoAttack bool `json:"no_attack,omitempty"`
	// Caution is "careful" (the default, as "": the careful bot that
	// plays timed-out turns), "balanced" or "bold".
	Caution string `json:"caution,omitempty"`
}

// set reports whether any order is given.
func (o orders) set() bool { return o != orders{} }

// text words the orders: "defend Europe, no attacks, careful".
func (o orders) text() string {
	var parts []string
	if o.Defend != "" {
		parts = append(parts, "defend "+o.Defend)
	}
	if o.NoAttack {
		parts = append(parts, "no attacks")
	}
	if o.Caution != "" {
		parts = append(parts, o.Caution)
	}
	if len(parts) == 0 {
		return "the careful bot's play"
	}
	return strings.Join(parts, ", ")
}

// level is the computer level the orders play with.
func (o orders) level() string {
	switch o.Caution {
	case "bold":
		return "bold"
	case "balanced":
		return "normal"
	}
	return "cautious"
}

// away reports whether the player is away now.
func (p prefs) away(now time.Time) bool { return p.Away > now.Unix() }

// parseAway reads how long a player is away: a number of days ("3", "3d"),
// a date ("2026-12-24", to its end, UTC), or "off".
func parseAway(s string, now time.Time) (int64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "off" || s == "no" {
		return 0, nil
	}
	var days int
	if _, err := fmt.Sscanf(strings.TrimSuffix(s, "d"), "%d", &days); err == nil && fmt.Sprint(days) == strings.TrimSuffix(s, "d") {
		if days < 1 || days > 60 {
			return 0, chat.Refuse("away takes 1 to 60 days, not %d.", days)
		}
		return now.Add(time.Duration(days) * 24 * time.Hour).Unix(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		end := t.Add(24 * time.Hour)
		if !end.After(now) || end.Sub(now) > 61*24*time.Hour {
			return 0, chat.Refuse("away until %s: give a date in the next 60 days.", s)
		}
		return end.Unix(), nil
	}
	return 0, chat.Refuse("away takes a number of days (like 3d), a date (like 2026-12-24), or off; not %s.", chat.Quote(s))
}

// orderedPlayer plays a seat by its player's standing orders, over a
// computer player: reinforcements on the borders of the continent to
// defend (while it has any), and no attacks if so ordered.
type orderedPlayer struct {
	Player
	orders orders
}

// Act implements Player.
func (p orderedPlayer) Act(ctx context.Context, view *state.State, seat int) (engine.Command, error) {
	c, err := p.Player.Act(ctx, view, seat)
	if err != nil {
		return c, err
	}
	switch c := c.(type) {
	case engine.Attack, engine.Blitz, engine.Capture, engine.Plan, engine.Launch:
		if p.orders.NoAttack {
			return engine.EndTurn{}, nil
		}
	case engine.Place:
		if t := defendWhere(view, seat, p.orders.Defend); t >= 0 && t != c.Territory {
			return engine.Place{Territory: t, Armies: c.Armies}, nil
		}
	case engine.Reinforce:
		if t := defendWhere(view, seat, p.orders.Defend); t >= 0 {
			return engine.Reinforce{Territory: t}, nil
		}
	}
	return c, nil
}

// defendWhere is the seat's territory of the continent to defend that is
// the weakest against its enemy neighbours; -1 if none borders an enemy.
func defendWhere(s *state.State, seat int, continent string) int {
	if continent == "" || s.Phase == state.PhaseSetup {
		return -1
	}
	best, worst := -1, 0
	for _, c := range s.Map.Continents {
		if !strings.EqualFold(c.Name, continent) {
			continue
		}
		for _, t := range c.Territories {
			if s.Terr[t].Owner != seat {
				continue
			}
			threat := 0
			for _, n := range s.Map.Territories[t].Adj {
				if o := s.Terr[n].Owner; o != seat {
					threat += s.Terr[n].Armies
				}
			}
			if gap := threat - s.Terr[t].Armies; threat > 0 && (best < 0 || gap > worst) {
				best, worst = t, gap
			}
		}
	}
	return best
}

// welcomeBack ends the absence of a player who plays again, and says so
// ("" if they were not away).
func (b *Bot) welcomeBack(ctx context.Context, user string) string {
	p, err := b.prefsOf(ctx, user)
	if err != nil || p.Away == 0 {
		return ""
	}
	p.Away = 0
	if err := b.setPrefs(ctx, user, p); err != nil {
		b.cfg.Log.Error("end an absence", "user", user, "err", err)
		return ""
	}
	return "\nWelcome back: you are no longer away (your standing orders stay, for when your time runs out)."
}
