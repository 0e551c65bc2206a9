package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// long is a classic match of four people (no computer player: they would
// end it) that a test plays on, turn after turn, through the match API's
// entry point (bot.Play), each player by one simple rule: trade when it
// can, place everything on its strongest border, attack once a turn
// where it is two armies up (never a player left with fewer than six
// territories, so that nobody is eliminated and the match goes on), and
// end its turn.
type long struct {
	tb  testing.TB
	e   *testEnv
	ch  string
	id  int64
	tok string // Ann's API token
}

var longPlayers = []string{"Ann", "Bob", "Cid", "Dan"}

// newLong opens a long match in channel ch with options (as /risk new
// takes them, "fog:on").
func newLong(tb testing.TB, e *testEnv, ch, options string) *long {
	tb.Helper()
	lines := []string{"Ann: /risk new " + options}
	for _, p := range longPlayers[1:] {
		lines = append(lines, p+": /risk join")
	}
	for _, l := range append(lines, "Ann: /risk start") {
		who, line, _ := strings.Cut(l, ": ")
		e.do(tb, ch, who, line)
	}
	ctx := context.Background()
	l, err := e.db.Active(ctx, Prefix+ch)
	if err != nil {
		tb.Fatal(err)
	}
	tok, err := e.srv.Token(ctx, l.ID, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		tb.Fatal(err)
	}
	return &long{tb: tb, e: e, ch: ch, id: l.ID, tok: tok}
}

// game is the match as it stands.
func (lm *long) game() *storage.Loaded {
	l, err := lm.e.bot.Matches().Load(context.Background(), lm.id)
	if err != nil {
		lm.tb.Fatal(err)
	}
	return l
}

// playTo plays until turn `turn` is under way and it is not Ann's (so
// that she has something to be told of since her last turn).
func (lm *long) playTo(turn int) {
	ctx := context.Background()
	attacked := -1 // the turn of the last attack
	for {
		l := lm.game()
		s := l.Game.State
		if s.Phase == state.PhaseOver {
			lm.tb.Fatalf("the match ended at turn %d", s.Turn)
		}
		seat := s.Current
		if s.Phase == state.PhaseSetup {
			for i := range s.Seats {
				if s.Seats[i].Reserve > 0 {
					seat = i
					break
				}
			}
		} else if s.Turn >= turn && s.Seats[seat].ID != userID("Ann") {
			return
		}
		cmd := longMove(s, seat, attacked == s.Turn)
		if _, ok := cmd.(engine.Attack); ok {
			attacked = s.Turn
		}
		u := chat.User{ID: s.Seats[seat].ID, Name: s.Seats[seat].Name}
		if _, _, err := lm.e.bot.Play(ctx, lm.id, u, l.Game.Version, cmd); err != nil {
			lm.tb.Fatalf("turn %d, %s plays %#v: %v", s.Turn, u.Name, cmd, err)
		}
	}
}

// longMove is what seat plays in s by long's rule.
func longMove(s *state.State, seat int, attacked bool) engine.Command {
	var trade, place, occupy, discard, end engine.Command
	var attack *engine.Attack
	border := func(t int) bool {
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner != seat {
				return true
			}
		}
		return false
	}
	for _, c := range engine.Legal(s, seat) {
		switch c := c.(type) {
		case engine.AutoPlace:
			if s.Phase == state.PhaseSetup {
				return c
			}
		case engine.Trade:
			if trade == nil {
				trade = c
			}
		case engine.Place:
			p, ok := place.(engine.Place)
			if border(c.Territory) && (!ok || c.Armies > p.Armies || c.Armies == p.Armies && s.Terr[c.Territory].Armies > s.Terr[p.Territory].Armies) {
				place = c
			}
		case engine.Occupy:
			if occupy == nil {
				occupy = c
			}
		case engine.Discard:
			if discard == nil {
				discard = c
			}
		case engine.EndTurn:
			end = c
		case engine.Attack:
			if !attacked && s.Terr[c.From].Armies >= s.Terr[c.To].Armies+2 && s.Owned(s.Terr[c.To].Owner) >= 6 &&
				(attack == nil || s.Terr[c.From].Armies > s.Terr[attack.From].Armies || c.From == attack.From && c.Dice > attack.Dice) {
				attack = &c
			}
		}
	}
	for _, c := range []engine.Command{trade, place, occupy} {
		if c != nil {
			return c
		}
	}
	if attack != nil {
		return *attack
	}
	if discard != nil {
		return discard
	}
	if end != nil {
		return end
	}
	return engine.AutoPlace{} // (a reserve on no border: placed anywhere)
}

// bump changes the match's version and nothing else (its host's data
// saved again, as a setting's change saves it): every answer kept at the
// version before is stale.
func (lm *long) bump() {
	l := lm.game()
	if _, err := lm.e.bot.Matches().Save(context.Background(), lm.id, l.Version, storage.Change{Meta: l.Meta}, time.Now()); err != nil {
		lm.tb.Fatal(err)
	}
}

