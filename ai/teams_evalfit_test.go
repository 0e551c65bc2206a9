package ai

import (
	"flag"
	"fmt"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

var (
	teamFitGames     = flag.Int("teamfitgames", 0, "TestFitTeamEval: play this many 2v2 games of four normal players and fit the learned team evaluation on them (0: skip)")
	teamFitTwoThirds = flag.Bool("teamfittwothirds", false, "TestFitTeamEval: play two thirds games, not domination, and write teams_twothirds_evalweights.go")
)

// teamFitVictory is the victory of TestFitTeamEval's games: domination,
// or two thirds with -teamfittwothirds.
func teamFitVictory() state.Victory {
	if *teamFitTwoThirds {
		return state.TwoThirds
	}
	return state.Domination
}

// teamSample is one position at the start of a seat's turn in a team match
// and whether the seat's side went on to win.
type teamSample struct {
	f       [numTeamFeatures]float64
	base    []float64 // earlier evaluations' scores, for comparison
	outcome           // won: 1 if seat's side won the game
}

func (x teamSample) inputs() []float64 { return x.f[:] }

// teamSelfPlay plays 2v2 game g (teamFitVictory) of four normal players (with
// -fithard, seat g mod 4 is hard) and returns a sample at the start of
// every turn from the seat to move (with -fithard, hard's turns only).
func teamSelfPlay(t testing.TB, g int) []teamSample {
	t.Helper()
	opts := state.DefaultOptions()
	opts.Victory, opts.Teams = teamFitVictory(), 2
	seats := make([]engine.SeatInfo, 4)
	for i := range seats {
		seats[i] = engine.SeatInfo{ID: fmt.Sprintf("s%d", i), Name: fmt.Sprintf("seat %d", i), Team: i%2 + 1}
	}
	s, err := engine.New(engine.Setup{Options: opts, Seats: seats, Seed: *fitSeed + uint64(g)})
	if err != nil {
		t.Fatal(err)
	}
	players, hardSeat := againstNormal(t, *fitSeed, g, fitIterations(g))
	var out []teamSample
	atTurns(t, s, players, hardSeat, func(v *state.State, seat int) {
		pair := 0.0
		for _, p := range v.Sides().Of(seat) {
			if v.Seats[p].Alive() {
				pair += winChance(v, p)
			}
		}
		out = append(out, teamSample{f: teamFeatures(v, seat), base: []float64{winChance(v, seat), pair}, outcome: outcome{game: g, seat: seat}})
	})
	return settleAll(s, out)
}

// TestFitTeamEval fits the learned team evaluation (teamChance) on 2v2
// domination games of the normal player (two-thirds games with
// -teamfittwothirds) and reports how well it predicts the winning side on
// held-out games, against the classic evaluation (winChance) of the seat
// alone and summed over the side, each calibrated. It runs only with
// -teamfitgames; -fit writes the weights:
//
//	go test ./ai -run TestFitTeamEval -teamfitgames 3000 -fitseed 4000 -fit
//	go test ./ai -run TestFitTeamEval -teamfitgames 6000 -fitseed 4000 -teamfittwothirds -fit
func TestFitTeamEval(t *testing.T) {
	r := playForFit(t, "teamfitgames", *teamFitGames, teamSelfPlay)
	w := r.fit(teamSample.inputs)
	ll, seatLL := r.loss(chanceOf(w, teamSample.inputs)), r.calibrated(func(x teamSample) float64 { return x.base[0] })
	t.Logf("%d samples (%d held out); log loss on held-out games: learned %.4f, the seat's winChance %.4f, the side's summed %.4f, prior %.4f, the weights in use %.4f",
		len(r.train)+len(r.test), len(r.test), ll, seatLL, r.calibrated(func(x teamSample) float64 { return x.base[1] }),
		r.loss(r.always(r.prior())), r.loss(chanceOf(teamWeights(teamFitVictory())[:], teamSample.inputs)))
	t.Logf("weights %v", w)
	if *fitPairs {
		r.logPairs(t)
	}
	if *fitWrite {
		file, name, victory, extra := "teams_evalweights.go", "teamEvalWeights", "domination", ""
		if *teamFitTwoThirds {
			file, name, victory, extra = "teams_twothirds_evalweights.go", "teamTwoThirdsWeights", "two-thirds", " -teamfittwothirds"
		}
		games, flags := fitProvenance("2v2 "+victory+" games of four normal players", "2v2 "+victory+" games of hard (%d iterations) and three normal")
		writeWeights(t, file, fmt.Sprintf("TestFitTeamEval -teamfitgames %d -fitseed %d%s%s -fit", *teamFitGames, *fitSeed, flags, extra),
			fmt.Sprintf("// %s are teamChance's weights, one per feature, fitted on\n// %d positions of %d %s.\n// Log loss on held-out games: %.4f (the seat's winChance, calibrated: %.4f).\n", name, len(r.train), *teamFitGames, games, ll, seatLL),
			"var "+name+" = [numTeamFeatures]float64", w)
	}
}
