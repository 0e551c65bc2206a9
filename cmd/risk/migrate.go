package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/imports"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres"
)

// runMigrate is `risk migrate --from DB --to DB [--unverified]`: it copies
// every match (open and closed, with its log and the host's data), its
// turn clock and its undelivered news, and every setting (servers'
// defaults, players' notification choices) from one database to another,
// empty one: from a SQLite file to PostgreSQL when one process is no
// longer enough, or back. Each match that started is checked against its
// seed first, as risk import checks it.
func runMigrate(ctx context.Context, e env) error {
	fs := newFlags(e, "migrate")
	from := fs.String("from", "", "the database to copy from (must exist)")
	to := fs.String("to", "", "the database to copy into (created if it is a missing file; must hold no match)")
	unverified := fs.Bool("unverified", false, "copy a match whose dice do not follow from its seed all the same, marked so")
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	switch {
	case *from == "" || *to == "":
		return usageError("give --from and --to")
	case *from == *to:
		return usageError("--from and --to are the same database")
	}
	src, err := openExisting(ctx, *from)
	if err != nil {
		return fmt.Errorf("open %s: %w", redacted(*from), err)
	}
	defer src.Close()
	dst, err := openStore(ctx, *to)
	if err != nil {
		return fmt.Errorf("open %s: %w", redacted(*to), err)
	}
	defer dst.Close()
	n, err := migrate(ctx, src, dst, time.Now(), *unverified)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied %d matches (%d open, %d closed), %d queued posts, %d settings and %d library maps from %s to %s\n",
		n.open+n.closed, n.open, n.closed, n.posts, n.settings, n.maps, redacted(*from), redacted(*to))
	fmt.Fprintf(e.stdout, "dice, checked against each match's seed: %d verified, %d copied unverified (marked so), %d never started\n",
		n.verified, len(n.unverified), n.lobbies)
	for _, u := range n.unverified {
		fmt.Fprintf(e.stdout, "  %s\n", u)
	}
	return nil
}

// copied counts what migrate copied; unverified says which matches were
// copied unverified, and why.
type copied struct {
	open, closed, posts, settings, maps int
	verified, lobbies                   int
	unverified                          []string
}

// migrateSource is what risk migrate reads of the database it copies:
// every match whole, the queued posts, the libraries and the settings.
type migrateSource interface {
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	Finished(ctx context.Context, limit int) ([]storage.Match, error)
	Export(ctx context.Context, id int64) (*storage.Export, error)
	Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]storage.Post, error)
	Libraries(ctx context.Context) ([]storage.LibraryMap, error)
	MapFiles(ctx context.Context, name string) (storage.MapFiles, error)
	Settings(ctx context.Context) ([]storage.Setting, error)
}

