package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// missionWords are words only a mission's text has: a channel post that
// names a mission has one of them.
var missionWords = []string{"conquer ", "destroy all armies", "your secret mission", "fulfilled their secret mission", "'s mission:"}

// namesMission returns the mission words text has.
func namesMission(text string) []string {
	var found []string
	for _, w := range missionWords {
		if strings.Contains(strings.ToLower(text), w) {
			found = append(found, w)
		}
	}
	return found
}

// TestMissionsStayPrivate plays a missions match to its end, Ann's seat
// through the API with her token, and reads after every step what the
// public may read: the channel's messages, the unauthenticated API's state
// and log. While the match is on none names a mission; Ann's view shows
// hers and only hers. At the end every mission is revealed.
func TestMissionsStayPrivate(t *testing.T) {
	e := newEnv(t, Config{})
	const channel = "missions"
	for _, l := range []string{"/risk new victory:missions", "/risk addbot level:easy", "/risk addbot level:easy", "/risk addbot level:easy", "/risk start"} {
		e.do(t, channel, "Ann", l)
	}
	l, err := e.db.Active(context.Background(), Prefix+channel)
	if err != nil {
		t.Fatal(err)
	}
	id := l.ID
	tok, err := e.srv.Token(context.Background(), id, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	public := &client{t: t, base: e.ts.URL}
	ann := &client{t: t, base: e.ts.URL, token: tok}
	player, err := bot.StandardPlayer("easy", 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0 // the public posts read so far
	for step := 0; ; step++ {
		if step > 5000 {
			t.Fatal("the match did not end")
		}
		var m apiMatch
		if st := public.get(fmt.Sprintf("/api/matches/%d", id), &m); st != http.StatusOK {
			t.Fatalf("GET the match: %d", st)
		}
		s, err := engine.DecodeState(m.State)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != "active" {
			t.Logf("over after %d steps, %d commands: seat %d won, mission done: %v", step, m.Commands, s.Winner, engine.MissionDone(s, s.Winner))
			for i, seat := range s.Seats {
				if !seat.Mission.Valid() {
					t.Errorf("the end does not reveal seat %d's mission: %v", i, seat.Mission)
				}
			}
			break
		}
		for i, seat := range s.Seats {
			if seat.Mission != state.MissionHidden {
				t.Fatalf("step %d: the public API shows seat %d's mission %v", step, i, seat.Mission)
			}
		}
		var cs apiCommands
		if st := public.get(fmt.Sprintf("/api/matches/%d/commands", id), &cs); st != http.StatusOK || cs.Setup == nil || cs.Setup.Deal == nil {
			t.Fatalf("GET the commands: %d", st)
		}
		for _, c := range cs.Setup.Deal.Missions {
			if c != engine.Withheld {
				t.Fatalf("step %d: the public log's deal shows the missions %v", step, cs.Setup.Deal.Missions)
			}
		}
		posts := publicPosts(e, channel)
		for _, p := range posts[seen:] {
			if w := namesMission(p); len(w) > 0 {
				t.Fatalf("step %d: a public post names a mission (%q):\n%s", step, w, p)
			}
		}
		seen = len(posts)

		seat := s.SeatByID(userID("Ann"))
		together := s.Phase == state.PhaseSetup
		if !s.Seats[seat].Alive() || !((together && s.Seats[seat].Reserve > 0) || (!together && s.Current == seat)) {
			e.bot.Wait()
			if !s.Seats[seat].Alive() {
				t.Fatal("Ann is out and the match waits")
			}
			continue
		}
		var mine apiMatch
		if st := ann.get(fmt.Sprintf("/api/matches/%d", id), &mine); st != http.StatusOK {
			t.Fatalf("GET Ann's view: %d", st)
		}
		view, err := engine.DecodeState(mine.State)
		if err != nil {
			t.Fatal(err)
		}
		for i, other := range view.Seats {
			if hers := i == seat; hers != other.Mission.Valid() || (!hers && other.Mission != state.MissionHidden) {
				t.Fatalf("Ann's view shows seat %d's mission as %v", i, other.Mission)
			}
		}
		cmd, err := player.Act(context.Background(), view, seat)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := engine.MarshalCommand(cmd)
		var out struct {
			Error string `json:"error"`
		}
		if st := ann.post(fmt.Sprintf("/api/matches/%d/commands", id), fmt.Sprintf(`{"version":%d,"command":%s}`, mine.Commands, raw), &out); st != http.StatusOK && st != http.StatusConflict {
			t.Fatalf("POST %s: %d %s", raw, st, out.Error)
		}
		e.bot.Wait()
	}
	// The victory post reveals the missions: the words the test looks for
	// are those the bot uses.
	var revealed bool
	for _, p := range publicPosts(e, channel)[seen:] {
		revealed = revealed || len(namesMission(p)) > 0
	}
	if !revealed {
		t.Error("no public post at the end names a mission: the test's words are not the bot's")
	}
	var cs apiCommands
	public.get(fmt.Sprintf("/api/matches/%d/commands", id), &cs)
	if len(cs.Setup.Deal.Missions) != 4 {
		t.Errorf("the finished match's deal shows missions %v, want 4", cs.Setup.Deal.Missions)
	}
}

// publicPosts returns the text of channel's messages for everyone, as the
// page shows them.
func publicPosts(e *testEnv, channel string) []string {
	e.srv.feeds.mu.Lock()
	defer e.srv.feeds.mu.Unlock()
	var out []string
	for _, p := range e.srv.feeds.feedOf(Prefix + channel).posts {
		if p.to == "" {
			b, _ := json.Marshal(p.v)
			out = append(out, string(b))
		}
	}
	return out
}
