package ai

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/state"
)

var (
	fitGames = flag.Int("fitgames", 0, "TestFitEval: play this many games of four normal players and fit the learned evaluation on them (0: skip)")
	fitWrite = flag.Bool("fit", false, "TestFitEval: write the fitted weights to evalweights.go")
	fitSeed  = flag.Uint64("fitseed", 1000, "TestFitEval: the games' first seed")
	fitPairs = flag.Bool("fitpairs", false, "TestFitEval: also fit a model with every product of two features, to see what a richer model could gain")
	fitHard  = flag.Int("fithard", 0, "TestFitEval: if not 0, one seat of each game is hard with this many iterations, and only its positions are kept")
	fitProcs = flag.Int("fitprocs", 2, "TestFitEval: games played at once")
	fitPool  = flag.Bool("fitpool", false, "TestFitEval: with -fithard, only even games seat hard; odd games are four normal players, every seat's positions kept")
)

// fitIterations is hard's iterations in game g of a fit: -fithard, or 0
// (four normal players) in the odd games with -fitpool.
func fitIterations(g int) int {
	if *fitPool && g%2 == 1 {
		return 0
	}
	return *fitHard
}

// outcome is what a sample of every fit holds beside its features: the
// game it came from, the seat it was taken for, and whether that seat
// (or its side) went on to win.
type outcome struct {
	game, seat int
	won        float64 // 1 if the seat, or its side, won the game
}

func (o outcome) result() outcome { return o }

// settle records whether the sample's seat won the finished match s.
func (o *outcome) settle(s *state.State) { o.won = indicator(s.Won(o.seat)) }

// fitSample is a sample of one of the fits: its features and its outcome.
type fitSample interface {
	inputs() []float64
	result() outcome
}

// settleAll settles every sample of out on the finished match s.
func settleAll[S any, P interface {
	*S
	settle(*state.State)
}](s *state.State, out []S) []S {
	for i := range out {
		P(&out[i]).settle(s)
	}
	return out
}

// sample is one position at the start of a seat's turn and whether that
// seat went on to win.
type sample struct {
	f    [numFeatures]float64
	base float64 // evaluate's score, for comparison
	outcome
}

func (x sample) inputs() []float64 { return x.f[:] }

// selfPlay plays game g of four normal players (or, with -fithard, three
// normal and one hard) and returns a sample at the start of every turn,
// from the seat to move (with -fithard, hard's turns only).
func selfPlay(t testing.TB, g int) []sample {
	s, players, hardSeat := hardAgainstNormal(t, *fitSeed, g, fitIterations(g))
	var out []sample
	atTurns(t, s, players, hardSeat, func(v *state.State, seat int) {
		out = append(out, sample{f: features(v, seat), base: evaluate(v, seat), outcome: outcome{game: g, seat: seat}})
	})
	return settleAll(s, out)
}

// atTurns plays match s with players to its end (or turn 600) and calls
// at with the view of the seat to move at the start of every turn (with
// hardSeat not -1, of hard's turns only): where the fits take their
// samples.
func atTurns(t testing.TB, s *state.State, players []Player, hardSeat int, at func(v *state.State, seat int)) {
	t.Helper()
	lastTurn := -1
	for s.Phase != state.PhaseOver && s.Turn <= 600 {
		seat := toMove(s)
		if s.Phase != state.PhaseSetup && s.Turn != lastTurn && (hardSeat < 0 || seat == hardSeat) {
			lastTurn = s.Turn
			at(s.View(seat), seat)
		}
		step(t, s, players)
	}
}

