package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A match of bots only can be watched to the end: the host leaves the
// lobby but keeps hosting.
func TestBotsOnlyMatchRunsToTheEnd(t *testing.T) {
	h := newHarness(t)
	const ch = "test:bots"
	h.do(ch, "Ann", "new")
	h.do(ch, "Ann", "addbot", "level:easy")
	h.do(ch, "Ann", "addbot", "level:normal")
	wantPrivate(t, h.do(ch, "Ann", "leave"), "You still host")
	wantLobby(t, h, ch, "Ann left the match. They still host")
	wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
	posts := h.takePosts()
	m := h.load(ch)
	if m.Status != storage.Finished || m.Game.State.Phase != state.PhaseOver {
		t.Fatalf("bots stopped at turn %d, phase %s", m.Game.State.Turn, m.Game.State.Phase)
	}
	last := posts[len(posts)-1].msg
	wantPublic(t, last, "wins after")
	if last.Image == nil {
		t.Error("the final post has no map")
	}
	turns := 0
	for i, p := range posts {
		if strings.HasPrefix(all(p.msg), "**Turn ") {
			turns++
			// The last turn's map comes with the victory message.
			if p.msg.Image == nil && i != len(posts)-2 {
				t.Errorf("turn post without a map: %.60q", all(p.msg))
			}
		}
		if len(p.msg.Mentions) > 0 {
			t.Errorf("a bots-only match pinged %v", p.msg.Mentions)
		}
	}
	if turns != m.Game.State.Turn {
		t.Errorf("%d turn posts for %d turns", turns, m.Game.State.Turn)
	}
	png, err := last.Image.PNG(context.Background())
	if err != nil || len(png) < 1000 {
		t.Errorf("final map: %d bytes, %v", len(png), err)
	}
}

// Every mistake gets a short private answer and changes nothing.
func TestMistakesArePrivateAndChangeNothing(t *testing.T) {
	h := newHarness(t)
	const ch = "test:errors"
	h.started(ch, []string{"Ann", "Bob"})
	// Finish the initial placement so that turns run.
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	h.takePosts()
	s := h.load(ch).Game.State
	cur := s.Seats[s.Current].Name
	other := "Ann"
	if cur == "Ann" {
		other = "Bob"
	}
	own, enemy := -1, -1
	for t := range s.Terr {
		if s.Terr[t].Owner == s.Current && own < 0 {
			own = t
		}
		if s.Terr[t].Owner != s.Current && enemy < 0 {
			enemy = t
		}
	}
	ownName, enemyName := s.Map.Territories[own].Name, s.Map.Territories[enemy].Name
	tests := []struct {
		name, who, cmd string
		opts           map[string]string
		want           string
	}{
		{"misspelt territory", cur, "place", map[string]string{"territory": "Kamchakta"}, "Did you mean Kamchatka?"},
		{"ambiguous territory", cur, "place", map[string]string{"territory": "north"}, "could be North Africa, Northern Europe or Northwest Territory"},
		{"not your territory", cur, "place", map[string]string{"territory": enemyName, "armies": "1"}, "belongs to"},
		{"not your turn", other, "place", map[string]string{"territory": ownName}, "Not your turn: "},
		{"wrong phase", cur, "occupy", map[string]string{"armies": "3"}, "no conquered territory"},
		{"too many dice", cur, "attack", map[string]string{"from": ownName, "to": enemyName, "dice": "5"}, "Dice must be between 1 and 3"},
		{"attack before placing", cur, "attack", map[string]string{"from": ownName, "to": enemyName}, "before attacking"},
		{"too many armies", cur, "place", map[string]string{"territory": ownName, "armies": "500"}, "only"},
		{"not a player", "Zed", "end", nil, "not playing in this match"},
		{"unknown option", cur, "end", map[string]string{"colour": "red"}, `no option "colour"`},
		{"not a number", cur, "place", map[string]string{"territory": ownName, "armies": "lots"}, "whole number"},
		{"huge number", cur, "place", map[string]string{"territory": ownName, "armies": "99999999999999999999"}, "between 1 and 10000"},
		{"unknown subcommand", cur, "nuke", nil, `There is no /risk "nuke". /risk help lists them all.`},
		{"mistyped subcommand", cur, "atack", map[string]string{"from": ownName}, `There is no /risk "atack". Did you mean /risk attack?`},
		{"missing option", cur, "attack", map[string]string{"from": ownName}, "needs to"},
		{"garbage text", cur, "place", map[string]string{"territory": "\x00\xff\xfe"}, "not valid text"},
		{"very long value", cur, "place", map[string]string{"territory": strings.Repeat("x", 5000)}, "longer than"},
		{"unicode", cur, "place", map[string]string{"territory": "Ñüñ東京"}, "territory:Ñüñ東京 is not a territory"},
		{"nothing to undo", cur, "undo", nil, "Nothing to undo"},
		{"no set to trade", cur, "trade", nil, "make no set"},
		{"bad cards", cur, "trade", map[string]string{"cards": "1 2 9"}, "You have no card"},
		{"bad until", cur, "attack", map[string]string{"from": ownName, "to": enemyName, "until": "forever"}, "until takes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.load(ch)
			reply := h.doOpts(ch, tt.who, tt.cmd, tt.opts)
			wantPrivate(t, reply, tt.want)
			if len(reply.Text) > 400 {
				t.Errorf("error reply is %d characters: keep it short", len(reply.Text))
			}
			after := h.load(ch)
			if after.Version != before.Version || after.Commands != before.Commands {
				t.Errorf("a refused command changed the match (version %d → %d)", before.Version, after.Version)
			}
		})
	}
	if posts := h.takePosts(); len(posts) != 0 {
		t.Errorf("mistakes posted %d messages", len(posts))
	}
}

