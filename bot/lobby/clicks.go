package lobby

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
)

// Handles reports whether a button's action is the lobby's: those of its
// message (join, addbot, start), and the answers to /risk host kick's
// question.
func Handles(action string) bool {
	switch action {
	case "join", "addbot", "start", "kick", "keepseat", "accept", "decline":
		return true
	}
	return false
}

// Click answers a press of one of the lobby's buttons on match m, open,
// under its channel's lock. The lobby's message shows everyone the same
// buttons: those for the host alone are refused to the others privately.
func (l *Lobby) Click(ctx context.Context, c chat.Click, bt hosted.Press, m *hosted.Match) (hosted.Result, error) {
	switch bt.Action {
	case "join", "addbot", "start", "accept", "decline":
		if m.Status != storage.Lobby {
			return hosted.Result{}, chat.RefuseMsg("lobby.started-watch")
		}
	}
	switch bt.Action {
	case "join":
		return l.join(ctx, m, c.User, 0)
	case "addbot":
		return l.addBot(ctx, m, c.User, "", false, "")
	case "start":
		return l.start(ctx, m, c.User, c.BotLacks)
	case "accept":
		return l.accept(ctx, m, c.User)
	case "decline":
		return l.decline(ctx, m, c.User)
	case "keepseat":
		return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.kick.kept"))}, nil
	case "kick":
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
	return hosted.Result{}, chat.RefuseMsg("lobby.button.stale")
}
