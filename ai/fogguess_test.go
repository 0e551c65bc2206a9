package ai

import (
	"flag"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
)

var fogGuessGames = flag.Int("fogguessgames", 0, "TestFogGuessAccuracy: play this many classic games of four normal with fog and say how well the guess and hard's samples read the fog (0: skip)")

// TestFogGuessAccuracy says how well the guess of the fog (GuessFog) and
// hard's samples of it (determinize) read a board: in classic matches of
// four normal players with fog, at the start of each of seat 0's turns to
// turn 80, how many of its fogged territories the guess gives to their
// true owner, and of the continents held whole with fog in them how many
// the guess and the samples (8 a turn) give whole to their holder, and
// how many they give whole to a seat that does not hold them. It only
// reports; it runs with -fogguessgames:
//
//	go test ./ai -run TestFogGuessAccuracy -fogguessgames 30 -v
func TestFogGuessAccuracy(t *testing.T) {
	if *fogGuessGames == 0 {
		t.Skip("run with -fogguessgames N")
	}
	const samples = 8
	var fogged, right, held, guessFound, guessFalse int
	var sampleFound, sampleFalse float64
	for g := range *fogGuessGames {
		opts := state.DefaultOptions()
		opts.Fog = true
		s := newMatch(t, 4, uint64(100+g), opts)
		players := make([]Player, 4)
		for i := range players {
			players[i] = mustNew(t, "normal", Options{Seed: uint64(i + 7*g), Budget: time.Minute})
		}
		rng := newRand(uint64(g), 3)
		lastTurn := -1
		for s.Phase != state.PhaseOver && s.Turn < 80 {
			if toMove(s) == 0 && s.Phase != state.PhaseSetup && s.Turn != lastTurn {
				lastTurn = s.Turn
				v := s.View(0)
				guess := GuessFog(v, 0)
				draws := make([]*state.State, samples)
				for k := range draws {
					draws[k] = determinize(v, 0, rng)
				}
				for tr := range s.Terr {
					if v.Terr[tr].Fog {
						fogged++
						if guess.Terr[tr].Owner == s.Terr[tr].Owner {
							right++
						}
					}
				}
				for c, ct := range s.Map.Continents {
					fog := false
					for _, tr := range ct.Territories {
						fog = fog || v.Terr[tr].Fog
					}
					if !fog {
						continue
					}
					truth := s.ContinentOwner(c)
					if truth >= 0 {
						held++
					}
					tally := func(o int, found, false_ *float64, w float64) {
						switch {
						case o >= 0 && o == truth:
							*found += w
						case o >= 0:
							*false_ += w
						}
					}
					var f, x float64
					tally(guess.ContinentOwner(c), &f, &x, 1)
					guessFound += int(f)
					guessFalse += int(x)
					for _, d := range draws {
						tally(d.ContinentOwner(c), &sampleFound, &sampleFalse, 1.0/samples)
					}
				}
			}
			step(t, s, players)
		}
	}
	t.Logf("%d fogged territories: the guess gives %.1f%% to their owner", fogged, 100*float64(right)/float64(fogged))
	t.Logf("%d continents held whole with fog in them: the guess finds %.1f%%, the samples %.1f%%; continents given whole to a seat that does not hold them, per held one: the guess %.2f, the samples %.2f",
		held, 100*float64(guessFound)/float64(held), 100*sampleFound/float64(held), float64(guessFalse)/float64(held), sampleFalse/float64(held))
}
