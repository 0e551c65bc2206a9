package voice

import (
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// Help is the answer to /risk help: how to play, and every command.
func Help(specs []command.Spec) chat.Message {
	var names []string
	for _, s := range specs {
		names = append(names, s.FullName())
	}
	text := strings.Join([]string{
		"**Risk in chat**: conquer the world with dice, one slash command at a time.",
		"**Start**: `/risk new` posts the lobby; friends press its Join button (or `/risk join`), the host fills seats with Add a bot (`/risk addbot`), then presses Start (`/risk start`).",
		"**Setup**: everyone places their armies at once: `/risk place territory:Alaska armies:3` or `/risk autoplace`.",
		"**Your turn**: trade a set of cards (`/risk trade`), place your reinforcements (`/risk place`), " +
			"attack (`/risk attack from:Alaska to:Kamchatka`, add `until:win` to keep rolling), move in (`/risk occupy`), " +
			"move armies (`/risk fortify`), then `/risk end`. `/risk undo` takes back moves made since the last dice roll.",
		"**Anytime**: `/risk status` (the standings and the map), `/risk cards` (only you see them), `/risk odds`, `/risk history`, `/risk stats` (the leaderboard).",
		"**Admins** (Manage Server, or Manage Channels here) and the host: `/risk abandon` ends the match without a winner; admins may also `/risk kick` any player, and set this server's defaults and limits with `/risk admin defaults` and `/risk admin limits` (`/risk admin show` shows them).",
		"**Names**: any unique start or abbreviation works: `kamch`, `e africa`, `w us`.",
		"**Notifications**: `/risk notify dm:on` adds a direct message when it is your turn; `reminders:off`; `quiet:22-7 utc-offset:+1` stops pings and your turn's clock in those hours.",
		"**Rules**: two thirds of the map wins (or the last player standing); cards trade for 4, 6, 8, 10, 12, 15, then 5 more each time.",
		"**Capitals** (`/risk new rules:capitals map:small|normal|large`): on generated islands, choose a capital (`/risk place`), then each turn send your reinforcements to one territory (`/risk place`), take one action — capture a neutral territory or plan attacks (`/risk attack`, then `/risk launch`), or build a port (`/risk port`) — and move once (`/risk fortify ratio:1/2`). `/risk end` passes, `/risk surrender` abandons, `/risk cards` shows your item. Lose your capital and you are out; the last capital standing wins.",
		"All commands: " + strings.Join(names, ", ") + ".",
	}, "\n")
	return chat.Message{Private: true, Text: text}
}
