package lobby

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The first hour, item 4: every join and every bot reposted the whole
// lobby, with its own Join button, and the host had no Start button. A
// lobby is one message: posted by /risk new, edited by every join, bot,
// removal and setting, while each author is answered privately.
func TestLobbyIsOneMessage(t *testing.T) {
	e := newEnv(t)
	const ch = "test:onelobby"
	wantPrivate(t, e.do(ch, "Ann", "new"), "Your match is open")
	steps := []struct {
		who, command string
		opts         []string
		click        bool // the command is a press of the lobby's button
		want         string
	}{
		{who: "Bob", command: "join", want: "You joined (2/6 seats)"},
		{who: "Cat", command: "Join", click: true, want: "You joined (3/6 seats)"},
		{who: "Dan", command: "join", want: "You joined (4/6 seats)"},
		{who: "Ann", command: "addbot", opts: []string{"level:easy", "name:Boney"}, want: "Boney (easy bot) takes a seat (5/6)"},
		{who: "Ann", command: "addbot", want: "(normal bot) takes a seat (6/6)"},
		{who: "Ann", command: "settings", opts: []string{"victory:domination"}, want: "total domination wins"},
	}
	for _, s := range steps {
		var got chat.Message
		if s.click {
			b, ok := e.button(ch, s.command)
			if !ok {
				t.Fatalf("no %s button", s.command)
			}
			got = e.click(ch, s.who, b.ID)
		} else {
			got = e.do(ch, s.who, s.command, s.opts...)
		}
		wantPrivate(t, got, s.want)
	}
	msgs := e.messages(ch)
	posts, edits := e.chat.Counts()
	if len(msgs) != 1 || posts != 1 || edits != len(steps) {
		t.Fatalf("the lobby made %d messages (%d posts) and %d edits, want 1 message edited %d times", len(msgs), posts, edits, len(steps))
	}
	lobby := msgs[0]
	wantText(t, lobby, "Lobby — 6/6 seats", "Ann (host)", "Bob", "Cat", "Dan", "Boney (bot, easy)", "(bot, normal)", "total domination wins")
	var labels []string
	for _, row := range lobby.Buttons {
		for _, b := range row {
			labels = append(labels, b.Label)
		}
	}
	// Full: nobody can join, no bot can be added; the host can start.
	if strings.Join(labels, ",") != "Start" {
		t.Errorf("the full lobby's buttons are %v, want [Start]", labels)
	}
}

// The lobby's buttons: anyone joins; only the host adds a bot or starts,
// and only with 2 seats or more; the others are told privately who can.
// Once started, the lobby says so and keeps no button.
func TestLobbyButtons(t *testing.T) {
	e := newEnv(t)
	const ch = "test:lobbybuttons"
	e.do(ch, "Ann", "new")
	press := func(who, label string) chat.Message {
		t.Helper()
		b, ok := e.button(ch, label)
		if !ok {
			t.Fatalf("the lobby has no %s button", label)
		}
		return e.click(ch, who, b.ID)
	}
	wantPrivate(t, press("Ann", "Start"), "at least 2 players")
	wantPrivate(t, press("Bob", "Join"), "You joined (2/6 seats)")
	wantPrivate(t, press("Bob", "Join"), "already in this match")
	wantPrivate(t, press("Bob", "Start"), "Only Ann (the host) can start the match")
	wantPrivate(t, press("Bob", "Add a bot"), "Only Ann (the host) can add bots")
	wantPrivate(t, press("Ann", "Add a bot"), "(normal bot) takes a seat (3/6)")
	if m := e.load(ch); m.Status != storage.Lobby || len(m.Meta.Seats) != 3 {
		t.Fatalf("after refused presses: %s with %d seats", m.Status, len(m.Meta.Seats))
	}
	if n := len(e.messages(ch)); n != 1 {
		t.Fatalf("%d messages in the channel before the start, want the lobby alone", n)
	}

	start := press("Ann", "Start")
	wantPublic(t, start, "The match has started!")
	if start.Image == nil || len(start.Mentions) != 2 {
		t.Errorf("the start: image %v, mentions %v; want the map, and Ann and Bob pinged", start.Image != nil, start.Mentions)
	}
	if m := e.load(ch); m.Status != storage.Active || len(m.Game.State.Seats) != 3 {
		t.Fatalf("after the start: %s", m.Status)
	}
	lobby := e.messages(ch)[0]
	wantText(t, lobby, "The match has started")
	if len(lobby.Buttons) != 0 {
		t.Errorf("the started lobby keeps its buttons: %+v", lobby.Buttons)
	}
	id := e.load(ch).ID
	wantPrivate(t, e.click(ch, "Dan", button.ID(id, 0, button.Join)), "already started")
	wantPrivate(t, e.click(ch, "Ann", button.ID(id, 0, button.Start)), "already started")
}

