package bot

import (
	"context"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
)

// token answers /risk me token: a new API token for the author's seat in
// this channel's match, told to them alone (whoever holds it plays the
// seat); with revoke:yes, the end of every token of that seat instead. The
// bot knows no address of the match API: it is served by `risk web` on the
// same database, if the operator runs it.
func (b *Bot) token(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := b.matches.Load(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	g, err := m.Started()
	if err != nil {
		return hosted.Result{}, chat.Refuse("The match here has not started yet: a token plays a seat in a started match. Ask again after /risk start.")
	}
	if c.Args.Str["revoke"] == "yes" {
		// A seat taken from its player (kicked) still has tokens to end:
		// its engine seat is enough.
		if g.State.SeatByID(c.Req.User.ID) < 0 {
			return hosted.Result{}, chat.Refuse("You have no seat in this channel's match, so you have no token here to revoke.")
		}
		if err := hosted.RevokeTokens(ctx, b.cfg.Store, m.ID, c.Req.User.ID, b.cfg.Now()); err != nil {
			return hosted.Result{}, err
		}
		return hosted.Result{Reply: chat.Private("🔒 Every API token of your seat in match %d is revoked: they play and see nothing now. /risk me token makes a new one.", m.ID)}, nil
	}
	seat, err := m.SeatOf(c.Req.User)
	if err != nil {
		return hosted.Result{}, chat.Refuse("You have no seat in this channel's match, so there is no token to give you: a token plays your own seat.")
	}
	tok, err := hosted.NewToken(ctx, b.cfg.Store, m.ID, c.Req.User, b.cfg.Now())
	if err != nil {
		return hosted.Result{}, err
	}
	name := g.State.Seats[seat].Name
	return hosted.Result{Reply: chat.Private("🔑 Your API token for match %d (seat %s), for you alone: whoever has it plays your seat.\n`%s`\n"+
		"If your server runs the match API (`risk web` on the bot's database; ask its operator where), send it as `Authorization: Bearer TOKEN` to `/api/matches/%d`: docs/api.md says how. "+
		"Each /risk me token makes a new one; /risk me token revoke:yes ends them all.", m.ID, chat.Trunc(name, 40), tok, m.ID)}, nil
}
