package lobby

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/storetest"
)

// A match chooses its colours: the colour-blind palette names the seats
// with its colours at the start and its map is drawn with them. The host
// may switch at any time, since it only changes what is drawn (and the
// channel is told); nothing else changes once the match has started.
func TestMatchPalette(t *testing.T) {
	e := newEnv(t)
	const ch = "test:palette"
	wantPrivate(t, e.do(ch, "Ann", "new", "palette:colorblind"), "Your match is open")
	e.wantLobby(ch, "colour-blind palette")
	e.do(ch, "Bob", "join")
	start := e.do(ch, "Ann", "start")
	wantPublic(t, start, "— vermillion,", "🟧", "— sky blue,", "🟦")
	if b, err := start.Image.PNG(context.Background()); err != nil || !strings.HasPrefix(string(b), "map colorblind ") {
		t.Errorf("the start's map: %q, %v; want it drawn by the colour-blind renderer", b, err)
	}
	wantPrivate(t, e.do(ch, "Bob", "settings", "palette:standard"), "Only Ann (the host)")
	wantPrivate(t, e.do(ch, "Ann", "settings", "palette:standard", "victory:domination"), "only the palette and the language can change")
	wantPrivate(t, e.do(ch, "Ann", "settings", "palette:sepia"), "sepia")
	before := e.load(ch)
	e.chat.Take()
	wantPrivate(t, e.do(ch, "Ann", "settings", "palette:standard"), "Settings:")
	// Everyone sees the colours change: the channel is told.
	if p := e.chat.Take(); len(p) != 1 || !strings.Contains(p[0].Msg.Text, "Settings:") {
		t.Errorf("posts of the palette changed: %+v", p)
	}
	after := e.load(ch)
	if after.Meta.Settings.Palette != command.PaletteStandard || after.Meta.Settings.Options != before.Meta.Settings.Options {
		t.Fatalf("settings after the switch: %+v, were %+v", after.Meta.Settings, before.Meta.Settings)
	}
	// In French now: the channel is told in French.
	wantPrivate(t, e.do(ch, "Ann", "settings", "language:fr"), "Réglages")
	if p := e.chat.Take(); len(p) != 1 || !strings.Contains(p[0].Msg.Text, "Réglages") {
		t.Errorf("posts of the language changed: %q", p[0].Msg.Text)
	}
	wantPrivate(t, e.do(ch, "Bob", "settings"), "Only Ann (the host)")
	wantPrivate(t, e.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: "settings", Locale: "en"}), "Settings: ")
}

// TestLobbySettings: in the lobby the host changes any setting; a change
// of the team size clears the picks made for the other.
func TestLobbySettings(t *testing.T) {
	e := newEnv(t)
	const ch = "test:settings"
	e.do(ch, "Ann", "new", "teams:2")
	e.do(ch, "Bob", "join", "team:2")
	wantPrivate(t, e.do(ch, "Ann", "settings", "turn-hours:6", "teams:3"), "6 h per turn", "Everyone's team was cleared")
	e.wantLobby(ch, "Ann changed the settings.")
	m := e.load(ch)
	if m.Meta.Settings.TurnHours != 6 || m.Meta.Seats[1].Team != 0 {
		t.Errorf("settings %+v, Bob's team %d", m.Meta.Settings, m.Meta.Seats[1].Team)
	}
	wantPrivate(t, e.do(ch, "Ann", "settings", "palette:sepia"), "sepia")
}