// chatCommand turns an engine command into what a person would type.
func chatCommand(s *state.State, seat int, c engine.Command) (string, map[string]string) {
	n := s.Map.TerritoryName
	switch c := c.(type) {
	case engine.Place:
		return "place", map[string]string{"territory": n(c.Territory), "armies": fmt.Sprint(c.Armies)}
	case engine.AutoPlace:
		return "autoplace", nil
	case engine.Trade:
		hand := s.Seats[seat].Hand.Cards()
		var pos []string
		for _, card := range c.Cards {
			for i, h := range hand {
				if h == card {
					pos = append(pos, fmt.Sprint(i+1))
				}
			}
		}
		return "trade", map[string]string{"cards": strings.Join(pos, " ")}
	case engine.Attack:
		return "attack", map[string]string{"from": n(c.From), "to": n(c.To), "dice": fmt.Sprint(c.Dice)}
	case engine.Blitz:
		until := fmt.Sprint(c.Keep)
		if c.Keep == 1 {
			until = "win"
		}
		return "attack", map[string]string{"from": n(c.From), "to": n(c.To), "until": until}
	case engine.Occupy:
		return "occupy", map[string]string{"armies": fmt.Sprint(c.Armies)}
	case engine.Fortify:
		return "fortify", map[string]string{"from": n(c.From), "to": n(c.To), "armies": fmt.Sprint(c.Armies)}
	case engine.Assault:
		return "attack", map[string]string{"from": n(c.From), "to": n(c.To), "armies": fmt.Sprint(c.Armies)}
	case engine.Discard:
		hand := s.Seats[seat].Hand.Cards()
		for i, h := range hand {
			if h == c.Card {
				return "end", map[string]string{"discard": fmt.Sprint(i + 1)}
			}
		}
	case engine.Capital:
		return "place", map[string]string{"territory": n(c.Territory)}
	case engine.Reinforce:
		return "place", map[string]string{"territory": n(c.Territory)}
	case engine.Capture:
		return "attack", map[string]string{"from": n(c.From), "to": n(c.To)}
	case engine.Plan:
		return "attack", map[string]string{"from": n(c.From), "to": n(c.To)}
	case engine.Launch:
		return "launch", nil
	case engine.BuildPort:
		return "port", map[string]string{"territory": n(c.Territory)}
	case engine.UseItem:
		return "cards", map[string]string{"use": "yes"}
	case engine.Move:
		opts := map[string]string{"from": n(c.From), "to": n(c.To), "ratio": voice.Ratio(c.Quarters)}
		if c.Hero {
			opts["hero"] = "yes"
		}
		return "fortify", opts
	}
	return "end", nil
}

