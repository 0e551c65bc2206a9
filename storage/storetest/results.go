package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// testResults records results and reads the standings back, with ratings
// worked out by hand (engine/rating: K = 32, a match of N seats moves each
// duel by K/(N-1)).
func testResults(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	const guild = "discord:guild:1"
	seat := func(id, name string, place int) storage.ResultSeat {
		return storage.ResultSeat{Player: id, Name: name, Place: place}
	}
	bot := func(id, level string, place int) storage.ResultSeat {
		return storage.ResultSeat{Player: id, Level: level, Name: "Napoleon", Place: place}
	}
	// Match 1: Ann wins, Bob second, an easy computer third: +16, 0, -16.
	m1 := storage.Result{Match: 1, Server: guild, Rules: state.Classic, Ended: T0,
		Seats: []storage.ResultSeat{seat("discord:ann", "Ann", 1), seat("discord:bob", "Bob", 2), bot("bot:1", "easy", 3)}}
	// Match 2, later: the easy computer beats Ann alone. Ann (1516)
	// expected 1/(1+10^(-32/400)) = 0.545922 against it (1484): -17.4695.
	m2 := storage.Result{Match: 2, Server: guild, Rules: state.Classic, Ended: T0.Add(time.Hour),
		Seats: []storage.ResultSeat{seat("discord:ann", "Annie", 2), bot("bot:2", "easy", 1)}}
	// Match 3: capitals, rated apart; Bob wins.
	m3 := storage.Result{Match: 3, Server: guild, Rules: state.Capitals, Ended: T0.Add(2 * time.Hour),
		Seats: []storage.ResultSeat{seat("discord:bob", "Bob", 1), seat("discord:ann", "Ann", 2)}}
	// Match 4: another server.
	m4 := storage.Result{Match: 4, Server: "discord:guild:2", Rules: state.Classic, Ended: T0,
		Seats: []storage.ResultSeat{seat("discord:bob", "Bob", 2), seat("discord:cid", "Cid", 1)}}
	// Recorded out of order, and twice: the ratings follow the end times.
	for _, r := range []storage.Result{m2, m4, m1, m3, m1, m2} {
		if err := db.RecordResult(ctx, r); err != nil {
			t.Fatalf("record match %d: %v", r.Match, err)
		}
	}
	e := 32 * (1 / (1 + math.Pow(10, -32.0/400)))
	board, err := db.Leaderboard(ctx, guild, state.Classic, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []storage.Standing{
		{Player: "bot:easy", Name: "bot:easy", Rules: state.Classic, Played: 2, Won: 1, Rating: 1484 + e, Rank: 1},
		{Player: "discord:bob", Name: "Bob", Rules: state.Classic, Played: 1, Won: 0, Rating: 1500, Rank: 2},
		{Player: "discord:ann", Name: "Annie", Rules: state.Classic, Played: 2, Won: 1, Rating: 1516 - e, Rank: 3},
	}
	sameStandings(t, "classic leaderboard", board, want)
	if math.Abs(board[0].Rating-1501.4695) > 1e-3 || math.Abs(board[2].Rating-1498.5305) > 1e-3 {
		t.Errorf("ratings %v and %v, want 1501.4695 and 1498.5305", board[0].Rating, board[2].Rating)
	}
	top, err := db.Leaderboard(ctx, guild, state.Classic, 1)
	if err != nil || len(top) != 1 || top[0].Player != "bot:easy" {
		t.Errorf("the top 1: %+v, %v", top, err)
	}
	stats, err := db.PlayerStats(ctx, guild, "discord:ann")
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, "Ann's stats", stats, []storage.Standing{
		want[2],
		{Player: "discord:ann", Name: "Ann", Rules: state.Capitals, Played: 1, Won: 0, Rating: 1484, Rank: 2},
	})
	// A computer seat's id gives its level's standing.
	stats, err = db.PlayerStats(ctx, guild, "bot:easy:7")
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, "the easy level's stats", stats, want[:1])
	other, err := db.Leaderboard(ctx, "discord:guild:2", state.Classic, 0)
	if err != nil || len(other) != 2 || other[0].Player != "discord:cid" || other[0].Rating != 1516 {
		t.Errorf("the other server: %+v, %v", other, err)
	}
	none, err := db.PlayerStats(ctx, "discord:guild:3", "discord:ann")
	if err != nil || len(none) != 0 {
		t.Errorf("a server without results: %+v, %v", none, err)
	}

	// Another result for a recorded match is refused and changes nothing.
	changed := m1
	changed.Seats = []storage.ResultSeat{seat("discord:ann", "Ann", 2), seat("discord:bob", "Bob", 1), bot("bot:1", "easy", 3)}
	longer := m2
	longer.Seats = append(append([]storage.ResultSeat(nil), m2.Seats...), seat("discord:dan", "Dan", 3))
	for _, r := range []storage.Result{changed, longer} {
		if err := db.RecordResult(ctx, r); !errors.Is(err, storage.ErrResultDiffers) {
			t.Errorf("match %d recorded differently: %v, want ErrResultDiffers", r.Match, err)
		}
	}
	again, err := db.Leaderboard(ctx, guild, state.Classic, 0)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, "after the refused results", again, want)

	for _, tt := range []struct {
		name string
		r    storage.Result
	}{
		{"no server", storage.Result{Match: 9, Rules: state.Classic, Seats: m1.Seats}},
		{"no match", storage.Result{Server: guild, Rules: state.Classic, Seats: m1.Seats}},
		{"one seat", storage.Result{Match: 9, Server: guild, Rules: state.Classic, Seats: m1.Seats[:1]}},
		{"a player twice", storage.Result{Match: 9, Server: guild, Seats: []storage.ResultSeat{seat("a", "A", 1), seat("a", "A", 2)}}},
		{"no winner", storage.Result{Match: 9, Server: guild, Seats: []storage.ResultSeat{seat("a", "A", 2), seat("b", "B", 3)}}},
		{"a place skipped", storage.Result{Match: 9, Server: guild, Seats: []storage.ResultSeat{seat("a", "A", 1), seat("b", "B", 3)}}},
		{"unknown rules", storage.Result{Match: 9, Server: guild, Rules: state.Rules(9), Seats: m1.Seats}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := db.RecordResult(ctx, tt.r); err == nil {
				t.Error("recorded")
			}
		})
	}
	if err := db.RecordResult(ctx, storage.Result{Match: 9, Server: guild, Rules: state.Classic, Ended: T0,
		Seats: []storage.ResultSeat{seat("a", "A", 1), seat("b", "B", 1), seat("c", "C", 3)}}); err != nil {
		t.Errorf("two tied winners: %v", err)
	}
}

func sameStandings(t *testing.T, what string, got, want []storage.Standing) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d standings, want %d:\n%+v", what, len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Player != w.Player || g.Name != w.Name || g.Rules != w.Rules || g.Played != w.Played || g.Won != w.Won ||
			g.Rank != w.Rank || math.Abs(g.Rating-w.Rating) > 1e-9 {
			t.Errorf("%s: %d: got %s, want %s", what, i, show(g), show(w))
		}
	}
}

func show(s storage.Standing) string {
	return fmt.Sprintf("%s %q %s played %d won %d rating %.4f rank %d", s.Player, s.Name, s.Rules, s.Played, s.Won, s.Rating, s.Rank)
}
