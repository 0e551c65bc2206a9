package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// place places armies: where named, or everywhere automatically.
func (p classic) place(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	if q, ok := c.Args.Str["territory"]; !ok || strings.TrimSpace(q) == "" {
		if c.Args.Has("armies") {
			return hosted.Result{}, chat.RefuseMsg("play.place.armies-without-territory")
		}
		return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Autoplaced(m, seat), engine.AutoPlace{})
	}
	t, err := command.Territory(s, "territory", c.Args.Str["territory"])
	if err != nil {
		return hosted.Result{}, err
	}
	n, ok := c.Args.Num["armies"]
	if !ok {
		n = s.Seats[seat].Reserve
	}
	if n > s.Seats[seat].Reserve && s.Seats[seat].Reserve > 0 {
		return hosted.Result{}, chat.RefuseMsg("play.place.only", "Armies", armies(s.Seats[seat].Reserve))
	}
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Place{Territory: t, Armies: n})
}

// fromTo reads the from and to territories of a command.
func fromTo(c *hosted.Call, s *state.State) (from, to int, err error) {
	if from, err = command.Territory(s, "from", c.Args.Str["from"]); err != nil {
		return -1, -1, err
	}
	if to, err = command.Territory(s, "to", c.Args.Str["to"]); err != nil {
		return -1, -1, err
	}
	return from, to, nil
}

// trade trades the set named, or the best one.
func (p classic) trade(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	var set [3]state.Card
	if q, ok := c.Args.Str["cards"]; ok && q != "" {
		var err error
		set, err = parseCards(s, seat, q)
		if err != nil {
			return hosted.Result{}, err
		}
	} else {
		var ok bool
		set, ok = engine.BestSet(s, seat)
		if !ok {
			return hosted.Result{}, chat.RefuseMsg("play.trade.no-set", "Hand", handText(p.cfg.Look.To(m), s, seat))
		}
	}
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Trade{Cards: set})
}

// handText lists a hand briefly, as an argument of a message in v's
// language.
func handText(v voice.Voice, s *state.State, seat int) any {
	cards := s.Seats[seat].Hand.Cards()
	if len(cards) == 0 {
		return lang.M("play.hand.none")
	}
	return lang.Text(v.Teller().Cards(s.Map, cards))
}

// parseCards reads three cards: numbers from /risk show cards, or names of the
// territories on them ("wild" for a wild card).
func parseCards(s *state.State, seat int, q string) ([3]state.Card, error) {
	var set [3]state.Card
	hand := s.Seats[seat].Hand.Cards()
	fields := strings.FieldsFunc(q, func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '+' })
	if len(fields) != 3 {
		// Names may have spaces: try splitting on commas only.
		fields = strings.FieldsFunc(q, func(r rune) bool { return r == ',' || r == ';' || r == '+' })
	}
	if len(fields) != 3 {
		return set, chat.RefuseMsg("play.trade.three-cards", "Hand", numberedHand(s, seat))
	}
	used := map[state.Card]bool{}
	for i, f := range fields {
		f = strings.TrimSpace(f)
		var card state.Card
		found := false
		if n, err := strconv.Atoi(f); err == nil {
			if n < 1 || n > len(hand) {
				return set, chat.RefuseMsg("play.trade.no-card-number", "Number", n, "Hand", numberedHand(s, seat))
			}
			card, found = hand[n-1], true
		} else {
			for _, h := range hand {
				if used[h] {
					continue
				}
				if t, ok := s.Map.CardTerritory(h); (ok && strings.EqualFold(s.Map.Territories[t].Name, f)) || (!ok && strings.EqualFold(f, "wild")) {
					card, found = h, true
					break
				}
			}
			if !found {
				if err := command.CheckTyped("cards", f); err != nil {
					return set, err
				}
				if t, err := s.Map.Lookup(f); err == nil {
					for _, h := range hand {
						if ht, ok := s.Map.CardTerritory(h); ok && ht == t {
							card, found = h, true
						}
					}
				}
			}
		}
		if !found {
			return set, chat.RefuseMsg("play.cards.not-held", "Card", lang.Text(strconv.Quote(f)), "Hand", numberedHand(s, seat))
		}
		if used[card] {
			return set, chat.RefuseMsg("play.trade.same-card")
		}
		used[card] = true
		set[i] = card
	}
	return set, nil
}

