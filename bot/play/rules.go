package play

import (
	"context"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
)

// rules is the play of one rule set: what each command of a player means
// in it. The classic and the capitals rule sets are its two layers
// (classic.go, capitals.go); a command another rule set has no use for is
// refused there, saying what to do instead.
type rules interface {
	place(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	trade(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	attack(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	occupy(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	fortify(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	end(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	port(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	launch(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
	cards(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)
}

// classic is the classic rule set's play.
type classic struct{ *Play }

// capitals is the capitals rule set's play. It reuses the classic
// subcommands where the meaning is the same: place (the capital, then
// each turn's reinforcements), attack (a neutral target is captured, an
// enemy one is planned), fortify (the turn's move, by quarters), end
// (pass), surrender (abandon) and cards (the item); port and launch are
// its own.
type capitals struct{ *Play }

// rules returns the play of match m's rule set.
func (p *Play) rules(m *hosted.Match) rules {
	if hosted.IsCapitals(m.Game.State) {
		return capitals{p}
	}
	return classic{p}
}

// ruled makes a command of a seated player that each rule set plays its
// own way.
func (p *Play) ruled(h func(r rules, ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error)) hosted.Handler {
	return p.seated(func(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
		return h(p.rules(m), ctx, c, m, seat)
	})
}

// port is refused in classic.
func (classic) port(context.Context, *hosted.Call, *hosted.Match, int) (hosted.Result, error) {
	return hosted.Result{}, chat.RefuseMsg("play.classic.no-port")
}

// launch is refused in classic.
func (classic) launch(context.Context, *hosted.Call, *hosted.Match, int) (hosted.Result, error) {
	return hosted.Result{}, chat.RefuseMsg("play.classic.no-launch")
}

// trade is refused in capitals.
func (capitals) trade(context.Context, *hosted.Call, *hosted.Match, int) (hosted.Result, error) {
	return hosted.Result{}, chat.RefuseMsg("play.capitals.no-trade")
}

// occupy is refused in capitals.
func (capitals) occupy(context.Context, *hosted.Call, *hosted.Match, int) (hosted.Result, error) {
	return hosted.Result{}, chat.RefuseMsg("play.capitals.no-occupy")
}
