package ai

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

var teamFitGames = flag.Int("teamfitgames", 0, "TestFitTeamEval: play this many 2v2 domination games of four normal players and fit the learned team evaluation on them (0: skip)")

// teamSample is one position at the start of a seat's turn in a team match
// and whether the seat's side went on to win.
type teamSample struct {
	f    [numTeamFeatures]float64
	base []float64 // earlier evaluations' scores, for comparison
	seat int
	won  float64 // 1 if seat's side won the game
	game int
}

// teamSelfPlay plays 2v2 domination game g of four normal players (with
// -fithard, seat g mod 4 is hard) and returns a sample at the start of
// every turn from the seat to move (with -fithard, hard's turns only).
func teamSelfPlay(t testing.TB, g int) []teamSample {
	t.Helper()
	opts := state.DefaultOptions()
	opts.Victory, opts.Teams = state.Domination, 2
	seats := make([]engine.SeatInfo, 4)
	for i := range seats {
		seats[i] = engine.SeatInfo{ID: fmt.Sprintf("s%d", i), Name: fmt.Sprintf("seat %d", i), Team: i%2 + 1}
	}
	s, err := engine.New(engine.Setup{Options: opts, Seats: seats, Seed: *fitSeed + uint64(g)})
	if err != nil {
		t.Fatal(err)
	}
	players := make([]Player, 4)
	for i := range players {
		players[i] = mustNew(t, "normal", Options{Seed: Mix(*fitSeed, uint64(g), uint64(i))})
	}
	hardSeat := -1
	if *fitHard > 0 {
		hardSeat = g % 4
		players[hardSeat] = mustNew(t, "hard", Options{Seed: Mix(*fitSeed, uint64(g), 9), Iterations: *fitHard, Budget: time.Minute})
	}
	var out []teamSample
	lastTurn := -1
	for s.Phase != state.PhaseOver && s.Turn <= 600 {
		seat := toMove(s)
		if s.Phase != state.PhaseSetup && s.Turn != lastTurn && (hardSeat < 0 || seat == hardSeat) {
			lastTurn = s.Turn
			v := s.View(seat)
			pair := 0.0
			for _, p := range v.Sides().Of(seat) {
				if v.Seats[p].Alive() {
					pair += winChance(v, p)
				}
			}
			out = append(out, teamSample{f: teamFeatures(v, seat), base: []float64{winChance(v, seat), pair}, game: g, seat: seat})
		}
		step(t, s, players)
	}
	for i := range out {
		out[i].won = indicator(s.Won(out[i].seat))
	}
	return out
}

// TestFitTeamEval fits the learned team evaluation (teamChance) on 2v2
// domination games of the normal player and reports how well it predicts
// the winning side on held-out games, against the classic evaluation
// (winChance) of the seat alone and summed over the side, each
// calibrated. It runs only with -teamfitgames; -fit writes the weights:
//
//	go test ./ai -run TestFitTeamEval -teamfitgames 3000 -fitseed 4000 -fit
func TestFitTeamEval(t *testing.T) {
	if *teamFitGames == 0 {
		t.Skip("run with -teamfitgames N")
	}
	train, test := playForFit(t, *teamFitGames, teamSelfPlay, func(x teamSample) int { return x.game })
	xs := make([][]float64, len(train))
	ys := make([]float64, len(train))
	for i, x := range train {
		xs[i] = x.f[:]
		ys[i] = x.won
	}
	w := fitLogistic(xs, ys, 1e-4)
	calibrated := func(k int) float64 {
		bx := make([][]float64, len(train))
		for i, x := range train {
			bx[i] = []float64{1, x.base[k]}
		}
		bw := fitLogistic(bx, ys, 1e-4)
		ll := 0.0
		for _, x := range test {
			ll += logLoss(sigmoid(dot(bw, []float64{1, x.base[k]})), x.won)
		}
		return ll / float64(len(test))
	}
	var ll, cll, wll float64
	prior := 0.0
	for _, y := range ys {
		prior += y
	}
	prior /= float64(len(ys))
	for _, x := range test {
		ll += logLoss(sigmoid(dot(w, x.f[:])), x.won)
		cll += logLoss(prior, x.won)
		wll += logLoss(sigmoid(dot(teamEvalWeights[:], x.f[:])), x.won)
	}
	n := float64(len(test))
	seatLL, pairLL := calibrated(0), calibrated(1)
	t.Logf("%d samples (%d held out); log loss on held-out games: learned %.4f, the seat's winChance %.4f, the side's summed %.4f, prior %.4f, the weights in use %.4f", len(train)+len(test), len(test), ll/n, seatLL, pairLL, cll/n, wll/n)
	t.Logf("weights %v", w)
	if *fitPairs {
		pairs := func(f []float64) []float64 {
			out := append([]float64(nil), f...)
			for i := 1; i < len(f); i++ {
				for j := i; j < len(f); j++ {
					out = append(out, f[i]*f[j])
				}
			}
			return out
		}
		px := make([][]float64, len(train))
		for i, x := range train {
			px[i] = pairs(x.f[:])
		}
		pw := fitLogistic(px, ys, 1e-4)
		pll := 0.0
		for _, x := range test {
			pll += logLoss(sigmoid(dot(pw, pairs(x.f[:]))), x.won)
		}
		t.Logf("with every product of two features (%d weights): log loss %.4f", len(pw), pll/n)
	}
	if *fitWrite {
		writeTeamWeights(t, w, len(train), ll/n, seatLL)
	}
}

func writeTeamWeights(t *testing.T, w []float64, samples int, ll, seatLL float64) {
	var b bytes.Buffer
	games, flags := fmt.Sprintf("2v2 domination games of four normal players (seed %d)", *fitSeed), ""
	if *fitHard > 0 {
		games = fmt.Sprintf("2v2 domination games of hard (%d iterations) and three normal (seed %d)", *fitHard, *fitSeed)
		flags = fmt.Sprintf(" -fithard %d", *fitHard)
	}
	fmt.Fprintf(&b, "// Code generated by go test ./ai -run TestFitTeamEval -teamfitgames %d -fitseed %d%s -fit; DO NOT EDIT.\n\npackage ai\n\n", *teamFitGames, *fitSeed, flags)
	fmt.Fprintf(&b, "// teamEvalWeights are teamChance's weights, one per feature, fitted on\n// %d positions of %d %s.\n// Log loss on held-out games: %.4f (the seat's winChance, calibrated: %.4f).\n", samples, *teamFitGames, games, ll, seatLL)
	b.WriteString("var teamEvalWeights = [numTeamFeatures]float64{")
	for i, x := range w {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.4f", x)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("teams_evalweights.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}
