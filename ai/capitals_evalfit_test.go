package ai

import (
	"flag"
	"testing"

	"github.com/riskbot/riskbot/state"
)

var capFitGames = flag.Int("capfitgames", 0, "TestFitCapEval: play this many capitals games of four normal players and fit the learned capitals evaluation on them (0: skip)")

// capSample is one position just after a seat's turn and whether that
// seat went on to win.
type capSample struct {
	f    [numCapFeatures]float64
	base float64 // capEvaluate's score, for comparison
	outcome
}

func (x capSample) inputs() []float64 { return x.f[:] }

// capSelfPlay plays capitals game g of four normal players and returns a
// sample just after every turn, for the seat that played it.
func capSelfPlay(t testing.TB, g int) []capSample {
	s := newMatch(t, 4, *fitSeed+uint64(g), state.CapitalsOptions())
	players, _ := againstNormal(t, *fitSeed, g, 0)
	var out []capSample
	lastTurn, prev := -1, -1
	for s.Phase != state.PhaseOver && s.Turn <= 600 {
		if s.Phase != state.PhaseSetup && s.Turn != lastTurn {
			if prev >= 0 && s.Seats[prev].Alive() {
				v := s.View(prev)
				out = append(out, capSample{f: capFeatures(v, prev), base: capEvaluate(v, prev), outcome: outcome{game: g, seat: prev}})
			}
			lastTurn, prev = s.Turn, s.Current
		}
		step(t, s, players)
	}
	return settleAll(s, out)
}

// TestFitCapEval fits the learned capitals evaluation (capWinChance) on
// self-play of the normal player and reports its log loss on held-out
// games, against capEvaluate calibrated. It runs only with -capfitgames:
//
//	go test ./ai -run TestFitCapEval -capfitgames 4000 -fitseed 2000
func TestFitCapEval(t *testing.T) {
	r := playForFit(t, "capfitgames", *capFitGames, capSelfPlay)
	w := r.fit(capSample.inputs)
	t.Logf("%d samples (%d held out); log loss on held-out games: learned %.4f, capEvaluate %.4f, prior %.4f, the weights in use %.4f",
		len(r.train)+len(r.test), len(r.test), r.loss(chanceOf(w, capSample.inputs)), r.calibrated(func(x capSample) float64 { return x.base }),
		r.loss(r.always(r.prior())), r.loss(chanceOf(capEvalWeights[:], capSample.inputs)))
	t.Logf("weights %#v", w)
}
