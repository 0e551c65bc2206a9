package discord

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// BenchmarkCommandAnswer times a command typed on Discord up to its
// answer, against its floor, in one run (issue 48):
//
//	go test -run '^$' -bench CommandAnswer -benchmem -count 6 ./bot/discord
//
// Each iteration, in turn, so that the three see the same load:
//
//   - command: Ann's /risk place territory:T armies:1 in the initial
//     placement of a match of two people, handled by the real bot on a
//     SQLite file, from the interaction as discordgo decodes it (gateway
//     or HTTP alike) to its answer shown by the fake Discord. A write is
//     acknowledged at once (a deferral) and answered by an edit: two
//     calls to Discord. No map is drawn: maps are drawn at a turn's end.
//   - floor: discord's round trip for the same interaction answered
//     with a fixed message by a core that touches neither store nor
//     engine (the same deferral and edit, so the same two calls), plus
//     commit: one durable commit of the same store (a setting written,
//     synchronous=FULL).
//
// x-floor is command's median over the sum of floor's and commit's. What
// the command does after its answer (news delivered, the request marked
// answered) is outside its time, not outside the iteration's.
func BenchmarkCommandAnswer(b *testing.B) {
	e := newEnv(b, nil, DefaultDeferAfter)
	db, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "risk.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	core := newCore(b, db, e.a, time.Now, e.a.log.With("part", "core"))
	const said = "You placed 1 army on Alaska."
	static := replyWith(chat.Message{Private: true, Text: said})
	ctx := context.Background()
	n := 0 // matches started
	var terr string
	left := 0
	// fresh starts a match of two people, off the clock, in a channel of
	// its own, and finds a territory of Ann's.
	fresh := func() string {
		n++
		ch := strconv.Itoa(900000000000000000 + n)
		for _, c := range []struct {
			p    person
			sub  string
			opts []opt
		}{{ann, "new", []opt{o("thread", "off")}}, {bob, "join", nil}, {ann, "start", nil}} {
			i := e.deliver(slash(b, c.p, ch, c.sub, c.opts...))
			if err := e.a.handle(ctx, core, i, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		core.Wait()
		l, err := db.Active(ctx, prefix+ch)
		if err != nil {
			b.Fatal(err)
		}
		s := l.Game.State
		seat := s.SeatByID(ann.userID())
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				terr = s.Map.Territories[t].Name
				break
			}
		}
		left = s.Seats[seat].Reserve - 1
		return ch
	}
	// answer handles payload with core and returns the time from its
	// arrival to its answer shown, which must say want.
	answer := func(b *testing.B, core Core, payload []byte, want string) time.Duration {
		raw, err := e.fake.Interaction(payload)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var i discordgo.Interaction
		if err := json.Unmarshal(raw, &i); err != nil {
			b.Fatal(err)
		}
		if err := e.a.handle(ctx, core, &i, start); err != nil {
			b.Fatal(err)
		}
		at, ok := e.fake.Shown(i.ID)
		if !ok {
			b.Fatalf("interaction %s: no answer shown", i.ID)
		}
		if m, _ := e.fake.Answer(i.ID); m == nil || !strings.Contains(m.Content, want) {
			b.Fatalf("interaction %s answered %+v, want it to say %q", i.ID, m, want)
		}
		return at.Sub(start)
	}
	var ch string
	b.Run("place", func(b *testing.B) {
		var floor, commit, command []time.Duration
		i := 0
		for b.Loop() {
			if left == 0 {
				b.StopTimer()
				ch = fresh()
				b.StartTimer()
			}
			payload := slash(b, ann, ch, "place", o("territory", terr), o("armies", 1))
			floor = append(floor, answer(b, static, payload, said))
			i++
			t := time.Now()
			if err := db.SetSetting(ctx, "bench", "floor", json.RawMessage(strconv.Itoa(i)), time.Now()); err != nil {
				b.Fatal(err)
			}
			commit = append(commit, time.Since(t))
			command = append(command, answer(b, core, payload, "placed 1 on "+terr))
			left--
		}
		p50 := func(q []time.Duration) float64 {
			s := slices.Sorted(slices.Values(q))
			return float64(s[len(s)/2].Nanoseconds()) / 1e3
		}
		b.ReportMetric(p50(floor), "floor-p50-µs")
		b.ReportMetric(p50(commit), "commit-p50-µs")
		b.ReportMetric(p50(command), "command-p50-µs")
		b.ReportMetric(p50(command)/(p50(floor)+p50(commit)), "x-floor")
	})
}
