package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// The benchmarks the stores share: a community's database built in bulk
// (Fill), and what its lists cost (BenchLists).

// PageChannels is how many open matches Fill puts in the web page's
// channels ("web:room1" on), whatever the size of the community: the
// lists of the page's channels show as many in a small database as in a
// large one, so they should cost the same.
const PageChannels = 5

// Fill stores a community of n matches in Discord channels ("discord:1"
// on), a tenth of them open (started, commands long), the rest finished
// (as long), and PageChannels open matches in the page's channels: in
// bulk (ImportCopies), in seconds for 100,000 matches. The matches are
// copies of one random 4-player game.
func Fill(tb testing.TB, db Store, n, commands int) {
	tb.Helper()
	ctx := context.Background()
	x := randomExport(tb, commands)
	var open, closed []string
	for i := 1; i <= n; i++ {
		ch := fmt.Sprintf("discord:%d", i)
		if i%10 == 0 {
			open = append(open, ch)
		} else {
			closed = append(closed, ch)
		}
	}
	for i := 1; i <= PageChannels; i++ {
		open = append(open, fmt.Sprintf("web:room%d", i))
	}
	// Chunks keep one transaction's memory bounded.
	const chunk = 20000
	for _, part := range []struct {
		status   storage.Status
		channels []string
	}{{storage.Finished, closed}, {storage.Active, open}} {
		x.Status = part.status
		for c := range slices.Chunk(part.channels, chunk) {
			if err := db.ImportCopies(ctx, x, c, T0); err != nil {
				tb.Fatalf("fill: %v", err)
			}
		}
	}
}

// randomExport is a random 4-player match of n commands, as exported.
func randomExport(tb testing.TB, n int) *storage.Export {
	tb.Helper()
	for seed := uint64(1); ; seed++ {
		g, err := engine.NewGame(NewSetup(4, seed))
		if err != nil {
			tb.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		x := &storage.Export{Channel: "x", Meta: []byte(`{"server":"bench","host":"p0"}`), Record: engine.Record{Setup: g.Setup}}
		for len(x.Record.Log) < n {
			e, err := Move(g, r)
			if err != nil {
				break
			}
			x.Record.Log = append(x.Record.Log, e)
		}
		if len(x.Record.Log) == n {
			return x
		}
	}
}

// BenchLists measures the lists of the web page's channels in a community
// of 10 and of 100,000 matches (a database from open, filled with Fill
// unless it was already), side by side in one run, since a list should
// cost the same in both (within 1.5 times) when it shows the same: OpenChannels, what the page
// needs, and OpenMatches, the whole rows, for PageChannels open matches
// whatever the size; ClosedChannels, the page's channels whose match is
// over (none: the finished matches are Discord's); and Due, the timers due in the Discord channels
// (none are set).
func BenchLists(b *testing.B, open func(b *testing.B, n int) Store) {
	ctx := context.Background()
	for _, n := range []int{10, 100000} {
		db := open(b, n)
		for _, l := range []struct {
			name string
			list func() (int, error)
			want int
		}{
			{"OpenChannels", func() (int, error) { o, err := db.OpenChannels(ctx, "web:"); return len(o), err }, PageChannels},
			{"OpenMatches", func() (int, error) { o, err := db.OpenMatches(ctx, "web:"); return len(o), err }, PageChannels},
			{"ClosedChannels", func() (int, error) { o, err := db.ClosedChannels(ctx, "web:", 0); return len(o), err }, 0},
			{"Due", func() (int, error) { d, err := db.Due(ctx, "discord:", T0.Add(time.Hour)); return len(d), err }, 0},
		} {
			b.Run(fmt.Sprintf("%s/matches=%d", l.name, n), func(b *testing.B) {
				for b.Loop() {
					got, err := l.list()
					if err != nil {
						b.Fatal(err)
					}
					if got != l.want {
						b.Fatalf("listed %d, want %d", got, l.want)
					}
				}
			})
		}
	}
}
