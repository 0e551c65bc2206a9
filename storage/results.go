package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/riskbot/riskbot/engine/rating"
	"github.com/riskbot/riskbot/state"
)

// Result is how a finished match ended, for the leaderboards: recorded
// once per match (RecordResult).
type Result struct {
	Match  int64
	Server string // the chat server whose leaderboard counts it ("discord:guild:1")
	Rules  state.Rules
	Ended  time.Time
	Seats  []ResultSeat // in any order; each seat once
}

// ResultSeat is one seat of a finished match.
type ResultSeat struct {
	// Player is the seat's id: a person's ("discord:123") or a computer
	// seat's ("bot:2"); Level is a computer's level ("easy"), "" for a
	// person. Computers are rated by level (rating.Key).
	Player string
	Level  string
	Name   string
	// Place is 1 for the winner, then 2, 3, ...; seats with one place are
	// tied.
	Place int
}

// Standing is a player's (or a computer level's) record on a server under
// one rule set.
type Standing struct {
	Player      string // rating.Key: a person's id, or "bot:LEVEL"
	Name        string // the name of their latest match
	Rules       state.Rules
	Played, Won int
	Rating      float64
	Rank        int // by rating among the server's players of the rule set, from 1
}

// ErrResultDiffers: a match's result was recorded already, and not as given.
var ErrResultDiffers = errors.New("storage: the match's result was recorded already, differently")

// CheckResult refuses a result that cannot be rated: no match, server or
// rule set, fewer than 2 seats, a seat without id, a player twice, places
// that do not start at 1 or skip one.
func CheckResult(r Result) error {
	if r.Match <= 0 || r.Server == "" {
		return fmt.Errorf("storage: result: no match or server (%d, %q)", r.Match, r.Server)
	}
	if _, err := r.Rules.MarshalText(); err != nil {
		return fmt.Errorf("storage: result of match %d: %w", r.Match, err)
	}
	if len(r.Seats) < 2 || len(r.Seats) > state.MaxSeats {
		return fmt.Errorf("storage: result of match %d: %d seats, want 2 to %d", r.Match, len(r.Seats), state.MaxSeats)
	}
	seen := map[string]bool{}
	places := make([]int, 0, len(r.Seats))
	for _, s := range r.Seats {
		if s.Player == "" || seen[s.Player] {
			return fmt.Errorf("storage: result of match %d: seat id %q empty or twice", r.Match, s.Player)
		}
		seen[s.Player] = true
		places = append(places, s.Place)
	}
	slices.Sort(places)
	// Competition ranking: 1, 1, 3 is two tied winners and a third.
	for i, p := range places {
		if p < 1 || (i == 0 && p != 1) || (i > 0 && p != places[i-1] && p != i+1) {
			return fmt.Errorf("storage: result of match %d: places %v, want 1 for the winner and ties sharing a place (1, 1, 3)", r.Match, places)
		}
	}
	return nil
}

// sameResult reports whether a stored result is r (times to the
// millisecond, seats in any order).
func sameResult(stored, r Result) bool {
	if stored.Match != r.Match || stored.Server != r.Server || stored.Rules != r.Rules ||
		stored.Ended.UnixMilli() != r.Ended.UnixMilli() || len(stored.Seats) != len(r.Seats) {
		return false
	}
	for _, s := range r.Seats {
		if !slices.Contains(stored.Seats, s) {
			return false
		}
	}
	return true
}

// ResultRow is one seat of a stored result, as a store reads it back
// (ScanResults): the stores' common ground for RecordResult and the
// standings.
type ResultRow struct {
	Server string
	Match  int64
	Rules  state.Rules
	Seat   ResultSeat
	Ended  time.Time
}

// CheckRecorded compares the rows stored for r.Match with r: nil if they
// are r, ErrResultDiffers if not.
func CheckRecorded(r Result, rows []ResultRow) error {
	stored := Result{Match: r.Match}
	for i, row := range rows {
		if i == 0 {
			stored.Server, stored.Rules, stored.Ended = row.Server, row.Rules, row.Ended
		}
		stored.Seats = append(stored.Seats, row.Seat)
	}
	if !sameResult(stored, r) {
		return fmt.Errorf("%w (match %d)", ErrResultDiffers, r.Match)
	}
	return nil
}