// numberedHand lists a hand with the numbers trade accepts, as an
// argument of a message.
func numberedHand(s *state.State, seat int) any {
	var parts []string
	for i, c := range s.Seats[seat].Hand.Cards() {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, s.Map.CardName(c)))
	}
	if len(parts) == 0 {
		return lang.M("play.hand.no-cards")
	}
	return lang.Text(strings.Join(parts, "; "))
}

// attack rolls the dice once, or until:N.
func (p classic) attack(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	from, to, err := fromTo(c, s)
	if err != nil {
		return hosted.Result{}, err
	}
	if s.Phase == state.PhaseOrders {
		return p.order(ctx, c, m, seat, from, to)
	}
	if c.Args.Has("armies") {
		return hosted.Result{}, chat.RefuseMsg("play.attack.armies-outside-rounds", "From", place(s, from))
	}
	var cmd engine.Command
	var notes []string
	if until, ok := c.Args.Str["until"]; ok {
		keep := 1
		if u := strings.ToLower(until); u != "win" && u != "conquest" && u != "" {
			keep, err = strconv.Atoi(u)
			if err != nil || keep < 1 {
				return hosted.Result{}, chat.RefuseMsg("play.attack.until-invalid", "From", place(s, from), "Typed", lang.Text(strconv.Quote(until)))
			}
		}
		cmd = engine.Blitz{From: from, To: to, Keep: keep}
		if c.Args.Has("dice") {
			notes = append(notes, reader(m).T("play.attack.dice-with-until"))
		}
	} else {
		dice, ok := c.Args.Num["dice"]
		if !ok {
			dice = max(1, engine.MaxDice(s.Terr[from].Armies))
		}
		cmd = engine.Attack{From: from, To: to, Dice: dice}
	}
	keep := 0
	cmds := []engine.Command{cmd}
	if bz, ok := cmd.(engine.Blitz); ok {
		keep = bz.Keep
		if keep > 1 {
			// until:N keeps its promise: rolled as attacks with never more
			// dice than the armies above N, a conquest's move-in (at least
			// the last roll's dice) cannot take the source below N. The
			// rolls are worked out on a copy (the dice come from the
			// match's generator, so the copy rolls what the match will).
			var err error
			if cmds, err = untilRolls(s, seat, from, to, keep); err != nil {
				return hosted.Result{}, err
			}
		}
	}
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
		msg := p.cfg.Look.To(m).Replies().Attack(m, seat, from, to, out)
		if keep > 0 {
			if note := p.cfg.Look.To(m).Replies().Blitz(m.Game.State, from, to, keep); note != "" {
				notes = append(notes, note)
			}
		}
		if len(notes) > 0 {
			msg.Text += "\n" + strings.Join(notes, "\n")
		}
		return msg
	}, cmds...)
}

// maxUntilRolls bounds the rolls of one until:N.
const maxUntilRolls = 1000

// untilRolls are the attacks of a blitz that keeps keep armies on from,
// move-in included: each rolls as many dice as allowed but no more than
// the armies above keep. A first roll the rules refuse is refused with
// their reason.
func untilRolls(s *state.State, seat, from, to, keep int) ([]engine.Command, error) {
	// The rolls are worked out before the commands are applied: with fog
	// of war, the refusals of what lies out of sight come first.
	if err := inSight(s, seat, engine.Attack{From: from, To: to}); err != nil {
		return nil, err
	}
	sim := s.Clone()
	var cmds []engine.Command
	for len(cmds) < maxUntilRolls && sim.Phase == state.PhaseAttack && sim.Terr[to].Owner != seat {
		n := min(engine.MaxDice(sim.Terr[from].Armies), sim.Terr[from].Armies-keep)
		if n < 1 {
			break
		}
		c := engine.Attack{From: from, To: to, Dice: n}
		if _, err := engine.Apply(sim, seat, c); err != nil {
			return nil, ruleRefusal(err)
		}
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return nil, chat.RefuseMsg("play.attack.nothing-to-keep", "From", place(s, from), "Armies", armies(s.Terr[from].Armies), "Keep", keep)
	}
	return cmds, nil
}

