package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
)

// TestReplicaFollowsARollback: a replica that follows a match through the
// API's log (engine.NewReplica, then Replay of each entry) follows the
// host's rollback too, an entry of the Host's seat, and its public view
// equals the server's before and after it; a rollback is not played
// through the API.
func TestReplicaFollowsARollback(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "rollback")
	e.do(t, "rollback", "Ann", "/risk autoplace")
	public := &client{t: t, base: e.ts.URL}
	f := &follower{c: public, id: id}
	follow := func() {
		t.Helper()
		var m apiMatch
		if st := public.get(fmt.Sprintf("/api/matches/%d", id), &m); st != http.StatusOK {
			t.Fatalf("GET the match: %d", st)
		}
		if !f.catchUp(t, m.Commands) {
			t.Fatal("the match is over")
		}
		if !f.same(t, m.State, m.Commands) {
			t.Fatalf("after %d commands (the server at %d) the replica is behind", f.version(), m.Commands)
		}
	}
	// Ann plays her turns (the computers theirs) to turn 5.
	for step := 0; step < 200; step++ {
		l, err := e.db.Active(context.Background(), Prefix+"rollback")
		if err != nil {
			t.Fatal(err)
		}
		if s := l.Game.State; s.Turn >= 5 {
			break
		} else if s.Seats[s.Current].ID == userID("Ann") {
			e.do(t, "rollback", "Ann", "/risk place")
			e.do(t, "rollback", "Ann", "/risk end")
		} else {
			e.bot.Wait()
		}
	}
	follow()
	at := f.rep.Game().State.Turn

	ann := chat.User{ID: userID("Ann"), Name: "Ann"}
	var ask, done chat.Message
	if err := e.bot.Handle(context.Background(), chat.Request{Channel: Prefix + "rollback", User: ann, Command: "host rollback", Options: map[string]string{"turn": "2"}},
		chat.ReplierFunc(func(_ context.Context, m chat.Message) error { ask = m; return nil })); err != nil {
		t.Fatal(err)
	}
	var button string
	for _, row := range ask.Buttons {
		for _, b := range row {
			if strings.HasPrefix(b.Label, "Go back") {
				button = b.ID
			}
		}
	}
	if button == "" {
		t.Fatalf("no button in %q", ask.Text)
	}
	if err := e.bot.HandleClick(context.Background(), chat.Click{Channel: Prefix + "rollback", User: ann, ID: button},
		chat.ReplierFunc(func(_ context.Context, m chat.Message) error { done = m; return nil })); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(done.Text, "Done") {
		t.Fatalf("the rollback was not done: %q", done.Text)
	}
	e.bot.Wait()
	before := f.version()
	follow()
	var cs apiCommands
	public.get(fmt.Sprintf("/api/matches/%d/commands?after=%d", id, before), &cs)
	if len(cs.Entries) == 0 || cs.Entries[0].Seat != engine.Host || !strings.Contains(string(cs.Entries[0].Cmd), `"type":"rollback","turn":2`) {
		t.Errorf("the log after %d commands does not start with the host's rollback: %+v", before, cs.Entries)
	}
	if turn := f.rep.Game().State.Turn; turn >= at {
		t.Errorf("the replica is at turn %d, want back before %d", turn, at)
	}

	tok, err := e.srv.Token(context.Background(), id, ann)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Error string `json:"error"`
	}
	me := &client{t: t, base: e.ts.URL, token: tok}
	if st := me.post(fmt.Sprintf("/api/matches/%d/commands", id), fmt.Sprintf(`{"version":%d,"command":{"type":"rollback","turn":1}}`, f.version()), &out); st != http.StatusBadRequest || !strings.Contains(out.Error, "the host's") {
		t.Errorf("POST a rollback: %d %q, want 400 saying it is the host's", st, out.Error)
	}
}
