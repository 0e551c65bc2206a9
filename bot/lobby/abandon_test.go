package lobby

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, item 11: the host, or an admin, ends a match without a winner
// after confirming with a button; it is kept (for history and export),
// and the channel can host another.
func TestAbandon(t *testing.T) {
	e := newEnv(t)
	const ch = "test:abandon"
	e.started(ch, []string{"Ann", "Bob"}, "easy")
	wantPrivate(t, e.do(ch, "Bob", "abandon"), "Only Ann (the host) or an admin")
	ask := e.do(ch, "Ann", "abandon")
	wantPrivate(t, ask, "without a winner?", "expires")
	end, ok := buttonLabelled(ask, "End the match")
	if !ok {
		t.Fatalf("no button to confirm: %+v", ask.Buttons)
	}
	keep, _ := buttonLabelled(ask, "Keep it")
	wantPrivate(t, e.click(ch, "Ann", keep.ID), "goes on")
	// Someone else cannot use the host's confirmation.
	wantPrivate(t, e.click(ch, "Bob", end.ID), "Only the host or an admin")
	e.chat.Take()
	wantPrivate(t, e.click(ch, "Ann", end.ID), "the match is ended")
	posts := e.chat.Take()
	if len(posts) != 1 || !strings.Contains(all(posts[0].Msg), "Ann (the host) ended the match without a winner") {
		t.Errorf("posts %+v", posts)
	}
	m := e.load(ch)
	if m.Status != storage.Abandoned || m.Meta.Finished.IsZero() || m.Meta.Ended != "by Ann (the host)" {
		t.Fatalf("match %s, finished %v, ended %q", m.Status, m.Meta.Finished, m.Meta.Ended)
	}
	if x, err := e.store.Export(context.Background(), m.ID); err != nil || x.Status != storage.Abandoned {
		t.Errorf("export of the ended match: %v", err)
	}
	if len(e.store.Queued()) != 0 {
		t.Errorf("the note stayed queued: %+v", e.store.Queued())
	}
	wantPrivate(t, e.click(ch, "Ann", end.ID), "There is no match in this channel to end")
	wantPrivate(t, e.do(ch, "Bob", "new"), "Your match is open")
	e.wantLobby(ch, "Bob opened a Risk match")
	// The question of the ended match cannot end the new one.
	wantPrivate(t, e.click(ch, "Bob", end.ID), "That match is over")
}

// An admin ends any match, the confirmation expires, and a damaged match
// (its data does not load) can be ended too, freeing its channel.
func TestAdminAbandonsAnyMatch(t *testing.T) {
	e := newEnv(t)
	const ch = "test:admin"
	e.do(ch, "Ann", "new")
	ask := e.doAdmin(ch, "Dan", "abandon")
	end, ok := buttonLabelled(ask, "End the match")
	if !ok {
		t.Fatalf("the admin was not asked: %q", ask.Text)
	}
	e.Advance(AbandonConfirm + time.Second)
	wantPrivate(t, e.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: end.ID, Admin: true}), "expired")
	ask = e.doAdmin(ch, "Dan", "abandon")
	end, _ = buttonLabelled(ask, "End the match")
	wantPrivate(t, e.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: end.ID, Admin: true}), "the match is ended")
	// The note is posted, and the lobby's message says it is closed,
	// without its buttons.
	if closed := e.wantLobby(ch, "This lobby is closed", "Lobby — closed"); len(closed.Buttons) != 0 {
		t.Errorf("the closed lobby keeps its buttons: %+v", closed.Buttons)
	}
	if p := e.messages(ch); len(p) != 2 || !strings.Contains(all(p[1]), "Dan (an admin) ended the match") {
		t.Errorf("the channel holds %d messages, want the lobby and the note", len(p))
	}

	const damaged = "test:damaged-admin"
	if _, err := e.store.Create(context.Background(), damaged, json.RawMessage(`[1,2]`), e.Now()); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, e.do(damaged, "Ann", "new"), "damaged", "/risk host abandon")
	wantPrivate(t, e.do(damaged, "Ann", "abandon"), "or an admin")
	ask = e.doAdmin(damaged, "Dan", "abandon")
	end, _ = buttonLabelled(ask, "End the match")
	wantPrivate(t, e.clickAs(chat.Click{Channel: damaged, User: user("Dan"), ID: end.ID, Admin: true}), "the match is ended")
	wantPrivate(t, e.do(damaged, "Ann", "new"), "Your match is open")
	e.wantLobby(damaged, "Ann opened a Risk match")
}

