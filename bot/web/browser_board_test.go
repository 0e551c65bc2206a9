package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// boardPage is a channel page whose player plays by the docked map.
type boardPage struct {
	*page
	touch bool // taps (CDP touch events) rather than the mouse
	// at are the territories' targets in the zoomed view (zoomIn): a
	// click goes to the middle of its territory's; nil: to its badge.
	at []target
}

// openBoard opens channel ch's page on a desktop or, with touch, on a
// phone (390 px, taps), ready to play by clicks.
func openBoard(t *testing.T, br *browser, e *testEnv, ch string, touch bool, shots string) boardPage {
	t.Helper()
	url := e.ts.URL + "/?c=" + ch
	open := br.open
	if touch {
		open = br.openPhone
	}
	pg := open(url, shots)
	pg.t = t
	p := boardPage{page: pg, touch: touch}
	p.debug = boardDebug
	p.ready(ch)
	return p
}

// spot returns where territory t's badge is on the screen, or, in the
// zoomed view, the middle of its target, scrolled to as a finger would.
func (p boardPage) spot(t int) (float64, float64) {
	p.t.Helper()
	var xy []float64
	if p.at != nil {
		p.eval(fmt.Sprintf(`(() => { const c = play.ctl, s = c.scroller, x = %f, y = %f;
			s.scrollLeft = x - s.clientWidth / 2; s.scrollTop = y - s.clientHeight / 2;
			const r = c.img.getBoundingClientRect(); return [r.left + x, r.top + y]; })()`, p.at[t].X, p.at[t].Y), &xy)
		return xy[0], xy[1]
	}
	p.eval(fmt.Sprintf(`(() => { const c = play.ctl, r = c.img.getBoundingClientRect(), a = c.anchorOf(%d); return [r.left + a.x, r.top + a.y]; })()`, t), &xy)
	return xy[0], xy[1]
}

// press clicks (or taps) at x, y; more holds shift (a long press).
func (p boardPage) press(x, y float64, more bool) {
	p.t.Helper()
	p.pressAround(x, y, more, "")
}

// pressAround is press with script run in the page between the press and
// the release (unless it is "").
func (p boardPage) pressAround(x, y float64, more bool, script string) {
	p.t.Helper()
	between := func() {
		if script != "" {
			p.eval(script, nil)
		}
	}
	if p.touch {
		pt := []map[string]any{{"x": x, "y": y}}
		p.call("Input.dispatchTouchEvent", map[string]any{"type": "touchStart", "touchPoints": pt})
		if more {
			time.Sleep(800 * time.Millisecond)
		}
		between()
		p.call("Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []any{}})
		return
	}
	mods := 0
	if more {
		mods = 8 // shift
	}
	p.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y, "modifiers": mods})
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if typ == "mouseReleased" {
			between()
		}
		p.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1, "modifiers": mods})
	}
}

// pick clicks territory t on the map.
func (p boardPage) pick(t int, more bool) {
	p.t.Helper()
	x, y := p.spot(t)
	p.press(x, y, more)
}

// source picks territory t as where an attack or a move goes from, unless
// it is picked already (a click on it again would let it go).
func (p boardPage) source(t int) {
	p.t.Helper()
	var sel int
	p.eval(`play.sel`, &sel)
	if sel != t {
		p.pick(t, false)
	}
	p.waitFor("the source chosen", fmt.Sprintf(`play.sel === %d`, t), browserWait)
}

// button clicks (or taps) the button whose label starts with label, in
// the map's panel (or the channel's messages, where the bot's are).
func (p boardPage) button(where, label string) {
	p.t.Helper()
	p.buttonWhere(where, label, fmt.Sprintf(`b.textContent.startsWith(%q)`, label))
}

// buttonIs clicks (or taps) the button whose label is label.
func (p boardPage) buttonIs(where, label string) {
	p.t.Helper()
	p.buttonWhere(where, label, fmt.Sprintf(`b.textContent === %q`, label))
}

