package play

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Click applies a click on a button of match m, of the channel clicked,
// under its channel's lock.
func (p *Play) Click(ctx context.Context, c chat.Click, bt hosted.Press, m *hosted.Match) (hosted.Result, error) {
	switch bt.Action {
	case "history":
		// Reading only: good at any version, and once the match is over.
		page := 0
		if len(bt.Args) > 0 {
			page = max(0, bt.Args[0])
		}
		return p.history(ctx, m, m.Game.State.SeatByID(c.User.ID), -1, page)
	case "view":
		return p.standings(ctx, m, c.User)
	}
	if m.Status != storage.Lobby && m.Status != storage.Active {
		return hosted.Result{}, chat.RefuseMsg("play.click.over")
	}
	switch bt.Action {
	case "rollback":
		// The host's or an admin's: they need no seat.
		return p.clickRollback(ctx, c, bt, m)
	case "autoplace":
		seat, err := m.SeatOf(c.User)
		if err != nil {
			return hosted.Result{}, err
		}
		if err := autoplaceApplies(m.Game.State, bt.Args); err != nil {
			return hosted.Result{}, err
		}
		return p.Act(ctx, m, seat, p.cfg.Look.To(m).Autoplaced(m, seat), engine.AutoPlace{})
	}
	switch bt.Action {
	case "mission":
		// Reading only, for the clicker alone: good at any moment.
		seat, err := m.SeatOf(c.User)
		if err != nil {
			return hosted.Result{}, err
		}
		line := p.cfg.Look.To(m).MissionLine(m.Game.State, seat)
		if line == "" {
			return hosted.Result{}, chat.RefuseMsg("play.click.no-missions")
		}
		return hosted.Result{Reply: chat.Private("%s", line)}, nil
	case "ready":
		// A round's Ready holds for the round, whatever the others
		// ordered since (each order is a new version of the match).
		seat, err := m.SeatOf(c.User)
		if err != nil {
			return hosted.Result{}, err
		}
		if s := m.Game.State; s.Phase != state.PhaseOrders || len(bt.Args) != 1 || bt.Args[0] != s.Turn {
			return hosted.Result{}, chat.RefuseMsg("play.click.round-over")
		}
		return p.endTurn(ctx, m, seat, "")
	case "goon":
		return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.click.play-on"))}, nil
	case "surrender":
		// The match may have moved on since the question: it holds until
		// it expires, for the seat it was asked of.
		seat, err := m.SeatOf(c.User)
		if err != nil {
			return hosted.Result{}, err
		}
		if len(bt.Args) != 2 || bt.Args[0] != seat || p.cfg.Now().Unix() > int64(bt.Args[1]) {
			return hosted.Result{}, chat.RefuseMsg("play.click.surrender-expired")
		}
		return p.Act(ctx, m, seat, nil, engine.Surrender{})
	}
	if bt.Version != m.Version {
		return hosted.Result{}, chat.RefuseMsg("play.click.stale")
	}
	seat, err := m.SeatOf(c.User)
	if err != nil {
		return hosted.Result{}, err
	}
	if s := m.Game.State; s.Current != seat {
		return hosted.Result{}, chat.RefuseMsg("play.click.not-yours", "Player", lang.Text(s.Seats[s.Current].Name))
	}
	arg := func(i int) int {
		if i < len(bt.Args) {
			return bt.Args[i]
		}
		return -1
	}
	s := m.Game.State
	switch bt.Action {
	case "attack":
		from, to := arg(0), arg(1)
		if from < 0 || from >= len(s.Terr) || to < 0 || to >= len(s.Terr) {
			return hosted.Result{}, chat.RefuseMsg("play.click.broken")
		}
		dice := max(1, engine.MaxDice(s.Terr[from].Armies))
		return p.Act(ctx, m, seat, func(out voice.Said) chat.Message { return p.cfg.Look.To(m).AttackReply(m, seat, from, to, out) },
			engine.Attack{From: from, To: to, Dice: dice})
	case "blitz":
		from, to := arg(0), arg(1)
		return p.Act(ctx, m, seat, func(out voice.Said) chat.Message { return p.cfg.Look.To(m).AttackReply(m, seat, from, to, out) },
			engine.Blitz{From: from, To: to, Keep: 1})
	case "occupy":
		return p.moveIn(ctx, m, seat, arg(0))
	case "end":
		return p.endTurn(ctx, m, seat, "")
	case "launch":
		return p.Act(ctx, m, seat, p.cfg.Look.To(m).Next(m, seat), engine.Launch{})
	case "use":
		it := s.Seats[seat].Capitals.Item
		return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
			return chat.Message{Text: p.cfg.Look.To(m).FitLines(out.Lines, 1600) + "\n" + p.cfg.Look.To(m).ItemEffect(it) + p.cfg.Look.To(m).NextStep(m, seat)}
		}, engine.UseItem{})
	case "move":
		// The fifth argument: the player was warned that the move empties
		// their capital (the question's button, or the share's label).
		return p.move(ctx, m, seat, engine.Move{From: arg(0), To: arg(1), Quarters: arg(2), Hero: arg(3) == 1}, arg(4) == 1)
	case "endanyway":
		return p.endTurn(ctx, m, seat, "")
	case "stop":
		return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.click.stopped"))}, nil
	}
	return hosted.Result{}, chat.RefuseMsg("play.click.gone")
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
