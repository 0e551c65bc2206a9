package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/state"
)

// Help is the answer to /risk help topic:…, for a channel whose match (or
// the match it would open) plays rules: one topic a message, each within
// every platform's limit, and the overview (topic "") naming the others.
func Help(specs []command.Spec, rules state.Rules, topic string) chat.Message {
	capitals := rules == state.Capitals
	var lines []string
	switch topic {
	case "":
		if capitals {
			lines = []string{
				"**Risk, capitals**: on generated islands, hold your capital and take everyone else's. The last capital standing wins.",
				"**Each turn**: `/risk place` your reinforcements on one territory; then one action: capture a neutral territory, plan attacks and `/risk launch` them, or `/risk port`; then one move (`/risk fortify`); `/risk end` passes at any point.",
			}
		} else {
			lines = []string{
				"**Risk**: conquer the world with dice, one slash command at a time. Two thirds of the map wins (or the last player standing).",
				"**Each turn**: `/risk trade` cards, `/risk place` your armies, `/risk attack` as often as you like, `/risk fortify` once, then `/risk end`.",
			}
		}
		lines = append(lines,
			"**To begin**: `/risk new` posts the lobby; friends press its Join button (or `/risk join`), the host adds computer players with Add a bot (`/risk host addbot`), then presses Start.",
			"**Any time**: `/risk show status` shows the map and the standings to you alone.",
			"**More**: "+topicList()+".",
		)
	case "start":
		lines = []string{
			"**A match, from nothing**",
			"1. `/risk new` posts a lobby in this channel, one message kept up to date; you host it. Options: `rules:classic|capitals`, `map:` (classic: the world, `islands-small|normal|large`, or this server's own maps; capitals: `small`, `normal` or `large` islands), `victory:two-thirds|domination|missions` (missions: classic, 3 players or more), `fog:on` (fog of war: each player sees their territories and their neighbours), `rounds:` (end after that many rounds, the most territories winning), `turn-hours:` (default 24), `on-timeout:bot|skip`, `palette:colorblind`.",
			"2. Friends press Join (or `/risk join`). Add a bot, or `/risk host addbot level:easy|normal|hard`, fills a seat with a computer player; `/risk host kick player:` empties one; `/risk host settings` changes the options before the start.",
			"3. Start (or `/risk start`) deals the territories (classic) or lets each player choose a capital (capitals), and the turns begin, in an order the seed draws.",
			"The match is played over days: each player has `turn-hours` for a turn and is pinged when it comes; when time runs out a careful bot plays it (or it is skipped). `/risk surrender` gives up; the host or an admin can `/risk host abandon` the match.",
		}
	case "turn":
		if capitals {
			lines = []string{
				"**A turn in capitals**, three phases, in order:",
				"1. **Reinforcements**: `/risk place territory:` puts 3 troops per territory you hold on one of yours.",
				"2. **One action**: capture a neutral neighbour (`/risk attack from: to:`: it becomes yours with its troops); or build a port on one of yours by the water (`/risk port territory:`: it reaches other shores of the same sea); or plan attacks on enemies (`/risk attack from: to:`, once per target) and `/risk launch` them. A planned attack needs more attack than defence; several planned attacks share the attack.",
				"3. **One move**: `/risk fortify from: to: ratio:1/4|1/2|3/4|all hero:yes|no`.",
				"`/risk end` passes at any point; `/risk undo` takes back your last placement or move; `/risk show cards` shows your item (`use:yes` uses it).",
				"Attack = the source's troops (+ the hero's power if it stands there); defence = the target's troops + those of its owner's neighbours. Damage = (attack − defence) × luck (0.8 to 1.2); the attacker loses nothing.",
			}
		} else {
			lines = []string{
				"**A turn in classic Risk**, in order:",
				"1. **Cards**: with three cards of a set (or a wild), `/risk trade` them for armies (you must with five or more).",
				"2. **Reinforcements**: a third of your territories (at least 3), plus continent bonuses; `/risk place territory: armies:`, or `/risk place` to spread them all.",
				"3. **Attacks**, as many as you like: `/risk attack from: to:` rolls once; `until:win` keeps rolling. Then `/risk occupy armies:` moves in (a button offers it).",
				"4. **One move**: `/risk fortify from: to: armies:` along your own territories.",
				"`/risk end` ends the turn (with a card if you conquered). `/risk undo` takes back moves since the last roll. `/risk show odds from: to:` gives the exact odds first.",
				"**In rounds** (`turns:simultaneous`) everyone plays at once: place, order attacks with a number of armies (`/risk attack from: to: armies:`) and moves to a neighbour (`/risk fortify`), then `/risk end`. Only you see your orders; the round resolves, one order of each player at a time, when everyone is ready.",
			}
		}
	case "rules":
		if capitals {
			lines = []string{
				"**Capitals, the rules in short**",
				"Everything starts neutral. Each player chooses a capital (10 troops); losing it puts you out, and whoever takes it takes all your territories.",
				"**Hero**: once you hold territories of four kinds (plain, forest, mountain, desert, coastal) a hero appears on your capital. It adds 20% of your troops to attack or defence where it stands; if it dies, your troops are halved everywhere.",
				"**Items** appear on neutral and fortress territories (12% a turn) and go to whoever holds the territory within 4 turns: bonuses you keep and use (`/risk show cards use:yes`), maluses that act at once, and the rare *fat bonus*, which takes at once the biggest territory held by the two strongest other players.",
				"**Ports** are permanent; a port lets its territory reach other shores of the same sea (attacks by sea count half).",
				"The last player with a capital wins.",
				teamsHelp(state.Capitals),
			}
		} else {
			lines = []string{
				"**Classic Risk, the rules in short**",
				"The territories are dealt, and everyone places their starting armies at once. Two thirds of the map wins (`victory:domination`: all of it), or being the last player standing.",
				"**Secret missions** (`victory:missions`, 3 players or more): each player is dealt one of 14 mission cards, seen only by them (the start post's My secret mission button, or `/risk show status`): two or three continents, 24 territories, 18 territories with two armies each, or destroying a colour (24 territories if that colour is yours, absent, or taken out by someone else). The first to fulfil theirs wins at once; two thirds of the map do not.",
				teamsHelp(state.Classic),
				"**Battles**: the attacker rolls up to 3 dice (one fewer than its armies), the defender up to 2; highest against highest, ties go to the defender.",
				"**Cards**: one per turn in which you conquered. Three of a kind, one of each, or a wild trade for 4, 6, 8, 10, 12, 15, then 5 more each time (`cards:fixed`: 4 to 10), plus 2 on a territory you hold. Eliminate a player and you take their cards.",
			}
		}
	case "commands":
		lines = []string{"**Every command** (type `/risk` and pick one: each option says what it takes)"}
		for _, g := range commandGroups(specs, capitals) {
			lines = append(lines, "**"+g.title+"**: "+strings.Join(g.names, ", "))
		}
		if capitals {
			lines = append(lines, "Typed names: any unique start of a territory's name works; `/risk show status` shows the map with the names.")
		} else {
			lines = append(lines, "Typed names: any unique start or abbreviation works (`kamch`, `e africa`, `w us`).")
		}
	case "notify":
		orders := "`defend:Europe`, `attack:on|off`, `caution:careful|balanced|bold`"
		if capitals {
			orders = "`attack:on|off`, `caution:careful|balanced|bold`"
		}
		lines = []string{
			"**Notifications**: the bot pings you in the channel when your turn comes, and reminds you before the deadline.",
			"`/risk me notify dm:on` adds a direct message; `reminders:off` stops the reminders; `quiet:22-7 utc-offset:+1` holds pings (and your turn's clock) in those hours.",
			"Away for a while? `/risk me notify away:3d` (or a date, `away:2026-12-24`) plays your turns at once by your standing orders: " + orders + ". `away:off` when you are back.",
			"`/risk me notify` alone shows your choices.",
		}
	case "admin":
		lines = []string{
			"**Hosts and admins**",
			"The host (who typed `/risk new`) adds bots, kicks players, changes settings and starts the match. The host or an admin (Manage Server, or Manage Channels here) can `/risk host rollback turn:N` it to the start of an earlier turn (it asks first, saying what is lost; everyone is pinged) or `/risk host abandon` it without a winner; admins may also `/risk host kick` any player.",
			"`/risk-admin show` shows this server's defaults and limits; `/risk-admin defaults` sets the options new matches start with; `/risk-admin limits` bounds matches per server and per host and how long a lobby may wait; `/risk-admin reset` goes back to the bot's own.",
		}
	default:
		return chat.Message{Private: true, Text: fmt.Sprintf("There is no help on %s. Topics: %s.", chat.Quote(topic), topicList())}
	}
	return chat.Message{Private: true, Text: strings.Join(lines, "\n")}
}

