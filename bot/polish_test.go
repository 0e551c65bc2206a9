package bot

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// exampleRE finds the territories of a usage's example.
var exampleRE = regexp.MustCompile(`(?:like )?/risk (attack|fortify) from:(.+?) to:(.+?) (until|armies):`)

// A command that leaves out a territory is answered with an example from
// the player's own territories: the usage's Alaska and Kamchatka may be
// anyone's. Found by a tester (issue 43): "/risk attack from:" with
// nothing suggested territories that were not theirs.
func TestMissingTerritoryExampleIsThePlayersOwn(t *testing.T) {
	h := newHarness(t)
	const ch = "test:example"
	s := h.placed(ch, "Ann", "Bob").Game.State
	for _, who := range []string{"Ann", "Bob"} {
		seat := s.SeatByID(user(who).ID)
		for _, tt := range []struct {
			command string
			opts    []string
			enemy   bool // the example's target is an enemy's
		}{
			{"attack", []string{"from:"}, true},
			{"attack", nil, true},
			{"fortify", []string{"from:"}, false},
		} {
			reply := h.do(ch, who, tt.command, tt.opts...)
			got := exampleRE.FindStringSubmatch(reply.Text)
			if !reply.Refused || got == nil {
				t.Errorf("%s: /risk %s %v: got %q, want a refusal with an example", who, tt.command, tt.opts, reply.Text)
				continue
			}
			from, err1 := s.Map.Lookup(got[2])
			to, err2 := s.Map.Lookup(got[3])
			if err1 != nil || err2 != nil {
				t.Errorf("%s: /risk %s: example %q names no territory", who, tt.command, got[0])
				continue
			}
			if s.Terr[from].Owner != seat || from == to || (tt.enemy && !s.Map.Adjacent(from, to)) || (s.Terr[to].Owner != seat) != tt.enemy {
				t.Errorf("%s: /risk %s: got the example %s → %s (owners %d, %d), want from a territory of seat %d to a neighbour %s",
					who, tt.command, got[2], got[3], s.Terr[from].Owner, s.Terr[to].Owner, seat, map[bool]string{true: "of another", false: "of theirs"}[tt.enemy])
			}
		}
	}
}

// A command that leaves out a territory but mistypes the other is told
// the closest name first: the example alone would leave the typo unseen.
// Found playing the console from the README: "/risk attack from:alsaka".
func TestMissingTerritoryNamesTheTypo(t *testing.T) {
	h := newHarness(t)
	const ch = "test:typo"
	h.placed(ch, "Ann", "Bob")
	for _, tt := range []struct {
		command, opt, want string
	}{
		{"attack", "from:alsaka", "Did you mean Alaska?"},
		{"attack", "to:kamchtaka", "Did you mean Kamchatka?"},
		{"fortify", "from:Peru", "like /risk fortify from:"}, // spelt right: the example
	} {
		reply := h.do(ch, "Ann", tt.command, tt.opt)
		if !reply.Refused || !strings.Contains(reply.Text, tt.want) {
			t.Errorf("/risk %s %s: got %q (refused %v), want a refusal with %q", tt.command, tt.opt, reply.Text, reply.Refused, tt.want)
		}
	}
}

// offered lists what a player is offered for an option as they type it:
// its menu of choices (which Discord and the page show whatever the match)
// and the bot's suggestions.
func (h *harness) offered(req chat.Request, option string) []string {
	h.t.Helper()
	spec, ok := command.Find(h.bot.Specs(), command.Alias(req.Command))
	if !ok {
		h.t.Fatalf("no /risk %s", req.Command)
	}
	var out []string
	for _, o := range spec.Options {
		if o.Name != option {
			continue
		}
		out = append(out, o.Choices...)
		if o.Autocomplete {
			for _, c := range h.bot.Autocomplete(context.Background(), req, option) {
				out = append(out, c.Value)
			}
		}
	}
	return out
}

