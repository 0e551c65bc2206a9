package bot

import (
	"github.com/riskbot/riskbot/bot/chat"
)

// A channel that refuses the bot's posts (it lost its permissions there,
// or the channel is gone) would make its match stop silently: turn
// results, maps and pings go nowhere, and nobody knows why. So the bot
// notes the refusal (a setting of scope "channel", outside the match, so
// that noting it does not make the match's buttons stale), tells the host
// directly once, and adds a word to every answer in that channel until it
// can post there again. The match itself goes on: its deadlines still
// fire.

// canHost refuses to open or start a match in a channel where the bot may
// not post: its turns would go unseen.
func canHost(lacks []string) error {
	if len(lacks) == 0 {
		return nil
	}
	return chat.Refuse("I cannot host a match in this channel: I lack %s here, and every turn is posted to the channel. An admin can give them to me in the channel's settings (Edit Channel → Permissions), or play in another channel.", chat.AndList(lacks))
}
