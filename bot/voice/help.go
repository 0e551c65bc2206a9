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
func (st Status) Help(specs []command.Spec, rules state.Rules, topic string) chat.Message {
	capitals := rules == state.Capitals
	var lines []string
	switch topic {
	case "":
		if capitals {
			lines = []string{st.v.p.T("help.overview.capitals"), st.v.p.T("help.overview.capitals.turn")}
		} else {
			lines = []string{st.v.p.T("help.overview.classic"), st.v.p.T("help.overview.classic.turn")}
		}
		lines = append(lines, st.v.p.T("help.overview.begin"), st.v.p.T("help.overview.any-time"))
		lines = append(lines, st.v.p.T("help.overview.more", "Topics", lang.Text(topicList())))
	case "start":
		lines = st.paragraphs("help.start", "title", "new", "join", "start", "days")
	case "turn":
		if capitals {
			lines = st.paragraphs("help.turn.capitals", "title", "place", "action", "move", "end", "battle")
		} else {
			lines = st.paragraphs("help.turn.classic", "title", "cards", "place", "attack", "move", "end", "rounds")
		}
	case "rules":
		// The teams' paragraph is worded with the teams (teams.go).
		if capitals {
			lines = st.paragraphs("help.rules.capitals", "title", "start", "hero", "items", "ports", "win")
			lines = append(lines, st.v.Lobby().teamsHelp(state.Capitals))
		} else {
			lines = st.paragraphs("help.rules.classic", "title", "deal", "missions")
			lines = append(lines, st.v.Lobby().teamsHelp(state.Classic))
			lines = append(lines, st.paragraphs("help.rules.classic", "battles", "cards")...)
		}
	case "commands":
		lines = []string{st.v.p.T("help.commands.title")}
		for _, g := range st.commandGroups(specs, capitals) {
			lines = append(lines, st.v.p.T("help.commands.group", "Title", lang.Text(g.title), "Names", lang.Text(strings.Join(g.names, ", "))))
		}
		if capitals {
			lines = append(lines, st.v.p.T("help.commands.typed.capitals"))
		} else {
			lines = append(lines, st.v.p.T("help.commands.typed.classic"))
		}
	case "notify":
		orders := st.v.p.T("help.notify.orders.classic")
		if capitals {
			orders = st.v.p.T("help.notify.orders.capitals")
		}
		lines = []string{st.v.p.T("help.notify.title"), st.v.p.T("help.notify.options")}
		lines = append(lines, st.v.p.T("help.notify.away", "Orders", lang.Text(orders)), st.v.p.T("help.notify.show"))
	case "admin":
		lines = st.paragraphs("help.admin", "title", "host", "server")
	default:
		return chat.Message{Private: true, Text: st.v.p.T("help.unknown", "Topic", lang.Text(chat.Quote(topic)), "Topics", lang.Text(topicList()))}
	}
	return chat.Message{Private: true, Text: strings.Join(lines, "\n")}
}

// paragraphs words a topic's paragraphs, in order: those of the keys
// prefix.part for each part ("help.start", "title" is help.start.title).
// TestHelpKeys checks that every key so built is in the catalogue, and
// that every paragraph of the catalogue is shown.
func (st Status) paragraphs(prefix string, parts ...string) []string {
	lines := make([]string, len(parts))
	for i, part := range parts {
		lines[i] = st.v.p.T(prefix + "." + part)
	}
	return lines
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
func (st Status) commandGroups(specs []command.Spec, capitals bool) []group {
	headings := []struct {
		title string
		names []string
	}{
		{st.v.p.T("help.commands.begin"), []string{"new", "join", "start", "help"}},
		{st.v.p.T("help.commands.turn"), []string{"place", "trade", "attack", "occupy", "fortify", "end", "undo"}},
		{st.v.p.T("help.commands.capitals"), []string{"port", "launch"}},
		{st.v.p.T("help.commands.leaving"), []string{"surrender"}},
		{st.v.p.T("help.commands.host"), []string{"host addbot", "host invite", "host kick", "host settings", "host rollback", "host abandon"}},
		{st.v.p.T("help.commands.look"), []string{"show status", "show cards", "show odds", "show history"}},
		{st.v.p.T("help.commands.yours"), []string{"me games", "me notify", "me stats", "me token"}},
		{st.v.p.T("help.commands.admins"), []string{"admin show", "admin defaults", "admin limits", "admin reset",
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
		out = append(out, group{st.v.p.T("help.commands.also"), also})
	}
	return out
}