// TestTeams: a player picks a team (seated or not yet); whoever picked
// none, bots included, is put at the start in a team with room, in the
// order they joined; each wrong pick, and a start with uneven teams, is
// refused with what to do. Where the chat can, each team with people
// gets a private thread, and is welcomed there.
func TestTeams(t *testing.T) {
	e := newEnv(t)
	const ch = "test:teams"
	e.do(ch, "Ann", "new", "teams:2")
	e.run(ch, []step{
		{name: "Bob joins team 2", who: "Bob", command: "join", opts: []string{"team:2"}, want: []string{"You joined", "team 2"}},
		{name: "Bob again", who: "Bob", command: "join", opts: []string{"team:2"}, refused: true, want: []string{"You are in team 2 already."}},
		{name: "Cat joins team 2", who: "Cat", command: "join", opts: []string{"team:2"}, want: []string{"team 2"}},
		{name: "Dan: team 2 is full", who: "Dan", command: "join", opts: []string{"team:2"}, refused: true, want: []string{"Team 2 is full (Bob, Cat)"}},
		{name: "three: uneven", who: "Ann", command: "start", refused: true, want: []string{"Teams of 2 need 4 or 6 players (two or three teams of 2), and there are 3"}},
		{name: "Cat moves to team 3", who: "Cat", command: "join", opts: []string{"team:3"}, want: []string{"You are in team 3 now."}},
		{name: "Dan joins", who: "Dan", command: "join"},
		{name: "team 3 of four: too high", who: "Ann", command: "start", refused: true, want: []string{"Cat is in team 3, but 4 players make 2 teams"}},
		{name: "Cat to team 1", who: "Cat", command: "join", opts: []string{"team:1"}},
		{name: "a bot", who: "Ann", command: "host addbot", opts: []string{"name:Robo"}},
		{name: "another", who: "Ann", command: "host addbot", opts: []string{"name:Iron"}},
		{name: "start", who: "Ann", command: "start", want: []string{"The match has started", "🤝 Teams: "}},
		{name: "a pick after the start", who: "Dan", command: "join", opts: []string{"team:1"}, refused: true, want: []string{"teams are fixed for the whole match"}},
	})
	m := e.load(ch)
	teams := map[string]int{}
	for _, s := range m.Meta.Seats {
		teams[s.Name] = s.Team
	}
	// Bob and Cat picked; the others fill the teams with room in the order
	// they joined: Ann team 1, Dan team 2, the computers team 3.
	if want := map[string]int{"Ann": 1, "Bob": 2, "Cat": 1, "Dan": 2, "Robo": 3, "Iron": 3}; !maps.Equal(teams, want) {
		t.Errorf("teams %v, want %v", teams, want)
	}
	threads := m.Meta.TeamThreads
	if len(threads) != 3 || threads[0] == "" || threads[1] == "" || threads[2] != "" {
		t.Fatalf("team threads %q, want one a team of people, none for the computers'", threads)
	}
	got := e.chat.Members(threads[0])
	slices.Sort(got)
	if !slices.Equal(got, []string{"test:ann", "test:cat"}) {
		t.Errorf("team 1's thread has %q, want Ann and Cat", got)
	}
	if got := e.chat.In(threads[1]); len(got) != 1 || !strings.Contains(got[0].Msg.Text, "this chat is your team's alone") || len(got[0].Msg.Mentions) != 2 {
		t.Errorf("team 2 is welcomed with %+v", got)
	}
	e.do("test:three", "Ann", "new", "teams:3")
	wantPrivate(t, e.do("test:three", "Bob", "join", "team:3"), "There is no team 3: teams of 3 make at most 2 teams")
	wantPrivate(t, e.do("test:solo", "Ann", "new"))
	wantPrivate(t, e.do("test:solo", "Ann", "join", "team:1"), "This match is not played in teams")
}

