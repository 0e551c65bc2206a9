package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// TestBoardFog: the board the clickable map reads (GET /web/board) is the
// viewer's view of a match with fog of war: Ann's browser, asking as Ann,
// gets her sight and nothing beyond (no owner, no armies out of it); as
// Bob, whom her browser does not play, or from a browser that plays no
// one, the public's; and her moves only hers, on her turn.
func TestBoardFog(t *testing.T) {
	e := newEnv(t, Config{})
	const ch = "boardfog"
	for _, l := range []string{"Ann: /risk new fog:on", "Bob: /risk join", "Ann: /risk addbot level:easy",
		"Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, ch, who, line)
	}
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("claim Ann: %d %s", status, body)
	}
	stranger := openPage(t, e)
	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		t.Fatal(err)
	}
	full := m.Game.State
	annSeat := full.SeatByID(userID("Ann"))
	for _, c := range []struct {
		name   string
		client *http.Client
		as     string
		viewer int
		sight  state.Sight
	}{
		{"Ann as Ann", ann.client, "Ann", annSeat, full.Sight(annSeat)},
		{"Ann as Bob", ann.client, "Bob", -1, full.PublicSight()},
		{"a stranger as Ann", stranger.client, "Ann", -1, full.PublicSight()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b boardJSON
			getJSON(t, c.client, fmt.Sprintf("%s/web/board?channel=%s&as=%s", e.ts.URL, ch, c.as), &b)
			if b.Viewer != c.viewer || b.Match != m.ID || len(b.Territories) != len(full.Terr) {
				t.Fatalf("viewer %d of match %d with %d territories, want %d of %d with %d", b.Viewer, b.Match, len(b.Territories), c.viewer, m.ID, len(full.Terr))
			}
			hidden := 0
			for i, got := range b.Territories {
				want := boardTerr{Owner: full.Terr[i].Owner, Armies: full.Terr[i].Armies}
				if !c.sight.Has(i) {
					want = boardTerr{Owner: state.Neutral, Fog: true}
					hidden++
				}
				if got != want {
					t.Errorf("%s: got %+v, want %+v", full.Map.TerritoryName(i), got, want)
				}
			}
			if hidden == 0 {
				t.Errorf("nothing is in the fog: the test shows nothing")
			}
			mine := c.viewer >= 0 && full.Current == c.viewer
			if got := len(b.Moves.Place) > 0 || len(b.Moves.Attack) > 0; got != mine {
				t.Errorf("moves %+v; want some: %v", b.Moves, mine)
			}
		})
	}
}

// TestClassicMoves: the board's moves are the engine's legal commands on
// the viewer's view, read for clicks: where to place and how many, what
// each territory may attack, where it may move armies and how many, the
// move owed after a conquest.
func TestClassicMoves(t *testing.T) {
	e := newEnv(t, Config{})
	startMatch(t, e, "moves")
	m, err := e.db.Active(context.Background(), Prefix+"moves")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Game.State
	seat := s.SeatByID(userID("Ann"))
	if s.Phase != state.PhaseSetup {
		t.Fatalf("phase %s, want setup", s.Phase)
	}
	mv := classicMoves(s.View(seat), seat)
	var mine []int
	for i, tr := range s.Terr {
		if tr.Owner == seat {
			mine = append(mine, i)
		}
	}
	if !slices.Equal(mv.Place, mine) || mv.Reserve != s.Seats[seat].Reserve {
		t.Errorf("setup: place on %v up to %d, want %v up to %d", mv.Place, mv.Reserve, mine, s.Seats[seat].Reserve)
	}
	e.do(t, "moves", "Ann", "/risk place")
	m, _ = e.db.Active(context.Background(), Prefix+"moves")
	s = m.Game.State
	if s.Current != seat {
		t.Fatalf("Ann does not play first: seat %d plays", s.Current)
	}
	e.do(t, "moves", "Ann", "/risk place")
	m, _ = e.db.Active(context.Background(), Prefix+"moves")
	s = m.Game.State
	mv = classicMoves(s.View(seat), seat)
	if len(mv.Attack) == 0 || len(mv.Fortify) == 0 || !mv.End || len(mv.Place) != 0 {
		t.Fatalf("attack phase: %+v", mv)
	}
	for _, a := range mv.Attack {
		for _, to := range a.To {
			if !engine.Covers(engine.Legal(s, seat), engine.Blitz{From: a.From, To: to, Keep: 1}) {
				t.Errorf("attack %d -> %d is not legal", a.From, to)
			}
		}
	}
	for _, f := range mv.Fortify {
		if f.Max != engine.Movable(s, f.From) {
			t.Errorf("fortify from %d: most %d, want %d", f.From, f.Max, engine.Movable(s, f.From))
		}
		for _, to := range f.To {
			if !engine.Covers(engine.Legal(s, seat), engine.Fortify{From: f.From, To: to, Armies: f.Max}) {
				t.Errorf("fortify %d -> %d is not legal", f.From, to)
			}
		}
	}
}
