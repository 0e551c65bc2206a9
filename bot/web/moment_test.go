package web

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// countingRenderer counts the maps drawn, by moment (turn and armies
// placed), over a real renderer.
type countingRenderer struct {
	look.Renderer
	mu    sync.Mutex
	drawn map[string]int
}

func (c *countingRenderer) Render(ctx context.Context, s *state.State) ([]byte, error) {
	armies := 0
	for _, t := range s.Terr {
		armies += t.Armies
	}
	c.mu.Lock()
	c.drawn[fmt.Sprintf("turn %d, %d armies, %s", s.Turn, armies, s.Phase)]++
	c.mu.Unlock()
	return c.Renderer.Render(ctx, s)
}

func (c *countingRenderer) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.drawn {
		n += v
	}
	return n
}

// TestOneRenderPerMoment: the page's image of a moment, the API's map.png
// of it (asked for as it is and by its number of commands) and a
// spectator's map are one render in the whole process; a past moment is
// one more, however often it is asked for.
func TestOneRenderPerMoment(t *testing.T) {
	palettes := look.StandardPalettes()
	counter := &countingRenderer{Renderer: palettes["standard"].Render, drawn: map[string]int{}}
	for name, p := range palettes {
		p.Render = counter
		palettes[name] = p
	}
	e := newEnvBot(t, Config{}, bot.Config{Palettes: palettes, Render: counter})
	id := startMatch(t, e, "moment")
	e.do(t, "moment", "Ann", "/risk place")
	// The page's last message with a map shows the match as it is now.
	e.srv.feeds.mu.Lock()
	var img string
	for _, p := range e.srv.feeds.channels[Prefix+"moment"].posts {
		if p.image != nil {
			img = p.v.ID
		}
	}
	e.srv.feeds.mu.Unlock()
	if img == "" {
		t.Fatal("the page shows no map")
	}
	l, err := e.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	before := counter.total()
	get := func(path string) {
		t.Helper()
		res, err := http.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	now := []string{
		"/web/img/" + img,
		fmt.Sprintf("/api/matches/%d/map.png", id),
		fmt.Sprintf("/api/matches/%d/map.png?at=%d", id, l.Game.Version),
		fmt.Sprintf("/api/matches/%d/map.png", id), // a spectator's page
	}
	for _, p := range now {
		get(p)
	}
	if n := counter.total() - before; n != 1 {
		t.Errorf("the moment as it is was drawn %d times for %d requests, want once: %v", n, len(now), counter.drawn)
	}
	for range 3 {
		get(fmt.Sprintf("/api/matches/%d/map.png?at=2", id))
	}
	if n := counter.total() - before; n != 2 {
		t.Errorf("with a past moment asked for three times, %d maps were drawn, want 2: %v", n, counter.drawn)
	}
}

// TestAnswersFollowOtherProcesses: the API's answers kept in memory give
// way to the match as another process changed it (a second handle on the
// database, as a second bot on the same file would be), for the public
// and for a seat's view alike.
func TestAnswersFollowOtherProcesses(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "others")
	ctx := context.Background()
	tok, err := e.srv.Token(ctx, id, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := sqlite.Open(ctx, e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, c := range []*client{{t: t, base: e.ts.URL}, {t: t, base: e.ts.URL, token: tok}} {
		var before, again, after apiMatch
		c.get(fmt.Sprintf("/api/matches/%d", id), &before)
		c.get(fmt.Sprintf("/api/matches/%d", id), &again)
		l, err := other.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// Another process plays Ann's placement: one army on a territory of hers.
		seat := l.Game.State.SeatByID(userID("Ann"))
		terr := -1
		for i, tr := range l.Game.State.Terr {
			if tr.Owner == seat {
				terr = i
				break
			}
		}
		en, _, err := l.Game.Apply(seat, engine.Place{Territory: terr, Armies: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := other.Save(ctx, id, l.Version, storage.Change{Entries: []engine.Entry{en}, Game: l.Game}, time.Now()); err != nil {
			t.Fatal(err)
		}
		c.get(fmt.Sprintf("/api/matches/%d", id), &after)
		if again.Commands != before.Commands || after.Commands != before.Commands+1 || string(after.State) == string(before.State) {
			t.Errorf("viewer %d: commands %d, then %d, then %d after another process played; want the last one more, and its state changed",
				after.Viewer, before.Commands, again.Commands, after.Commands)
		}
	}
}
