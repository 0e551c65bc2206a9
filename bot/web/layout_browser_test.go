package web

import (
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
