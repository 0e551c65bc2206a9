package web

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// sizes are the screens the page is looked at on: a desktop's window and
// a phone's.
var sizes = []struct {
	name          string
	width, height int
}{{"wide", 1400, 900}, {"phone", 390, 844}}

// tableLines is the script that measures the last table the page shows
// (a code block: /risk show status): its lines, how many of them are
// drawn on more than one line, and whether it must be scrolled sideways.
const tableLines = `(() => {
  const pre = [...document.querySelectorAll("#messages pre")].pop();
  if (!pre) return null;
  const text = pre.firstChild;
  let wrapped = 0, lines = 0, at = 0;
  for (const line of text.textContent.split("\n")) {
    if (line.trim()) {
      lines++;
      const r = document.createRange();
      r.setStart(text, at);
      r.setEnd(text, at + line.length);
      const tops = new Set([...r.getClientRects()].map(c => Math.round(c.top)));
      if (tops.size > 1) wrapped++;
    }
    at += line.length + 1;
  }
  return { lines, wrapped, scrolls: pre.scrollWidth > pre.clientWidth, page: document.documentElement.scrollWidth, debug: [pre.scrollWidth, pre.clientWidth, pre.style.fontSize, getComputedStyle(pre).fontFamily].join(" ") };
})()`

// TestBrowserStatusTable: the standings of /risk show status read one
// line a player on a phone as on a desktop (the income stayed beside each
// name), within the screen, without scrolling sideways.
func TestBrowserStatusTable(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := shotsDir(t)
	const wait = 30 * time.Second
	for _, size := range sizes {
		for _, rules := range []string{"classic", "capitals"} {
			t.Run(size.name+"/"+rules, func(t *testing.T) {
				channel := size.name + "-" + rules
				startMatch(t, e, channel, rules)
				p := b.openSized(e.ts.URL+"/?c="+channel, shots, size.width, size.height)
				p.t = t
				p.waitFor("the page", `document.body?.dataset.ready`, wait)
				asAnn(p, wait)
				p.command("/risk show status", wait)
				p.waitFor("the table", `document.querySelector("#messages pre")`, wait)
				p.waitFor("the newest message in view", atEnd, wait)
				p.screenshot("status-" + size.name + "-" + rules)
				var got struct {
					Lines, Wrapped int
					Scrolls        bool
					Page           int
					Debug          string
				}
				p.eval(tableLines, &got)
				if got.Lines < 4 || got.Wrapped > 0 {
					p.fail("%d of the table's %d lines wrap at %d px", got.Wrapped, got.Lines, size.width)
				}
				if got.Page > size.width {
					p.fail("the page is %d px wide on a %d px screen", got.Page, size.width)
				}
				if got.Scrolls {
					p.fail("the table must be scrolled sideways at %d px: %s", size.width, got.Debug)
				}
				t.Logf("%+v", got)
			})
		}
	}
}

// asAnn makes the page play as Ann, adding her name if the browser has
// not yet.
func asAnn(p *page, wait time.Duration) {
	p.t.Helper()
	var has bool
	p.eval(`[...document.querySelectorAll("#name-list .name")].some(n => n.textContent === "Ann")`, &has)
	if !has {
		// On a phone the players are a panel, opened from the header.
		p.eval(`getComputedStyle(document.getElementById("seats")).display === "none" && document.getElementById("show-seats").click()`, nil)
		p.eval(`document.getElementById("add-name-input").focus()`, nil)
		p.typeText("Ann")
		p.key("Enter")
	}
	p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)
	p.eval(`document.body.dataset.panel = ""`, nil)
}

// TestBrowserOldPrivateButton: a button of a private answer far up the
// channel (the history's pages, turns ago) answers at the end, where the
// player looks, not in place of the old answer out of sight; a button of
// the newest answer still answers in its place.
func TestBrowserOldPrivateButton(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := shotsDir(t)
	const wait = 30 * time.Second
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			channel := "old-" + size.name
			startMatch(t, e, channel)
			p := b.openSized(e.ts.URL+"/?c="+channel, shots, size.width, size.height)
			p.t = t
			p.waitFor("the page", `document.body?.dataset.ready`, wait)
			asAnn(p, wait)
			p.command("/risk place", wait) // the initial placement; the computers play to Ann's turn
			// Her turn's post, not the seat list: while the initial
			// placement is under way the list may already show her turn
			// (she plays first), and the history would have one page.
			p.seen("Ann's turn", "@Ann, it is your turn", wait)
			p.command("/risk show history", wait)
			p.seen("the history", "of the match's history", wait)
			// The history's answer, wherever computer players' news has
			// put it meanwhile.
			history := `[...document.querySelectorAll("#messages .message")].filter(m => m.innerText.includes("of the match's history")).pop()`
			var old string
			p.eval(history+`.id`, &old)
			// The newest private answer: its button answers in its place.
			// (Computer players' news may still arrive meanwhile: only
			// the history's answers are counted.)
			count := `document.querySelectorAll("#messages .message").length`
			answers := `[...document.querySelectorAll("#messages .message")].filter(m => m.innerText.includes("of the match's history")).length`
			var before, after int
			p.eval(answers, &before)
			p.eval(history+`.querySelector("button.btn").click()`, nil)
			p.waitFor("the page turned in place", fmt.Sprintf(`document.getElementById(%q)?.dataset.rev === "1"`, old), wait)
			p.eval(answers, &after)
			if after != before {
				p.fail("a button of the newest answer made a new answer (%d, then %d)", before, after)
			}
			p.eval(count, &after)
			var was string
			p.eval(fmt.Sprintf(`document.getElementById(%q).innerText`, old), &was)
			// Turns later, the same answer's button.
			p.command("/risk place", wait)
			p.command("/risk end", wait)
			p.waitFor("Ann's next turn", `document.querySelector("#seat-list .seat.turn")?.textContent.startsWith("Ann") && document.querySelectorAll("#messages .message").length > `+fmt.Sprint(after+2), wait)
			p.waitFor("the newest message in view", atEnd, wait)
			p.eval(count, &before)
			p.eval(fmt.Sprintf(`document.getElementById(%q).querySelector("button.btn").click()`, old), nil)
			p.waitFor("the answer at the end", count+` > `+fmt.Sprint(before)+` && `+lastMessage+`.innerText.includes("of the match's history")`, wait)
			p.waitFor("the answer in view", atEnd, wait)
			p.screenshot("old-button-" + size.name)
			var now string
			var buttons int
			p.eval(fmt.Sprintf(`document.getElementById(%q).innerText`, old), &now)
			p.eval(fmt.Sprintf(`document.getElementById(%q).querySelectorAll("button.btn").length`, old), &buttons)
			if !strings.Contains(now, "of the match's history") || buttons != 0 {
				p.fail("the old answer became %q with %d buttons: want it as it was (%q), its buttons spent", now, buttons, was)
			}
		})
	}
}
