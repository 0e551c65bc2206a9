package bot

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/tokens"
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
	m.Reader = hosted.ReaderOf(c.Req.Locale)
	p := lang.For(m.ReaderLang())
	g, err := m.Started()
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("bot.token.not-started")
	}
	if c.Args.Str["revoke"] == "yes" {
		// A seat taken from its player (kicked) still has tokens to end:
		// its engine seat is enough.
		if g.State.SeatByID(c.Req.User.ID) < 0 {
			return hosted.Result{}, chat.RefuseMsg("bot.token.no-seat-revoke")
		}
		if err := tokens.Revoke(ctx, b.cfg.Store, m.ID, c.Req.User.ID, b.cfg.Now()); err != nil {
			return hosted.Result{}, err
		}
		return hosted.Result{Reply: chat.Private("%s", p.T("bot.token.revoked", "Match", m.ID))}, nil
	}
	seat, err := m.SeatOf(c.Req.User)
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("bot.token.no-seat")
	}
	tok, err := tokens.New(ctx, b.cfg.Store, m.ID, c.Req.User, b.cfg.Now())
	if err != nil {
		return hosted.Result{}, err
	}
	name := g.State.Seats[seat].Name
	return hosted.Result{Reply: chat.Private("%s", p.T("bot.token.new", "Match", m.ID, "Seat", lang.Text(chat.Trunc(name, 40)), "Token", lang.Text(tok)))}, nil
}
