package storage_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// BenchmarkStandings rates a server's whole history on every read: 10,000
// four-seat matches among 200 players and the four computer levels.
func BenchmarkStandings(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	levels := []string{"random", "easy", "normal", "hard"}
	var rows []storage.ResultRow
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for m := range 10000 {
		places := rng.Perm(4)
		for s := range 4 {
			seat := storage.ResultSeat{Player: fmt.Sprintf("discord:%d", rng.IntN(200)), Name: "P", Place: places[s] + 1}
			if s == 3 {
				seat.Player, seat.Level = fmt.Sprintf("bot:%d", s), levels[rng.IntN(4)]
			}
			rows = append(rows, storage.ResultRow{Match: int64(m + 1), Rules: state.Classic, Seat: seat, Ended: t0.Add(time.Duration(m) * time.Minute)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := storage.Leaderboard(rows, state.Classic, 10); len(got) != 10 {
			b.Fatalf("%d standings", len(got))
		}
	}
}