// oddsLine is /risk show odds between a territory of Ann's that can
// attack and its neighbour (both in her sight).
func (lm *long) oddsLine() string {
	s := lm.game().Game.State
	ann := s.SeatByID(userID("Ann"))
	for t := range s.Terr {
		if s.Terr[t].Owner != ann || s.Terr[t].Armies < 2 {
			continue
		}
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner != ann {
				return fmt.Sprintf(`/risk show odds from:"%s" to:"%s"`, s.Map.TerritoryName(t), s.Map.TerritoryName(n))
			}
		}
	}
	lm.tb.Fatal("Ann has no attack to ask the odds of")
	return ""
}

// BenchmarkViewsByLength is what each view of a match costs when the
// match is at turn 10 and at turn 200 (issue 48). Two matches of each
// kind are played, one to each length; each view is asked of the short
// and of the long one in turn, once after each change of the match (a new
// version, so that nothing kept at the version before answers it), and
// turn10-µs and turn200-µs are the medians of those asks, x-turn10 their
// ratio: asked side by side, both lengths see the same load on the
// machine. Before the timing, each view is asked once, as its follower
// had asked before. ns/op is the two asks. The views:
//
//   - fog-view: GET /api/matches/{id} with Ann's token, fog of war.
//   - since: /risk show status by Ann, fog of war: her view and what she
//     saw since her last turn.
//   - history: /risk show history by Ann, fog of war: the latest turn as
//     she saw it.
//   - log-page: GET /api/matches/{id}/commands?after=N-10 with Ann's
//     token, a match without fog (with fog the log waits for the end).
//   - odds: /risk show odds from: to:, fog of war.
//   - spectator: GET /api/matches/{id} without a token, fog of war: what
//     each spectator's page reads when the match changed.
//
// Run it with:
//
//	go test -run '^$' -bench ViewsByLength -benchmem ./bot/web
func BenchmarkViewsByLength(b *testing.B) {
	e := newEnv(b, Config{})
	h := e.srv.Handler()
	lengths := []int{10, 200}
	type matches struct{ fog, clear *long }
	at := map[int]matches{}
	for _, turn := range lengths {
		m := matches{newLong(b, e, fmt.Sprintf("fog%d", turn), "fog:on"), newLong(b, e, fmt.Sprintf("clear%d", turn), "")}
		m.fog.playTo(turn)
		m.clear.playTo(turn)
		at[turn] = m
	}
	get := func(lm *long, path string, tok bool) func(b *testing.B) {
		return func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			if tok {
				req.Header.Set("Authorization", "Bearer "+lm.tok)
			}
			serve(b, h, req, http.StatusOK)
		}
	}
	// view is the ask of a view of the matches m, and the match it asks.
	view := func(name string, m matches) (*long, func(b *testing.B)) {
		fog, clear := m.fog, m.clear
		switch name {
		case "fog-view":
			return fog, get(fog, fmt.Sprintf("/api/matches/%d", fog.id), true)
		case "since":
			return fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", "/risk show status") }
		case "history":
			return fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", "/risk show history") }
		case "log-page":
			n := clear.game().Commands
			return clear, get(clear, fmt.Sprintf("/api/matches/%d/commands?after=%d", clear.id, max(0, n-10)), true)
		case "odds":
			line := fog.oddsLine()
			return fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", line) }
		case "spectator":
			return fog, get(fog, fmt.Sprintf("/api/matches/%d", fog.id), false)
		}
		b.Fatalf("no view %q", name)
		return nil, nil
	}
	for _, name := range []string{"fog-view", "since", "history", "log-page", "odds", "spectator"} {
		b.Run(name, func(b *testing.B) {
			type side struct {
				lm  *long
				ask func(b *testing.B)
				q   quantiles
			}
			var sides []*side
			for _, turn := range lengths {
				lm, ask := view(name, at[turn])
				ask(b) // (a follower asked before: what it kept is warm)
				sides = append(sides, &side{lm: lm, ask: ask})
			}
			for b.Loop() {
				for _, sd := range sides {
					b.StopTimer()
					sd.lm.bump()
					b.StartTimer()
					sd.q.time(func() { sd.ask(b) })
				}
			}
			p50 := func(q quantiles) float64 {
				slices.Sort(q)
				return float64(q[len(q)/2].Nanoseconds()) / 1e3
			}
			short, long := p50(sides[0].q), p50(sides[1].q)
			b.ReportMetric(short, "turn10-µs")
			b.ReportMetric(long, "turn200-µs")
			b.ReportMetric(long/short, "x-turn10")
		})
	}
	for _, turn := range lengths {
		b.Logf("turn %d: %d commands (fog), %d (no fog)", turn, at[turn].fog.game().Commands, at[turn].clear.game().Commands)
	}
}
