package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/server"
)

// An admin (Request.Admin) or the host may end a match without a winner:
// /risk abandon asks them to confirm with a button that expires. Lobbies
// that never start are closed after Config.LobbyTTL. Ended matches are kept
// (Abandoned), for /risk history, /risk status and risk export; a damaged
// match, one the bot cannot load, can be ended too, so that it never
// keeps its channel from hosting another.

// DefaultLobbyTTL is how long a lobby may wait for its start, without any
// change, before it is closed, unless Config.LobbyTTL says otherwise.
const DefaultLobbyTTL = 7 * 24 * time.Hour

// expireLobbies closes the lobbies of the bot's scope unchanged for
// LobbyTTL, saying so in their channels.
func (b *Bot) expireLobbies(ctx context.Context) error {
	// A server may keep its lobbies a day at the least: look at those idle
	// that long, and hold each to its server's rule.
	least := 24 * time.Hour
	if b.cfg.LobbyTTL > 0 {
		least = min(least, b.cfg.LobbyTTL)
	}
	idle, err := b.cfg.Store.IdleLobbies(ctx, b.cfg.Scope, b.cfg.Now().Add(-least))
	if err != nil {
		return err
	}
	var errs []error
	rules := map[string]server.Rules{}
	for _, row := range idle {
		if !b.serves(row.Channel) {
			continue
		}
		meta, _ := hosted.DecodeMeta(row.Meta)
		r, ok := rules[meta.Server]
		if !ok {
			if r, err = b.servers.Rules(ctx, meta.Server); err != nil {
				errs = append(errs, err)
				continue
			}
			rules[meta.Server] = r
		}
		ttl := b.servers.LobbyTTL(r)
		if ttl < 0 || row.Updated.After(b.cfg.Now().Add(-ttl)) {
			continue
		}
		unlock := b.locks.Lock(row.Channel)
		note := fmt.Sprintf("⌛ This channel's match never started: its lobby closed after %s without a change. Start another with /risk new.", server.DurationText(ttl))
		posts, err := b.lobby.End(ctx, row, note, "the lobby expired")
		unlock()
		if err != nil {
			if !errors.Is(err, hosted.ErrMovedOn) {
				errs = append(errs, fmt.Errorf("match %d: %w", row.ID, err))
			}
			continue
		}
		b.outbox.Deliver(ctx, row.Channel, posts)
	}
	return errors.Join(errs...)
}