// chatMinds returns a normal computer player for each of the people, with
// seeds of their own, to choose what they type.
func chatMinds(t *testing.T, people ...string) map[string]clock.Player {
	t.Helper()
	minds := map[string]clock.Player{}
	for i, p := range people {
		mind, err := ai.New("normal", ai.Options{Seed: uint64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		minds[p] = mind
	}
	return minds
}

// wantReplays checks that m's stored log replays to the same state.
func wantReplays(t *testing.T, h *harness, m *hosted.Match) {
	t.Helper()
	l, err := h.db.Export(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := l.Record.Game(-1)
	if err != nil {
		t.Fatal(err)
	}
	if g.State.Turn != m.Game.State.Turn || g.State.RNG != m.Game.State.RNG {
		t.Error("the stored log replays to a different state")
	}
}

// TestPeoplePlayInChat has two people and a bot play a match of each rule
// set through chat commands (what the people type is chosen by computer
// players), checking every reply, the turn posts with their maps and the
// pings after every turn, and that the stored log replays.
func TestPeoplePlayInChat(t *testing.T) {
	tests := []struct {
		rules string
		new   []string // the options of /risk new
		// steps and turns bound the match; it must reach minTurns, with
		// as many turn posts and pings.
		steps, turns, minTurns int
		turnPosts, pings       int
		// started is what the start says of the first part of the match.
		started string
		// played are the commands the people must have typed.
		played []string
	}{
		{rules: "classic", steps: 600, turns: 30, minTurns: 6, turnPosts: 5, pings: 3, started: "Everyone places their armies now"},
		{rules: "capitals", new: []string{"rules:capitals", "map:small"}, steps: 800, turns: 40, minTurns: 10, turnPosts: 8, pings: 4,
			started: "Capitals are chosen in this order", played: []string{"capital", "reinforce", "capture", "move", "end"}},
	}
	for _, tt := range tests {
		t.Run(tt.rules, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:play"
			h.do(ch, "Ann", "new", tt.new...)
			h.do(ch, "Bob", "join")
			h.do(ch, "Ann", "addbot", "level:easy")
			wantPublic(t, h.do(ch, "Ann", "start"), "The match has started", tt.started)
			h.bot.Wait()
			minds := chatMinds(t, "Ann", "Bob")
			seen := map[string]int{}
			turnPosts, pings := 0, 0
			for step := 0; step < tt.steps; step++ {
				m := h.load(ch)
				s := m.Game.State
				if s.Phase == state.PhaseOver || s.Turn > tt.turns {
					break
				}
				seat := s.Current
				if s.Phase == state.PhaseSetup && !hosted.IsCapitals(s) {
					// Everyone places at once: the first person with armies left.
					for i := range s.Seats {
						if s.Seats[i].Reserve > 0 && !m.IsBotSeat(i) {
							seat = i
							break
						}
					}
				}
				who := s.Seats[seat].Name
				if m.IsBotSeat(seat) {
					t.Fatalf("step %d: the bot %s is to play and did not (turn %d %s)", step, who, s.Turn, s.Phase)
				}
				c, err := minds[who].Act(context.Background(), s.View(seat), seat)
				if err != nil {
					t.Fatal(err)
				}
				cmd, opts := chatCommand(s, seat, c)
				seen[c.Name()]++
				// The player means it when the bot asks (a move that
				// empties the capital): the computer chose it.
				reply, _ := h.meaning(ch, who, h.doOpts(ch, who, cmd, opts))
				if reply.Refused {
					t.Fatalf("step %d: %s /risk %s %v refused: %s", step, who, cmd, opts, reply.Text)
				}
				if strings.Contains(reply.Text, "{{") && !strings.Contains(reply.Text, "{{time:") && !strings.Contains(reply.Text, "{{mention:") {
					t.Errorf("reply with stray markup: %q", reply.Text)
				}
				for _, p := range h.takePosts() {
					msg := p.msg
					if strings.HasPrefix(all(msg), "**Turn ") || strings.HasPrefix(all(msg), "**Initial") || strings.HasPrefix(all(msg), "**Capital") {
						turnPosts++
					}
					for _, kind := range []string{"two-turns", "Two turns", "Full power", "Distant attack", "Attack and port"} {
						if strings.Contains(all(msg), "collected") && strings.Contains(all(msg), kind) {
							t.Errorf("a post reveals a kept item: %q", msg.Text)
						}
					}
					if len(msg.Mentions) == 0 {
						continue
					}
					pings++
					after := h.load(ch).Game.State
					if after.Phase == state.PhaseOver {
						continue
					}
					if len(msg.Mentions) != 1 || msg.Mentions[0] != after.Seats[after.Current].ID {
						t.Errorf("ping mentions %v, want only %s", msg.Mentions, after.Seats[after.Current].ID)
					}
					if !strings.Contains(msg.Text, "{{time:") {
						t.Errorf("ping without a deadline: %q", msg.Text)
					}
				}
			}
			m := h.load(ch)
			if m.Game.State.Turn < tt.minTurns {
				t.Errorf("only %d turns played", m.Game.State.Turn)
			}
			if err := m.Game.State.Check(); err != nil {
				t.Error(err)
			}
			for _, kind := range tt.played {
				if seen[kind] == 0 {
					t.Errorf("the people never played %q (%v)", kind, seen)
				}
			}
			if turnPosts < tt.turnPosts || pings < tt.pings {
				t.Errorf("%d turn posts and %d pings", turnPosts, pings)
			}
			t.Logf("commands typed: %v; %d turn posts, %d pings, turn %d, %s", seen, turnPosts, pings, m.Game.State.Turn, m.Game.State.Phase)
			wantReplays(t, h, m)
		})
	}
}

func TestCardsAreShownOnlyToTheirOwner(t *testing.T) {
	h := newHarness(t)
	const ch = "test:cards"
	m := h.started(ch, []string{"Ann", "Bob"})
	// Give Ann cards directly in a stored game: play until someone holds
	// some is slow, so check the reply's privacy and wording instead.
	_ = m
	wantPrivate(t, h.do(ch, "Ann", "cards"), "no cards")
	wantPrivate(t, h.do(ch, "Zed", "cards"), "not playing")
}

// A seat on autopilot (its player missed their turns: the clock
// package's tests) refuses its player's commands, with the way back,
// until the host gives it back; the player hears of it in the channel.
func TestSeatOnAutopilot(t *testing.T) {
	h := newHarness(t)
	const ch = "test:autopilot"
	startedAndPlaced(t, h, ch)
	m := h.load(ch)
	i := m.Meta.Index(user("Bob").ID)
	m.Meta.Seats[i].Autopilot, m.Meta.Seats[i].Missed = true, 3
	if err := h.bot.matches.Save(context.Background(), m, storage.Change{}); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, h.do(ch, "Bob", "end"), "A bot is playing your seat")
	h.takePosts()
	wantPrivate(t, h.do(ch, "Ann", "join", "player:Bob"), "plays their own seat again")
	if back := h.takePosts(); len(back) != 1 || !strings.Contains(back[0].msg.Text, "plays their own seat again") ||
		len(back[0].msg.Mentions) != 1 || back[0].msg.Mentions[0] != user("Bob").ID {
		t.Errorf("posts of the seat given back: %+v, want one that pings Bob", back)
	}
	if m := h.load(ch); m.Meta.Seats[i].Autopilot {
		t.Error("Bob still on autopilot")
	}
}

func TestButtons(t *testing.T) {
	h := newHarness(t)
	const ch = "test:buttons"
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	h.takePosts()
	m := h.load(ch)
	s := m.Game.State
	who := s.Seats[s.Current].Name
	h.do(ch, who, "autoplace")
	m = h.load(ch)
	s = m.Game.State
	// Find an attack with at least 3 armies against anything.
	from, to := -1, -1
	for f := range s.Terr {
		if s.Terr[f].Owner != s.Current || s.Terr[f].Armies < 3 {
			continue
		}
		for _, n := range s.Map.Territories[f].Adj {
			if s.Terr[n].Owner != s.Current {
				from, to = f, n
			}
		}
	}
	if from < 0 {
		t.Skip("no attack available in this deal")
	}
	reply := h.doOpts(ch, who, "attack", map[string]string{"from": s.Map.Territories[from].Name, "to": s.Map.Territories[to].Name, "dice": "1"})
	if reply.Refused {
		t.Fatalf("attack refused: %s", reply.Text)
	}
	// A conquest asks how many move in first: click the largest.
	if len(reply.Buttons) > 0 && strings.HasPrefix(reply.Buttons[0][0].Label, "Move") {
		row := reply.Buttons[0]
		reply = h.click(ch, who, row[len(row)-1].ID)
		wantDone(t, reply, "moved")
	}
	var end chat.Button
	for _, row := range reply.Buttons {
		for _, b := range row {
			if b.Label == "End turn" {
				end = b
			}
			if len(b.ID) > 100 {
				t.Errorf("button ID %q is longer than 100", b.ID)
			}
		}
	}
	if end.ID == "" {
		t.Fatalf("no End turn button in %+v", reply.Buttons)
	}
	other := "Ann"
	if who == "Ann" {
		other = "Bob"
	}
	wantPrivate(t, h.click(ch, other, end.ID), "Those buttons are for "+who)
	wantDone(t, h.click(ch, who, end.ID), "ended turn")
	// The same button again is stale: a polite private answer.
	wantPrivate(t, h.click(ch, who, end.ID), "earlier moment")
	wantPrivate(t, h.click(ch, who, "garbage"), "not one of mine")
	wantPrivate(t, h.click(ch, who, "r|999|1|end"), "no longer exists")
}

func TestAutocompleteSuggestsOnlyLegalChoices(t *testing.T) {
	h := newHarness(t)
	const ch = "test:auto"
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	m := h.load(ch)
	s := m.Game.State
	who := s.Seats[s.Current]
	req := chat.Request{Channel: ch, User: chat.User{ID: who.ID, Name: who.Name}, Command: "place", Options: map[string]string{"territory": ""}}
	choices := h.bot.Autocomplete(context.Background(), req, "territory")
	if len(choices) == 0 || len(choices) > 25 {
		t.Fatalf("%d choices", len(choices))
	}
	for _, c := range choices {
		id, err := s.Map.Lookup(c.Value)
		if err != nil || s.Terr[id].Owner != s.Current {
			t.Errorf("suggested %q, not one of the player's territories", c.Value)
		}
	}
	h.do(ch, who.Name, "autoplace")
	s = h.load(ch).Game.State
	req = chat.Request{Channel: ch, User: req.User, Command: "attack", Options: map[string]string{"from": ""}}
	for _, c := range h.bot.Autocomplete(context.Background(), req, "from") {
		id, _ := s.Map.Lookup(c.Value)
		if s.Terr[id].Owner != s.Current || s.Terr[id].Armies < 2 {
			t.Errorf("attack from %q suggested", c.Value)
		}
		req.Options = map[string]string{"from": c.Value, "to": ""}
		for _, d := range h.bot.Autocomplete(context.Background(), req, "to") {
			to, _ := s.Map.Lookup(d.Value)
			if s.Terr[to].Owner == s.Current || !s.Map.Adjacent(id, to) {
				t.Errorf("attack %s → %s suggested", c.Value, d.Value)
			}
		}
	}
	// Fuzzy: a typo still finds the territory first.
	req = chat.Request{Channel: ch, User: req.User, Command: "fortify", Options: map[string]string{"from": "alsk"}}
	_ = h.bot.Autocomplete(context.Background(), req, "from")
	// A watcher gets nothing.
	req.User = user("Zed")
	if got := h.bot.Autocomplete(context.Background(), req, "from"); len(got) != 0 {
		t.Errorf("a watcher got %d suggestions", len(got))
	}
}

// A command computed on a stale read is refused with "moved on", never
// applied twice.
func TestStaleWriteIsRefused(t *testing.T) {
	h := newHarness(t)
	const ch = "test:race"
	h.started(ch, []string{"Ann", "Bob"})
	stale := h.load(ch)
	h.do(ch, "Ann", "autoplace")
	seat := stale.Game.State.SeatByID(user("Bob").ID)
	_, err := h.bot.play.Apply(context.Background(), stale, seat, "", engine.AutoPlace{})
	if err == nil {
		t.Fatal("a write at a stale version was accepted")
	}
	res := hosted.Result{}
	var got chat.Message
	_ = h.bot.finish(context.Background(), ch, user("Bob"), "autoplace", nil, "", res, err, chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }), aside(ch, user("Bob").ID, true))
	wantPrivate(t, got, "moved on")
}

