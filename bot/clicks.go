package bot

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
)

// HandleClick answers a button press.
func (b *Bot) HandleClick(ctx context.Context, c chat.Click, r chat.Replier) error {
	as := aside(c.Channel, c.User.ID, false) // a click is no sign its author is back
	res, err := b.click(ctx, c, as.reads)
	name := "click"
	if bt, perr := button.Parse(c.ID); perr == nil {
		name = "click " + string(bt.Action)
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

// clickHandler answers one action's clicks. A handler that needs no
// match (the buttons of /risk host abandon's question: the match may be
// damaged, so it is not loaded) is given nil.
type clickHandler struct {
	noMatch bool
	run     hosted.ClickFunc
}

// clickTable is the bot's one table from a button's action to its
// handler: the abandon question's, the rematch, the lobby's and play's.
// TestEveryActionHasOneHandler checks it holds every action once.
func (b *Bot) clickTable() (map[button.Action]clickHandler, error) {
	t := map[button.Action]clickHandler{
		button.Abandon: {true, func(ctx context.Context, c chat.Click, bt button.Press, _ *hosted.Match) (hosted.Result, error) {
			return b.lobby.ClickAbandon(ctx, c, bt)
		}},
		button.Rematch: {false, func(ctx context.Context, c chat.Click, _ button.Press, m *hosted.Match) (hosted.Result, error) {
			return b.lobby.Rematch(ctx, c, m)
		}},
	}
	t[button.Keep] = t[button.Abandon]
	// The lobby's buttons hold while the match is open.
	lobby := b.lobby.Clicks()
	for a, run := range lobby {
		lobby[a] = func(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match) (hosted.Result, error) {
			if !m.Status.Open() {
				return hosted.Result{}, chat.RefuseMsg("bot.button.over")
			}
			return run(ctx, c, bt, m)
		}
	}
	for _, by := range []map[button.Action]hosted.ClickFunc{lobby, b.play.Clicks()} {
		for a, run := range by {
			if _, ok := t[a]; ok {
				return nil, fmt.Errorf("bot: two handlers for the button action %q", a)
			}
			t[a] = clickHandler{run: run}
		}
	}
	return t, nil
}

// click answers a click: its action's handler (clickTable), run by the
// routine that runs commands (apply).
func (b *Bot) click(ctx context.Context, c chat.Click, reads *storage.Reads) (hosted.Result, error) {
	bt, err := button.Parse(c.ID)
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("bot.button.foreign")
	}
	h, ok := b.clicks[bt.Action]
	if !ok {
		// A button of another version of the bot's, or made up.
		return hosted.Result{}, chat.RefuseMsg("play.click.gone")
	}
	return b.apply(ctx, request{channel: c.Channel, user: c.User, key: c.Key, locale: c.Locale, summary: clickSummary(c),
		run: func(ctx context.Context, rec *hosted.Record) (hosted.Result, error) {
			if h.noMatch {
				return h.run(ctx, c, bt, nil)
			}
			m, err := b.matches.ByID(ctx, bt.Match)
			if err != nil {
				return hosted.Result{}, err
			}
			m.Rec, m.Reads = rec, reads
			m.Reader = hosted.ReaderOf(c.Locale)
			if m.Channel != c.Channel {
				return hosted.Result{}, chat.RefuseMsg("bot.button.elsewhere")
			}
			return h.run(ctx, c, bt, m)
		}})
}
