package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The map played by clicks only (docs/playing.md, "Playing on the map"):
// what the page sends is checked against the lines one would type, and
// the match the clicks made against the one those lines make typed.

// lineLog is what the players sent to be run, in order: the lines the
// page posted (POST /web/command) and those the test typed for others,
// each "Name: /risk ...".
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) add(line string) {
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

func (l *lineLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// newClickEnv is newEnv whose server logs the command lines pages post.
func newClickEnv(t *testing.T) (*testEnv, *lineLog) {
	t.Helper()
	sent := &lineLog{}
	e := newEnvOn(t, Config{}, bot.Config{}, filepath.Join(t.TempDir(), "risk.db"), nil, func(e *testEnv) {
		h := e.ts.Config.Handler
		e.ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/web/command" {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				var c struct {
					As   string `json:"as"`
					Line string `json:"line"`
				}
				_ = json.Unmarshal(body, &c)
				sent.add(c.As + ": " + c.Line)
			}
			h.ServeHTTP(w, r)
		})
	})
	return e, sent
}

// typed runs lines as typed by others (Bob), and logs them.
func typed(t *testing.T, e *testEnv, sent *lineLog, ch string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		playAs(t, e, ch, l)
		sent.add(l)
	}
}

// sameAsTyped checks that the lines sent are those wanted (the page's
// clicks: what one would type), then types the lobby and those lines in a
// new server, with the same seeds, and checks that the match there is the
// match the clicks made: the same commands with the same dice, so the
// channel reads the same.
func sameAsTyped(t *testing.T, e *testEnv, ch string, lobby, sent, want []string) {
	t.Helper()
	if !slices.Equal(sent, want) {
		t.Errorf("the page sent\n\t%s\nwant the lines one types\n\t%s", strings.Join(sent, "\n\t"), strings.Join(want, "\n\t"))
	}
	again := newEnv(t, Config{})
	playAs(t, again, ch, lobby...)
	playAs(t, again, ch, sent...)
	record := func(e *testEnv) []byte {
		t.Helper()
		m, err := e.db.Active(context.Background(), Prefix+ch)
		if err != nil {
			t.Fatal(err)
		}
		x, err := e.db.Export(context.Background(), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(x.Record)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	clicked, typed := record(e), record(again)
	if !bytes.Equal(clicked, typed) {
		t.Errorf("the match played by clicks differs from the one typed:\nclicks %s\ntyped  %s", clicked, typed)
	}
}

// quoted is a territory's name as a command line takes it.
func quoted(name string) string {
	if strings.ContainsAny(name, " \t") {
		return `"` + name + `"`
	}
	return name
}

// targets measures the map's hit targets as the page shows them: for each
// territory, the largest square of CSS pixels every point of which the
// page's own hit test gives to it, and that square's centre (from the
// image's top left). Each is at least 24 px where the map is usable by
// touch (WCAG 2.5.8).
func (p boardPage) targets() []target {
	p.t.Helper()
	var out []target
	p.eval(`(() => {
		const c = play.ctl, W = c.img.clientWidth, H = Math.ceil(c.img.clientHeight * c.reg.map.h / c.reg.height);
		const lab = new Int16Array(W * H), dp = new Uint16Array(W * H);
		const best = c.reg.territories.map(() => ({ size: 0, x: 0, y: 0 }));
		for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
			const i = y * W + x, v = c.hit(x + 0.5, y + 0.5) + 1;
			lab[i] = v;
			if (!v) continue;
			let k = 1;
			if (x && y && lab[i - W] === v && lab[i - 1] === v && lab[i - W - 1] === v) k = 1 + Math.min(dp[i - W], dp[i - 1], dp[i - W - 1]);
			dp[i] = k;
			if (k > best[v - 1].size) best[v - 1] = { size: k, x: x + 1 - k / 2, y: y + 1 - k / 2 };
		}
		return best;
	})()`, &out)
	return out
}

// target is a territory's largest square of hits: its side and centre.
type target struct {
	Size float64 `json:"size"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// small lists the territories whose targets are under 24 px.
func (p boardPage) small(ts []target, names func(int) string) []string {
	var out []string
	for i, tg := range ts {
		if tg.Size < 24 {
			out = append(out, fmt.Sprintf("%s %.0f px", names(i), tg.Size))
		}
	}
	return out
}

// pinch spreads two fingers on the map, from 60 to 120 px apart.
func (p boardPage) pinch() {
	p.t.Helper()
	var c []float64
	p.eval(`(() => { const r = play.ctl.scroller.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &c)
	points := func(d float64) []map[string]any {
		return []map[string]any{{"x": c[0] - d/2, "y": c[1], "id": 1}, {"x": c[0] + d/2, "y": c[1], "id": 2}}
	}
	p.call("Input.dispatchTouchEvent", map[string]any{"type": "touchStart", "touchPoints": points(60)})
	for d := 70.0; d <= 120; d += 10 {
		p.call("Input.dispatchTouchEvent", map[string]any{"type": "touchMove", "touchPoints": points(d)})
	}
	p.call("Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []any{}})
}

// zoomIn zooms the map in by a pinch, then by its + button until every
// territory is a target of 24 px at least (failing if the most zoom does
// not make them so): the page's taps go to the middle of those targets
// from then on.
func (p *boardPage) zoomIn(names func(int) string) {
	p.t.Helper()
	ts := p.targets()
	if small := p.small(ts, names); len(small) > 0 {
		p.t.Logf("the whole map in view: %d targets under 24 px: %v", len(small), small)
	}
	p.pinch()
	p.waitFor("the map zoomed by a pinch", `play.ctl.zoom > 1.5 && play.ctl.scroller.scrollWidth > play.ctl.scroller.clientWidth`, browserWait)
	for {
		ts = p.targets()
		small := p.small(ts, names)
		var zoom float64
		p.eval(`play.ctl.zoom`, &zoom)
		if len(small) == 0 {
			p.t.Logf("zoomed %.2f times: every territory a target of 24 px or more", zoom)
			break
		}
		var most bool
		p.eval(`document.querySelector('#panel .zoom [data-zoom="in"]').disabled`, &most)
		if most {
			p.fail("zoomed in %.2f times, as far as it goes, targets under 24 px: %v", zoom, small)
		}
		p.buttonIs("#panel .zoom", "+")
		p.waitFor("the map zoomed in", fmt.Sprintf(`play.ctl.zoom > %f`, zoom), browserWait)
	}
	p.at = ts
}

// waitLines waits for the page to have sent n lines in all.
func waitLines(t *testing.T, sent *lineLog, n int) {
	t.Helper()
	for end := time.Now().Add(browserWait); len(sent.all()) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited for %d lines sent, got %q", n, sent.all())
		}
	}
}

// capitalsSpots chooses where the two players of a capitals match s put
// their capitals, both free now: ann's a (on the coast if coast), bob's
// b, two territories apart, with the neutral territory mid between them.
func capitalsSpots(s *state.State, coast bool) (a, b, mid int) {
	m := s.Map
	free := func(t int) bool {
		return s.Terr[t].Owner == state.Neutral && !slices.ContainsFunc(m.Territories[t].Adj, func(n int) bool { return s.IsCapital(n) && s.Terr[n].Owner >= 0 })
	}
	for a = range s.Terr {
		if coast && !m.Territories[a].Coast || !free(a) {
			continue
		}
		for _, mid = range m.Territories[a].Adj {
			for _, b = range m.Territories[mid].Adj {
				if b != a && free(b) && !m.Adjacent(a, b) && s.Terr[mid].Owner == state.Neutral {
					return a, b, mid
				}
			}
		}
	}
	return -1, -1, -1
}

// captureFor is the capture a player makes to reach the hero and an item
// soon: from one of seat's territories to a neutral neighbour, the one
// that holds an item first, then one of a terrain the seat has not; -1,
// -1 if none.
func captureFor(s *state.State, seat int) (from, to int) {
	var have uint32
	for i := range s.Terr {
		if s.Terr[i].Owner == seat {
			have |= 1 << s.Map.Territories[i].Terrain
		}
	}
	from, to, best := -1, -1, -1
	for f := range s.Terr {
		if s.Terr[f].Owner != seat {
			continue
		}
		for _, n := range s.Map.Territories[f].Adj {
			if s.Terr[n].Owner != state.Neutral {
				continue
			}
			score := 0
			if s.Terr[n].Item != state.NoItem {
				score += 2
			}
			if have&(1<<s.Map.Territories[n].Terrain) == 0 {
				score++
			}
			if score > best {
				from, to, best = f, n, score
			}
		}
	}
	return from, to
}

// TestBrowserCapitals plays a capitals match by clicks on the map only,
// at 1280 px with the mouse and at 390 px with touch in the zoomed view.
// Ann's capital is chosen (then her opponent's, typed, two territories
// away) and her first turn played whole: the reinforcements, a capture, a
// move of three quarters, the end. At 1280 px her second turn: the
// reinforcements, an attack planned with its numbers and drawn as an
// arrow, the plan launched, the end. At 390 px, on a normal map, her
// capital on the coast: four turns typed (each a capture of a new
// terrain, or of an item) unlock her hero and bring her an item, then a
// whole turn by touch again: the item used, the reinforcements, a port
// on her capital, a move with the hero, the end. Each click sends the
// line one would type, and the match is the one those lines make typed.
func TestBrowserCapitals(t *testing.T) {
	br := newBrowser(t)
	for _, c := range []struct {
		name, size string
		touch      bool
	}{{"desktop", "small", false}, {"phone", "normal", true}} {
		t.Run(c.name, func(t *testing.T) {
			e, sent := newClickEnv(t)
			ch := "cap-" + c.name
			lobby := []string{"Ann: /risk new rules:capitals map:" + c.size + " neutral:3", "Bob: /risk join"}
			playAs(t, e, ch, lobby...)
			p := openBoard(t, br, e, ch, c.touch, shotsDir(t))
			if c.touch {
				p.eval(`document.body.dataset.panel = "seats"`, nil)
			}
			p.addName("Ann")
			p.playing("Ann")
			if c.touch {
				p.eval(`document.body.dataset.panel = ""`, nil)
			}
			want := []string{"Ann: /risk start"}
			p.command("/risk start", browserWait)
			p.waitFor("the match started", `state.board && play.ctl && play.ctl.reg`, browserWait)
			s := matchState(t, e, ch)
			ann := s.SeatByID(userID("Ann"))
			name := s.Map.TerritoryName
			a, b, mid := capitalsSpots(s, c.touch)
			if a < 0 {
				t.Fatal("no two capitals two territories apart")
			}
			annFirst := s.Current == ann
			if !annFirst {
				typed(t, e, sent, ch, "Bob: /risk place territory:"+quoted(name(b)))
				want = append(want, "Bob: /risk place territory:"+quoted(name(b)))
			}
			bd := p.settled("the capital's choice", -1, "setup")
			p.waitFor("the map docked", `!document.getElementById("dock").hidden && play.ctl.img.complete && play.ctl.img.naturalWidth > 0`, browserWait)
			if !slices.Contains(bd.Moves.Capital, a) {
				p.fail("the board offers capitals %v, not %d", bd.Moves.Capital, a)
			}
			if c.touch {
				p.zoomIn(name)
			}
			p.pick(a, false)
			p.waitFor("the capital asked", fmt.Sprintf(`document.getElementById("panel").innerText.includes(%q)`, "Make "+name(a)+" your capital?"), browserWait)
			p.screenshot("capitals-" + c.name + "-0-capital")
			p.button("#panel", "Capital on")
			want = append(want, "Ann: /risk place territory:"+quoted(name(a)))
			bd = p.settled("Ann's capital", bd.Commands, "")
			if annFirst {
				typed(t, e, sent, ch, "Bob: /risk place territory:"+quoted(name(b)))
				want = append(want, "Bob: /risk place territory:"+quoted(name(b)))
			}
			// Bob's turns: his reinforcements on his capital, and the end.
			bobTurn := func() {
				t.Helper()
				if s := matchState(t, e, ch); s.Current != ann {
					l := []string{"Bob: /risk place territory:" + quoted(name(b)), "Bob: /risk end"}
					typed(t, e, sent, ch, l...)
					want = append(want, l...)
				}
			}
			bobTurn()

			// The reinforcements: a click, then the button.
			bd = p.settled("Ann's reinforcements", bd.Commands, "reinforce")
			p.pick(a, false)
			p.button("#panel", "Reinforce "+name(a))
			want = append(want, "Ann: /risk place territory:"+quoted(name(a)))
			bd = p.settled("Ann's action", bd.Commands, "action")
			// A capture: her capital, then the territory between the two
			// capitals (at 390 px: the one that leads to her hero).
			to := mid
			if c.touch {
				_, to = captureFor(matchState(t, e, ch), ann)
			}
			p.source(a)
			p.pick(to, false)
			p.button("#panel", "Capture "+name(to))
			want = append(want, "Ann: /risk attack from:"+quoted(name(a))+" to:"+quoted(name(to)))
			bd = p.settled("Ann's move", bd.Commands, "move")
			// The move: three quarters of the capital's troops.
			p.source(a)
			p.pick(to, false)
			p.waitFor("the shares", `document.getElementById("panel").innerText.includes("Move troops from")`, browserWait)
			p.screenshot("capitals-" + c.name + "-1-move")
			p.button("#panel", "3/4")
			want = append(want, "Ann: /risk fortify from:"+quoted(name(a))+" to:"+quoted(name(to))+" ratio:3/4")
			bd = p.settled("the moved troops", bd.Commands, "")
			p.button("#panel", "End turn")
			want = append(want, "Ann: /risk end")
			p.seen("the turn's end", "Ann ended turn", browserWait)
			bobTurn()

			if c.touch {
				// Her hero and an item, for real: the seeded match (the
				// test's seeds and lobby) unlocks the hero at her fourth
				// turn (a fourth terrain) and brings an item (distant
				// attack) at her sixth, each turn a capture.
				for turn := 2; ; turn++ {
					s := matchState(t, e, ch)
					if cs := s.Seats[ann].Capitals; s.Hero(ann) >= 0 && cs.Item.Kept() {
						t.Logf("turn %d: the hero on %s, the item %s", turn, name(s.Hero(ann)), cs.Item)
						break
					}
					if turn > 8 {
						t.Fatalf("no hero and item by Ann's turn %d (hero on %d, item %v): the seeded match no longer reaches them; choose another lobby", turn, s.Hero(ann), s.Seats[ann].Capitals.Item)
					}
					types := func(line string) {
						typed(t, e, sent, ch, "Ann: "+line)
						want = append(want, "Ann: "+line)
					}
					types("/risk place territory:" + quoted(name(a)))
					if from, to := captureFor(matchState(t, e, ch), ann); from >= 0 {
						types("/risk attack from:" + quoted(name(from)) + " to:" + quoted(name(to)))
					}
					types("/risk end")
					bobTurn()
				}
				s := matchState(t, e, ch)
				if s.Hero(ann) != a {
					t.Fatalf("the hero stands on %d, not on the capital %d", s.Hero(ann), a)
				}
				// The item, at the turn's start.
				bd = p.settled("Ann's turn with her hero", bd.Commands, "reinforce")
				if bd.Moves.Item == nil || !bd.Moves.Item.Use {
					p.fail("the board offers no item to use: %+v", bd.Moves.Item)
				}
				p.button("#panel", "Use the item")
				want = append(want, "Ann: /risk show cards use:yes")
				bd = p.settled("the item used", bd.Commands, "reinforce")
				p.pick(a, false)
				p.button("#panel", "Reinforce "+name(a))
				want = append(want, "Ann: /risk place territory:"+quoted(name(a)))
				bd = p.settled("the action", bd.Commands, "action")
				// A port on her capital, on the coast.
				p.source(a)
				p.button("#panel", "Build a port on "+name(a))
				want = append(want, "Ann: /risk port territory:"+quoted(name(a)))
				bd = p.settled("the port built", bd.Commands, "move")
				p.screenshot("capitals-" + c.name + "-2-port")
				// The move, the hero along.
				with := -1
				for _, m := range bd.Moves.Move {
					if m.From == a && m.Hero && len(m.To) > 0 {
						with = m.To[0]
					}
				}
				if with < 0 {
					p.fail("no move with the hero from %d: %+v", a, bd.Moves.Move)
				}
				p.source(a)
				p.pick(with, false)
				p.button("#panel", "With the hero")
				var ms []float64
				p.eval(`play.ms.slice(-2)`, &ms)
				t.Logf("capitals, phone: a tap to its highlight or shares drawn: %v ms (performance.now)", ms)
				p.waitFor("the hero going", `document.querySelector('#panel button[aria-pressed="true"]')`, browserWait)
				// The toggle looks pressed, not like the buttons beside it.
				var colours []string
				p.eval(`[document.querySelector('#panel button[aria-pressed="true"]'), [...document.querySelectorAll("#panel button")].find(b => b.textContent === "Undo")].map(b => getComputedStyle(b).backgroundColor)`, &colours)
				if colours[0] == colours[1] {
					p.fail("the hero's toggle, pressed, is %s as Undo is: it does not look pressed", colours[0])
				}
				p.screenshot("capitals-" + c.name + "-3-hero")
				p.button("#panel", "1/2")
				want = append(want, "Ann: /risk fortify from:"+quoted(name(a))+" to:"+quoted(name(with))+" ratio:1/2 hero:yes")
				bd = p.settled("the hero moved", bd.Commands, "")
				if h := matchState(t, e, ch).Hero(ann); h != with {
					p.fail("the hero stands on %d after the move, want %d", h, with)
				}
				p.button("#panel", "End turn")
				want = append(want, "Ann: /risk end")
				p.settled("the turn's end", bd.Commands, "")
				p.waitFor("Bob's turn", `state.board.current !== state.board.viewer`, browserWait)
				p.seen("the turn's end", "Ann ended turn", browserWait)
				waitLines(t, sent, len(want))
				p.screenshot("capitals-" + c.name + "-4-ended")
				sameAsTyped(t, e, ch, lobby, sent.all(), want)
				return
			}

			// The second turn: the reinforcements where the attack goes from.
			bd = p.settled("Ann's second turn", bd.Commands, "reinforce")
			p.pick(mid, false)
			p.button("#panel", "Reinforce "+name(mid))
			want = append(want, "Ann: /risk place territory:"+quoted(name(mid)))
			bd = p.settled("Ann's second action", bd.Commands, "action")
			p.source(mid)
			p.pick(b, false)
			v := matchState(t, e, ch).View(ann)
			at, def := v.AttackTotal(mid, b, 1).Total, v.DefenceTotal(b)
			if at <= def {
				p.fail("attack %d against %d: the test's turns do not make a plan possible", at, def)
			}
			odds := fmt.Sprintf("%s attacks %s: %s against %s.", name(mid), name(b), state.FormatPower(at), state.FormatPower(def))
			p.waitFor("the plan's numbers", fmt.Sprintf(`document.getElementById("panel").innerText.includes(%q)`, odds), browserWait)
			var ms []float64
			p.eval(`play.ms.slice(-2)`, &ms)
			t.Logf("capitals: a click to its highlight or numbers drawn: %v ms (performance.now)", ms)
			// A closer look, for the eye (only buttons are clicked from here).
			p.buttonIs("#panel .zoom", "+")
			p.eval(fmt.Sprintf(`(() => { const c = play.ctl, a = c.anchorOf(%d); c.scroller.scrollLeft = a.x - c.scroller.clientWidth / 2; c.scroller.scrollTop = a.y - c.scroller.clientHeight / 2; })()`, mid), nil)
			p.screenshot("capitals-" + c.name + "-2-numbers")
			p.button("#panel", "Plan the attack on "+name(b))
			want = append(want, "Ann: /risk attack from:"+quoted(name(mid))+" to:"+quoted(name(b)))
			bd = p.settled("the plan", bd.Commands, "action")
			p.waitFor("the plan's arrow", `document.querySelectorAll("#dock svg.arrows line.plan").length === 1`, browserWait)
			p.screenshot("capitals-" + c.name + "-3-plan")
			p.button("#panel", "Launch the planned attack")
			want = append(want, "Ann: /risk launch")
			bd = p.settled("the launch", bd.Commands, "")
			p.waitFor("no arrow once launched", `document.querySelectorAll("#dock svg.arrows line").length === 0`, browserWait)
			p.button("#panel", "End turn")
			want = append(want, "Ann: /risk end")
			p.seen("the turn's end", "Ann ended turn", browserWait)
			waitLines(t, sent, len(want))
			p.screenshot("capitals-" + c.name + "-4-ended")
			sameAsTyped(t, e, ch, lobby, sent.all(), want)
		})
	}
}

// boardDebug is what a failed board test shows of the page.
const boardDebug = `JSON.stringify({board: state.board && {phase: state.board.phase, commands: state.board.commands, current: state.board.current, viewer: state.board.viewer, moves: state.board.moves, orders: state.board.orders}, play: {sel: play.sel, target: play.target, busy: play.busy, zoom: play.ctl && play.ctl.zoom}, panel: document.getElementById("panel").innerText, error: document.getElementById("error").innerText})`

// TestBrowserOrders plays a simultaneous round by clicks on the map only,
// at 1280 px with the mouse and at 390 px with touch in the zoomed view:
// the initial armies on one territory (an amount: shift-click, long
// press), the round's reinforcements, an attack order of some armies and
// a move order, each drawn as an arrow, the move taken back (Undo), then
// Ready; the round resolves. Each click sends the line one would type,
// and the match is the one those lines make typed.
func TestBrowserOrders(t *testing.T) {
	br := newBrowser(t)
	for _, c := range []struct {
		name  string
		touch bool
	}{{"desktop", false}, {"phone", true}} {
		t.Run(c.name, func(t *testing.T) {
			e, sent := newClickEnv(t)
			ch := "orders-" + c.name
			lobby := []string{"Ann: /risk new turns:simultaneous", "Ann: /risk addbot level:easy"}
			playAs(t, e, ch, lobby...)
			p := openBoard(t, br, e, ch, c.touch, shotsDir(t))
			p.eval(`document.body.dataset.panel = "seats"`, nil)
			p.addName("Ann")
			p.playing("Ann")
			p.eval(`document.body.dataset.panel = ""`, nil)
			want := []string{"Ann: /risk start"}
			p.command("/risk start", browserWait)
			b := p.settled("the setup", 0, "")
			p.waitFor("the map docked", `!document.getElementById("dock").hidden && play.ctl.img.complete && play.ctl.img.naturalWidth > 0`, browserWait)
			name := func(t int) string { return territoryName(e, ch, t) }
			if c.touch {
				p.zoomIn(name)
			}
			// The armies on Ann's territory with the most neighbours, where
			// her orders show best.
			s := matchState(t, e, ch)
			src := -1
			for i := range s.Terr {
				if s.Terr[i].Owner == b.Viewer && s.BordersEnemy(i) && (src < 0 || len(s.Map.Territories[i].Adj) > len(s.Map.Territories[src].Adj)) {
					src = i
				}
			}
			p.pick(src, true)
			p.button("#panel", "All ")
			want = append(want, fmt.Sprintf("Ann: /risk place territory:%s armies:%d", quoted(name(src)), b.Moves.Reserve))
			b = p.settled("the round", b.Commands, "")
			p.waitFor("the round's orders", `state.board.phase === "orders" && state.board.moves.place`, browserWait)
			b = p.board()
			// The reinforcements: a click an army.
			for n := b.Moves.Reserve; n > 0; n-- {
				p.pick(src, false)
				want = append(want, fmt.Sprintf("Ann: /risk place territory:%s armies:1", quoted(name(src))))
				b = p.settled("an army placed", b.Commands, "")
			}
			if len(b.Moves.Assault) == 0 || !b.Moves.End {
				p.fail("no attack order to give after the placements: %+v", b.Moves)
			}
			// An attack order: the source, the target, how many.
			var from, to, most int
			for _, a := range b.Moves.Assault {
				if a.Max > most {
					from, to, most = a.From, a.To[0], a.Max
				}
			}
			p.source(from)
			p.pick(to, false)
			o, err := engine.AttackOdds(most+1, max(1, b.Territories[to].Armies))
			if err != nil {
				t.Fatal(err)
			}
			odds := fmt.Sprintf("when the round resolves: how many go? All %d: %.0f%% to take it", most, 100*o.Win)
			p.waitFor("the order's odds", fmt.Sprintf(`document.getElementById("panel").innerText.includes(%q)`, odds), browserWait)
			var ms []float64
			p.eval(`play.ms.slice(-2)`, &ms)
			t.Logf("orders, %s: a click to its highlight or odds drawn: %v ms (performance.now)", c.name, ms)
			n := max(1, most/2)
			p.buttonIs("#panel", fmt.Sprint(n))
			want = append(want, fmt.Sprintf("Ann: /risk attack from:%s to:%s armies:%d", quoted(name(from)), quoted(name(to)), n))
			b = p.settled("the attack order", b.Commands, "")
			p.waitFor("the attack's arrow", `document.querySelectorAll("#dock svg.arrows line.attack").length === 1`, browserWait)
			// A move order, then taken back.
			if len(b.Moves.Fortify) == 0 {
				p.fail("no move order to give: %+v", b.Moves)
			}
			f := b.Moves.Fortify[0]
			p.source(f.From)
			p.pick(f.To[0], false)
			p.waitFor("the move's amounts", `document.getElementById("panel").innerText.includes("when the round resolves:")`, browserWait)
			p.buttonIs("#panel", "1")
			want = append(want, fmt.Sprintf("Ann: /risk fortify from:%s to:%s armies:1", quoted(name(f.From)), quoted(name(f.To[0]))))
			b = p.settled("the move order", b.Commands, "")
			p.waitFor("the move's arrow", `document.querySelectorAll("#dock svg.arrows line.move").length === 1`, browserWait)
			// A closer look at the orders, for the eye (the phone's view is
			// zoomed already).
			center := func() {
				p.eval(fmt.Sprintf(`(() => { const c = play.ctl, a = c.anchorOf(%d); c.scroller.scrollLeft = a.x - c.scroller.clientWidth / 2; c.scroller.scrollTop = a.y - c.scroller.clientHeight / 2; })()`, from), nil)
			}
			if c.touch {
				center()
				p.screenshot("orders-" + c.name + "-0-arrows")
			} else {
				p.buttonIs("#panel .zoom", "+")
				p.buttonIs("#panel .zoom", "+")
				center()
				p.screenshot("orders-" + c.name + "-0-arrows")
				p.buttonIs("#panel .zoom", "−")
				p.buttonIs("#panel .zoom", "−")
				p.waitFor("the whole map", `play.ctl.zoom === 1`, browserWait)
			}
			p.button("#panel", "Undo")
			want = append(want, "Ann: /risk undo")
			b = p.settled("the move taken back", b.Commands, "")
			p.waitFor("the move's arrow gone", `document.querySelectorAll("#dock svg.arrows line.move").length === 0 && document.querySelectorAll("#dock svg.arrows line.attack").length === 1`, browserWait)
			p.button("#panel", "Ready")
			want = append(want, "Ann: /risk end")
			p.waitFor("the next round", fmt.Sprintf(`state.board.turn > %d && !state.board.ready && !play.busy`, b.Turn), browserWait)
			p.waitFor("no arrow in the new round", `document.querySelectorAll("#dock svg.arrows line").length === 0`, browserWait)
			p.screenshot("orders-" + c.name + "-1-resolved")
			waitLines(t, sent, len(want))
			sameAsTyped(t, e, ch, lobby, sent.all(), want)
		})
	}
}