// order gives an attack order in a simultaneous round: the armies named,
// or all that can go.
func (p classic) order(ctx context.Context, c *hosted.Call, m *hosted.Match, seat, from, to int) (hosted.Result, error) {
	s := m.Game.State
	for _, o := range []string{"dice", "until"} {
		if c.Args.Has(o) {
			return hosted.Result{}, chat.RefuseMsg("play.order.no-dice", "To", place(s, to))
		}
	}
	n, ok := c.Args.Num["armies"]
	if !ok {
		n = max(1, engine.Projected(s, seat, from)-1)
	}
	return p.Act(ctx, m, seat, nil, engine.Assault{From: from, To: to, Armies: n})
}

// occupy moves armies into the territory just taken.
func (p classic) occupy(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	n := c.Args.Num["armies"]
	if o := s.Occupy; s.Phase == state.PhaseOccupy && s.Current == seat && (n < o.Min || n > o.Max) {
		return hosted.Result{}, chat.RefuseMsg("play.occupy.range", "Min", o.Min, "Max", o.Max, "To", place(s, o.To), "From", place(s, o.From))
	}
	return p.moveIn(ctx, m, seat, n)
}

// moveIn moves n armies into the territory just taken.
func (p *Play) moveIn(ctx context.Context, m *hosted.Match, seat, n int) (hosted.Result, error) {
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
		msg := chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600) + p.cfg.Look.To(m).Replies().NextStep(m, seat)}
		if m.Game.State.Phase == state.PhaseAttack {
			msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.End), Label: reader(m).T("play.button.end-turn"), Style: chat.Success}}}
		}
		return msg
	}, engine.Occupy{Armies: n})
}

// fortify moves armies between territories of the player.
func (p classic) fortify(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	for _, o := range []string{"ratio", "hero"} {
		if c.Args.Has(o) {
			return hosted.Result{}, chat.RefuseMsg("play.fortify.capitals-option", "Option", o)
		}
	}
	from, to, err := fromTo(c, s)
	if err != nil {
		return hosted.Result{}, err
	}
	n, ok := c.Args.Num["armies"]
	if !ok {
		n = engine.Movable(s, from)
		if s.Phase == state.PhaseOrders {
			n = max(1, engine.Projected(s, seat, from)-1)
		}
	}
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
		msg := chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600)}
		if m.Game.State.Phase == state.PhaseFortify {
			msg.Text += "\n" + reader(m).T("play.fortify.end-hint")
			msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.End), Label: reader(m).T("play.button.end-turn"), Style: chat.Success}}}
		}
		return msg
	}, engine.Fortify{From: from, To: to, Armies: n})
}

// end ends the turn, discarding the card named if the hand is full.
func (p classic) end(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	return p.endTurn(ctx, m, seat, c.Args.Str["discard"])
}

