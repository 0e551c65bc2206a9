package ai

import (
	"flag"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/state"
)

var lossGames = flag.Int("lossgames", 0, "TestHardLosses: play this many games of hard (640 iterations) against three normal and describe how hard loses (0: skip)")

// TestHardLosses describes how hard loses against three normal: whether it
// is out or still in when another seat wins, and where things stood at the
// start of its last turn (its territories, the winner's territories and
// cards). It only reports; it runs with -lossgames:
//
//	go test ./ai -run TestHardLosses -lossgames 200 -v
func TestHardLosses(t *testing.T) {
	if *lossGames == 0 {
		t.Skip("run with -lossgames N")
	}
	type last struct{ mine, winner, cards int }
	var (
		wins, out int
		alive     []last // losses with hard still in, at its last turn
		// By game won or lost, and by hard's turn (the first shapeTurns):
		// how many games got there, and the sums of hard's territories and
		// of the mean of the other seats still in.
		games, mine, others [2][shapeTurns]float64
	)
	for g := range *lossGames {
		s, players, hs := hardAgainstNormal(t, 5000, g, 640)
		var terr [][state.MaxSeats]int // territories at the start of each of hard's turns
		var hands [][state.MaxSeats]int
		lastTurn := -1
		for s.Phase != state.PhaseOver && s.Turn <= 600 {
			if s.Phase != state.PhaseSetup && s.Turn != lastTurn && s.Current == hs {
				lastTurn = s.Turn
				var tr, hd [state.MaxSeats]int
				for p := range s.Seats {
					tr[p], hd[p] = s.Owned(p), s.HandSize(p)
				}
				terr, hands = append(terr, tr), append(hands, hd)
			}
			step(t, s, players)
		}
		won := 0
		if s.Winner == hs {
			won = 1
		}
		for k, tr := range terr[:min(shapeTurns, len(terr))] {
			sum, in := 0, 0
			for p := range s.Seats {
				if p != hs && tr[p] > 0 {
					sum, in = sum+tr[p], in+1
				}
			}
			games[won][k]++
			mine[won][k] += float64(tr[hs])
			others[won][k] += float64(sum) / float64(max(1, in))
		}
		switch {
		case s.Winner == hs:
			wins++
		case !s.Seats[hs].Alive():
			out++
		case len(terr) > 0:
			k := len(terr) - 1
			alive = append(alive, last{terr[k][hs], terr[k][s.Winner], hands[k][s.Winner]})
		}
	}
	median := func(f func(last) int) int {
		xs := make([]int, len(alive))
		for i, l := range alive {
			xs[i] = f(l)
		}
		slices.Sort(xs)
		if len(xs) == 0 {
			return 0
		}
		return xs[len(xs)/2]
	}
	t.Logf("%d games: hard won %d; lost %d out of the game, %d still in when another seat won", *lossGames, wins, out, len(alive))
	t.Logf("those %d, at the start of hard's last turn (medians): hard's territories %d, the winner's %d, the winner's cards %d",
		len(alive), median(func(l last) int { return l.mine }), median(func(l last) int { return l.winner }), median(func(l last) int { return l.cards }))
	for won, what := range []string{"lost", "won"} {
		for k := range shapeTurns {
			if n := games[won][k]; n > 0 {
				t.Logf("games hard %s, its turn %d (%.0f games): hard's territories %.1f, the other seats' %.1f (mean)", what, k+1, n, mine[won][k]/n, others[won][k]/n)
			}
		}
	}
}

// shapeTurns is how many of hard's turns TestHardLosses describes one by
// one: most games are over by hard's eighth turn.
const shapeTurns = 8
