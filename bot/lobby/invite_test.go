package lobby

import (
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// step is one command or click of a table of the lobby's refusals and
// changes: who does what, and what the answer must say.
type step struct {
	name string
	who  string
	// command with its options, or click: the label of a button of the
	// channel's newest message that has one.
	command string
	opts    []string
	click   string
	// refused: the answer must be a refusal; want are its parts.
	refused bool
	want    []string
}

func (e *env) run(channel string, steps []step) {
	e.t.Helper()
	for _, s := range steps {
		var m chat.Message
		if s.click != "" {
			b, ok := e.button(channel, s.click)
			if !ok {
				e.t.Fatalf("%s: no %q button in %s", s.name, s.click, channel)
			}
			m = e.click(channel, s.who, b.ID)
		} else {
			m = e.do(channel, s.who, s.command, s.opts...)
		}
		if m.Refused != s.refused {
			e.t.Errorf("%s: refused %v, want %v: %q", s.name, m.Refused, s.refused, m.Text)
		}
		if s.refused && !m.Private {
			e.t.Errorf("%s: a public refusal: %q", s.name, m.Text)
		}
		for _, w := range s.want {
			if !strings.Contains(all(m), w) {
				e.t.Errorf("%s: %q lacks %q", s.name, all(m), w)
			}
		}
	}
}

// Issue 31, item 3: the host invites people by mention; the invitation
// holds a seat until its Accept or Decline button answers it, or for a
// day; every wrong move is refused with a word, the lobby unchanged.
func TestInvite(t *testing.T) {
	e := newEnv(t)
	const ch = "test:invite"
	e.do(ch, "Ann", "new", "thread:off")
	e.run(ch, []step{
		{name: "not the host", who: "Bob", command: "host invite", opts: []string{"player:test:cat"}, refused: true, want: []string{"Only Ann (the host) can invite players."}},
		{name: "a name, not a mention", who: "Ann", command: "host invite", opts: []string{"player:Cat"}, refused: true, want: []string{"with a mention: /risk host invite player:@Name"}},
		{name: "a bot", who: "Ann", command: "host invite", opts: []string{"player:bot:1"}, refused: true, want: []string{"with a mention"}},
		{name: "oneself", who: "Ann", command: "host invite", opts: []string{"player:<@ann>"}, refused: true, want: []string{"You are in your own match already."}},
		{name: "no player", who: "Ann", command: "host invite", refused: true, want: []string{"needs player"}},
		{name: "invited", who: "Ann", command: "host invite", opts: []string{"player:<@cat>"}, want: []string{"You invited {{mention:test:cat}}: their seat is held until {{time:"}},
		{name: "invited twice", who: "Ann", command: "host invite", opts: []string{"player:test:cat"}, refused: true, want: []string{"{{mention:test:cat}} is invited already: their seat is held until"}},
		{name: "someone else accepts", who: "Dan", click: "Accept", refused: true, want: []string{"This invitation is not for you", "You can still join it"}},
		{name: "someone else declines", who: "Dan", click: "Decline", refused: true, want: []string{"This invitation is not for you"}},
		{name: "the host accepts", who: "Ann", click: "Accept", refused: true, want: []string{"You are already seated in this match."}},
		{name: "Bob joins", who: "Bob", command: "join", want: []string{"You joined (2/6 seats)"}},
		{name: "already seated", who: "Ann", command: "host invite", opts: []string{"player:test:bob"}, refused: true, want: []string{"{{mention:test:bob}} is already seated in this match."}},
		{name: "bot 1", who: "Ann", command: "host addbot"},
		{name: "bot 2", who: "Ann", command: "host addbot"},
		{name: "bot 3", who: "Ann", command: "host addbot"},
		{name: "full with a held seat: invite", who: "Ann", command: "host invite", opts: []string{"player:test:eve"}, refused: true, want: []string{"The match is full: 5 seated, 1 seat held for invited players."}},
		{name: "full with a held seat: bot", who: "Ann", command: "host addbot", refused: true, want: []string{"The match is full: 5 seated, 1 seat held"}},
		{name: "full with a held seat: join", who: "Eve", command: "join", refused: true, want: []string{"The match is full: 5 seated, 1 seat held"}},
		{name: "Cat accepts", who: "Cat", click: "Accept", want: []string{"You joined (6/6 seats)"}},
		{name: "Cat accepts again", who: "Cat", click: "Accept", refused: true, want: []string{"You are already seated in this match."}},
	})
	m := e.load(ch)
	if len(m.Meta.Seats) != 6 || len(m.Meta.Invites) != 0 || m.Meta.Seats[5].ID != "test:cat" {
		t.Errorf("seats %+v, invites %+v; want Cat in the sixth seat, no invitation", m.Meta.Seats, m.Meta.Invites)
	}

	// Declined, expired, after the start.
	const ch2 = "test:invite2"
	e.do(ch2, "Ann", "new", "thread:off")
	e.run(ch2, []step{
		{name: "invite Dan", who: "Ann", command: "host invite", opts: []string{"player:test:dan"}},
		{name: "the lobby holds the seat", who: "Ann", command: "host settings", want: []string{"Settings:"}},
		{name: "Dan declines", who: "Dan", click: "Decline", want: []string{"You declined the invitation; the seat is free again."}},
		{name: "Dan declines again", who: "Dan", click: "Decline", refused: true, want: []string{"This invitation is not for you (or was answered already)."}},
		{name: "invite Eve", who: "Ann", command: "host invite", opts: []string{"player:test:eve"}},
	})
	e.wantLobby(ch2, "Lobby — 1/6 seats, 1 held", "2. ⏳ {{mention:test:eve}} (invited, seat held until {{time:")
	e.Advance(25 * time.Hour)
	e.run(ch2, []step{
		{name: "Eve accepts too late", who: "Eve", click: "Accept", refused: true, want: []string{"This invitation expired {{time:", "join with /risk join"}},
		{name: "invite Eve again", who: "Ann", command: "host invite", opts: []string{"player:test:eve"}, want: []string{"You invited {{mention:test:eve}}"}},
		{name: "Eve joins instead", who: "Eve", command: "join", want: []string{"You joined (2/6 seats)"}},
		{name: "invite Fay", who: "Ann", command: "host invite", opts: []string{"player:test:fay"}},
		{name: "start", who: "Ann", command: "start", want: []string{"The match has started"}},
		{name: "Fay accepts after the start", who: "Fay", click: "Accept", refused: true, want: []string{"The match has already started"}},
		{name: "invite after the start", who: "Ann", command: "host invite", opts: []string{"player:test:gus"}, refused: true, want: []string{"The match has already started."}},
	})
	if m := e.load(ch2); len(m.Meta.Invites) != 0 || len(m.Game.State.Seats) != 2 {
		t.Errorf("started with invitations %+v and %d seats; want none, 2", m.Meta.Invites, len(m.Game.State.Seats))
	}
	wantPrivate(t, e.do("test:none", "Ann", "host invite", "player:test:bob"), "There is no match in this channel")
}

// Issue 31, item 3: the victory post's Rematch button opens a lobby in
// the channel with the same settings and seats (bots seated, people
// invited back), once however often it is pressed.
func TestRematch(t *testing.T) {
	e := newEnv(t)
	const ch = "test:rematch"
	e.do(ch, "Ann", "new", "thread:off", "turn-hours:12", "victory:domination")
	e.do(ch, "Bob", "join")
	e.do(ch, "Ann", "host addbot", "level:easy", "name:Boney")
	e.do(ch, "Cat", "join")
	e.do(ch, "Ann", "host kick", "player:Cat") // removed in the lobby: not in the match
	e.do(ch, "Ann", "start")
	wantPrivate(t, e.click(ch, "Bob", e.load(ch).ButtonID(button.Rematch)), "This match is not over yet.")
	before := e.finished(ch, "Boney")
	rematch := before.ButtonID(button.Rematch)
	press := func(who string) chat.Message { return e.click(ch, who, rematch) }
	wantPrivate(t, press("Dan"), "Only the players of this match can ask for its rematch.")
	wantPrivate(t, press("Cat"), "Only the players")
	wantPrivate(t, press("Boney"), "Only the players")
	wantPrivate(t, press("Bob"), "Your rematch is open", "invited back")
	// Twice: the second press (of anyone) finds the rematch open.
	for _, who := range []string{"Bob", "Ann"} {
		wantPrivate(t, press(who), "The rematch is open already")
	}
	m := e.load(ch)
	if m.Status != storage.Lobby || m.Meta.Rematch != before.ID || m.Meta.Host != "test:bob" {
		t.Fatalf("rematch: %s, of %d, hosted by %s; want a lobby of %d hosted by Bob", m.Status, m.Meta.Rematch, m.Meta.Host, before.ID)
	}
	if m.Meta.Settings != before.Meta.Settings {
		t.Errorf("settings %+v, want %+v", m.Meta.Settings, before.Meta.Settings)
	}
	if len(m.Meta.Seats) != 2 || m.Meta.Seats[0].ID != "test:bob" || m.Meta.Seats[1].Name != "Boney" || m.Meta.Seats[1].Level != "easy" {
		t.Errorf("seats %+v, want Bob and Boney (easy)", m.Meta.Seats)
	}
	if len(m.Meta.Invites) != 1 || m.Meta.Invites[0].ID != "test:ann" {
		t.Errorf("invitations %+v, want Ann's", m.Meta.Invites)
	}
	e.wantLobby(ch, "Bob asked for a rematch", "Lobby — 2/6 seats, 1 held")
	invitation, ok := e.button(ch, "Accept")
	if !ok {
		t.Fatal("no invitation with an Accept button")
	}
	wantPrivate(t, e.click(ch, "Ann", invitation.ID), "You joined (3/6 seats)")
	wantPublic(t, e.do(ch, "Bob", "start"), "The match has started")
	if after := e.load(ch); after.Game.Setup.Seed == before.Game.Setup.Seed || len(after.Game.State.Seats) != 3 {
		t.Errorf("the rematch has seed %d (before %d), %d seats", after.Game.Setup.Seed, before.Game.Setup.Seed, len(after.Game.State.Seats))
	}
	wantPrivate(t, press("Ann"), "The rematch is under way in this channel")
}
