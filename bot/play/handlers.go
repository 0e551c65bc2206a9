package play

import (
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/lru"
)

// New returns a Play.
func New(c Config) *Play {
	return &Play{cfg: c, retold: lru.New[retoldKey, *retold](cachedRetold)}
}

// Handlers are the commands of a match under way, by their full name.
func (p *Play) Handlers() map[string]hosted.Handler {
	return map[string]hosted.Handler{
		"place":         p.ruled(rules.place),
		"trade":         p.ruled(rules.trade),
		"attack":        p.ruled(rules.attack),
		"occupy":        p.ruled(rules.occupy),
		"fortify":       p.ruled(rules.fortify),
		"end":           p.ruled(rules.end),
		"undo":          p.seated(p.undo),
		"surrender":     p.Surrender,
		"port":          p.ruled(rules.port),
		"launch":        p.ruled(rules.launch),
		"show cards":    p.ruled(rules.cards),
		"show status":   p.status,
		"show odds":     p.odds,
		"show history":  p.historyCmd,
		"host rollback": p.Rollback,
	}
}
