package discord

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// countingRenderer counts the maps drawn.
type countingRenderer struct {
	look.Renderer
	n *atomic.Int64
}

func (c countingRenderer) Render(ctx context.Context, s *state.State) ([]byte, error) {
	c.n.Add(1)
	return c.Renderer.Render(ctx, s)
}

// channelLoad is what a match cost the channel and the database.
type channelLoad struct {
	turns    int // turns played (each person's and bot's)
	posts    int // messages the bot posted to the channel
	public   int // public messages, answers to commands included
	edits    int // edits of public messages
	renders  int64
	dbBytes  int64
	rowBytes int64 // the match row, as stored
}

// measureMatch plays a 4-seat classic match, two people and two normal
// bots, for rounds rounds through the fake Discord, the people placing
// automatically, attacking once from the suggestions and ending with the
// turn's button, and says what it cost.
func measureMatch(t *testing.T, rounds int) channelLoad {
	t.Helper()
	e := newEnv(t, nil, DefaultDeferAfter)
	dir := t.TempDir()
	path := filepath.Join(dir, "risk.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := faketest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	var renders atomic.Int64
	palettes := look.StandardPalettes()
	for name, p := range palettes {
		p.Render = countingRenderer{p.Render, &renders}
		palettes[name] = p
	}
	var mu sync.Mutex
	seed := uint64(0)
	b, err := bot.New(bot.Standard(bot.Config{
		Store: db, Poster: e.a, Now: c.Now, Palettes: palettes,
		Seed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed },
		Log:  e.a.log.With("part", "core"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	e.core = b
	g := &game{env: e, bot: b, db: db, clock: c}

	// Domination: the match lasts the rounds measured whoever plays well.
	g.answer(g.do(slash(t, ann, channel, "new", o("thread", "off"), o("victory", "domination"))))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "normal"))))
	g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "normal"))))
	g.do(slash(t, ann, channel, "start"))
	g.bot.Wait()
	g.answer(g.do(slash(t, ann, channel, "place")))
	g.answer(g.do(slash(t, bob, channel, "place")))
	g.bot.Wait()
	startTurn := g.match().Game.State.Turn
	for {
		g.bot.Wait()
		m := g.match()
		s := m.Game.State
		if m.Status != storage.Active || s.Phase == state.PhaseOver || s.Turn-startTurn >= 4*rounds {
			break
		}
		p := personOf(t, s.Seats[s.Current].ID)
		g.quietTurn(p)
	}
	var load channelLoad
	m := g.match()
	load.turns = m.Game.State.Turn - startTurn
	load.renders = renders.Load()
	for _, msg := range g.fake.Messages() {
		if msg.Deleted || msg.Ephemeral {
			continue
		}
		load.public++
		load.edits += msg.Edits
		if msg.Kind == fakediscord.Channel {
			load.posts++
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			load.dbBytes += fi.Size()
		}
	}
	load.rowBytes = int64(len(m.Meta))
	return load
}

// quietTurn plays p's turn: trade if the hand is full, place everything,
// one attack to the end from the first suggestion, move all in, end.
func (g *game) quietTurn(p person) {
	t := g.t
	t.Helper()
	s := g.match().Game.State
	if s.Seats[s.SeatByID(p.userID())].Hand.Len() >= 5 {
		g.answer(g.do(slash(t, p, channel, "trade")))
	}
	g.answer(g.do(slash(t, p, channel, "place")))
	if froms := g.complete(p, "attack", "from", ""); len(froms) > 0 {
		if tos := g.complete(p, "attack", "to", "", o("from", froms[0].Value)); len(tos) > 0 {
			res := g.answer(g.do(slash(t, p, channel, "attack", o("from", froms[0].Value), o("to", tos[0].Value), o("until", "win"))))
			if b, ok := buttonByLabel(res, "Move all"); ok {
				g.answer(g.do(click(t, p, channel, b.CustomID)))
			}
		}
	}
	g.answer(g.do(slash(t, p, channel, "end")))
}

// The channel of a 4-seat match (2 people, 2 bots) over 10 rounds: how
// many messages, edits and maps it takes, and how big the database grows.
// The numbers are in docs/discord.md.
func TestChannelLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match")
	}
	l := measureMatch(t, 10)
	per := func(n int64) float64 { return float64(n) / float64(max(1, l.turns)) }
	t.Logf("%d turns: %d channel posts (%.2f a turn), %d public messages (%.2f a turn), %d edits, %d maps drawn (%.2f a turn), database %d bytes, match data %d bytes",
		l.turns, l.posts, per(int64(l.posts)), l.public, per(int64(l.public)), l.edits, l.renders, per(l.renders), l.dbBytes, l.rowBytes)
	if l.turns < 20 {
		t.Fatalf("only %d turns played", l.turns)
	}
	// The targets of docs/discord.md: at most 3 channel messages a turn
	// (the turn's own, with its ping, and a reminder), and a map drawn
	// once per turn posted (the start and the setup's end post one too).
	if per(int64(l.posts)) > 1.5 {
		t.Errorf("%.2f channel posts a turn, want about 1 (at most 3)", per(int64(l.posts)))
	}
	if l.renders > int64(l.turns)+2 {
		t.Errorf("%d maps drawn for %d turns: a map is drawn more than once", l.renders, l.turns)
	}
	if l.rowBytes > 2000 {
		t.Errorf("the match data is %d bytes: finished turns belong in the log, not in it", l.rowBytes)
	}
}
