package clock

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// A computer player on a team says one line about its plan in its team's
// thread after each of its turns (issue 47), in the match's language: the
// continent it goes for and its front. Nothing goes to the other team's
// thread, and the placement at the start says nothing.
func TestTeamComputerSaysItsPlan(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []string
		want []string
	}{
		{"English", []string{"teams:2"}, []string{"🤖", ": I ", "; my front is ", "no enemy borders me"}},
		{"French", []string{"teams:2", "language:fr"}, []string{"🤖", " : je ", " ; mon front est ", "aucun ennemi à mes frontières"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.setPlayer(aiPlayer)
			e.open()
			const ch = "test:teams"
			e.do(ch, "Ann", "new", tc.opts...)
			e.do(ch, "Ann", "join", "team:1")
			e.do(ch, "Bob", "join", "team:2")
			e.do(ch, "Ann", "host addbot", "level:easy")
			e.do(ch, "Ann", "host addbot", "level:easy")
			e.do(ch, "Ann", "start")
			m := e.load(ch)
			if len(m.Meta.TeamThreads) != 2 || m.Meta.TeamThreads[0] == "" || m.Meta.TeamThreads[1] == "" {
				t.Fatalf("team threads %q, want one for each team", m.Meta.TeamThreads)
			}
			e.do(ch, "Ann", "autoplace")
			e.do(ch, "Bob", "autoplace")
			e.chat.Take() // the start, and the computers' placement said nothing
			// Two rounds of turns: each computer plays two.
			botTurns := map[int]int{}
			for range 200 {
				m = e.load(ch)
				s := m.Game.State
				if s.Turn > 8 || s.Phase == state.PhaseOver {
					break
				}
				name := s.Seats[s.Current].Name
				if name != "Ann" && name != "Bob" {
					t.Fatalf("turn %d waits for the computer %s", s.Turn, name)
				}
				e.do(ch, name, "place")
				e.do(ch, name, "end")
				e.do(ch, name, "end")
			}
			m = e.load(ch)
			for _, sent := range e.chat.Take() {
				text := sent.Msg.Text
				t.Logf("%s: %q", sent.Channel, text)
				if !strings.Contains(text, "🤖") {
					continue
				}
				team := 0
				for i, th := range m.Meta.TeamThreads {
					if sent.Channel == th {
						team = i + 1
					}
				}
				if team == 0 {
					t.Errorf("a plan was said in %s, not a team thread: %q", sent.Channel, text)
					continue
				}
				seat := -1
				for _, i := range m.Game.State.Sides().Members(team) {
					if m.Seat(i).IsBot() && strings.Contains(text, m.Game.State.Seats[i].Name) {
						seat = i
					}
				}
				if seat < 0 {
					t.Errorf("team %d's thread has a plan of no computer of the team: %q", team, text)
					continue
				}
				botTurns[seat]++
				if strings.Contains(text, "\n") || !strings.Contains(text, tc.want[1]) || !strings.Contains(text, tc.want[2]) && !strings.Contains(text, tc.want[3]) {
					t.Errorf("plan %q, want one line with %q and %q (or %q)", text, tc.want[1], tc.want[2], tc.want[3])
				}
			}
			if len(botTurns) != 2 {
				t.Fatalf("plans said by %d computers (%v), want both", len(botTurns), botTurns)
			}
			for seat, n := range botTurns {
				if n < 2 {
					t.Errorf("computer %d said %d plans in its two turns or more, want one a turn", seat, n)
				}
			}
		})
	}
}
