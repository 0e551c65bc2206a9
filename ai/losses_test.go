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
}
