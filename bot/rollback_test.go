package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// playTurns plays n turns of the people of a classic match in channel,
// each placing everything automatically and ending the turn.
func (h *harness) playTurns(channel string, n int) {
	h.t.Helper()
	for range n {
		s := h.load(channel).Game.State
		who := s.Seats[s.Current].Name
		wantDone(h.t, h.do(channel, who, "place"))
		wantDone(h.t, h.do(channel, who, "end"))
	}
	h.bot.Wait()
}

// peopleMatch starts a classic match of Ann (the host) and Bob, past the
// initial placement and three turns.
func (h *harness) peopleMatch(channel string) {
	h.t.Helper()
	h.started(channel, []string{"Ann", "Bob"})
	h.do(channel, "Ann", "autoplace")
	h.do(channel, "Bob", "autoplace")
	h.playTurns(channel, 3)
}

// TestRollbackRefusals: only the host or an admin rolls back, to a turn
// that has begun, in a match under way; every refusal is private and
// changes nothing.
func TestRollbackRefusals(t *testing.T) {
	h := newHarness(t)
	const ch = "test:refused"
	h.do(ch, "Ann", "new")
	h.do(ch, "Bob", "join")
	wantPrivate(t, h.do(ch, "Ann", "host rollback", "turn:1"), "has not started")
	wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	h.playTurns(ch, 3)
	version := h.load(ch).Version
	for _, tt := range []struct {
		who, turn string
		admin     bool
		want      string
	}{
		{"Bob", "2", false, "Only Ann (the host) or an admin"},
		{"Zed", "2", false, "Only Ann (the host) or an admin"},
		{"Ann", "9", false, "There is no turn 9 to go back to: turns 1 to 4 have begun"},
		{"Ann", "4", false, "Turn 4 has only just begun"},
		{"Ann", "0", false, "Turn must be between 1 and 100000, not 0"},
	} {
		req := chat.Request{Channel: ch, User: user(tt.who), Command: "host rollback", Options: map[string]string{"turn": tt.turn}, Admin: tt.admin}
		m := h.doReq(req)
		wantPrivate(t, m, tt.want)
		if !m.Refused {
			t.Errorf("%s turn:%s: not refused: %q", tt.who, tt.turn, m.Text)
		}
	}
	if v := h.load(ch).Version; v != version {
		t.Errorf("the refusals moved the match from version %d to %d", version, v)
	}
	// An admin may, and so may the host; a player's click on the host's
	// question is refused.
	q := h.doAdmin(ch, "Zed", "host rollback", "turn:2")
	wantPrivate(t, q, "Take the match back to the start of turn 2")
	b, ok := buttonLabelled(q, "Go back to turn 2")
	if !ok {
		t.Fatalf("no button in %q", q.Text)
	}
	wantPrivate(t, h.click(ch, "Bob", b.ID), "Only Ann (the host) or an admin")
	// The match moved on: the question no longer holds.
	h.playTurns(ch, 1)
	wantPrivate(t, h.clickAs(chat.Click{Channel: ch, User: user("Zed"), ID: b.ID, Admin: true}), "The match moved on since the question")
	q = h.do(ch, "Ann", "host rollback", "turn:2")
	b, _ = buttonLabelled(q, "Go back to turn 2")
	h.advance(play.RollbackConfirm + time.Second)
	wantPrivate(t, h.click(ch, "Ann", b.ID), "That question has expired")
	if keep, ok := buttonLabelled(q, "Play on"); !ok {
		t.Error("no Play on button")
	} else {
		wantPrivate(t, h.click(ch, "Ann", keep.ID), "The match goes on")
	}
	if m := h.load(ch); m.Game.State.Turn != 5 {
		t.Errorf("got turn %d, want 5: a refused rollback took the match back", m.Game.State.Turn)
	}
}