// The lobby's message lost, it is posted anew, once, and edited from then
// on: deleted in the chat (its edit is refused), or its place forgotten
// (a lobby opened by an earlier version of the bot). A restart loses
// nothing: the place is kept in the store.
func TestLobbyMessageLostIsPostedAnew(t *testing.T) {
	tests := []struct {
		name string
		lose func(t *testing.T, e *env, channel, id string)
		// posts made in all, and messages left in the channel
		posts, left int
	}{
		{"restart", func(_ *testing.T, e *env, _, _ string) { e.open() }, 1, 1},
		{"deleted", func(_ *testing.T, e *env, _, id string) { e.chat.Delete(id) }, 2, 1},
		{"forgotten", func(t *testing.T, e *env, channel, _ string) {
			if err := e.store.SetSetting(context.Background(), "post", news.LobbyRef(e.load(channel).ID), nil, e.Now()); err != nil {
				t.Fatal(err)
			}
		}, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			const ch = "test:lost"
			e.do(ch, "Ann", "new")
			first := e.chat.In(ch)
			if len(first) != 1 {
				t.Fatalf("%d messages after /risk new, want the lobby", len(first))
			}
			tt.lose(t, e, ch, first[0].ID)
			wantPrivate(t, e.do(ch, "Bob", "join"))
			wantPrivate(t, e.do(ch, "Cat", "join"))
			msgs := e.messages(ch)
			if posts, _ := e.chat.Counts(); posts != tt.posts || len(msgs) != tt.left {
				t.Fatalf("%d posts made, %d messages left; want %d posts, %d left", posts, len(msgs), tt.posts, tt.left)
			}
			wantText(t, msgs[len(msgs)-1], "Lobby — 3/6 seats", "Cat")
		})
	}
}

// TestRefusalsInTheirAuthorsLanguage: a refusal of the lobby is worded in
// its author's language (their locale), the same refusal in English for
// another, whatever the match's own language.
func TestRefusalsInTheirAuthorsLanguage(t *testing.T) {
	e := newEnv(t)
	// A full match (6 seats), and one with a seat for Bob, hosted by Ann.
	e.do("test:full", "Ann", "new", "language:fr")
	for range 5 {
		e.do("test:full", "Ann", "host addbot")
	}
	e.do("test:open", "Ann", "new")
	e.do("test:open", "Bob", "join")
	for _, c := range []struct {
		name, channel, who, command string
		opts                        map[string]string
		locale, want                string
	}{
		{"full, French", "test:full", "Cid", "join", nil, "fr", "La partie est complète (6 joueurs)."},
		{"full, English", "test:full", "Cid", "join", nil, "en-US", "The match is full (6 players)."},
		{"full, other locale", "test:full", "Cid", "join", nil, "de", "The match is full (6 players)."},
		{"not the host, French", "test:open", "Bob", "start", nil, "fr", "C'est Ann (l'hôte) qui peut lancer la partie, pas toi."},
		{"not the host, English", "test:open", "Bob", "start", nil, "en-GB", "Only Ann (the host) can start the match."},
		{"a capitals option, French", "test:new", "Cid", "new", map[string]string{"neutral": "1-5"}, "fr", "neutral est une option des parties à capitales : ajoute rules:capitals."},
		{"a capitals option, English", "test:new", "Cid", "new", map[string]string{"neutral": "1-5"}, "en", "neutral is an option of capitals matches: add rules:capitals."},
		{"a seat already, French", "test:open", "Bob", "join", nil, "fr", "Tu es déjà dans cette partie (2/6 places). L'hôte la lance avec /risk start."},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := e.doReq(chat.Request{Channel: c.channel, User: user(c.who), Command: c.command, Options: c.opts, Locale: c.locale})
			if !got.Refused || !got.Private {
				t.Errorf("got a reply refused %v, private %v; want a private refusal", got.Refused, got.Private)
			}
			if got.Text != c.want {
				t.Errorf("got %q, want %q", got.Text, c.want)
			}
		})
	}
}

