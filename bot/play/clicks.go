package play

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// actions is play's table of clicks: each action it answers, once.
func (p *Play) actions() map[button.Action]handler {
	return map[button.Action]handler{
		button.History: {anyTime, func(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			return p.history(ctx, m, m.Game.State.SeatByID(c.User.ID), -1, max(0, bt.Arg(0)))
		}},
		button.View: {anyTime, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			return p.standings(ctx, m, c.User)
		}},
		button.Map: {anyTime, func(_ context.Context, _ chat.Click, _ button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			// The chat opens the map instead, where it can (Discord's
			// Activity); these words are for where it cannot.
			msg := chat.Private("%s", reader(m).T("play.click.on-map"))
			msg.Activity = true
			return hosted.Result{Reply: msg}, nil
		}},
		button.Rollback: {whileOpen, func(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			return p.clickRollback(ctx, c, bt, m)
		}},
		button.GoOn: {whileOpen, func(_ context.Context, _ chat.Click, _ button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.click.play-on"))}, nil
		}},
		button.Autoplace: {seated, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			if err := autoplaceApplies(m.Game.State, bt.Args); err != nil {
				return hosted.Result{}, err
			}
			return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Autoplaced(m, seat), engine.AutoPlace{})
		}},
		button.Mission: {seated, func(_ context.Context, _ chat.Click, _ button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			// Reading only, for the clicker alone: good at any moment.
			line := p.cfg.Look.To(m).Missions().Line(m.Game.State, seat)
			if line == "" {
				return hosted.Result{}, chat.RefuseMsg("play.click.no-missions")
			}
			return hosted.Result{Reply: chat.Private("%s", line)}, nil
		}},
		button.Ready: {seated, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			// A round's Ready holds for the round, whatever the others
			// ordered since (each order is a new version of the match).
			if s := m.Game.State; s.Phase != state.PhaseOrders || len(bt.Args) != 1 || bt.Args[0] != s.Turn {
				return hosted.Result{}, chat.RefuseMsg("play.click.round-over")
			}
			return p.endTurn(ctx, m, seat, "")
		}},
		button.Surrender: {seated, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			// The match may have moved on since the question: it holds
			// until it expires, for the seat it was asked of.
			if len(bt.Args) != 2 || bt.Args[0] != seat || p.cfg.Now().Unix() > int64(bt.Args[1]) {
				return hosted.Result{}, chat.RefuseMsg("play.click.surrender-expired")
			}
			return p.Act(ctx, m, seat, nil, engine.Surrender{})
		}},
		button.Attack: {inTurn, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			s := m.Game.State
			from, to := bt.Arg(0), bt.Arg(1)
			if from < 0 || from >= len(s.Terr) || to < 0 || to >= len(s.Terr) {
				return hosted.Result{}, chat.RefuseMsg("play.click.broken")
			}
			dice := max(1, engine.MaxDice(s.Terr[from].Armies))
			return p.Act(ctx, m, seat, func(out voice.Said) chat.Message { return p.cfg.Look.To(m).Replies().Attack(m, seat, from, to, out) },
				engine.Attack{From: from, To: to, Dice: dice})
		}},
		button.Blitz: {inTurn, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			from, to := bt.Arg(0), bt.Arg(1)
			return p.Act(ctx, m, seat, func(out voice.Said) chat.Message { return p.cfg.Look.To(m).Replies().Attack(m, seat, from, to, out) },
				engine.Blitz{From: from, To: to, Keep: 1})
		}},
		button.Occupy: {inTurn, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			return p.moveIn(ctx, m, seat, bt.Arg(0))
		}},
		button.End:       {inTurn, p.clickEnd},
		button.EndAnyway: {inTurn, p.clickEnd},
		button.Launch: {inTurn, func(ctx context.Context, _ chat.Click, _ button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Launch{})
		}},
		button.Use: {inTurn, func(ctx context.Context, _ chat.Click, _ button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			it := m.Game.State.Seats[seat].Capitals.Item
			return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
				re := p.cfg.Look.To(m).Replies()
				return chat.Message{Text: re.Fit(out.Lines, 1600) + "\n" + re.ItemEffect(it) + re.NextStep(m, seat)}
			}, engine.UseItem{})
		}},
		button.Move: {inTurn, func(ctx context.Context, _ chat.Click, bt button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
			// The fifth argument: the player was warned that the move
			// empties their capital (the question's button, or the
			// share's label).
			return p.move(ctx, m, seat, engine.Move{From: bt.Arg(0), To: bt.Arg(1), Quarters: bt.Arg(2), Hero: bt.Arg(3) == 1}, bt.Arg(4) == 1)
		}},
		button.Stop: {inTurn, func(_ context.Context, _ chat.Click, _ button.Press, m *hosted.Match, _ int) (hosted.Result, error) {
			return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.click.stopped"))}, nil
		}},
	}
}

// clickEnd ends the clicker's turn.
func (p *Play) clickEnd(ctx context.Context, _ chat.Click, _ button.Press, m *hosted.Match, seat int) (hosted.Result, error) {
	return p.endTurn(ctx, m, seat, "")
}

// Clicks are play's answers to presses of its buttons, by action, each
// run on match m, of the channel clicked, under its channel's lock.
func (p *Play) Clicks() map[button.Action]hosted.ClickFunc {
	out := map[button.Action]hosted.ClickFunc{}
	for a, h := range p.actions() {
		out[a] = h.click
	}
	return out
}

// click runs a press of h's action: its gate, then its handler.
func (h handler) click(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match) (hosted.Result, error) {
	if h.gate == anyTime {
		return h.run(ctx, c, bt, m, -1)
	}
	if m.Status != storage.Lobby && m.Status != storage.Active {
		return hosted.Result{}, chat.RefuseMsg("play.click.over")
	}
	if h.gate == whileOpen {
		return h.run(ctx, c, bt, m, -1)
	}
	if h.gate == inTurn && bt.Version != m.Version {
		return hosted.Result{}, chat.RefuseMsg("play.click.stale")
	}
	seat, err := m.SeatOf(c.User)
	if err != nil {
		return hosted.Result{}, err
	}
	if s := m.Game.State; h.gate == inTurn && s.Current != seat {
		return hosted.Result{}, chat.RefuseMsg("play.click.not-yours", "Player", lang.Text(s.Seats[s.Current].Name))
	}
	return h.run(ctx, c, bt, m, seat)
}

// autoplaceApplies refuses a "Place automatically" button posted for
// another placement than the one under way: the initial placement's button
// must not place a later turn's reinforcements. Buttons from before the
// turn was part of the ID (no argument) were only ever posted for the
// initial placement.
func autoplaceApplies(s *state.State, args []int) error {
	turn := 0
	if len(args) > 0 {
		turn = args[0]
	}
	setup := s.Phase == state.PhaseSetup
	if (turn == 0) == setup && (setup || (s.Turn == turn && s.Phase == state.PhaseReinforce)) {
		return nil
	}
	posted := lang.M("play.click.initial-placement")
	if turn > 0 {
		posted = lang.M("play.click.turn", "Turn", turn)
	}
	return chat.RefuseMsg("play.click.autoplace-stale", "Posted", posted)
}
