package lobby

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
)

// actions is the lobby's table of clicks: the buttons of its message, an
// invitation's answers, and /risk host kick's question.
func (l *Lobby) actions() map[button.Action]click {
	return map[button.Action]click{
		button.Join: {true, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return l.join(ctx, m, c.User, 0)
		}},
		button.AddBot: {true, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return l.addBot(ctx, m, c.User, "", false, "")
		}},
		button.Start: {true, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return l.start(ctx, m, c.User, c.BotLacks)
		}},
		button.Accept: {true, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return l.accept(ctx, m, c.User)
		}},
		button.Decline: {true, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return l.decline(ctx, m, c.User)
		}},
		button.KeepSeat: {false, func(_ context.Context, _ chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.kick.kept"))}, nil
		}},
		button.Kick: {false, l.clickKick},
	}
}

// Clicks are the lobby's answers to presses of its buttons, by action,
// each run on match m, open, under its channel's lock. The lobby's
// message shows everyone the same buttons: those for the host alone are
// refused to the others privately.
func (l *Lobby) Clicks() map[button.Action]hosted.ClickFunc {
	out := map[button.Action]hosted.ClickFunc{}
	for a, h := range l.actions() {
		out[a] = func(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match) (hosted.Result, error) {
			if h.lobbyOnly && m.Status != storage.Lobby {
				return hosted.Result{}, chat.RefuseMsg("lobby.started-watch")
			}
			return h.run(ctx, c, bt, m)
		}
	}
	return out
}

// clickKick answers /risk host kick's question: the idle seat removed.
func (l *Lobby) clickKick(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match) (hosted.Result, error) {
	if len(bt.Args) != 2 || bt.Args[0] < 0 || bt.Args[0] >= len(m.Meta.Seats) || l.cfg.Now().Unix() > int64(bt.Args[1]) {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.expired")
	}
	if !c.Admin {
		if err := hostOnly(m, c.User, lang.M("lobby.what.remove")); err != nil {
			return hosted.Result{}, err
		}
	}
	if m.Status != storage.Active {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.over")
	}
	if m.Meta.Seats[bt.Args[0]].ID == c.User.ID {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.yourself")
	}
	return l.KickSeat(ctx, m, bt.Args[0])
}

// New returns a Lobby.
func New(c Config) *Lobby {
	return &Lobby{cfg: c}
}