// endTurn ends the seat's turn, discarding first if the hand is full.
func (p *Play) endTurn(ctx context.Context, m *hosted.Match, seat int, discard string) (hosted.Result, error) {
	s := m.Game.State
	var cmds []engine.Command
	if s.Current == seat && s.Conquered && s.Seats[seat].Hand.Len() >= 5 && (s.Phase == state.PhaseAttack || s.Phase == state.PhaseFortify) {
		card, err := p.pickDiscard(s, seat, discard)
		if err != nil {
			return hosted.Result{}, err
		}
		cmds = append(cmds, engine.Discard{Card: card})
	}
	cmds = append(cmds, engine.EndTurn{})
	unused := ""
	if _, discards := cmds[0].(engine.Discard); discard != "" && !discards {
		unused = " " + reader(m).T("play.end.discard-unused", "Typed", lang.Text(chat.Quote(discard)))
	}
	dropped, lapsed := 0, 0
	if hosted.IsCapitals(s) && s.Current == seat && s.Phase == state.PhaseAction {
		dropped = int(s.Cap.NPlan)
	}
	if hosted.IsCapitals(s) && s.Current == seat && s.Phase == state.PhaseReinforce {
		lapsed = s.Seats[seat].Reserve
	}
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
		if len(out.Turns) > 0 {
			text := reader(m).T("play.end.ended", "Player", lang.Text(p.cfg.Look.To(m).Who(s, seat)), "Turn", out.Turns[0].Turn)
			text += p.cfg.Look.To(m).Asks().DroppedNote(dropped) + p.cfg.Look.To(m).Asks().LapseNote(lapsed)
			return chat.Message{Text: text + unused}
		}
		return chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600)}
	}, cmds...)
}

// pickDiscard chooses the card to drop from a full hand: the one named, or
// one that no best set needs (never a wild when another will do).
func (p *Play) pickDiscard(s *state.State, seat int, named string) (state.Card, error) {
	hand := s.Seats[seat].Hand.Cards()
	if named != "" {
		if n, err := strconv.Atoi(named); err == nil && n >= 1 && n <= len(hand) {
			return hand[n-1], nil
		}
		for _, c := range hand {
			if strings.EqualFold(s.Map.CardName(c), named) || (strings.EqualFold(named, "wild") && s.Map.CardKind(c) == state.Wild) {
				return c, nil
			}
			if t, ok := s.Map.CardTerritory(c); ok && strings.EqualFold(s.Map.Territories[t].Name, named) {
				return c, nil
			}
		}
		return 0, chat.RefuseMsg("play.cards.not-held", "Card", lang.Text(strconv.Quote(named)), "Hand", numberedHand(s, seat))
	}
	best, _ := engine.BestSet(s, seat)
	for _, c := range hand {
		if c != best[0] && c != best[1] && c != best[2] && s.Map.CardKind(c) != state.Wild {
			return c, nil
		}
	}
	return hand[0], nil
}

func (p *Play) undo(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	if s := m.Game.State; hosted.IsCapitals(s) && s.Current == seat && s.Phase != state.PhaseOver && !m.Game.CanUndo(seat) {
		return hosted.Result{}, chat.Refuse("%s", p.cfg.Look.To(m).Asks().CapitalsNoUndo(s))
	}
	// The turn's record keeps the undone line and adds the undo's: what
	// others see of the turn stays honest.
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Undo{})
}

// surrenderConfirm is how long the question of /risk surrender stands.
const surrenderConfirm = 5 * time.Minute

// Surrender leaves the lobby, or asks whether the player really gives
// up a started match: the answer is a button that expires.
func (p *Play) Surrender(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := p.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if m.Status == storage.Lobby {
		return p.cfg.Leave(ctx, c, m)
	}
	seat, err := m.SeatOf(c.Req.User)
	if err != nil {
		return hosted.Result{}, err
	}
	s := m.Game.State
	expires := p.cfg.Now().Add(surrenderConfirm)
	what := lang.M("play.surrender.neutral")
	if hosted.IsCapitals(s) {
		what = lang.M("play.surrender.neutral-capitals")
	}
	lp := reader(m)
	return hosted.Result{Reply: chat.Message{Private: true,
		Text: lp.T("play.surrender.ask", "What", what, "Expires", lang.Text(chat.Timestamp(expires))),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID(button.Surrender, seat, int(expires.Unix())), Label: lp.T("play.button.give-up"), Style: chat.Danger},
			{ID: m.ButtonID(button.GoOn), Label: lp.T("play.button.keep-playing"), Style: chat.Secondary},
		}}}}, nil
}
