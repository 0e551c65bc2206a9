package bot

import (
	"context"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
)

// token answers /risk me token: a new API token for the author's seat in
// this channel's match, told to them alone (whoever holds it plays the
// seat). The bot knows no address of the match API: it is served by
// `risk web` on the same database, if the operator runs it.
func (b *Bot) token(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := b.matches.Load(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	if _, err := m.Started(); err != nil {
		return hosted.Result{}, chat.Refuse("The match here has not started yet: a token plays a seat in a started match. Ask again after /risk start.")
	}
	seat, err := m.SeatOf(c.Req.User)
	if err != nil {
		return hosted.Result{}, chat.Refuse("You have no seat in this channel's match, so there is no token to give you: a token plays your own seat.")
	}
	tok, err := hosted.NewToken(ctx, b.cfg.Store, m.ID, c.Req.User, b.cfg.Now())
	if err != nil {
		return hosted.Result{}, err
	}
	name := m.Game.State.Seats[seat].Name
	return hosted.Result{Reply: chat.Private("🔑 Your API token for match %d (seat %s), for you alone: whoever has it plays your seat.\n`%s`\n"+
		"If your server runs the match API (`risk web` on the bot's database; ask its operator where), send it as `Authorization: Bearer TOKEN` to `/api/matches/%d`: docs/api.md says how. "+
		"Each /risk me token makes a new one; earlier ones keep working.", m.ID, chat.Trunc(name, 40), tok, m.ID)}, nil
}
