package ai

import (
	"flag"
	"fmt"
	"testing"

	"github.com/riskbot/riskbot/state"
)

var (
	missionFitGames = flag.Int("missionfitgames", 0, "TestFitMissionEval: play this many missions games of four normal players (or, with -fithard, three normal and one hard) and fit the missions evaluation on them (0: skip)")
	missionFitWrite = flag.Bool("missionfit", false, "TestFitMissionEval: write the fitted weights to missions_evalweights.go")
)

// missionSample is one position at the start of a seat's turn in a
// missions match and whether that seat went on to win.
type missionSample struct {
	f       [numMissionFeatures]float64
	blend   float64 // the earlier hand blend's score, for comparison
	classic float64 // the classic learned chance alone
	outcome
}

func (x missionSample) inputs() []float64 { return x.f[:] }

// missionWeightBlend is the share of the mission's progress in the hand
// blend hard's evaluation was before the missions fit.
const missionWeightBlend = 0.4

// missionSelfPlay plays missions game g of four normal players (or, with
// -fithard, three normal and one hard) and returns a sample at the start
// of every turn, from the seat to move (with -fithard, hard's only).
func missionSelfPlay(t testing.TB, g int) []missionSample {
	s := newMatch(t, 4, *fitSeed+uint64(g), missionsOptions())
	players, hardSeat := againstNormal(t, *fitSeed, g, fitIterations(g))
	var out []missionSample
	atTurns(t, s, players, hardSeat, func(v *state.State, seat int) {
		f, ok := missionFeatures(v, seat)
		// The others' missions, hidden in the view, are the match's: the
		// samples hard scores hold missions it guessed for them.
		f[numMissionFeatures-2], f[numMissionFeatures-1] = othersProgress(s, seat)
		share, _ := missionShare(v, seat)
		if ok {
			c := winChance(v, seat)
			out = append(out, missionSample{
				f: f, classic: c, outcome: outcome{game: g, seat: seat},
				blend: (1-missionWeightBlend)*c + missionWeightBlend*share,
			})
		}
	})
	return settleAll(s, out)
}

// TestFitMissionEval fits the missions evaluation (missionWinChance) on
// missions games and reports its log loss on held-out games, against the
// hand blend hard used before (the classic learned chance and the
// mission's progress) and the classic chance alone. It runs only with
// -missionfitgames; -missionfit writes the weights:
//
//	go test ./ai -run TestFitMissionEval -missionfitgames 4000 -fitseed 3000 -missionfit
func TestFitMissionEval(t *testing.T) {
	r := playForFit(t, "missionfitgames", *missionFitGames, missionSelfPlay)
	w := r.fit(missionSample.inputs)
	prior := r.prior()
	ll, blend := r.loss(chanceOf(w, missionSample.inputs)), r.loss(func(x missionSample) float64 { return x.blend })
	t.Logf("%d samples (%d held out), win rate %.3f; log loss on held-out games: fitted %.4f, hand blend %.4f (calibrated %.4f), classic chance %.4f, prior %.4f, the weights in use %.4f",
		len(r.train)+len(r.test), len(r.test), prior, ll, blend, r.calibrated(func(x missionSample) float64 { return x.blend }),
		r.loss(func(x missionSample) float64 { return x.classic }), r.loss(r.always(prior)), r.loss(chanceOf(missionWeights[:], missionSample.inputs)))
	t.Logf("weights %v", w)
	if *missionFitWrite {
		games, flags := fitProvenance("missions games of four normal players", "missions games of hard (%d iterations) against three normal")
		writeWeights(t, "missions_evalweights.go", fmt.Sprintf("TestFitMissionEval -missionfitgames %d -fitseed %d%s -missionfit", *missionFitGames, *fitSeed, flags),
			fmt.Sprintf("// missionWeights are missionWinChance's weights, one per feature, fitted\n// on %d positions of %d %s.\n// Log loss on held-out games: %.4f (the earlier hand blend: %.4f).\n", len(r.train), *missionFitGames, games, ll, blend),
			"var missionWeights = [numMissionFeatures]float64", w)
	}
}
