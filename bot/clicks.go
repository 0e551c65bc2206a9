package bot

import (
	"context"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/storage"
)

// HandleClick answers a button press.
func (b *Bot) HandleClick(ctx context.Context, c chat.Click, r chat.Replier) error {
	as := b.aside(ctx, c.Channel, c.User.ID, "click "+c.ID)
	res, err := b.click(ctx, c)
	name := "click"
	if bt, perr := hosted.ParseButton(c.ID); perr == nil {
		name = "click " + bt.Action
	}
	b.cfg.Meter.Command(name, resultOf(err))
	return b.finish(ctx, c.Channel, c.User, "click "+c.ID, c.BotLacks, c.Locale, res, err, r, as)
}

// clickSummary words a click for its author.
func clickSummary(c chat.Click) string {
	if c.Label == "" {
		return "a button"
	}
	return "the “" + c.Label + "” button"
}

// click answers a click under its channel's lock: a repeat once, the
// buttons of /risk host abandon's question without loading the match (it may
// be damaged), the lobby's buttons by the lobby, the others by play.
func (b *Bot) click(ctx context.Context, c chat.Click) (hosted.Result, error) {
	bt, err := hosted.ParseButton(c.ID)
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("bot.button.foreign")
	}
	unlock := b.locks.Lock(c.Channel)
	defer unlock()
	var rec *hosted.Record
	if c.Key != "" {
		if res, ok, err := b.repeated(ctx, c.Channel, c.User, c.Key, c.Locale); ok || err != nil {
			return res, err
		}
		rec = &hosted.Record{Req: storage.Request{Key: c.Key, User: c.User.ID, Summary: clickSummary(c)}}
	}
	if bt.Action == "abandon" || bt.Action == "keep" {
		// The match may be damaged: it is not loaded.
		return b.lobby.ClickAbandon(ctx, c, bt)
	}
	m, err := b.matches.ByID(ctx, bt.Match)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Rec = rec
	m.Reader = hosted.ReaderOf(c.Locale)
	var res hosted.Result
	switch {
	case m.Channel != c.Channel:
		return hosted.Result{}, chat.RefuseMsg("bot.button.elsewhere")
	case bt.Action == "rematch":
		res, err = b.lobby.Rematch(ctx, c, m)
	case lobby.Handles(bt.Action) && !m.Status.Open():
		return hosted.Result{}, chat.RefuseMsg("bot.button.over")
	case lobby.Handles(bt.Action):
		res, err = b.lobby.Click(ctx, c, bt, m)
	default:
		res, err = b.play.Click(ctx, c, bt, m)
	}
	if rec != nil && rec.Saved {
		res.Answers = c.Key
	}
	return res, err
}
