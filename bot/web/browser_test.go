package web

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// atEnd: the channel shows its newest message, all of it, once its map
// has loaded (a map's height is known only then; the maps of older
// messages skipped over load only when scrolled to).
const atEnd = `(() => { const b = document.getElementById("messages"); const last = [...b.querySelectorAll(".message")].pop(); return last && [...last.querySelectorAll("img.map")].every(i => i.complete && i.naturalWidth > 0) && b.scrollHeight - b.scrollTop - b.clientHeight < 4; })()`

// TestBrowser plays in a real browser: a match started from the page, two
// computer players, automatic placement by a button, an attack typed with
// the autocomplete, the map changing, and a spectator's page following.
// Screenshots are saved in the test's folder (RISK_SHOTS=DIR keeps them).
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := t.TempDir()
	if d := os.Getenv("RISK_SHOTS"); d != "" {
		shots = d
	}
	p := b.open(e.ts.URL+"/?c=br", shots)
	p.debug = `JSON.stringify({command: document.getElementById("command")?.value, suggestions: document.getElementById("suggestions")?.innerText})`
	const wait = 30 * time.Second
	p.waitFor("the page", `document.body?.dataset.ready && document.getElementById("channel-name").textContent === "br"`, wait)

	p.waitFor("the welcome", `document.getElementById("welcome")`, wait)
	p.screenshot("0-welcome")

	// Take a name, then play as it.
	p.eval(`document.getElementById("add-name-input").focus()`, nil)
	p.typeText("Ann")
	p.key("Enter")
	p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)

	command := func(line string) { t.Helper(); p.command(line, wait) }
	seen := func(what, text string) { t.Helper(); p.seen(what, text, wait) }
	command("/risk new")
	seen("the lobby", "opened a Risk match")
	command("/risk addbot level:easy")
	command("/risk addbot level:easy")
	seen("two bots", "(3/6)")
	command("/risk start")
	seen("the start", "The match has started")
	p.waitFor("a map shown", `[...document.querySelectorAll("img.map")].some(i => i.complete && i.naturalWidth > 0)`, wait)
	p.screenshot("1-started")
	firstMap := ""
	p.eval(`[...document.querySelectorAll("img.map")].pop().src`, &firstMap)

	// Place automatically: a button.
	p.eval(`[...document.querySelectorAll("button.btn")].find(b => b.textContent === "Place automatically").click()`, nil)
	p.waitFor("Ann's turn", `document.querySelector("#seat-list .seat.turn")?.textContent.startsWith("Ann")`, wait)
	var id int64
	p.eval(`+document.getElementById("watch-link").href.split("/").pop()`, &id)
	if id == 0 {
		p.fail("no spectators' link")
	}

	// A spectator watches from another tab.
	w := b.open(fmt.Sprintf("%s/watch/%d", e.ts.URL, id), shots)
	w.waitFor("the standings", `document.querySelectorAll("#standings tbody tr").length === 3`, wait)
	w.waitFor("the spectator's map", `document.getElementById("map").complete && document.getElementById("map").naturalWidth > 0`, wait)
	var watchedMap string
	w.eval(`document.getElementById("map").src`, &watchedMap)

	// Ann places her reinforcements, then attacks with the autocomplete.
	p.call("Page.bringToFront", nil)
	command("/risk place")
	p.eval(`document.getElementById("command").focus()`, nil)
	p.typeText("/risk attack from:")
	values := `document.getElementById("suggestions").dataset.for === document.getElementById("command").value && !document.getElementById("suggestions").hidden && document.querySelector("#suggestions li .label") && !document.querySelector("#suggestions li .label").textContent.endsWith(":")`
	p.waitFor("territories to attack from", values, wait)
	p.screenshot("2-autocomplete")
	p.key("Tab")
	p.waitFor("the from chosen", `/from:\S+ $|from:"[^"]+" $/.test(document.getElementById("command").value)`, wait)
	p.typeText("to:")
	p.waitFor("territories to attack", values+` && document.getElementById("command").value.endsWith("to:")`, wait)
	p.key("Tab")
	p.waitFor("the target chosen", `/to:\S+ $|to:"[^"]+" $/.test(document.getElementById("command").value)`, wait)
	p.typeText("until:win")
	p.waitFor("win suggested", values, wait)
	p.key("Enter") // takes the suggestion, as Discord does
	p.waitFor("until:win chosen", `document.getElementById("command").value.endsWith("until:win ")`, wait)
	p.key("Enter") // sends the command
	seen("the battle", "attacked")
	seen("only Ann sees it", "Only Ann can see this")
	var conquered bool
	p.eval(`[...document.querySelectorAll("button.btn")].some(b => b.textContent.startsWith("Move all"))`, &conquered)
	if conquered {
		before := 0
		p.eval(`document.querySelectorAll("#messages .message").length`, &before)
		p.eval(`[...document.querySelectorAll("button.btn")].filter(b => b.textContent.startsWith("Move all")).pop().click()`, nil)
		seen("the move", "moved")
		after := 0
		p.eval(`document.querySelectorAll("#messages .message").length`, &after)
		if after != before {
			p.fail("the answer to a click on a private message was a new message (%d messages, then %d): it must replace the clicked one", before, after)
		}
	}
	p.screenshot("3-attacked")
	var before []string
	p.eval(`[...document.querySelectorAll("img.map")].map(i => i.src)`, &before)
	shown, _ := json.Marshal(append(before, firstMap))
	command("/risk end")
	seen("the turn's end", "Ann ended turn")
	p.waitFor("the map of the turn's end", fmt.Sprintf(`[...document.querySelectorAll("img.map")].some(i => !%s.includes(i.src) && i.complete && i.naturalWidth > 0)`, shown), wait)
	p.waitFor("the newest message in view, its map loaded", atEnd, wait)
	p.screenshot("4-turn-ended")
	w.call("Page.bringToFront", nil)
	w.waitFor("the spectator's map changing", fmt.Sprintf(`document.getElementById("map").src !== %q && document.getElementById("map").complete`, watchedMap), wait)
	w.waitFor("a turn post for the spectator", `document.querySelectorAll("#messages .message").length > 0`, wait)
	w.screenshot("5-spectator")
	var leaked bool
	w.eval(`document.body.innerText.includes("Only Ann")`, &leaked)
	if leaked {
		w.fail("the spectator sees a private answer")
	}
	if !strings.HasPrefix(shots, os.TempDir()) {
		t.Logf("screenshots in %s", shots)
	}
}