// topicList names the topics as they are asked for.
func topicList() string {
	var t []string
	for _, h := range command.HelpTopics() {
		t = append(t, "`/risk help topic:"+h+"`")
	}
	return strings.Join(t, ", ")
}

// group is a heading of the list of commands.
type group struct {
	title string
	names []string
}

// commandGroups sorts the subcommands under headings, which follow the
// command tree: the plain subcommands by when they are used, then each
// group of /risk, then /risk-admin. A subcommand none claims goes under
// "Also", so that a new one is listed before anyone places it. Each is
// named as typed after /risk ("host addbot"); /risk-admin's in full.
func commandGroups(specs []command.Spec, capitals bool) []group {
	headings := []struct {
		title string
		names []string
	}{
		{"To begin", []string{"new", "join", "start", "help"}},
		{"Your turn", []string{"place", "trade", "attack", "occupy", "fortify", "end", "undo"}},
		{"Capitals", []string{"port", "launch"}},
		{"Leaving", []string{"surrender"}},
		{"The host's (or an admin's)", []string{"host addbot", "host invite", "host kick", "host settings", "host rollback", "host abandon"}},
		{"To look, only you", []string{"show status", "show cards", "show odds", "show history"}},
		{"Yours", []string{"me games", "me notify", "me stats", "me token"}},
		{"Server admins", []string{"admin show", "admin defaults", "admin limits", "admin reset",
			"admin map add", "admin map list", "admin map show", "admin map rename", "admin map remove"}},
	}
	if capitals {
		// Capitals has no cards to trade and no conquest to occupy.
		headings[1].names = []string{"place", "attack", "launch", "port", "fortify", "end", "undo"}
		headings[2].names = nil
	}
	have := map[string]bool{}
	for _, s := range specs {
		have[s.FullName()] = true
	}
	typed := func(name string) string {
		return "`" + strings.TrimPrefix(command.Slash(name), "/"+command.CommandName+" ") + "`"
	}
	placed := map[string]bool{}
	var out []group
	for _, h := range headings {
		var g group
		g.title = h.title
		for _, n := range h.names {
			if have[n] {
				g.names = append(g.names, typed(n))
				placed[n] = true
			}
		}
		if len(g.names) > 0 {
			out = append(out, g)
		}
	}
	var also []string
	for _, s := range specs {
		if !placed[s.FullName()] && !(capitals && (s.Name == "trade" || s.Name == "occupy")) {
			also = append(also, typed(s.FullName()))
		}
	}
	if len(also) > 0 {
		out = append(out, group{"Also", also})
	}
	return out
}