// Standings rates a server's results, rows in the order the matches ended
// (seats of a match together), and returns every player's standing under
// each rule set, best rated first.
func Standings(rows []ResultRow) map[state.Rules][]Standing {
	type acc struct {
		Standing
		order int
	}
	ratings := map[state.Rules]map[string]float64{}
	by := map[state.Rules]map[string]*acc{}
	rate := func(match []ResultRow) {
		rules := match[0].Rules
		if ratings[rules] == nil {
			ratings[rules], by[rules] = map[string]float64{}, map[string]*acc{}
		}
		seats := make([]rating.Seat, len(match))
		for i, row := range match {
			key := rating.Key(row.Seat.Player, row.Seat.Level)
			seats[i] = rating.Seat{Key: key, Place: row.Seat.Place}
			a := by[rules][key]
			if a == nil {
				a = &acc{Standing: Standing{Player: key, Rules: rules}, order: len(by[rules])}
				by[rules][key] = a
			}
			a.Played++
			if row.Seat.Place == 1 {
				a.Won++
			}
			a.Name = row.Seat.Name
			if row.Seat.Level != "" || key != row.Seat.Player {
				a.Name = key // a level, not one computer's name
			}
		}
		rating.Apply(ratings[rules], seats)
	}
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].Match == rows[i].Match {
			j++
		}
		rate(rows[i:j])
		i = j
	}
	out := map[state.Rules][]Standing{}
	for rules, m := range by {
		var list []*acc
		for key, a := range m {
			a.Rating = ratings[rules][key]
			list = append(list, a)
		}
		slices.SortFunc(list, func(a, b *acc) int {
			switch {
			case a.Rating > b.Rating:
				return -1
			case a.Rating < b.Rating:
				return 1
			}
			return a.order - b.order // the first seen first among equals
		})
		for i, a := range list {
			a.Rank = i + 1
			out[rules] = append(out[rules], a.Standing)
		}
	}
	return out
}

// Leaderboard returns a server's players under a rule set, best rated
// first, at most limit of them (all if limit <= 0).
func Leaderboard(rows []ResultRow, rules state.Rules, limit int) []Standing {
	list := Standings(rows)[rules]
	if limit > 0 && len(list) > limit {
		list = list[:limit]
	}
	return list
}

// PlayerStats returns one player's standings on a server, one per rule set
// they played, classic first. A computer's seat id ("bot:normal:2") gives
// its level's.
func PlayerStats(rows []ResultRow, player string) []Standing {
	key := rating.Key(player, "")
	var out []Standing
	all := Standings(rows)
	for _, rules := range []state.Rules{state.Classic, state.Capitals} {
		for _, s := range all[rules] {
			if s.Player == key {
				out = append(out, s)
			}
		}
	}
	return out
}

// Record is RecordResult's routine, the same in every store, run inside
// one transaction that the store opens and commits: a result recorded
// already is compared with r, never added to; otherwise each seat's row
// is inserted, and what was stored first, by this writer or a racing one,
// is compared too. stored reads the match's rows (ResultColumns, by
// seat); insert adds seat i's row, doing nothing if the seat has one.
func Record(r Result, stored func() ([]ResultRow, error), insert func(i int, s ResultSeat) error) error {
	rows, err := stored()
	if err != nil {
		return err
	}
	if len(rows) > 0 {
		return CheckRecorded(r, rows)
	}
	for i, s := range r.Seats {
		if err := insert(i, s); err != nil {
			return err
		}
	}
	if rows, err = stored(); err != nil {
		return err
	}
	return CheckRecorded(r, rows)
}

// Ratings is the stores' Leaderboard and PlayerStats: both rate a
// server's counted results (Counted), which Read is the store's query
// for, in the order the matches ended (ResultColumns).
type Ratings struct {
	Read func(ctx context.Context, server string) ([]ResultRow, error)
}

// Leaderboard returns a server's players under a rule set, best rated
// first, at most limit (all if limit <= 0).
func (r Ratings) Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]Standing, error) {
	rows, err := r.Read(ctx, server)
	if err != nil {
		return nil, err
	}
	return Leaderboard(rows, rules, limit), nil
}

// PlayerStats returns a player's standings on a server, one per rule set
// played (none if they never finished a match there).
func (r Ratings) PlayerStats(ctx context.Context, server, player string) ([]Standing, error) {
	rows, err := r.Read(ctx, server)
	if err != nil {
		return nil, err
	}
	return PlayerStats(rows, player), nil
}