// TestBrowserPhone plays on a phone's screen (390 px wide): the players'
// panel opens from the header to add a name, a turn is played, the newest
// message stays in view, and the spectators' standings read one row a
// player, within the screen's width.
func TestBrowserPhone(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := t.TempDir()
	if d := os.Getenv("RISK_SHOTS"); d != "" {
		shots = d
	}
	p := b.openPhone(e.ts.URL+"/?c=ph", shots)
	const wait = 30 * time.Second
	p.waitFor("the page", `document.body?.dataset.ready && document.getElementById("channel-name").textContent === "ph"`, wait)
	p.waitFor("the welcome", `document.getElementById("welcome")`, wait)
	visible := func(id string) string {
		return fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth; })()`, id)
	}
	var shown bool
	p.eval(visible("add-name-input"), &shown)
	if shown {
		p.fail("the players' panel is open before it is asked for")
	}
	p.eval(`document.getElementById("show-seats").click()`, nil)
	p.waitFor("the players' panel", visible("add-name-input"), wait)
	p.screenshot("phone-0-players")
	p.eval(`document.getElementById("add-name-input").focus()`, nil)
	p.typeText("Ann")
	p.key("Enter")
	p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)
	// The first name added, the panel gives the channel back by itself:
	// the newcomer's next step is the command box.
	p.waitFor("the panel closed", "!"+visible("add-name-input")+` && document.activeElement?.id === "command"`, wait)
	var width int
	p.eval(`document.documentElement.scrollWidth`, &width)
	if width > 390 {
		p.fail("the page is %d px wide on a 390 px screen", width)
	}

	command := func(line string) { t.Helper(); p.command(line, wait) }
	seen := func(what, text string) { t.Helper(); p.seen(what, text, wait) }
	command("/risk new")
	command("/risk addbot level:easy")
	command("/risk addbot level:easy")
	seen("two bots", "(3/6)")
	command("/risk start")
	seen("the start", "The match has started")
	p.eval(`[...document.querySelectorAll("button.btn")].find(b => b.textContent === "Place automatically").click()`, nil)
	p.waitFor("Ann's turn", `document.querySelector("#seat-list .seat.turn")?.textContent.startsWith("Ann")`, wait)
	p.waitFor("the newest message in view", atEnd, wait)
	p.screenshot("phone-1-your-turn")
	command("/risk place")
	command("/risk end")
	seen("the turn's end", "Ann ended turn")
	p.waitFor("the newest message in view after the turn", atEnd, wait)
	p.screenshot("phone-2-turn-ended")
	p.eval(`document.documentElement.scrollWidth`, &width)
	if width > 390 {
		p.fail("the page is %d px wide on a 390 px screen after a turn", width)
	}

	var id int64
	p.eval(`+document.getElementById("watch-link").href.split("/").pop()`, &id)
	w := b.openPhone(fmt.Sprintf("%s/watch/%d", e.ts.URL, id), shots)
	w.waitFor("the standings", `document.querySelectorAll("#standings tbody tr").length === 3`, wait)
	w.waitFor("the spectator's map", `document.getElementById("map").complete && document.getElementById("map").naturalWidth > 0`, wait)
	w.screenshot("phone-3-spectator")
	var rows []float64
	w.eval(`[...document.querySelectorAll("#standings tr")].map(r => r.getBoundingClientRect().height)`, &rows)
	for i, h := range rows {
		if h > 40 {
			w.fail("standings row %d is %.0f px high: its cells wrap", i, h)
		}
	}
	w.eval(`document.documentElement.scrollWidth`, &width)
	if width > 390 {
		w.fail("the spectators' page is %d px wide on a 390 px screen", width)
	}
	// A capitals match has troops, items and heroes, not armies and cards.
	capID := startMatch(t, e, "capitals", "capitals")
	c := b.openPhone(fmt.Sprintf("%s/watch/%d", e.ts.URL, capID), shots)
	c.waitFor("the capitals standings", `document.querySelectorAll("#standings tbody tr").length === 3`, wait)
	var heads string
	c.eval(`[...document.querySelectorAll("#standings th")].map(h => h.textContent).join(",")`, &heads)
	if heads != ",Player,Territories,Troops,Item,Hero," {
		c.fail("the capitals standings' columns: %q", heads)
	}
	c.waitFor("the capitals map", `document.getElementById("map").complete && document.getElementById("map").naturalWidth > 0`, wait)
	// Its tooltips count troops too.
	c.waitFor("the capitals map's territories", `document.querySelector(".board .spot")`, wait)
	var xy []float64
	c.eval(`(() => { const b = document.querySelector(".board .spot").getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()`, &xy)
	c.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": xy[0], "y": xy[1]})
	c.waitFor("a capitals tooltip in troops", `/troops?$/.test(document.querySelector(".board .tip:not([hidden])")?.textContent || "")`, wait)
	c.screenshot("phone-4-capitals-spectator")
	if !strings.HasPrefix(shots, os.TempDir()) {
		t.Logf("screenshots in %s", shots)
	}
}

// command types a line in the command box and sends it, as a person would.
func (p *page) command(line string, wait time.Duration) {
	p.t.Helper()
	p.eval(`document.getElementById("command").focus()`, nil)
	p.typeText(line)
	p.waitFor("the command typed", fmt.Sprintf(`document.getElementById("command").value === %q`, line), wait)
	p.eval(`document.getElementById("suggestions").hidden = true, 0`, nil)
	p.eval(`document.getElementById("command-form").requestSubmit()`, nil)
	p.waitFor("the box emptied", `document.getElementById("command").value === ""`, wait)
}

// seen waits for text in the channel's messages.
func (p *page) seen(what, text string, wait time.Duration) {
	p.t.Helper()
	const messages = `[...document.querySelectorAll("#messages .message")].map(m => m.innerText).join("\n---\n")`
	p.waitFor(what, fmt.Sprintf(`(%s).includes(%q)`, messages, text), wait)
}