// playForFit plays games 0 to n-1 with play, fitProcs at a time, and
// splits their samples into those to fit on and those of one game in
// five, held out to judge the fit. With n 0 it skips the test: flag names
// the flag that gives n.
func playForFit[S fitSample](t *testing.T, flag string, n int, play func(testing.TB, int) []S) *fitReport[S] {
	t.Helper()
	if n == 0 {
		t.Skipf("run with -%s N", flag)
	}
	var (
		mu   sync.Mutex
		all  []S
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range *fitProcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				out := play(t, g)
				mu.Lock()
				all = append(all, out...)
				mu.Unlock()
			}
		}()
	}
	for g := range n {
		next <- g
	}
	close(next)
	wg.Wait()
	var r fitReport[S]
	for _, x := range all {
		if x.result().game%5 == 4 {
			r.test = append(r.test, x)
		} else {
			r.train = append(r.train, x)
		}
	}
	return &r
}

// fitReport is an evaluation fit's samples, split by playForFit into
// those to fit on and those held out.
type fitReport[S fitSample] struct {
	train, test []S
}

// fit fits a logistic regression of the outcome on x over the training
// samples.
func (r *fitReport[S]) fit(x func(S) []float64) []float64 {
	xs := make([][]float64, len(r.train))
	ys := make([]float64, len(r.train))
	for i, s := range r.train {
		xs[i] = x(s)
		ys[i] = s.result().won
	}
	return fitLogistic(xs, ys, 1e-4)
}

// loss is the mean log loss of the chance p on the held-out samples.
func (r *fitReport[S]) loss(p func(S) float64) float64 {
	ll := 0.0
	for _, s := range r.test {
		ll += logLoss(p(s), s.result().won)
	}
	return ll / float64(len(r.test))
}

// calibrated is the held-out log loss of score once a logistic fit on the
// training samples has made it a chance: how well an earlier evaluation
// ranks positions, whatever its scale.
func (r *fitReport[S]) calibrated(score func(S) float64) float64 {
	x := func(s S) []float64 { return []float64{1, score(s)} }
	return r.loss(chanceOf(r.fit(x), x))
}

// prior is the training samples' win rate, the chance that knows nothing
// of the position.
func (r *fitReport[S]) prior() float64 {
	p := 0.0
	for _, s := range r.train {
		p += s.result().won
	}
	return p / float64(len(r.train))
}

// logPairs fits a model on every product of two features as well, and
// logs its held-out log loss, to see what a richer model could gain
// (-fitpairs). The first feature is the intercept, so its products are
// the features themselves and are left out.
func (r *fitReport[S]) logPairs(t *testing.T) {
	t.Helper()
	pairs := func(s S) []float64 {
		f := s.inputs()
		out := append([]float64(nil), f...)
		for i := 1; i < len(f); i++ {
			for j := i; j < len(f); j++ {
				out = append(out, f[i]*f[j])
			}
		}
		return out
	}
	pw := r.fit(pairs)
	t.Logf("with every product of two features (%d weights): log loss %.4f", len(pw), r.loss(chanceOf(pw, pairs)))
}

// always is the chance p, whatever the sample.
func (r *fitReport[S]) always(p float64) func(S) float64 { return func(S) float64 { return p } }

// chanceOf is the chance a logistic model with weights w gives a sample
// of inputs x.
func chanceOf[S any](w []float64, x func(S) []float64) func(S) float64 {
	return func(s S) float64 { return logistic(w, x(s)) }
}

// TestFitEval fits the learned evaluation (winChance) on self-play of the
// normal player and reports how well it predicts the winner on held-out
// games, against hard's earlier hand-weighted evaluate. It runs only with
// -fitgames; -fit writes the weights:
//
//	go test ./ai -run TestFitEval -fitgames 3000 -fit
func TestFitEval(t *testing.T) {
	r := playForFit(t, "fitgames", *fitGames, selfPlay)
	w := r.fit(sample.inputs)
	ll, bll := r.loss(chanceOf(w, sample.inputs)), r.calibrated(func(x sample) float64 { return x.base })
	t.Logf("%d samples (%d held out); log loss on held-out games: learned %.4f, evaluate %.4f, prior %.4f, the weights in use %.4f",
		len(r.train)+len(r.test), len(r.test), ll, bll, r.loss(r.always(r.prior())), r.loss(chanceOf(evalWeights[:], sample.inputs)))
	t.Logf("weights %v", w)
	if *fitPairs {
		r.logPairs(t)
	}
	if *fitWrite {
		games, flags := fitProvenance("self-play games of the normal player", "games of hard (%d iterations) against three normal")
		writeWeights(t, "evalweights.go", fmt.Sprintf("TestFitEval -fitgames %d%s -fit", *fitGames, flags),
			fmt.Sprintf("// evalWeights are winChance's weights, one per feature, fitted on %d\n// positions of %d %s. Log loss\n// on held-out games: %.4f (hard's earlier evaluate, calibrated: %.4f).\n", len(r.train), *fitGames, games, ll, bll),
			"var evalWeights = [numFeatures]float64", w)
	}
}

