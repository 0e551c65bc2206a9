package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/voice"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/luck"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
)

// When a match is won, the bot reveals the seed its commitment (posted at
// the start) stands for, tells each player's luck against the exact odds,
// and records the result for the server's leaderboard.

// replayLimit is the most bytes a replay may take: the smallest upload
// limit a Discord server may have.
const replayLimit = 8 << 20

// replayer is a renderer that can draw a whole match (package render's).
type replayer interface {
	Replay(ctx context.Context, turns []*state.State, o render.ReplayOptions) ([]byte, render.ReplayInfo, error)
	Strip(ctx context.Context, turns []*state.State, o render.ReplayOptions) ([]byte, render.ReplayInfo, error)
}

// wholeMatch answers /risk history show:replay|strip|luck|verify.
func (b *Bot) wholeMatch(ctx context.Context, m *hosted.Match, show string) (hosted.Result, error) {
	if _, err := m.Started(); err != nil {
		return hosted.Result{}, err
	}
	x, err := b.cfg.Store.Export(ctx, m.ID)
	if err != nil {
		return hosted.Result{}, err
	}
	switch show {
	case "luck":
		rep, err := luck.Of(x.Record)
		if err != nil {
			return hosted.Result{}, fmt.Errorf("bot: the luck of match %d: %w", m.ID, err)
		}
		return hosted.Result{Reply: chat.Message{Private: true, Embed: &chat.Embed{Title: "Luck against the exact odds", Description: voice.LuckField(rep.String())}}}, nil
	case "verify":
		if m.Status.Open() {
			return hosted.Result{}, chat.Refuse("The seed is revealed when the match ends; until then its commitment, `%s`, is all there is to check.", m.Game.Commitment())
		}
		// The commitment that counts is the one posted at the start, in
		// everyone's channel: the answer shows it, to compare.
		published := x.Record.Commitment
		if published == "" {
			published = m.Game.Commitment()
		}
		v, err := engine.Verify(x.Record, published)
		if err != nil {
			return hosted.Result{}, fmt.Errorf("bot: verify match %d: %w", m.ID, err)
		}
		return hosted.Result{Reply: chat.Message{Private: true, Embed: &chat.Embed{Title: "Fair dice", Description: strings.TrimSpace(v.String()),
			Footer: "Compare the commitment with the one in the match's start post: " + published}}}, nil
	}
	r := b.look.Palette(m).Render
	for {
		w, ok := r.(interface{ Unwrap() look.Renderer })
		if _, can := r.(replayer); can || !ok {
			break
		}
		r = w.Unwrap() // a renderer wrapped for metrics
	}
	rp, ok := r.(replayer)
	if !ok {
		return hosted.Result{}, chat.Refuse("This bot cannot draw replays.")
	}
	turns, err := x.Record.Turns()
	if err != nil {
		return hosted.Result{}, fmt.Errorf("bot: the turns of match %d: %w", m.ID, err)
	}
	draw, name, what := rp.Replay, fmt.Sprintf("risk-replay-%d.gif", m.ID), "an animation, one frame a turn"
	if show == "strip" {
		draw, name, what = rp.Strip, fmt.Sprintf("risk-replay-%d.png", m.ID), "every turn's map, small"
	}
	im := chat.NewImage(name, func(ctx context.Context) ([]byte, error) {
		data, _, err := draw(ctx, turns, render.ReplayOptions{Limit: replayLimit})
		return data, err
	})
	return hosted.Result{Reply: chat.Message{Private: true, Text: fmt.Sprintf("The whole match, %d turns: %s.", len(turns)-1, what), Image: im}}, nil
}
