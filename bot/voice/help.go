package voice

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/state"
)

// Help is the answer to /risk help topic:…, for a channel whose match (or
// the match it would open) plays rules: one topic a message, each within
// every platform's limit, and the overview (topic "") naming the others.
// It speaks English; Voice.Help speaks the voice's language.
func Help(specs []command.Spec, rules state.Rules, topic string) chat.Message {
	return Voice{}.Help(specs, rules, topic)
}

// Help is the answer to /risk help topic:… in the voice's language (see
// the function Help). Command and option names stay as typed, in English.
func (v Voice) Help(specs []command.Spec, rules state.Rules, topic string) chat.Message {
	capitals := rules == state.Capitals
	var lines []string
	switch topic {
	case "":
		if capitals {
			lines = []string{v.p.T("help.overview.capitals"), v.p.T("help.overview.capitals.turn")}
		} else {
			lines = []string{v.p.T("help.overview.classic"), v.p.T("help.overview.classic.turn")}
		}
		lines = append(lines, v.p.T("help.overview.begin"), v.p.T("help.overview.any-time"))
		lines = append(lines, v.p.T("help.overview.more", "Topics", lang.Text(topicList())))
	case "start":
		lines = []string{
			v.p.T("help.start.title"),
			v.p.T("help.start.new"),
			v.p.T("help.start.join"),
			v.p.T("help.start.start"),
			v.p.T("help.start.days"),
		}
	case "turn":
		if capitals {
			lines = []string{
				v.p.T("help.turn.capitals.title"),
				v.p.T("help.turn.capitals.place"),
				v.p.T("help.turn.capitals.action"),
				v.p.T("help.turn.capitals.move"),
				v.p.T("help.turn.capitals.end"),
				v.p.T("help.turn.capitals.battle"),
			}
		} else {
			lines = []string{
				v.p.T("help.turn.classic.title"),
				v.p.T("help.turn.classic.cards"),
				v.p.T("help.turn.classic.place"),
				v.p.T("help.turn.classic.attack"),
				v.p.T("help.turn.classic.move"),
				v.p.T("help.turn.classic.end"),
				v.p.T("help.turn.classic.rounds"),
			}
		}
	case "rules":
		if capitals {
			lines = []string{
				v.p.T("help.rules.capitals.title"),
				v.p.T("help.rules.capitals.start"),
				v.p.T("help.rules.capitals.hero"),
				v.p.T("help.rules.capitals.items"),
				v.p.T("help.rules.capitals.ports"),
				v.p.T("help.rules.capitals.win"),
			}
			// The teams' paragraph is worded with the teams (teams.go).
			lines = append(lines, teamsHelp(state.Capitals))
		} else {
			lines = []string{v.p.T("help.rules.classic.title"), v.p.T("help.rules.classic.deal"), v.p.T("help.rules.classic.missions")}
			lines = append(lines, teamsHelp(state.Classic))
			lines = append(lines, v.p.T("help.rules.classic.battles"), v.p.T("help.rules.classic.cards"))
		}
	case "commands":
		lines = []string{v.p.T("help.commands.title")}
		for _, g := range v.commandGroups(specs, capitals) {
			lines = append(lines, v.p.T("help.commands.group", "Title", lang.Text(g.title), "Names", lang.Text(strings.Join(g.names, ", "))))
		}
		if capitals {
			lines = append(lines, v.p.T("help.commands.typed.capitals"))
		} else {
			lines = append(lines, v.p.T("help.commands.typed.classic"))
		}
	case "notify":
		orders := v.p.T("help.notify.orders.classic")
		if capitals {
			orders = v.p.T("help.notify.orders.capitals")
		}
		lines = []string{v.p.T("help.notify.title"), v.p.T("help.notify.options")}
		lines = append(lines, v.p.T("help.notify.away", "Orders", lang.Text(orders)), v.p.T("help.notify.show"))
	case "admin":
		lines = []string{v.p.T("help.admin.title"), v.p.T("help.admin.host"), v.p.T("help.admin.server")}
	default:
		return chat.Message{Private: true, Text: v.p.T("help.unknown", "Topic", lang.Text(chat.Quote(topic)), "Topics", lang.Text(topicList()))}
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
func (v Voice) commandGroups(specs []command.Spec, capitals bool) []group {
	headings := []struct {
		title string
		names []string
	}{
		{v.p.T("help.commands.begin"), []string{"new", "join", "start", "help"}},
		{v.p.T("help.commands.turn"), []string{"place", "trade", "attack", "occupy", "fortify", "end", "undo"}},
		{v.p.T("help.commands.capitals"), []string{"port", "launch"}},
		{v.p.T("help.commands.leaving"), []string{"surrender"}},
		{v.p.T("help.commands.host"), []string{"host addbot", "host invite", "host kick", "host settings", "host rollback", "host abandon"}},
		{v.p.T("help.commands.look"), []string{"show status", "show cards", "show odds", "show history"}},
		{v.p.T("help.commands.yours"), []string{"me games", "me notify", "me stats", "me token"}},
		{v.p.T("help.commands.admins"), []string{"admin show", "admin defaults", "admin limits", "admin reset",
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
		out = append(out, group{v.p.T("help.commands.also"), also})
	}
	return out
}