// migrateTarget is what risk migrate reads and writes of the database it
// copies into: that it holds no match, then the copies.
type migrateTarget interface {
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	Finished(ctx context.Context, limit int) ([]storage.Match, error)
	Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
	AddMap(ctx context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// migrate copies src into dst, which must hold no match. Matches are
// imported in the order of their ids, so that each channel's history
// keeps its order. The dice of every match that started are checked
// first: if a match's do not follow from its seed, nothing is copied,
// unless unverified, which copies it marked so.
func migrate(ctx context.Context, src migrateSource, dst migrateTarget, now time.Time, unverified bool) (copied, error) {
	var n copied
	held, err := dst.OpenMatches(ctx, "")
	if err != nil {
		return n, fmt.Errorf("read the destination's matches: %w", err)
	}
	ended, err := dst.Finished(ctx, 0)
	if err != nil {
		return n, fmt.Errorf("read the destination's matches: %w", err)
	}
	if len(held) > 0 || len(ended) > 0 {
		return n, fmt.Errorf("the destination must hold no match, and it holds %s: give --to a new file or an empty PostgreSQL database",
			matchCount(len(held), len(ended)))
	}
	open, err := src.OpenMatches(ctx, "")
	if err != nil {
		return n, err
	}
	closed, err := src.Finished(ctx, 0)
	if err != nil {
		return n, err
	}
	all := slices.SortedFunc(slices.Values(append(open, closed...)), func(a, b storage.Match) int { return int(a.ID - b.ID) })
	// Undelivered news, by match: re-queued with the copy.
	const maxQueued = 100000
	ps, err := src.Outbox(ctx, "", now.Add(24*time.Hour), maxQueued)
	if err != nil {
		return n, err
	}
	if len(ps) == maxQueued {
		return n, fmt.Errorf("%d posts or more are queued: let the bot deliver them first", maxQueued)
	}
	queued := map[int64][]json.RawMessage{}
	for _, p := range ps {
		queued[p.Match] = append(queued[p.Match], p.Body)
	}
	// Every match is checked before any is copied: a refusal leaves the
	// destination empty, to try again.
	unfair := map[int64]string{}
	var refused []string
	for _, m := range all {
		x, err := src.Export(ctx, m.ID)
		if err != nil {
			return n, fmt.Errorf("match %d: %w", m.ID, err)
		}
		if len(x.Record.Setup.Seats) == 0 {
			n.lobbies++
			continue
		}
		_, why, err := imports.CheckDice(x.Record, "")
		if err != nil {
			return n, fmt.Errorf("match %d: %w", m.ID, err)
		}
		if len(why) == 0 {
			n.verified++
			continue
		}
		unfair[m.ID] = why[0]
		refused = append(refused, fmt.Sprintf("match %d (%s): %s", m.ID, m.Channel, strings.Join(why, "; ")))
	}
	if len(refused) > 0 && !unverified {
		return n, fmt.Errorf("nothing was copied, since the dice of these matches do not follow from their seeds "+
			"(--unverified copies them all the same, marked so: they never claim fair dice):\n  %s", strings.Join(refused, "\n  "))
	}
	for _, m := range all {
		x, err := src.Export(ctx, m.ID)
		if err != nil {
			return n, fmt.Errorf("match %d: %w", m.ID, err)
		}
		if why, ok := unfair[m.ID]; ok {
			if x.Meta, err = imports.MarkUnverified(x.Meta, why); err != nil {
				return n, fmt.Errorf("match %d: mark it unverified: %w", m.ID, err)
			}
			n.unverified = append(n.unverified, fmt.Sprintf("match %d (%s): %s", m.ID, m.Channel, why))
		}
		got, err := dst.Import(ctx, x, now)
		if err != nil {
			return n, fmt.Errorf("match %d: %w", m.ID, err)
		}
		var c storage.Change
		if m.Status == storage.Active && m.Timers != (storage.Timers{}) {
			t := m.Timers
			c.Timers = &t
		}
		c.Posts = queued[m.ID]
		if c.Timers != nil || len(c.Posts) > 0 {
			if _, err := dst.Save(ctx, got.ID, got.Version, c, now); err != nil {
				return n, fmt.Errorf("match %d: %w", m.ID, err)
			}
		}
		n.posts += len(c.Posts)
		if m.Status.Open() {
			n.open++
		} else {
			n.closed++
		}
	}
	// The libraries, each map with its files. The files of the maps the
	// matches play on came with each match's export (storage.Export.Map).
	libs, err := src.Libraries(ctx)
	if err != nil {
		return n, err
	}
	for _, m := range libs {
		f, err := src.MapFiles(ctx, m.Engine())
		if err != nil {
			return n, fmt.Errorf("map %q of %s: %w", m.Name, m.Scope, err)
		}
		if err := dst.AddMap(ctx, m, f, m.Added); err != nil {
			return n, fmt.Errorf("map %q of %s: %w", m.Name, m.Scope, err)
		}
		n.maps++
	}
	settings, err := src.Settings(ctx)
	if err != nil {
		return n, err
	}
	for _, s := range settings {
		if err := dst.SetSetting(ctx, s.Scope, s.ID, s.Value, s.Updated); err != nil {
			return n, err
		}
		n.settings++
	}
	return n, nil
}

// redacted is a database address fit to print: a PostgreSQL URL without
// its password.
func redacted(addr string) string {
	if !postgres.IsAddress(addr) {
		return addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return "(a postgres:// address)"
	}
	return u.Redacted()
}

// matchCount says how many matches a database holds: "7 open matches and
// 1 ended one".
func matchCount(open, ended int) string {
	var parts []string
	for _, c := range []struct {
		n    int
		kind string
	}{{open, "open"}, {ended, "ended"}} {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.kind+" match")
		case c.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s matches", c.n, c.kind))
		}
	}
	return strings.Join(parts, " and ")
}
