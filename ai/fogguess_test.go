package ai

import (
	"flag"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
)

var fogGuessGames = flag.Int("fogguessgames", 0, "TestFogGuessAccuracy and TestFogMemoryAccuracy: play this many games of four normal with fog (each rule set, for the memory) and say how well the guess, hard's samples and a memory read the fog (0: skip)")

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

// TestFogMemoryAccuracy says whether a memory of what a seat saw on
// earlier turns would read the fog better than the guess (GuessFog), which
// reads the view alone: in matches of four normal players with fog, seat
// 0 remembers the owner and armies of each territory when it last saw it,
// and at the start of each of its turns to turn 120 the test counts, for
// its fogged territories, how often the guess and the memory give each to
// its true owner, by the memory's age in rounds; and for each other
// seat's biggest stack out of sight, how often the guess's heaviest
// territory of that seat is it, and the memory's (the heaviest
// remembered), and of the stacks the guess misses (how many it put on
// the capital), how many a big
// sighting of the last round or two would find. It runs with
// -fogguessgames, and fails where the memory of some age does better than
// the guess:
//
//	go test ./ai -run TestFogMemoryAccuracy -fogguessgames 40 -v
func TestFogMemoryAccuracy(t *testing.T) {
	if *fogGuessGames == 0 {
		t.Skip("run with -fogguessgames N")
	}
	const ages = 6 // rounds; the last counts every older sighting
	for _, rules := range []state.Rules{state.Classic, state.Capitals} {
		t.Run(rules.String(), func(t *testing.T) {
			type seen struct{ owner, armies, turn int }
			var fogged, guessRight, memRight [ages]int
			var stacks, guessStack, onCapital, memStack, recent, recentRight int
			for g := range *fogGuessGames {
				opts := state.DefaultOptions()
				if rules == state.Capitals {
					opts = state.CapitalsOptions()
				}
				opts.Fog = true
				s := newMatch(t, 4, uint64(100+g), opts)
				players := make([]Player, 4)
				for i := range players {
					players[i] = mustNew(t, "normal", Options{Seed: uint64(i + 7*g), Budget: time.Minute})
				}
				mem := make([]seen, len(s.Terr))
				for i := range mem {
					mem[i].owner = -3 // never seen
				}
				remember := func() {
					v := s.View(0)
					for tr := range v.Terr {
						if !v.Terr[tr].Fog {
							mem[tr] = seen{v.Terr[tr].Owner, v.Terr[tr].Armies, s.Turn}
						}
					}
				}
				remember()
				lastTurn := -1
				for s.Phase != state.PhaseOver && s.Turn < 120 {
					if toMove(s) == 0 && s.Phase == state.PhaseReinforce && s.Turn != lastTurn {
						lastTurn = s.Turn
						v := s.View(0)
						guess := GuessFog(v, 0)
						age := func(tr int) int { return min(ages-1, (s.Turn-mem[tr].turn)/len(s.Seats)) }
						for tr := range s.Terr {
							if !v.Terr[tr].Fog || mem[tr].owner == -3 {
								continue
							}
							a := age(tr)
							fogged[a]++
							if guess.Terr[tr].Owner == s.Terr[tr].Owner {
								guessRight[a]++
							}
							if mem[tr].owner == s.Terr[tr].Owner {
								memRight[a]++
							}
						}
						for o := 1; o < len(s.Seats); o++ {
							heaviest := func(b *state.State, ok func(tr int) bool) int {
								best := -1
								for tr := range b.Terr {
									if ok(tr) && (best < 0 || b.Terr[tr].Armies > b.Terr[best].Armies) {
										best = tr
									}
								}
								return best
							}
							stack := heaviest(s, func(tr int) bool { return s.Terr[tr].Owner == o })
							if !s.Seats[o].Alive() || stack < 0 || !v.Terr[stack].Fog {
								continue
							}
							stacks++
							g := heaviest(guess, func(tr int) bool { return guess.Terr[tr].Owner == o })
							if g == stack {
								guessStack++
								continue
							}
							if g == s.Capital(o) {
								onCapital++
							}
							m := -1
							for tr := range mem {
								if v.Terr[tr].Fog && mem[tr].owner == o && (m < 0 || mem[tr].armies > mem[m].armies) {
									m = tr
								}
							}
							if m == stack {
								memStack++
							}
							if m >= 0 && age(m) <= 1 && 2*mem[m].armies >= v.Seats[o].HiddenArmies {
								recent++
								if m == stack {
									recentRight++
								}
							}
						}
					}
					step(t, s, players)
					remember()
				}
			}
			for a := range ages {
				if fogged[a] == 0 {
					continue
				}
				t.Logf("seen %d rounds ago%s: %d fogged territories, the guess gives %.1f%% to their owner, the memory %.1f%%",
					a, map[bool]string{true: " or more"}[a == ages-1], fogged[a], pct(guessRight[a], fogged[a]), pct(memRight[a], fogged[a]))
				if fogged[a] >= 100 && memRight[a] > guessRight[a] {
					t.Errorf("seen %d rounds ago: the memory gives %d of %d fogged territories to their owner, the guess %d", a, memRight[a], fogged[a], guessRight[a])
				}
			}
			t.Logf("%d stacks out of sight: the guess finds %d (%.1f%%); of those it misses (%d on the capital in the guess) the memory finds %d, and %d of %d big sightings of the last round or two",
				stacks, guessStack, pct(guessStack, stacks), onCapital, memStack, recentRight, recent)
		})
	}
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(max(of, 1)) }
