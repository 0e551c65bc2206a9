package discord

import (
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// TestTeamThreadsFlow: a match of teams through the adapter and the real
// core against the fake Discord. Players pick their teams in the lobby
// (bad picks answered clearly); the start is refused while the teams are
// uneven; at the start each team with people in it gets a private thread
// in the channel (not in the match's own thread, which can hold none),
// with its people added and welcomed; the threads are archived with the
// match.
func TestTeamThreadsFlow(t *testing.T) {
	g := newGame(t)
	g.fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.ThreadPermissions|fakediscord.PermCreatePrivThreads)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("teams", "2")))), "Your match is open in its own thread")
	match := g.fake.Threads()[0].ID
	wantPrivate(t, g.answer(g.do(slash(t, bob, match, "join", o("team", 9)))), "between 1 and 3")
	wantPrivate(t, g.answer(g.do(slash(t, bob, match, "join", o("team", 1)))), "You joined team 1")
	wantPrivate(t, g.answer(g.do(slash(t, ann, match, "join", o("team", 1)))), "You are in team 1 now")
	wantPrivate(t, g.answer(g.do(slash(t, cat, match, "join", o("team", 1)))), "Team 1 is full (Ann, Bob)")
	wantPrivate(t, g.answer(g.do(slash(t, cat, match, "join"))), "You joined")
	wantPrivate(t, g.answer(g.do(slash(t, ann, match, "start"))), "Teams of 2 need 4 or 6 players", "there are 3")
	wantPrivate(t, g.answer(g.do(slash(t, ann, match, "addbot", o("level", "easy")))), "takes a seat")
	replies := g.fake.Replies(g.do(slash(t, ann, match, "start")))
	g.bot.Wait()
	if len(replies) == 0 {
		t.Fatal("no answer to the start")
	}
	wantPublic(t, replies[0], "Team 1 (", "Ann", "Bob", "Each team has a private thread to plan in")

	var teams []fakediscord.Thread
	for _, th := range g.fake.Threads() {
		if th.Private {
			teams = append(teams, th)
		}
	}
	if len(teams) != 2 {
		t.Fatalf("private threads %+v, want one per team", teams)
	}
	want := [][]string{{ann.id, bob.id}, {cat.id}} // the bot is no member
	for i, th := range teams {
		if th.Parent != channel {
			t.Errorf("team %d's thread is in %s, want the channel %s", i+1, th.Parent, channel)
		}
		got := slices.Clone(th.Members)
		slices.Sort(got)
		if !slices.Equal(got, want[i]) {
			t.Errorf("team %d's thread has %v, want %v", i+1, got, want[i])
		}
		var welcome *fakediscord.Message
		for _, m := range g.fake.Messages() {
			if m.ChannelID == th.ID {
				welcome = &m
			}
		}
		if welcome == nil || !strings.Contains(welcome.Content, "this chat is your team's alone") {
			t.Fatalf("team %d's thread has no welcome: %+v", i+1, welcome)
		}
		for _, id := range want[i] {
			if !strings.Contains(welcome.Content, "<@"+id+">") || welcome.Mentions == nil || !slices.Contains(welcome.Mentions.Users, id) {
				t.Errorf("team %d's welcome does not ping %s: %q", i+1, id, welcome.Content)
			}
		}
	}

	// The end: every thread of the match is archived.
	ask := g.answer(g.do(slash(t, ann, match, "abandon")))
	end, _ := buttonByLabel(ask, "End the match")
	g.answer(g.do(click(t, ann, match, end.CustomID)))
	g.bot.Wait()
	for _, th := range g.fake.Threads() {
		if !th.Archived {
			t.Errorf("thread %s was not archived with the match", th.Name)
		}
	}
}
