package web

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// mapTiming is one command sent by the page, and when its new map came.
type mapTiming struct {
	// Ms is from the input (the click's pointerup, Enter's keydown in
	// the command box) to the load of the docked map of the moment it
	// made.
	Ms float64 `json:"ms"`
	// Requests are the paths the page fetched meanwhile, in order (the
	// map's with its query), and when each began and ended, from the
	// input.
	Requests []string  `json:"requests"`
	Start    []float64 `json:"start"`
	End      []float64 `json:"end"`
}

// TestBrowserMapAfterMove: a move confirmed by a click brings its new map
// as fast as a typed one. On a classic match's setup, at 1280 px, an army
// is placed by a click on the docked map, then the same line is typed in
// the command box, five times each in turn (after one of each not
// counted); each time, from the input (the click's pointerup, Enter's
// keydown) to the docked map of the new moment loaded on the page. Both
// go the same way (one POST of the same line, the channel and the board
// fetched once, the map once). The times and each request's, medians,
// are logged, not asserted (speed is measured, not timed in a test:
// docs/performance.md, "Hit regions").
func TestBrowserMapAfterMove(t *testing.T) {
	br := newBrowser(t)
	e, sent := newClickEnv(t)
	const ch = "map-speed"
	playAs(t, e, ch, "Ann: /risk new", "Ann: /risk addbot level:easy", "Ann: /risk addbot level:easy")
	p := boardPage{page: br.open(e.ts.URL+"/?c="+ch, shotsDir(t))}
	p.debug = boardDebug
	p.ready(ch)
	p.addName("Ann")
	p.playing("Ann")
	p.command("/risk start", browserWait)
	b := p.settled("the setup", 0, "")
	p.waitFor("the map docked", `!document.getElementById("dock").hidden && play.ctl.img.complete && play.ctl.img.naturalWidth > 0`, browserWait)
	if b.Moves.Reserve < 10 {
		p.fail("%d armies to place, want 10 at least", b.Moves.Reserve)
	}
	tr := b.Moves.Place[0]
	line := "/risk place territory:" + quoted(territoryName(e, ch, tr)) + " armies:1"
	// The page notes each input and each load of the docked map.
	p.eval(`window.inputs = []; window.loads = [];
		document.addEventListener("pointerup", (ev) => inputs.push(ev.timeStamp), true);
		document.addEventListener("keydown", (ev) => { if (ev.key === "Enter") inputs.push(ev.timeStamp); }, true);
		play.ctl.img.addEventListener("load", (ev) => loads.push({src: ev.target.getAttribute("src"), t: performance.now()}))`, nil)
	var clicked, typed []mapTiming
	// One of each first, not counted: the first of a page is slower.
	for i := -2; i < 10; i++ {
		click := i%2 == 0
		b = p.board()
		n := len(sent.all())
		p.eval(`performance.clearResourceTimings(); inputs.length = 0; loads.length = 0`, nil)
		if click {
			p.pick(tr, false)
		} else {
			// Typed as a player types it: the line, its suggestions
			// closed (Enter would take the one picked), Enter.
			p.eval(`document.getElementById("command").focus()`, nil)
			p.typeText(line)
			p.waitFor("the line's suggestions", fmt.Sprintf(`state.choicesFor === %q`, line), browserWait)
			p.key("Escape")
			p.key("Enter")
			p.waitFor("the box emptied", `document.getElementById("command").value === ""`, browserWait)
		}
		waitLines(t, sent, n+1)
		if got := sent.all()[n]; got != "Ann: "+line {
			p.fail("the page sent %q, want %q", got, "Ann: "+line)
		}
		b = p.settled("the army placed", b.Commands, "")
		src := fmt.Sprintf("/api/matches/%d/map.png?at=%d", b.Match, b.Commands)
		cond := fmt.Sprintf(`loads.some(l => l.src === %q)`, src)
		p.waitFor("the new map loaded", cond, browserWait)
		var m mapTiming
		p.eval(fmt.Sprintf(`(() => { const t0 = inputs[inputs.length - 1], l = loads.find(l => l.src === %q);
			const rs = performance.getEntriesByType("resource").filter(r => r.startTime >= t0);
			const reqs = rs.map(r => { const u = new URL(r.name); return u.pathname.startsWith("/api/") ? u.pathname + u.search : u.pathname; });
			return {ms: l.t - t0, requests: reqs, start: rs.map(r => r.startTime - t0), end: rs.map(r => r.responseEnd - t0)}; })()`, src), &m)
		if i < 0 {
			// not counted
		} else if click {
			clicked = append(clicked, m)
		} else {
			typed = append(typed, m)
		}
		// The button's hold on the panel lets go of the next click.
		p.waitFor("the page ready", `!play.busy`, browserWait)
		time.Sleep(200 * time.Millisecond)
	}
	paths := func(ms []mapTiming) [][]string {
		var out [][]string
		for _, m := range ms {
			var r []string
			for _, q := range m.Requests {
				path, _, _ := strings.Cut(q, "?")
				r = append(r, path)
			}
			sort.Strings(r)
			out = append(out, r)
		}
		return out
	}
	wantPath := []string{"/api/matches/" + fmt.Sprint(b.Match) + "/map.png", "/web/board", "/web/channel", "/web/command"}
	sort.Strings(wantPath)
	for i, r := range append(paths(clicked), paths(typed)...) {
		if !slices.Equal(r, wantPath) {
			how := "clicked"
			if i >= len(clicked) {
				how = "typed"
			}
			t.Errorf("%s placement %d fetched %v, want %v", how, i%len(clicked)+1, r, wantPath)
		}
	}
	median := func(ms []mapTiming) (float64, []float64) {
		var v []float64
		for _, m := range ms {
			v = append(v, m.Ms)
		}
		s := slices.Clone(v)
		slices.Sort(s)
		return s[len(s)/2], v
	}
	cm, cv := median(clicked)
	tm, tv := median(typed)
	t.Logf("from the input to the new map loaded: clicked median %.0f ms %v, typed median %.0f ms %v", cm, rounded(cv), tm, rounded(tv))
	for _, c := range []struct {
		how string
		ms  []mapTiming
	}{{"clicked", clicked}, {"typed", typed}} {
		// Each request's start and end (ms from the input), in the
		// order of the first (the page asks them one after another).
		var stages []string
		for i, r := range c.ms[0].Requests {
			var st, en []float64
			for _, m := range c.ms {
				if i < len(m.Start) {
					st, en = append(st, m.Start[i]), append(en, m.End[i])
				}
			}
			slices.Sort(st)
			slices.Sort(en)
			path, _, _ := strings.Cut(r, "?")
			stages = append(stages, fmt.Sprintf("%s %.0f–%.0f", path[strings.LastIndex(path, "/")+1:], st[len(st)/2], en[len(en)/2]))
		}
		t.Logf("%s, medians: %s ms, the map loaded %.0f ms", c.how, strings.Join(stages, ", "), map[bool]float64{true: cm, false: tm}[c.how == "clicked"])
	}
}

// rounded rounds milliseconds to whole ones, for a log.
func rounded(v []float64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x + 0.5)
	}
	return out
}