// fitProvenance says which games a fit played, for the comment of the
// weights it writes: normal names games of the normal player alone, and
// hard, a format of hard's iterations, those with -fithard (alternating
// with the normal ones with -fitpool); flags is what to repeat of
// -fithard and -fitpool in the command that generated the file.
func fitProvenance(normal, hard string) (games, flags string) {
	if *fitHard > 0 && *fitPool {
		return fmt.Sprintf("%s and %s, alternately (seed %d)", fmt.Sprintf(hard, *fitHard), normal, *fitSeed), fmt.Sprintf(" -fithard %d -fitpool", *fitHard)
	}
	if *fitHard > 0 {
		return fmt.Sprintf("%s (seed %d)", fmt.Sprintf(hard, *fitHard), *fitSeed), fmt.Sprintf(" -fithard %d", *fitHard)
	}
	return fmt.Sprintf("%s (seed %d)", normal, *fitSeed), ""
}

// writeWeights writes file, the fitted weights w as generated Go: the
// command that generated it (go test ./ai -run and what follows), then
// the declaration's doc comment and the declaration decl, given all but
// its values.
func writeWeights(t *testing.T, file, command, doc, decl string, w []float64) {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go test ./ai -run %s; DO NOT EDIT.\n\npackage ai\n\n%s%s{", command, doc, decl)
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
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dot(a, b []float64) float64 {
	z := 0.0
	for i := range a {
		z += a[i] * b[i]
	}
	return z
}

func logLoss(p, y float64) float64 {
	p = min(1-1e-9, max(1e-9, p))
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// fitLogistic fits a logistic regression by Newton's method with an L2
// penalty lambda (not on the intercept, the first column).
func fitLogistic(xs [][]float64, ys []float64, lambda float64) []float64 {
	k := len(xs[0])
	w := make([]float64, k)
	for range 30 {
		g := make([]float64, k)
		h := make([][]float64, k)
		for i := range h {
			h[i] = make([]float64, k)
		}
		for i, x := range xs {
			p := sigmoid(dot(w, x))
			d := p - ys[i]
			r := p * (1 - p)
			for a := range k {
				g[a] += d * x[a]
				for b := range k {
					h[a][b] += r * x[a] * x[b]
				}
			}
		}
		n := float64(len(xs))
		for a := range k {
			g[a] /= n
			for b := range k {
				h[a][b] /= n
			}
			if a > 0 {
				g[a] += lambda * w[a]
				h[a][a] += lambda
			}
			h[a][a] += 1e-9
		}
		step := solve(h, g)
		for a := range k {
			w[a] -= step[a]
		}
	}
	return w
}

// solve solves a x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) []float64 {
	k := len(b)
	m := make([][]float64, k)
	for i := range m {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < k; r++ {
			f := m[r][c] / m[c][c]
			for j := c; j <= k; j++ {
				m[r][j] -= f * m[c][j]
			}
		}
	}
	x := make([]float64, k)
	for r := k - 1; r >= 0; r-- {
		v := m[r][k]
		for j := r + 1; j < k; j++ {
			v -= m[r][j] * x[j]
		}
		x[r] = v / m[r][r]
	}
	return x
}