// Issue 12, item 12: a server's defaults apply to its new matches unless
// the host chooses otherwise; its computer levels, who may open matches
// and its limits hold; a reset forgets them. (The rules themselves are
// the server package's.)
func TestServerRulesApply(t *testing.T) {
	e := newEnv(t)
	const server = "test:server"
	do := func(ch, who, command string, admin bool, opts map[string]string) chat.Message {
		t.Helper()
		return e.doReq(chat.Request{Channel: ch, User: user(who), Command: command, Options: opts, Server: server, Admin: admin})
	}
	wantPrivate(t, do("test:a", "Dan", "admin defaults", true, map[string]string{"turn-hours": "48", "victory": "domination", "bot-levels": "easy, normal"}), "Saved.")
	// New matches take the defaults; the host's choice wins.
	wantPrivate(t, do("test:a", "Ann", "new", false, nil), "Your match is open")
	e.wantLobby("test:a", "48 h per turn", "total domination wins")
	wantPrivate(t, do("test:b", "Bob", "new", false, map[string]string{"turn-hours": "12"}), "Your match is open")
	e.wantLobby("test:b", "12 h per turn", "total domination wins")
	if m := e.load("test:a"); m.Meta.Settings.TurnHours != 48 || m.Meta.Settings.Options.Victory != state.Domination || m.Meta.Server != server {
		t.Errorf("settings %+v on server %q", m.Meta.Settings, m.Meta.Server)
	}
	// Another server, and the console outside any, keep the bot's.
	e.doReq(chat.Request{Channel: "test:c", User: user("Cat"), Command: "new", Server: "test:other"})
	e.wantLobby("test:c", "24 h per turn")
	// Computer levels.
	wantPrivate(t, do("test:a", "Ann", "host addbot", false, map[string]string{"level": "hard"}), "computer players are easy or normal only")
	wantPrivate(t, do("test:a", "Ann", "host addbot", false, nil), "(normal bot)")
	do("test:a", "Dan", "admin defaults", true, map[string]string{"bot-levels": "easy"})
	wantPrivate(t, do("test:a", "Ann", "host addbot", false, nil), "(easy bot)")

	// Who opens, and how many.
	do("test:a", "Dan", "admin defaults", true, map[string]string{"who-starts": "admins"})
	wantPrivate(t, do("test:d", "Cat", "new", false, nil), "only admins open matches")
	do("test:a", "Dan", "admin defaults", true, map[string]string{"who-starts": "everyone"})
	wantPrivate(t, do("test:a", "Dan", "admin limits", true, map[string]string{"per-host": "1", "per-server": "3"}), "1 per host, 3 in the server")
	wantPrivate(t, do("test:d", "Ann", "new", false, nil), "You host 1 open match on this server already")
	wantPrivate(t, do("test:d", "Cat", "new", false, nil), "Your match is open")
	e.wantLobby("test:d", "Cat opened")
	wantPrivate(t, do("test:e", "Eve", "new", false, nil), "This server has 3 open matches")

	// Reset: the bot's rules again.
	wantPrivate(t, do("test:a", "Dan", "admin reset", true, nil), "24 h per turn", "no limit per host")
	wantPrivate(t, do("test:e", "Eve", "new", false, nil), "Your match is open")
	e.wantLobby("test:e", "24 h per turn")
}

