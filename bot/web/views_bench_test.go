package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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
// match is at turn 10 and at turn 200 (issue 48): each view is asked
// once after each change of the match (a new version, so that nothing
// kept at the version before answers it), and x-turn10 is the cost at
// turn 200 over the cost at turn 10, in the same run.
//
//	go test -run '^$' -bench ViewsByLength -benchmem ./bot/web
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
func BenchmarkViewsByLength(b *testing.B) {
	e := newEnv(b, Config{})
	h := e.srv.Handler()
	fog := newLong(b, e, "fog", "fog:on")
	clear := newLong(b, e, "clear", "")
	get := func(lm *long, path string, tok bool) func(b *testing.B) {
		return func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			if tok {
				req.Header.Set("Authorization", "Bearer "+lm.tok)
			}
			serve(b, h, req, http.StatusOK)
		}
	}
	type view struct {
		name string
		lm   *long
		ask  func(b *testing.B)
	}
	per := map[string]float64{} // ns an ask at turn 10, by view
	for _, turn := range []int{10, 200} {
		fog.playTo(turn)
		clear.playTo(turn)
		odds := fog.oddsLine()
		n := clear.game().Game.Version
		views := []view{
			{"fog-view", fog, get(fog, fmt.Sprintf("/api/matches/%d", fog.id), true)},
			{"since", fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", "/risk show status") }},
			{"history", fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", "/risk show history") }},
			{"log-page", clear, get(clear, fmt.Sprintf("/api/matches/%d/commands?after=%d", clear.id, max(0, n-10)), true)},
			{"odds", fog, func(b *testing.B) { e.do(b, fog.ch, "Ann", odds) }},
			{"spectator", fog, get(fog, fmt.Sprintf("/api/matches/%d", fog.id), false)},
		}
		for _, v := range views {
			b.Run(fmt.Sprintf("turn=%d/%s", turn, v.name), func(b *testing.B) {
				asked := 0
				for b.Loop() {
					b.StopTimer()
					v.lm.bump()
					b.StartTimer()
					v.ask(b)
					asked++
				}
				ns := float64(b.Elapsed().Nanoseconds()) / float64(asked)
				if turn == 10 {
					per[v.name] = ns
				} else if per[v.name] > 0 {
					b.ReportMetric(ns/per[v.name], "x-turn10")
				}
				b.ReportMetric(float64(v.lm.game().Commands), "commands")
			})
		}
	}
}
