package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// TestRoundsKeepOrdersSecret: in a match of simultaneous rounds played on
// the page, what everyone may see (the channel's public messages, the
// public state of the API, its log, and a seat's own view) never shows
// another player's orders before the round resolves; once it does, the log
// holds them.
func TestRoundsKeepOrdersSecret(t *testing.T) {
	e := newEnv(t, Config{})
	for _, l := range []string{"Ann: /risk new turns:simultaneous", "Bob: /risk join", "Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, "rounds", who, line)
	}
	ctx := context.Background()
	l, err := e.db.Active(ctx, Prefix+"rounds")
	if err != nil {
		t.Fatal(err)
	}
	s := l.Game.State
	if s.Phase != state.PhaseOrders {
		t.Fatalf("the match is in %s, want a round", s.Phase)
	}
	before := l.Game.Version
	// Ann orders: her reinforcements onto a territory, an attack from it.
	ann := s.SeatByID(userID("Ann"))
	from, to := -1, -1
	for t := range s.Terr {
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[t].Owner == ann && s.Terr[n].Owner != ann && from < 0 {
				from, to = t, n
			}
		}
	}
	name := s.Map.TerritoryName
	e.do(t, "rounds", "Ann", fmt.Sprintf("/risk place territory:%q", name(from)))
	e.do(t, "rounds", "Ann", fmt.Sprintf("/risk attack from:%q to:%q armies:2", name(from), name(to)))
	e.do(t, "rounds", "Ann", "/risk end")

	// The channel's public messages.
	e.srv.feeds.mu.Lock()
	for _, p := range e.srv.feeds.channels[Prefix+"rounds"].posts {
		b, _ := json.Marshal(p.v)
		if p.to == "" && (strings.Contains(string(b), "Order:") || strings.Contains(string(b), "attack "+name(to))) {
			e.srv.feeds.mu.Unlock()
			t.Fatalf("a public message shows Ann's orders: %s", b)
		}
	}
	e.srv.feeds.mu.Unlock()
	// The API: public state and Bob's view without orders; the log stops
	// at the round's start.
	tokBob, err := e.srv.Token(ctx, l.ID, chat.User{ID: userID("Bob"), Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client{{t: t, base: e.ts.URL}, {t: t, base: e.ts.URL, token: tokBob}} {
		var m apiMatch
		c.get(fmt.Sprintf("/api/matches/%d", l.ID), &m)
		if strings.Contains(string(m.State), `"orders":[`) {
			t.Errorf("viewer %d sees orders: %.200s", m.Viewer, m.State)
		}
		var log apiCommands
		c.get(fmt.Sprintf("/api/matches/%d/commands", l.ID), &log)
		if log.Commands != before || len(log.Entries) != before {
			t.Errorf("the log while the round is played: %d commands, %d entries; want the %d before it", log.Commands, len(log.Entries), before)
		}
	}
	// Bob commits: the round resolves, and its orders are in the log.
	e.do(t, "rounds", "Bob", "/risk place")
	e.do(t, "rounds", "Bob", "/risk end")
	var log apiCommands
	(&client{t: t, base: e.ts.URL}).get(fmt.Sprintf("/api/matches/%d/commands", l.ID), &log)
	found := false
	for _, en := range log.Entries {
		found = found || strings.Contains(string(en.Cmd), `"assault"`)
	}
	if !found {
		t.Errorf("after the round resolved, its attack order is not in the log (%d entries)", len(log.Entries))
	}
}