// buttonWhere presses the last enabled button in where for which cond
// (of b, the button) holds. Between the press and the release the page
// redraws its panel, as it does on every board it is sent: the click must
// still reach the button (a listener on the document sees where it
// lands), which the page ensures by keeping a panel that a redraw leaves
// the same. A board that changes the panel in the instant between reading
// where the button is and pressing it moves it: such a press is made
// again, twice at most, and a button no press reaches fails the test.
func (p boardPage) buttonWhere(where, label, cond string) {
	p.t.Helper()
	find := fmt.Sprintf(`[...document.querySelectorAll(%q)].filter(b => %s && !b.disabled).pop()`, where+" button", cond)
	reached := fmt.Sprintf(`((b) => !!b && (%s))(window.pressedButton)`, cond)
	redraw := ""
	if where == "#panel" || strings.HasPrefix(where, "#panel ") {
		redraw = "drawPlay()"
	}
	for try := 1; ; try++ {
		p.waitFor("the button "+label, find, browserWait)
		var xy []float64
		p.eval(`(() => { window.pressedButton = null; document.addEventListener("click", (e) => { window.pressedButton = e.target.closest ? e.target.closest("button") : null; }, {capture: true, once: true}); const b = `+find+`; b.scrollIntoView({block: "nearest"}); const r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &xy)
		p.pressAround(xy[0], xy[1], false, redraw)
		if p.becomes(reached, 2*time.Second) {
			return
		}
		if try == 3 {
			p.t.Fatalf("three presses on the button %s in %s reached no such button", label, where)
		}
		p.t.Logf("the press on the button %s reached no such button: pressing again", label)
	}
}

// board reads the board the page holds.
func (p boardPage) board() boardJSON {
	p.t.Helper()
	var b boardJSON
	p.eval(`state.board`, &b)
	return b
}

// settled waits for the page's board to be at least after commands
// commands and to offer the player something in phase (or to be another's
// turn, phase "").
func (p boardPage) settled(what string, commands int, phase string) boardJSON {
	p.t.Helper()
	cond := fmt.Sprintf(`state.board && state.board.commands > %d && !play.busy && play.ctl && play.ctl.reg`, commands)
	if phase != "" {
		cond += fmt.Sprintf(` && state.board.phase === %q && state.board.current === state.board.viewer`, phase)
	}
	p.waitFor(what, cond, browserWait)
	return p.board()
}

// TestBrowserBoard plays a whole classic turn by clicks on the map only,
// at 1280 px with the mouse (and the keyboard for one army) and at 390 px
// with touch in the zoomed view (a pinch, then its + button, where every
// territory is a target of 24 px at least): the setup's armies with an
// amount picked (shift-click, long press), the reinforcements one click an
// army, an attack by clicking its source, then its target, then Blitz, the
// conquest's move, a move of armies by clicks, and the end of the turn.
// Each click sends the line one would type, and the match is the one those
// lines make typed. The tooltip tells a territory's name, owner and armies;
// how long a click takes to show its highlight or odds is logged.
func TestBrowserBoard(t *testing.T) {
	br := newBrowser(t)
	shots := shotsDir(t)
	for _, c := range []struct {
		name  string
		touch bool
	}{{"desktop", false}, {"phone", true}} {
		t.Run(c.name, func(t *testing.T) {
			e, sent := newClickEnv(t)
			ch := "click-" + c.name
			lobby := []string{"Ann: /risk new", "Ann: /risk addbot level:easy", "Ann: /risk addbot level:easy"}
			playAs(t, e, ch, lobby...)
			name := func(t int) string { return quoted(territoryName(e, ch, t)) }
			p := openBoard(t, br, e, ch, c.touch, shots)
			p.eval(`document.body.dataset.panel = "seats"`, nil)
			p.addName("Ann")
			p.playing("Ann")
			p.eval(`document.body.dataset.panel = ""`, nil)
			// The start's answer shows the map.
			p.command("/risk start", browserWait)
			want := []string{"Ann: /risk start"}
			b := p.settled("the setup's board", 0, "")
			p.waitFor("the map docked", `!document.getElementById("dock").hidden && play.ctl.img.complete && play.ctl.img.naturalWidth > 0`, browserWait)
			if c.touch {
				p.zoomIn(func(t int) string { return territoryName(e, ch, t) })
			}
			if b.Phase != "setup" || len(b.Moves.Place) == 0 {
				p.fail("phase %s, moves %+v: want the setup's placement", b.Phase, b.Moves)
			}
			seat := b.Viewer

			// The tooltip: a territory's name, owner and armies.
			t0 := b.Moves.Place[0]
			if !c.touch {
				x, y := p.spot(t0)
				p.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y})
				want := fmt.Sprintf("%s\nyours · %s", territoryName(e, ch, t0), armiesText(b.Territories[t0].Armies))
				p.waitFor("the tooltip", fmt.Sprintf(`document.querySelector("#dock .tip:not([hidden])")?.textContent === %q`, want), browserWait)
				p.screenshot("board-" + c.name + "-0-tooltip")
			}

			// The setup's armies, all on one territory: an amount picked.
			p.pick(t0, true)
			p.waitFor("the amount picker", `document.getElementById("panel").innerText.includes("How many")`, browserWait)
			p.screenshot("board-" + c.name + "-1-amount")
			p.button("#panel", "All ")
			want = append(want, fmt.Sprintf("Ann: /risk place territory:%s armies:%d", name(t0), b.Moves.Reserve))
			b = p.settled("Ann's turn", b.Commands, "reinforce")
			p.screenshot("board-" + c.name + "-2-reinforce")

			// The reinforcements on the territory that best attacks: the
			// first by the keyboard (Tab to it, Enter), the others by clicks.
			src := bestSource(e, ch, seat)
			if src < 0 {
				p.fail("Ann has no territory that borders an enemy")
			}
			reserve := b.Moves.Reserve
			if !c.touch {
				p.eval(`document.getElementById("show-dock").focus()`, nil)
				for i := 0; ; i++ {
					p.key("Tab")
					var at struct {
						T     string `json:"t"`
						Label string `json:"label"`
					}
					p.eval(`({t: document.activeElement.dataset.t || "", label: document.activeElement.getAttribute("aria-label") || ""})`, &at)
					if at.T == fmt.Sprint(src) {
						want := fmt.Sprintf("%s, yours, %s", territoryName(e, ch, src), armiesText(b.Territories[src].Armies))
						if at.Label != want {
							p.fail("the territory's button is labelled %q, want %q", at.Label, want)
						}
						break
					}
					if at.T == "" && i > 0 || i > 60 {
						p.fail("Tab left the map's territories (at %q) before reaching %d", at.Label, src)
					}
				}
				p.key("Enter")
				want = append(want, fmt.Sprintf("Ann: /risk place territory:%s armies:1", name(src)))
				b = p.settled("an army placed by the keyboard", b.Commands, "reinforce")
				reserve--
			}
			for ; reserve > 0; reserve-- {
				p.pick(src, false)
				want = append(want, fmt.Sprintf("Ann: /risk place territory:%s armies:1", name(src)))
				b = p.settled("an army placed", b.Commands, "")
			}
			b = p.settled("the attack phase", b.Commands-1, "attack")
			if b.Territories[src].Armies < 2 {
				p.fail("%d has %d armies after the reinforcements", src, b.Territories[src].Armies)
			}

			// Attack: source, target, Blitz, until a territory falls.
			var timings []float64
			conquered := false
			for try := 0; try < 5 && !conquered; try++ {
				from, to := bestAttack(b)
				if from < 0 {
					break
				}
				p.source(from)
				p.waitFor("the targets tinted", `document.getElementById("panel").innerText.includes("red territory")`, browserWait)
				var tinted bool
				x, y := p.spot(to)
				p.eval(fmt.Sprintf(`(() => { const c = play.ctl, s = c.reg.width / c.img.clientWidth, a = c.reg.territories[%d].anchor;
					return c.wrap.querySelector("canvas.tint").getContext("2d").getImageData(a.x, a.y, 1, 1).data[3] > 0; })()`, to), &tinted)
				if !tinted {
					p.fail("the target %d is not tinted at (%.0f, %.0f)", to, x, y)
				}
				p.pick(to, false)
				o, _ := engine.AttackOdds(b.Territories[from].Armies, b.Territories[to].Armies)
				odds := fmt.Sprintf("%.0f%% to take it", 100*o.Win)
				p.waitFor("the odds", fmt.Sprintf(`document.getElementById("panel").innerText.includes(%q)`, odds), browserWait)
				var ms []float64
				p.eval(`play.ms.slice(-2)`, &ms)
				timings = append(timings, ms...)
				if try == 0 {
					p.screenshot("board-" + c.name + "-3-odds")
				}
				p.button("#panel", "Blitz")
				want = append(want, fmt.Sprintf("Ann: /risk attack from:%s to:%s until:win", name(from), name(to)))
				b = p.settled("the battle", b.Commands, "")
				conquered = b.Phase == "occupy"
				if !conquered && b.Phase != "attack" {
					p.fail("phase %s after a blitz", b.Phase)
				}
			}
			t.Logf("%s: a click to its highlight or odds drawn: %v ms (performance.now)", c.name, timings)
			if !conquered {
				t.Logf("%s: no territory fell in 5 blitzes: no move after a conquest", c.name)
			} else {
				p.screenshot("board-" + c.name + "-4-conquered")
				p.button("#panel", "All ")
				want = append(want, fmt.Sprintf("Ann: /risk occupy armies:%d", b.Moves.Occupy.Max))
				b = p.settled("the armies moved in", b.Commands, "attack")
			}

			// Move armies: source, target, an amount.
			if len(b.Moves.Fortify) == 0 {
				p.fail("nothing to move: %+v", b.Moves)
			}
			f := b.Moves.Fortify[0]
			p.source(f.From)
			p.pick(f.To[0], false)
			p.waitFor("the amounts", `document.getElementById("panel").innerText.includes("Move armies from")`, browserWait)
			p.screenshot("board-" + c.name + "-5-fortify")
			p.buttonIs("#panel", "1")
			want = append(want, fmt.Sprintf("Ann: /risk fortify from:%s to:%s armies:1", name(f.From), name(f.To[0])))
			p.seen("the move", "moved", browserWait)
			b = p.settled("after the move", b.Commands, "")
			p.button("#panel", "End turn")
			want = append(want, "Ann: /risk end")
			p.seen("the turn's end", "Ann ended turn", browserWait)
			p.waitFor("the newest message in view", atEnd, browserWait)
			p.screenshot("board-" + c.name + "-6-ended")
			sameAsTyped(t, e, ch, lobby, sent.all(), want)
			var width int
			p.eval(`document.documentElement.scrollWidth`, &width)
			if c.touch && width > 390 {
				p.fail("the page is %d px wide on a 390 px screen", width)
			}
			var small []string
			p.eval(`[...document.querySelectorAll("#dock .spot")].map(b => b.getBoundingClientRect()).filter(r => r.width < 24 || r.height < 24).map(r => r.width + "x" + r.height)`, &small)
			if len(small) > 0 {
				p.fail("territory buttons smaller than 24 px: %v", small)
			}
		})
	}
}

// TestBrowserBoardFog: on a match with fog of war, the tooltip of a
// territory out of the player's sight tells neither owner nor armies, on
// the page and, for the public, on the spectators' page.
func TestBrowserBoardFog(t *testing.T) {
	br := newBrowser(t)
	e := newEnv(t, Config{})
	const ch = "click-fog"
	for _, l := range []string{"/risk new fog:on", "/risk addbot level:easy", "/risk addbot level:easy"} {
		e.do(t, ch, "Ann", l)
	}
	shots := shotsDir(t)
	p := boardPage{page: br.open(e.ts.URL+"/?c="+ch, shots)}
	p.ready(ch)
	p.addName("Ann")
	p.playing("Ann")
	p.command("/risk start", browserWait)
	p.command("/risk place", browserWait)
	b := p.settled("the board", 0, "")
	p.waitFor("the map docked", `!document.getElementById("dock").hidden && play.ctl.img.complete && play.ctl.img.naturalWidth > 0`, browserWait)
	hidden := -1
	for i, tr := range b.Territories {
		if tr.Fog {
			hidden = i
			break
		}
	}
	if hidden < 0 {
		p.fail("nothing in the fog")
	}
	x, y := p.spot(hidden)
	p.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y})
	want := territoryName(e, ch, hidden) + "\nunknown (fog of war) · ? armies"
	p.waitFor("the fogged tooltip", fmt.Sprintf(`document.querySelector("#dock .tip:not([hidden])")?.textContent === %q`, want), browserWait)
	p.screenshot("board-fog-0-tooltip")

	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		t.Fatal(err)
	}
	pub := m.Game.State.PublicSight()
	hidden = -1
	for i := range m.Game.State.Terr {
		if !pub.Has(i) {
			hidden = i
			break
		}
	}
	w := br.open(fmt.Sprintf("%s/watch/%d", e.ts.URL, m.ID), shots)
	w.waitFor("the spectator's map", `document.querySelector(".board .spot") && document.getElementById("map").complete && document.getElementById("map").naturalWidth > 0`, browserWait)
	var xy []float64
	w.eval(fmt.Sprintf(`(() => { const b = document.querySelector('.board .spot[data-t="%d"]').getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()`, hidden), &xy)
	w.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": xy[0], "y": xy[1]})
	w.waitFor("the spectator's fogged tooltip", fmt.Sprintf(`document.querySelector(".board .tip:not([hidden])")?.textContent === %q`,
		m.Game.State.Map.TerritoryName(hidden)+"\nunknown (fog of war) · ? armies"), browserWait)
	w.screenshot("board-fog-1-spectator")
}

// TestOddsInBrowser: the page's odds (map.js) are the engine's
// (engine.AttackOdds), for every attack of 2 to 40 armies against 1 to
// 40.
func TestOddsInBrowser(t *testing.T) {
	br := newBrowser(t)
	e := newEnv(t, Config{})
	p := br.open(e.ts.URL+"/?c=odds", shotsDir(t))
	p.ready("odds")
	const most = 40
	var got [][]engine.Odds
	p.eval(fmt.Sprintf(`(() => { const out = []; for (let a = 1; a <= %d; a++) { const row = []; for (let d = 1; d <= %d; d++) row.push(RiskMap.odds(a, d)); out.push(row); } return out; })()`, most, most), &got)
	if len(got) != most {
		t.Fatalf("%d rows, want %d", len(got), most)
	}
	worst := 0.0
	for a := 1; a <= most; a++ {
		for d := 1; d <= most; d++ {
			want, err := engine.AttackOdds(a, d)
			if err != nil {
				t.Fatal(err)
			}
			g := got[a-1][d-1]
			for _, diff := range []float64{g.Win - want.Win, g.AttackerLeft - want.AttackerLeft, g.DefenderLeft - want.DefenderLeft} {
				worst = max(worst, math.Abs(diff))
			}
			if g.Attackers != a || g.Defenders != d || math.Abs(g.Win-want.Win) > 1e-12 || math.Abs(g.AttackerLeft-want.AttackerLeft) > 1e-12 || math.Abs(g.DefenderLeft-want.DefenderLeft) > 1e-12 {
				t.Errorf("odds(%d, %d) = %+v, want %+v", a, d, g, want)
			}
		}
	}
	t.Logf("largest difference from engine.AttackOdds: %g", worst)
}

// territoryName names territory t of channel ch's match.
func territoryName(e *testEnv, ch string, t int) string {
	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		return ""
	}
	return m.Game.State.Map.TerritoryName(t)
}

func armiesText(n int) string {
	if n == 1 {
		return "1 army"
	}
	return fmt.Sprintf("%d armies", n)
}

// bestSource is seat's territory with the most armies among those that
// border a territory of another seat, in channel ch's match; -1 if none.
func bestSource(e *testEnv, ch string, seat int) int {
	m, err := e.db.Active(context.Background(), Prefix+ch)
	if err != nil {
		return -1
	}
	s := m.Game.State
	best := -1
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.BordersEnemy(t) && (best < 0 || s.Terr[t].Armies > s.Terr[best].Armies) {
			best = t
		}
	}
	return best
}

// bestAttack is the attack of the board with the best odds.
func bestAttack(b boardJSON) (int, int) {
	from, to, best := -1, -1, -1.0
	for _, a := range b.Moves.Attack {
		for _, d := range a.To {
			o, err := engine.AttackOdds(b.Territories[a.From].Armies, b.Territories[d].Armies)
			if err == nil && o.Win > best {
				from, to, best = a.From, d, o.Win
			}
		}
	}
	return from, to
}