// map: offers the maps of the rule set chosen: a capitals match is never
// offered the classic world. Found by a tester (issue 43).
func TestMapOffersTheRuleSetsMaps(t *testing.T) {
	h := newHarness(t)
	h.do("test:caps", "Ann", "new", "rules:capitals")
	h.do("test:classic", "Ann", "new")
	caps, classic := []string{"small", "normal", "large"}, []string{"classic", "islands-small", "islands-normal", "islands-large"}
	for _, tt := range []struct {
		name    string
		channel string
		command string
		opts    map[string]string
		want    []string
	}{
		{"new rules:capitals", "test:none", "new", map[string]string{"rules": "capitals"}, caps},
		{"new rules:classic", "test:none", "new", map[string]string{"rules": "classic"}, classic},
		{"new, no rules (classic)", "test:none", "new", nil, classic},
		{"new rules:capitals map:l", "test:none", "new", map[string]string{"rules": "capitals", "map": "l"}, []string{"large"}},
		{"settings of a capitals lobby", "test:caps", "host settings", nil, caps},
		{"settings of a classic lobby", "test:classic", "host settings", nil, classic},
		{"settings of a classic lobby, rules:capitals", "test:classic", "host settings", map[string]string{"rules": "capitals"}, caps},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := map[string]string{"map": ""}
			for k, v := range tt.opts {
				opts[k] = v
			}
			got := h.offered(chat.Request{Channel: tt.channel, User: user("Ann"), Command: tt.command, Options: opts}, "map")
			if !slices.Equal(got, tt.want) {
				t.Errorf("map: offers %v, want %v", got, tt.want)
			}
		})
	}
	// What is offered is what the match takes.
	wantDone(t, h.do("test:caps", "Ann", "host settings", "map:Large"))
	if got := h.load("test:caps").Meta.Settings.Options.Map; got != "large" {
		t.Errorf("map:Large set the map %q, want large", got)
	}
}

// armies: is refused clearly where it does nothing: in a capitals match
// (before, it was silently ignored) and in sequential turns.
func TestArmiesRefusedOutsideRounds(t *testing.T) {
	h := newHarness(t)
	h.do("test:caps", "Ann", "new", "rules:capitals")
	h.do("test:caps", "Bob", "join")
	wantPublic(t, h.do("test:caps", "Ann", "start"), "The match has started")
	s := h.load("test:caps").Game.State
	who := s.Seats[s.Current].Name
	wantPrivate(t, h.do("test:caps", who, "attack", "from:x", "to:y", "armies:3"), "armies is for simultaneous rounds")
	s = h.placed("test:seq", "Ann", "Bob").Game.State
	from, to := -1, -1
	for t := range s.Terr {
		for _, n := range s.Map.Territories[t].Adj {
			if from < 0 && s.Terr[t].Owner == s.Current && s.Terr[n].Owner != s.Current {
				from, to = t, n
			}
		}
	}
	wantPrivate(t, h.doOpts("test:seq", s.Seats[s.Current].Name, "attack", map[string]string{"from": s.Map.TerritoryName(from), "to": s.Map.TerritoryName(to), "armies": "3"}), "armies is for simultaneous rounds")
}

// fogRounds starts a match of simultaneous rounds with fog of war: Ann,
// Bob and an easy bot, the initial placement done.
func fogRounds(h *harness, ch string) {
	h.t.Helper()
	h.do(ch, "Ann", "new", "turns:simultaneous", "fog:on")
	h.do(ch, "Bob", "join")
	h.do(ch, "Ann", "addbot", "level:easy")
	wantPublic(h.t, h.do(ch, "Ann", "start"), "The match has started")
	h.bot.Wait()
	h.do(ch, "Ann", "place")
	h.do(ch, "Bob", "place")
	h.bot.Wait()
}

// playRound has Ann and Bob place everything and say they are ready.
func (h *harness) playRound(ch string) {
	h.t.Helper()
	for _, who := range []string{"Ann", "Bob"} {
		h.do(ch, who, "place")
		h.do(ch, who, "end")
	}
	h.bot.Wait()
}