// The seats of a lobby: names are made distinct and never markup; the
// host's role passes on when they leave, and a lobby left empty closes;
// a player typed with markup is refused with a word about players' names.
func TestSeats(t *testing.T) {
	e := newEnv(t)
	const ch = "test:seats"
	e.do(ch, "Ann", "new")
	wantPrivate(t, e.doReq(chat.Request{Channel: ch, User: chat.User{ID: "test:ann2", Name: "ann"}, Command: "join"}), "You joined (2/6 seats)")
	wantPrivate(t, e.doReq(chat.Request{Channel: ch, User: chat.User{ID: "test:evil", Name: "<@everyone>*"}, Command: "join"}), "You joined")
	wantPrivate(t, e.do(ch, "Ann", "host addbot", "name:{x}"), "cannot contain { or }")
	wantPrivate(t, e.do(ch, "Ann", "host addbot", "name:Ann"), "Ann 3 (normal bot)")
	for _, s := range e.load(ch).Meta.Seats {
		if s.Name != command.CleanName(s.Name) || strings.ContainsAny(s.Name, "<@*") {
			t.Errorf("a seat named %q", s.Name)
		}
	}
	names := func() []string {
		var out []string
		for _, s := range e.load(ch).Meta.Seats {
			out = append(out, s.Name)
		}
		return out
	}
	if got := strings.Join(names(), ","); !strings.HasPrefix(got, "Ann,ann 2,") || !strings.HasSuffix(got, ",Ann 3") {
		t.Errorf("seats %s, want Ann, ann 2, ..., Ann 3", got)
	}
	for _, tt := range []struct {
		command, typed string
		want           string
	}{
		{"kick", "<b>x</b>", "a player's name has no “<” or “>”"},
		{"kick", "Bob\u202e", "a player's name has no invisible character (U+202E)"},
		{"join", "<i>Bob</i>", "a player's name has no “<” or “>”"},
		{"kick", "<@999>", "No player \"999\" here"},
	} {
		r := e.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: tt.command, Options: map[string]string{"player": tt.typed}})
		wantPrivate(t, r, tt.want)
		if strings.Contains(all(r), "territor") {
			t.Errorf("a player is answered about territories: %q", all(r))
		}
	}
	// The host leaves: the next person hosts; the last person leaves, the
	// lobby closes with the bot alone.
	wantPrivate(t, e.do(ch, "Ann", "surrender"), "You left the match", "ann 2 is the host now")
	e.wantLobby(ch, "Ann left", "ann 2 (host)")
	wantPrivate(t, e.do(ch, "Ann", "surrender"), "You are not in this match")
	e.doReq(chat.Request{Channel: ch, User: chat.User{ID: "test:evil"}, Command: "surrender"})
	wantPrivate(t, e.doReq(chat.Request{Channel: ch, User: chat.User{ID: "test:ann2"}, Command: "surrender"}), "You left the match")
	if m := e.load(ch); m.Status != storage.Lobby || m.Meta.Host != "test:ann2" || len(m.Meta.Seats) != 1 {
		t.Errorf("the lobby of a bot: %s, host %s, %d seats; want the host kept to start a match of bots", m.Status, m.Meta.Host, len(m.Meta.Seats))
	}
	e.do(ch, "Ann", "new") // refused: the channel is busy
	solo := "test:solo"
	e.do(solo, "Zed", "new")
	wantPrivate(t, e.do(solo, "Zed", "surrender"), "You left the match", "closed")
	if rows, err := e.store.History(context.Background(), solo); err != nil || rows[0].Status != storage.Abandoned {
		t.Errorf("a lobby left empty: %+v, %v; want abandoned", rows, err)
	}
	e.wantLobby(solo, "This lobby is closed")
}

