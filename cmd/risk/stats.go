package main

import (
	"context"
	"fmt"
	"io"

	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine/rating"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// runStats is `risk stats [--db PATH] (--record | --server S [--rules R] [--limit N] | --server S --player ID)`.
func runStats(ctx context.Context, e env) error {
	flags := newFlags(e, "stats")
	path := dbFlag(flags, "")
	record := flags.Bool("record", false, "record the results of the finished matches")
	server := flags.String("server", "", "the `server` whose results count, as the bot stores it (console, or a Discord guild id)")
	rulesName := flags.String("rules", "classic", "the rule set of the leaderboard: classic or capitals")
	limit := flags.Int("limit", 10, "show the best `N` (0: all)")
	player := flags.String("player", "", "show this player's stats (an id such as discord:123, or bot:LEVEL)")
	if err := parseFlags(flags, e.args); err != nil {
		return err
	}
	rules, err := state.ParseRules(*rulesName)
	switch {
	case flags.NArg() > 0:
		return usageError("unexpected argument %q", flags.Arg(0))
	case !*record && *server == "":
		return usageError("give --server (or --record)")
	case err != nil:
		return usageError("%v", err)
	case *limit < 0:
		return usageError("--limit must be 0 or more")
	}
	db, err := openDefault(ctx, path, e.getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	if *record {
		if err := recordResults(ctx, db, e.stdout); err != nil {
			return err
		}
		if *server == "" {
			return nil
		}
	}
	if *player != "" {
		st, err := db.PlayerStats(ctx, *server, *player)
		if err != nil {
			return err
		}
		if len(st) == 0 {
			fmt.Fprintf(e.stdout, "%s has no finished match on %s\n", rating.Key(*player, ""), *server)
			return nil
		}
		for _, s := range st {
			fmt.Fprintf(e.stdout, "%s, %s on %s: played %d, won %d, rating %.0f (#%d)\n", s.Name, s.Rules, *server, s.Played, s.Won, s.Rating, s.Rank)
		}
		return nil
	}
	board, err := db.Leaderboard(ctx, *server, rules, *limit)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Leaderboard of %s, %s (multiplayer Elo from %.0f)\n", *server, rules, rating.Start)
	if len(board) == 0 {
		fmt.Fprintln(e.stdout, "no finished match yet")
	}
	for _, s := range board {
		fmt.Fprintf(e.stdout, "%2d. %-20s %5.0f  played %d, won %d\n", s.Rank, s.Name, s.Rating, s.Played, s.Won)
	}
	return nil
}

// results is what risk stats reads and records: the finished matches
// whole, their results, and the standings made of them.
type results interface {
	Finished(ctx context.Context, limit int) ([]storage.Match, error)
	Export(ctx context.Context, id int64) (*storage.Export, error)
	RecordResult(ctx context.Context, r storage.Result) error
	Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error)
	PlayerStats(ctx context.Context, server, player string) ([]storage.Standing, error)
}

// recordResults records the result of every finished match, as the bot
// stored it: the server and the computers' levels from its data, the
// places from the log (engine.Record.Ranking). A match imported without
// --rated is left out: whoever wrote its file chose whom it credits (the
// standings would not count it anyway).
func recordResults(ctx context.Context, db results, out io.Writer) error {
	ms, err := db.Finished(ctx, 0)
	if err != nil {
		return err
	}
	n, unrated := 0, 0
	for _, m := range ms {
		if m.Status != storage.Finished {
			continue // abandoned: nobody won
		}
		x, err := db.Export(ctx, m.ID)
		if err != nil {
			return err
		}
		if x.Origin != nil && !x.Origin.Rated {
			unrated++
			continue
		}
		r, err := server.ResultOf(m, x)
		if err != nil {
			return fmt.Errorf("match %d: %w", m.ID, err)
		}
		if err := db.RecordResult(ctx, r); err != nil {
			return err
		}
		n++
	}
	word := "matches"
	if n == 1 {
		word = "match"
	}
	fmt.Fprintf(out, "recorded the results of %d finished %s\n", n, word)
	if unrated > 0 {
		fmt.Fprintf(out, "left out %d imported without --rated: they count for nobody\n", unrated)
	}
	return nil
}
