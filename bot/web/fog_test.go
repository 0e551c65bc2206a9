package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
)

// TestFogLeaksNothing plays a match with fog of war on the page, Ann and
// Bob against two computer players, and after every turn of theirs reads
// what anyone may read without a seat: every public message of the
// channel, the API's state, log and map. Compared with the whole match, it
// finds nothing a player should not see: no territory named outside what
// every player saw while it happened, no income, reserves or cards of
// anyone, fogged territories without owner or armies, no log, and a map
// that is the public view's.
func TestFogLeaksNothing(t *testing.T) {
	e := newEnv(t, Config{})
	const ch = "fog"
	for _, l := range []string{"Ann: /risk new fog:on victory:domination", "Bob: /risk join", "Ann: /risk addbot level:easy", "Ann: /risk addbot level:easy",
		"Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, ch, who, line)
	}
	ctx := context.Background()
	anon := &client{t: t, base: e.ts.URL}
	m, err := e.db.Active(ctx, Prefix+ch)
	if err != nil {
		t.Fatal(err)
	}
	id := m.ID
	names := territoryNames(m.Game.State.Map)
	read := map[string]bool{} // the lines of public posts read so far
	commands := 0             // log entries the public sights were taken up to
	var pub state.Sight       // what every player saw since the posts last read
	checked, shown, steps := 0, 0, 0
	for step := 0; step < 25; step++ {
		ex, err := e.db.Export(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// What every player saw after each command since the last look.
		g, err := engine.NewGame(ex.Record.Setup)
		if err != nil {
			t.Fatal(err)
		}
		for i, en := range ex.Record.Log {
			if _, err := g.Replay(en); err != nil {
				t.Fatal(err)
			}
			if i+1 >= commands {
				v := g.State.PublicSight()
				pub[0] |= v[0]
				pub[1] |= v[1]
			}
		}
		commands = len(ex.Record.Log)
		full := g.State
		if full.Phase == state.PhaseOver {
			break
		}
		// The channel's public messages since the last look.
		// (Lines new since the last look: the turn's living message is
		// edited as the turn goes on.)
		e.srv.feeds.mu.Lock()
		var posts []string
		for _, p := range e.srv.feeds.channels[Prefix+ch].posts {
			if p.to != "" {
				continue
			}
			b, _ := json.Marshal(p.v)
			var fresh []string
			for _, l := range strings.Split(strings.ReplaceAll(string(b), `\n`, "\n"), "\n") {
				if !read[l] {
					read[l] = true
					fresh = append(fresh, l)
				}
			}
			if len(fresh) > 0 {
				posts = append(posts, strings.Join(fresh, "\n"))
			}
		}
		e.srv.feeds.mu.Unlock()
		for _, text := range posts {
			for _, bad := range []string{"receives", "Reinforcements", "Cards traded", "armies to place\",", "+ next"} {
				if strings.Contains(text, bad) && !strings.Contains(text, "The match has started") {
					t.Errorf("step %d: a public message says %q: %.300s", step, bad, text)
				}
			}
			for _, n := range namesIn(text, names) {
				tid, _ := full.Map.Lookup(n)
				if !pub.Has(tid) {
					t.Errorf("step %d: a public message names %s, which not every player saw: %.300s", step, n, text)
				}
				shown++
			}
			checked++
		}
		pub = state.Sight{}
		// The API's public state.
		var am apiMatch
		anon.get(fmt.Sprintf("/api/matches/%d", id), &am)
		var view state.State
		if err := json.Unmarshal(am.State, &view); err != nil {
			t.Fatal(err)
		}
		sight := full.PublicSight()
		for i, tr := range full.Terr {
			got := view.Terr[i]
			switch {
			case sight.Has(i) && (got.Fog || got.Owner != tr.Owner || got.Armies != tr.Armies):
				t.Errorf("step %d: the API shows %s, seen by all, as %+v; it is %+v", step, full.Map.TerritoryName(i), got, tr)
			case !sight.Has(i) && got != (state.Terr{Owner: state.Neutral, Fog: true}):
				t.Errorf("step %d: the API shows %s, in the fog, as %+v", step, full.Map.TerritoryName(i), got)
			}
		}
		for i, st := range view.Seats {
			if st.Hand.Len() > 0 || (full.Phase != state.PhaseSetup && st.Reserve != 0) {
				t.Errorf("step %d: the API shows seat %d's hand %v or reserve %d", step, i, st.Hand.Cards(), st.Reserve)
			}
		}
		if code := anon.get(fmt.Sprintf("/api/matches/%d/commands", id), nil); code != http.StatusForbidden {
			t.Errorf("step %d: the log of a match with fog is served while it is played: %d", step, code)
		}
		if step == 2 {
			wantPublicMap(t, anon, id, full)
		}
		// Ann or Bob plays on: reinforcements placed, then the turn ends.
		who := ""
		for _, name := range []string{"Ann", "Bob"} {
			if full.Current == full.SeatByID(userID(name)) {
				who = name
			}
		}
		if who == "" {
			t.Fatalf("step %d: turn %d: the computer players did not play on", step, full.Turn)
		}
		e.do(t, ch, who, "/risk place")
		e.do(t, ch, who, "/risk end")
		steps++
	}
	if checked < 40 || steps < 15 {
		t.Fatalf("%d public messages read over %d turns of Ann's and Bob's: the test tests little", checked, steps)
	}
	t.Logf("%d public messages read over %d turns of Ann's and Bob's, %d territory names checked", checked, steps, shown)
}

// wantPublicMap checks that the API's map is the public view's, not the
// whole board's.
func wantPublicMap(t *testing.T, c *client, id int64, full *state.State) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/matches/%d/map.png", c.base, id), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := png.Decode(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := render.New(render.Options{})
	for _, tt := range []struct {
		s    *state.State
		same bool
	}{{full.View(-1), true}, {full, false}} {
		data, err := r.Render(context.Background(), tt.s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if same := got.Bounds() == want.Bounds() && bytes.Equal(pixels(got), pixels(want)); same != tt.same {
			t.Errorf("the API's map is the public view's: %v; the whole board's: %v", same == tt.same, !tt.same && same)
		}
	}
}

// territoryNames lists a map's territory names, longest first, so that a
// name within another ("Congo" in "East Congo") is found once.
func territoryNames(m *state.Map) []string {
	var out []string
	for _, t := range m.Territories {
		out = append(out, t.Name)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// namesIn returns the territory names text holds.
func namesIn(text string, names []string) []string {
	var out []string
	for _, n := range names {
		if strings.Contains(text, n) {
			out = append(out, n)
			text = strings.ReplaceAll(text, n, "")
		}
	}
	return out
}

// pixels returns an image's pixels as RGBA bytes.
func pixels(img image.Image) []byte {
	b := img.Bounds()
	out := make([]byte, 0, 4*b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			out = append(out, byte(r>>8), byte(g>>8), byte(bl>>8), byte(a>>8))
		}
	}
	return out
}