// The lobby's life: opened with settings, joined, changed by its host
// alone (each setting checked against its rule set), computers added and
// removed, full, left (the host's role passing on), started.
func TestLobby(t *testing.T) {
	e := newEnv(t)
	const ch = "test:lobby"
	wantPrivate(t, e.do(ch, "Ann", "start"), "no match in this channel")
	wantPrivate(t, e.do(ch, "Ann", "new", "fortify:adjacent", "turn-hours:12"), "Your match is open")
	e.wantLobby(ch, "Ann opened a Risk match", "adjacent fortification", "12 h per turn")
	wantPrivate(t, e.do(ch, "Bob", "new"), "already has a match")
	// Every change is answered privately, and shown on the lobby's message.
	wantPrivate(t, e.do(ch, "Bob", "join"), "You joined (2/6 seats)")
	e.wantLobby(ch, "Bob joined (2/6 seats)", "2. Bob")
	wantPrivate(t, e.do(ch, "Bob", "join"), "already in this match")
	wantPrivate(t, e.do(ch, "Bob", "addbot"), "Only Ann (the host) can add bots")
	wantPrivate(t, e.do(ch, "Bob", "start"), "Only Ann (the host) can start")
	wantPrivate(t, e.do(ch, "Bob", "settings", "victory:domination"), "Only Ann (the host)")
	wantPrivate(t, e.do(ch, "Ann", "settings", "victory:domination"), "total domination wins")
	e.wantLobby(ch, "Ann changed the settings", "total domination wins")
	wantPrivate(t, e.do(ch, "Ann", "settings", "rules:capitals", "map:large", "neutral:2-4"), "capitals rules on large generated islands", "2 to 4 troops")
	e.wantLobby(ch, "Capitals rules on large generated islands")
	wantPrivate(t, e.do(ch, "Ann", "settings", "victory:two-thirds"), "victory is an option of classic matches")
	wantPrivate(t, e.do(ch, "Ann", "settings", "neutral:5-1"), "neutral takes a range of troops within 0 to 30")
	wantPrivate(t, e.do(ch, "Ann", "settings", "map:classic"), "generated islands: map:small, normal or large")
	wantPrivate(t, e.do(ch, "Ann", "settings", "rules:classic", "fortify:adjacent", "victory:domination"), "total domination wins", "adjacent fortification")
	wantPrivate(t, e.do(ch, "Ann", "settings", "capital-troops:12"), "capital-troops is an option of capitals matches")
	wantPrivate(t, e.do(ch, "Ann", "settings", "map:normal"), "map:normal is for capitals matches")
	wantPrivate(t, e.do(ch, "Ann", "addbot", "level:easy", "name:Boney"), "Boney (easy bot) takes a seat (3/6)")
	wantPrivate(t, e.do(ch, "Ann", "addbot"), "(normal bot)")
	e.wantLobby(ch, "(normal bot) takes a seat (4/6)", "3. Boney (bot, easy)")
	wantPrivate(t, e.do(ch, "Ann", "kick", "player:Zed"), `No player "Zed"`)
	wantPrivate(t, e.do(ch, "Ann", "kick", "player:boney"), "Boney was removed")
	if l := e.wantLobby(ch, "Boney was removed"); strings.Contains(all(l), "Boney (bot") {
		t.Errorf("the lobby still seats Boney: %q", all(l))
	}
	for _, p := range []string{"Cat", "Dan", "Eve"} {
		e.do(ch, p, "join")
	}
	wantPrivate(t, e.do(ch, "Fay", "join"), "The match is full")
	if _, ok := buttonLabelled(e.wantLobby(ch, "6/6 seats"), "Join"); ok {
		t.Error("a full lobby has a Join button")
	}
	wantPrivate(t, e.do(ch, "Eve", "leave"), "You left the match")
	e.wantLobby(ch, "Eve left the match")
	wantPrivate(t, e.do(ch, "Eve", "leave"), "not in this match")
	wantPrivate(t, e.do(ch, "Ann", "leave"), "You left the match", "Bob is the host now")
	e.wantLobby(ch, "Ann left the match. Bob is the host now.", "1. Bob (host)")
	wantPublic(t, e.do(ch, "Bob", "start"), "The match has started")
	e.wantLobby(ch, "The match has started", "Lobby — started, 4 seats")
	m := e.load(ch)
	if m.Status != storage.Active || len(m.Game.State.Seats) != 4 {
		t.Fatalf("status %s with %d seats", m.Status, len(m.Game.State.Seats))
	}
	if got := m.Game.State.Options; got.Fortify != state.Adjacent || got.Victory != state.Domination {
		t.Errorf("options %+v not applied", got)
	}
	wantPrivate(t, e.do(ch, "Cat", "addbot"), "already started")
	wantPrivate(t, e.do(ch, "Zed", "join"), "already started")
}
