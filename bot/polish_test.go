package bot

import (
	"regexp"
	"testing"
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
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "place")
	h.do(ch, "Bob", "place")
	h.bot.Wait()
	s := h.load(ch).Game.State
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