// TestStartRefusals: a start needs 2 seats, 3 for secret missions, and a
// channel the bot may post in; a seat on autopilot is given back to its
// player by the host.
func TestStartRefusals(t *testing.T) {
	e := newEnv(t)
	const ch = "test:start"
	e.do(ch, "Ann", "new", "victory:missions")
	e.do(ch, "Bob", "join")
	wantPrivate(t, e.do(ch, "Ann", "start"), "Secret missions need at least 3 players")
	e.do(ch, "Ann", "host addbot")
	wantPrivate(t, e.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: "start", BotLacks: []string{"Attach Files"}}), "Attach Files")
	start := e.do(ch, "Ann", "start")
	wantPublic(t, start, "The match has started")
	if b, ok := buttonLabelled(start, "Place"); !ok || len(start.Buttons[0]) != 2 {
		t.Errorf("the start of a missions match: buttons %+v (autoplace %v), want autoplace and the mission", start.Buttons, b.ID != "")
	}
	wantPrivate(t, e.do(ch, "Bob", "join"), "You are already playing in this match.")
	wantPrivate(t, e.do(ch, "Cat", "join"), "The match has already started")
	// Bob's seat on autopilot: only the host gives it back.
	m := e.load(ch)
	m.Meta.Seats[1].Autopilot, m.Meta.Seats[1].Missed = true, 3
	if err := e.ms.Save(context.Background(), m, storage.Change{}); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, e.do(ch, "Bob", "join"), "Bob")
	wantPrivate(t, e.do(ch, "Bob", "join", "player:Bob"), "Only Ann (the host)")
	wantPrivate(t, e.do(ch, "Ann", "join", "player:Ann"), "Ann is not on autopilot.")
	wantPrivate(t, e.do(ch, "Ann", "join", "player:Bob"), "plays their own seat again")
	if p := e.messages(ch); !strings.Contains(p[len(p)-1].Text, "{{mention:test:bob|Bob}} plays their own seat again.") {
		t.Errorf("the channel is told %q", p[len(p)-1].Text)
	}
	if m := e.load(ch); m.Meta.Seats[1].Autopilot || m.Meta.Seats[1].Missed != 0 {
		t.Errorf("Bob's seat %+v, want his own again", m.Meta.Seats[1])
	}
}

// TestCapitalsAndLibraryMaps: a capitals match starts with its capitals
// to choose, in turn; /risk new map:NAME takes a map of the server's
// library by its name, suggests the nearest for a name a few letters
// off, and refuses an engine name typed by hand.
func TestCapitalsAndLibraryMaps(t *testing.T) {
	e := newEnv(t)
	e.do("test:cap", "Ann", "new", "rules:capitals", "map:small")
	e.do("test:cap", "Bob", "join")
	start := e.do("test:cap", "Ann", "start")
	wantPublic(t, start, "**The match has started** on ", "all neutral", "chooses first: /risk place territory:NAME", "Deadline")
	if len(start.Buttons) != 0 {
		t.Errorf("a capitals start has buttons %+v, want none (nothing to place automatically)", start.Buttons)
	}

	ctx := context.Background()
	lib, _, err := e.servers.Library().Add(ctx, "test:s", server.Import{Files: mapfile.Files(storetest.StripMap(t, "Old Harbour", 5))})
	if err != nil {
		t.Fatal(err)
	}
	new := func(ch, typed string) chat.Message {
		return e.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: "new", Options: map[string]string{"map": typed}, Server: "test:s"})
	}
	wantPrivate(t, new("test:near", "old harbor"), `There is no map "old harbor" here. Did you mean map:Old Harbour?`)
	wantPrivate(t, new("test:engine", lib.Engine()), "/risk-admin map list lists this server's maps")
	wantPrivate(t, new("test:lib", "OLD HARBOUR"), "Your match is open")
	if m := e.load("test:lib"); m.Meta.Settings.Options.Map != lib.Engine() {
		t.Errorf("the match plays %q, want the library's %q", m.Meta.Settings.Options.Map, lib.Engine())
	}
	for _, p := range []string{"Bob", "Cat", "Dan", "Eve", "Fay"} {
		e.do("test:lib", p, "join")
	}
	wantPrivate(t, e.do("test:lib", "Ann", "start"), "Old Harbour has 5 territories: too few for 6 players.")
	e.do("test:lib", "Fay", "leave")
	wantPublic(t, e.do("test:lib", "Ann", "start"), "The match has started")

	// Without a match, the lobby's commands say there is none; a button of
	// another part is not the lobby's.
	for _, c := range []string{"host settings", "host abandon", "host addbot", "join"} {
		wantPrivate(t, e.do("test:empty", "Ann", c), "no match")
	}
	if _, ok := e.lobby.Clicks()[button.Attack]; ok {
		t.Error("the lobby answers play's buttons")
	}
}