func TestParallelChannels(t *testing.T) {
	h := newHarness(t)
	done := make(chan error, 4)
	for i := range 4 {
		go func() {
			ch := fmt.Sprintf("test:par%d", i)
			var err error
			h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: user("Ann"), Command: "new"}, chat.ReplierFunc(func(context.Context, chat.Message) error { return nil }))
			for _, level := range []string{"easy", "random"} {
				h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: user("Ann"), Command: "addbot", Options: map[string]string{"level": level}}, chat.ReplierFunc(func(context.Context, chat.Message) error { return nil }))
			}
			h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: user("Ann"), Command: "leave"}, chat.ReplierFunc(func(context.Context, chat.Message) error { return nil }))
			err = h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: user("Ann"), Command: "start"}, chat.ReplierFunc(func(context.Context, chat.Message) error { return nil }))
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	h.bot.Wait()
	for i := range 4 {
		m := h.load(fmt.Sprintf("test:par%d", i))
		if m.Status != storage.Finished {
			t.Errorf("channel %d: %s at turn %d", i, m.Status, m.Game.State.Turn)
		}
	}
}

func TestNamesCannotCarryMarkup(t *testing.T) {
	h := newHarness(t)
	const ch = "test:names"
	h.do(ch, "Ann", "new")
	var got chat.Message
	err := h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: chat.User{ID: "test:evil", Name: "{{mention:test:ann}} @everyone\nx"}, Command: "join"},
		chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"{{", "@everyone", "\nx"} {
		if strings.Contains(got.Text, bad) {
			t.Errorf("a player's name put %q in a message: %q", bad, got.Text)
		}
	}
}

// A lobby of two, won by two thirds of the map, is told the first player
// can win before the second plays; with domination, or three seats, not.
func TestTwoPlayerHint(t *testing.T) {
	const hint = "the first can win in the first turn"
	h := newHarness(t)
	h.do("test:a", "Ann", "new")
	h.do("test:a", "Bob", "join")
	wantLobby(t, h, "test:a", hint)
	h.do("test:a", "Ann", "addbot")
	if l, _ := h.lobbyOf("test:a"); strings.Contains(all(l), hint) {
		t.Errorf("hint with three seats: %q", all(l))
	}
	h.do("test:b", "Ann", "new", "victory:domination")
	h.do("test:b", "Ann", "addbot")
	if l, _ := h.lobbyOf("test:b"); strings.Contains(all(l), hint) {
		t.Errorf("hint with domination: %q", all(l))
	}
}