// With fog of war in simultaneous rounds, My view tells what the player
// saw since their last orders: the last round's resolution and the round
// under way, not every round since the start; the counts of others'
// placements say they are what the player sees; and the channel's round
// posts show no sum of everyone's reinforcements (in the fog it told
// what the others receive). Found by a tester (issue 43): My view
// repeated "placed 3 on Ural" round after round, and its totals differed
// from the channel's.
func TestFogRoundsMyViewTellsTheLastRound(t *testing.T) {
	h := newHarness(t)
	const ch = "test:fogrounds"
	fogRounds(h, ch)
	view := all(h.click(ch, "Ann", h.load(ch).ButtonID(button.View)))
	if !strings.Contains(view, "Initial placement done") {
		t.Errorf("round 1's view lacks the initial placement: %q", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "placed") && strings.Contains(l, "territories") && !strings.Contains(l, "Ann placed") && !strings.HasSuffix(l, "you see") {
			t.Errorf("a count of another's placement in Ann's view: got %q, want it to say it is what she sees", l)
		}
	}
	for range 4 {
		h.playRound(ch)
	}
	if s := h.load(ch).Game.State; s.Turn != 5 {
		t.Fatalf("round %d, want 5 (the match ended early?)", s.Turn)
	}
	view = all(h.click(ch, "Ann", h.load(ch).ButtonID(button.View)))
	for _, want := range []string{"**Round 4**", "**Round 5**", "Since your last turn:**"} {
		if !strings.Contains(view, want) {
			t.Errorf("Ann's view lacks %s: %q", want, view)
		}
	}
	for _, old := range []string{"**Round 1**", "**Round 2**", "**Round 3**", "earlier line", "▶"} {
		if strings.Contains(view, old) {
			t.Errorf("Ann's view at round 5 tells %q: %q", old, view)
		}
	}
	for _, p := range h.takePosts() {
		if e := p.msg.Embed; e != nil && strings.HasPrefix(e.Title, "Round") {
			for _, f := range e.Fields {
				if f.Name == "Reinforcements" {
					t.Errorf("the channel's %q shows everyone's reinforcements summed: %s", e.Title, f.Value)
				}
			}
		}
	}
}

// A simultaneous round's result is posted where the channel's readers are,
// after everything said during the round, with the map; the round's
// living message, far above by then, is closed with a word that the result
// follows. The next round's ping opens with what happened to each player
// since their last orders, as a sequential turn's does. Found by a tester
// (issue 43): the result was written into the old "Round 1" message, and
// rounds had no "since your last turn".
func TestRoundResultIsPostedWhereTheReaderIs(t *testing.T) {
	h := newHarness(t)
	const ch = "test:rounds"
	h.do(ch, "Ann", "new", "turns:simultaneous")
	h.do(ch, "Bob", "join")
	wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
	h.do(ch, "Ann", "place")
	h.do(ch, "Bob", "place")
	h.bot.Wait()
	live := ""
	for _, p := range h.takePosts() {
		if p.msg.Embed != nil && p.msg.Embed.Title == "Round 1" {
			live = p.id
		}
	}
	if live == "" {
		t.Fatal("no living message for round 1")
	}
	h.playRound(ch)
	var result, next *posted
	posts := h.takePosts()
	for i, p := range posts {
		switch {
		case p.id == live:
			if strings.Contains(all(p.msg), "The orders run") {
				t.Errorf("round 1's result was written into its living message %s, posted before the round was played: %q", live, all(p.msg))
			}
		case p.msg.Embed != nil && p.msg.Embed.Title == "Round 1" && strings.Contains(all(p.msg), "The orders run"):
			result = &posts[i]
		case p.msg.Embed != nil && p.msg.Embed.Title == "Round 2":
			next = &posts[i]
		}
	}
	if result == nil {
		t.Fatal("round 1's result was not posted")
	}
	if n, l := atoi(t, result.id), atoi(t, live); n <= l || result.msg.Image == nil {
		t.Errorf("round 1's result is post %d (map %v), want a new post after the living message %d, with the map", n, result.msg.Image != nil, l)
	}
	if next == nil {
		t.Fatal("no living message for round 2")
	}
	wantText(t, next.msg, "Since your last turn", "Ann", "Bob", "leads with")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("post id %q: %v", s, err)
	}
	return n
}