// TestRollback: the host takes a match back to the start of an earlier
// turn. The question says what is lost; the click restores the turn's
// start, tells the channel who did it with a ping of every person
// playing and the map, completes the living message of the turn left,
// posts the turn gone back to afresh (pinging its player, with a new
// deadline), and the match plays on from there: its log holds the
// rollback, and its full export verifies against the seed.
func TestRollback(t *testing.T) {
	h := newHarness(t)
	const ch = "test:rollback"
	h.peopleMatch(ch)
	// Turn 4 is under way: its player placed.
	s := h.load(ch).Game.State
	who := s.Seats[s.Current].Name
	h.do(ch, who, "place")
	h.takePosts()
	before := h.load(ch)
	q := h.do(ch, "Ann", "host rollback", "turn:2")
	wantPrivate(t, q, "Take the match back to the start of turn 2", "Lost: 5 commands of turns 2 to 4", "fairness still verifies", "expires")
	b, ok := buttonLabelled(q, "Go back to turn 2")
	if !ok {
		t.Fatalf("no button in %q", q.Text)
	}
	h.advance(time.Minute)
	wantPrivate(t, h.click(ch, "Ann", b.ID), "Done: the match is back at the start of turn 2")
	posts := h.takePosts()
	m := h.load(ch)
	if got := m.Game.State.Turn; got != 2 {
		t.Fatalf("got turn %d, want 2", got)
	}
	if m.Version != before.Version+1 || m.Game.Version != before.Game.Version+1 {
		t.Errorf("got version %d (log %d), want one command more than %d (%d)", m.Version, m.Game.Version, before.Version, before.Game.Version)
	}
	if !m.Timers.Deadline.After(before.Timers.Deadline) {
		t.Errorf("the deadline %v did not move on from %v for the turn played again", m.Timers.Deadline, before.Timers.Deadline)
	}
	var note, live *chat.Message
	for i, p := range posts {
		if strings.Contains(p.msg.Text, "rolled the match back") {
			note = &posts[i].msg
		}
		if p.msg.Embed != nil && strings.Contains(p.msg.Embed.Text(), "again, after a rollback") {
			live = &posts[i].msg
		}
	}
	if note == nil {
		t.Fatalf("no note of the rollback in %d posts", len(posts))
	}
	wantText(t, *note, "↩️ Ann (the host) rolled the match back to the start of turn 2 (5 commands undone)")
	if len(note.Mentions) != 2 || note.Image == nil {
		t.Errorf("the note pings %v, want Ann and Bob, and has map %v", note.Mentions, note.Image != nil)
	}
	cur := m.Game.State.Seats[m.Game.State.Current]
	if live == nil || len(live.Mentions) != 1 || live.Mentions[0] != cur.ID {
		t.Fatalf("no fresh post of turn 2 pinging %s: %+v", cur.Name, live)
	}
	// The living message of turn 4 says it was rolled back.
	old := false
	for _, p := range posts {
		old = old || p.msg.Embed != nil && strings.HasPrefix(p.msg.Embed.Title, "Turn 4") && strings.Contains(p.msg.Embed.Text(), "Rolled back")
	}
	if !old {
		t.Error("turn 4's message does not say it was rolled back")
	}
	// The match plays on from turn 2; the history tells the turn again.
	h.playTurns(ch, 3)
	if got := h.load(ch).Game.State.Turn; got != 5 {
		t.Errorf("got turn %d after three more, want 5", got)
	}
	wantPrivate(t, h.do(ch, "Bob", "show history", "turn:2"), "Turn 2", "again, after a rollback")
	x, err := h.db.Export(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rb int
	for _, e := range x.Record.Log {
		if e.Cmd == (engine.Rollback{Turn: 2}) && e.Seat == engine.Host {
			rb++
		}
	}
	if rb != 1 {
		t.Errorf("got %d rollbacks to turn 2 by the host in the log, want 1", rb)
	}
	v, err := engine.Verify(x.Record, m.Game.Commitment())
	if err != nil || !v.OK() {
		t.Errorf("the rolled-back match does not verify: %v\n%v", err, v)
	}
	g, err := engine.Replay(x.Record.Setup, x.Record.Log)
	if err != nil || g.State.Turn != 5 || g.State.Phase == state.PhaseOver {
		t.Errorf("the log replays to turn %d, %v", g.State.Turn, err)
	}
}

// playByMinds has the people of the match in channel play steps commands
// chosen by minds (computer players), as they would type them, until the
// match reaches turn `until`; it reports whether it did.
func (h *harness) playByMinds(channel string, minds map[string]clock.Player, steps, until int) bool {
	h.t.Helper()
	for step := 0; step < steps; step++ {
		h.bot.Wait()
		m := h.load(channel)
		s := m.Game.State
		if s.Phase == state.PhaseOver {
			return false
		}
		if s.Turn >= until {
			return true
		}
		seat := -1
		for _, i := range hosted.ToAct(s) {
			if !m.IsBotSeat(i) {
				seat = i
				break
			}
		}
		if seat < 0 {
			h.t.Fatalf("step %d: nobody to play at turn %d, %s", step, s.Turn, s.Phase)
		}
		who := s.Seats[seat].Name
		c, err := minds[who].Act(context.Background(), s.View(seat), seat)
		if err != nil {
			h.t.Fatal(err)
		}
		cmd, opts := chatCommand(s, seat, c)
		if reply, _ := h.meaning(channel, who, h.doOpts(channel, who, cmd, opts)); reply.Refused {
			h.t.Fatalf("step %d: %s /risk %s %v refused: %s", step, who, cmd, opts, reply.Text)
		}
	}
	return false
}

// TestRollbackEveryMode rolls a match of each rule set and mode back two
// turns (rounds) through the chat, then plays on: the turn's start comes
// back, the channel is told with every person pinged (and, with fog of
// war, nothing the fog hides), and the match's log still replays and its
// full export verifies against the seed.
func TestRollbackEveryMode(t *testing.T) {
	for _, tt := range []struct {
		name string
		new  []string
		bots []string
	}{
		{"classic", nil, []string{"easy"}},
		{"capitals", []string{"rules:capitals", "map:small"}, []string{"easy"}},
		{"simultaneous", []string{"turns:simultaneous"}, nil},
		{"fog", []string{"fog:on"}, []string{"easy"}},
		{"missions", []string{"victory:missions"}, []string{"easy"}},
		// Domination: a team of two takes two thirds of the board in four turns.
		{"teams", []string{"teams:2", "victory:domination"}, []string{"easy", "easy"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:modes"
			h.do(ch, "Ann", "new", tt.new...)
			h.do(ch, "Bob", "join")
			for _, level := range tt.bots {
				h.do(ch, "Ann", "addbot", "level:"+level)
			}
			wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
			minds := chatMinds(t, "Ann", "Bob")
			if !h.playByMinds(ch, minds, 1500, 5) {
				t.Fatalf("the match did not reach turn 5: %d, %s", h.load(ch).Game.State.Turn, h.load(ch).Game.State.Phase)
			}
			before := h.load(ch)
			turn := before.Game.State.Turn - 2
			h.takePosts()
			q := h.do(ch, "Ann", "host rollback", fmt.Sprintf("turn:%d", turn))
			b, ok := buttonLabelled(q, "Go back to")
			if !ok {
				t.Fatalf("no button: %q", q.Text)
			}
			t.Logf("%s: back from turn %d (version %d) to %d", tt.name, before.Game.State.Turn, before.Version, turn)
			wantPrivate(t, h.click(ch, "Ann", b.ID), "Done: the match is back at the start of")
			m := h.load(ch)
			if s := m.Game.State; s.Turn != turn || s.Phase == state.PhaseOver {
				t.Fatalf("got turn %d, %s; want the start of %d", s.Turn, s.Phase, turn)
			}
			var note *chat.Message
			for _, p := range h.takePosts() {
				if strings.Contains(p.msg.Text, "rolled the match back") {
					note = &p.msg
				}
			}
			if note == nil {
				t.Fatal("no note of the rollback")
			}
			if len(note.Mentions) != 2 {
				t.Errorf("the note pings %v, want Ann and Bob", note.Mentions)
			}
			if m.Game.State.HasFog() && strings.Contains(note.Text, "territor") {
				t.Errorf("with fog of war the note counts territories: %q", note.Text)
			}
			if !h.playByMinds(ch, minds, 400, turn+2) && m.Game.State.Phase != state.PhaseOver {
				t.Logf("the match ended, or stalled, after the rollback: turn %d", h.load(ch).Game.State.Turn)
			}
			m = h.load(ch)
			wantReplays(t, h, m)
			x, err := h.db.Export(context.Background(), m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := engine.Verify(x.Record, m.Game.Commitment()); err != nil || !v.OK() {
				t.Errorf("the export does not verify: %v\n%v", err, v)
			}
		})
	}
}
