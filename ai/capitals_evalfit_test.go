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
	seat int
	won  float64
	game int
}

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
				out = append(out, capSample{f: capFeatures(v, prev), base: capEvaluate(v, prev), game: g, seat: prev})
			}
			lastTurn, prev = s.Turn, s.Current
		}
		step(t, s, players)
	}
	for i := range out {
		out[i].won = indicator(s.Won(out[i].seat))
	}
	return out
}

// TestFitCapEval fits the learned capitals evaluation (capWinChance) on
// self-play of the normal player and reports its log loss on held-out
// games, against capEvaluate calibrated. It runs only with -capfitgames:
//
//	go test ./ai -run TestFitCapEval -capfitgames 4000 -fitseed 2000
func TestFitCapEval(t *testing.T) {
	if *capFitGames == 0 {
		t.Skip("run with -capfitgames N")
	}
	r := fitReport[capSample]{
		features: func(x capSample) []float64 { return x.f[:] },
		won:      func(x capSample) float64 { return x.won },
	}
	r.train, r.test = playForFit(t, *capFitGames, capSelfPlay, func(x capSample) int { return x.game })
	w := r.fit(r.features)
	t.Logf("%d samples (%d held out); log loss on held-out games: learned %.4f, capEvaluate %.4f, prior %.4f, the weights in use %.4f",
		len(r.train)+len(r.test), len(r.test), r.loss(chanceOf(w, r.features)), r.calibrated(func(x capSample) float64 { return x.base }),
		r.loss(r.always(r.prior())), r.loss(chanceOf(capEvalWeights[:], r.features)))
	t.Logf("weights %#v", w)
}