// An admin removes any seat, the host's included: in the lobby the seat
// goes and the host's role passes on; in a started match a computer plays
// the seat, from then on, after a question that expires.
func TestAdminRemovesAnySeat(t *testing.T) {
	e := newEnv(t)
	const ch = "test:kick"
	e.do(ch, "Ann", "new")
	e.do(ch, "Bob", "join")
	e.do(ch, "Cat", "join")
	wantPrivate(t, e.do(ch, "Bob", "kick", "player:Ann"), "Only Ann (the host) can remove players", "An admin")
	wantPrivate(t, e.do(ch, "Bob", "kick", "player:Bob"), "Only Ann (the host)")
	wantPrivate(t, e.doAdmin(ch, "Dan", "kick", "player:Ann"), "Ann was removed", "Bob is the host now")
	e.wantLobby(ch, "Ann was removed", "1. Bob (host)")
	if m := e.load(ch); m.Meta.Host != user("Bob").ID || m.Meta.Index(user("Ann").ID) >= 0 {
		t.Fatalf("host %s, seats %+v", m.Meta.Host, m.Meta.Seats)
	}
	wantPrivate(t, e.do(ch, "Bob", "kick", "player:Bob"), "You cannot remove yourself")
	e.do(ch, "Bob", "host addbot", "name:Robo")
	e.do(ch, "Bob", "start")
	wantPrivate(t, e.do(ch, "Bob", "kick", "player:Robo"), "Robo is already a bot")
	// In a match under way, removing a person asks first, with a button
	// that only the host or an admin may press, and that expires.
	ask := e.doAdmin(ch, "Dan", "kick", "player:Bob")
	wantPrivate(t, ask, "Remove Bob from the match?", "{{time:")
	if len(ask.Buttons) != 1 || len(ask.Buttons[0]) != 2 {
		t.Fatalf("buttons %+v", ask.Buttons)
	}
	yes, no := ask.Buttons[0][0], ask.Buttons[0][1]
	wantPrivate(t, e.click(ch, "Dan", no.ID), "Nobody was removed")
	wantPrivate(t, e.click(ch, "Cat", yes.ID), "Only Bob (the host)")
	wantPrivate(t, e.click(ch, "Bob", yes.ID), "You cannot remove yourself")
	if m := e.load(ch); m.Meta.Seats[m.Meta.Index(user("Bob").ID)].IsBot() {
		t.Fatal("the question removed Bob before it was answered")
	}
	e.Advance(kickConfirm + time.Second)
	wantPrivate(t, e.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: yes.ID, Admin: true}), "expired")
	ask = e.doAdmin(ch, "Dan", "kick", "player:Bob")
	yes = ask.Buttons[0][0]
	wantPublic(t, e.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: yes.ID, Admin: true}), "Bob was removed; a", "Cat is the host now")
	m := e.load(ch)
	if sm := m.Meta.Seats[m.Meta.Index(user("Bob").ID)]; !sm.IsBot() || sm.Level != "normal" || m.Meta.Host != user("Cat").ID {
		t.Errorf("Bob's seat %+v, host %s; want a normal bot, Cat hosting", sm, m.Meta.Host)
	}
}

// Issue 12, item 13: where the bot may open threads, a match is opened in
// a thread of its own, its lobby posted there and one line of it in the
// channel; asked for where it cannot, it is refused; a lobby closed in
// its thread archives it. A chat that does not say plays in the channel.
func TestThreads(t *testing.T) {
	e := newEnv(t)
	const ch = "test:threads"
	may := []string{} // the bot may open threads here
	new := func(opts map[string]string, lacks []string) chat.Message {
		return e.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: "new", Options: opts, ThreadLacks: lacks})
	}
	wantPrivate(t, new(map[string]string{"thread": "on"}, nil), "I cannot open threads here")
	wantPrivate(t, new(map[string]string{"thread": "on"}, []string{"Create Public Threads"}), "Create Public Threads")
	wantPrivate(t, new(nil, may), "Your match is open in its own thread")
	opened, _ := e.chat.Threads()
	if len(opened) != 1 {
		t.Fatalf("threads %v", opened)
	}
	thread := opened[0]
	if got := e.chat.Sent(); len(got) != 2 || got[0].Channel != thread || got[1].Channel != ch || !strings.Contains(all(got[1].Msg), "It is played in its own thread") {
		t.Fatalf("posts of /risk new: %+v, want the lobby in the thread, then a line in the channel", got)
	}
	if m := e.load(thread); m.Meta.Parent != ch || !m.Meta.Thread {
		t.Errorf("the match in its thread: parent %q, thread %v", m.Meta.Parent, m.Meta.Thread)
	}
	// The channel is free: another match may open there, in a thread.
	wantPrivate(t, new(map[string]string{"thread": "off"}, may), "Your match is open:")
	wantPrivate(t, e.do(thread, "Ann", "surrender"), "You left the match")
	if _, archived := e.chat.Threads(); len(archived) != 1 || archived[0] != thread {
		t.Errorf("archived %v, want %s", archived, thread)
	}
	e.doReq(chat.Request{Channel: "test:plain", User: user("Ann"), Command: "new"})
	if opened, _ := e.chat.Threads(); len(opened) != 1 {
		t.Errorf("a thread without the permissions being said: %v", opened)
	}
	// A lobby cannot open where the bot may not post.
	wantPrivate(t, e.doReq(chat.Request{Channel: "test:mute", User: user("Ann"), Command: "new", BotLacks: []string{"Send Messages"}}), "Send Messages")
}
