package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// lastMessage is the script of the text of the channel's last message.
const lastMessage = `[...document.querySelectorAll("#messages .message")].pop()`

// turnTitlesScript lists the titles of the turns' records the page shows.
const turnTitlesScript = `[...document.querySelectorAll("#messages .embed .title")].map(t => t.textContent).filter(t => t.startsWith("Turn ") || t.startsWith("Initial placement done"))`

// TestBrowserRestart: a page open on a match while the server restarts
// (on the same database and address) shows the match as it stands once it
// reconnects: the story so far, the same turns as before, and the turn in
// progress, whose button works; so does a page opened afresh. A console's
// channel is listed, and headed, as the console's, with its match.
func TestBrowserRestart(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := shotsDir(t)
	const wait = 30 * time.Second
	p := b.openSized(e.ts.URL+"/?c=caps", shots, 1400, 900)
	p.waitFor("the page", `document.body?.dataset.ready && document.getElementById("channel-name").textContent === "caps"`, wait)
	p.eval(`document.getElementById("add-name-input").focus()`, nil)
	p.typeText("Ann")
	p.key("Enter")
	p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk addbot level:easy"} {
		p.command(l, wait)
	}
	p.seen("two bots", "(3/6)", wait)
	p.command("/risk start", wait)
	p.seen("the start", "The match has started", wait)
	placeButton := lastMessage + `?.querySelector("button.btn")?.textContent === "Place automatically"`
	p.eval(`[...document.querySelectorAll("button.btn")].find(b => b.textContent === "Place automatically").click()`, nil)
	p.waitFor("Ann's turn, with its button", `document.querySelector("#seat-list .seat.turn")?.textContent.startsWith("Ann") && `+placeButton, wait)
	e.bot.Wait()
	// A console's match beside.
	r := chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk start"} {
		cmd, opts, err := parseCommand(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.bot.Handle(context.Background(), chat.Request{Channel: "console:den", User: chat.User{ID: "console:ann", Name: "Ann"}, Command: cmd, Options: opts, Server: "console", Admin: true}, r); err != nil {
			t.Fatal(err)
		}
	}
	e.bot.Wait()
	// A match over in another channel: Bob gives up, Ann wins.
	for _, l := range []string{"Ann: /risk new", "Bob: /risk join", "Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, "won", who, line)
	}
	if q := e.ask(t, "won", "Bob", "/risk surrender"); len(q) == 1 {
		e.press(t, "won", "Bob", q[0], "Give up")
	} else {
		t.Fatalf("Bob's surrender asked %+v", q)
	}
	var before []string
	p.eval(turnTitlesScript, &before)
	if len(before) == 0 {
		p.fail("no turn shown before the restart")
	}
	p.screenshot("restart-0-before")

	n := e.restart(t)
	// The open page reconnects by itself.
	p.waitFor("the match told again", `document.querySelector("#messages .message")?.innerText.includes("told again from its log")`, wait)
	p.waitFor("the turn in progress, with its button", placeButton, wait)
	p.waitFor("the newest message in view", atEnd, wait)
	p.screenshot("restart-1-after")
	check := func(p *page, when string) {
		t.Helper()
		var after []string
		p.eval(turnTitlesScript, &after)
		if a, b := strings.Join(after, " | "), strings.Join(before, " | "); a != b {
			p.fail("the turns shown %s: %q, want those before the restart: %q", when, a, b)
		}
		var welcome bool
		p.eval(`!!document.getElementById("welcome")`, &welcome)
		if welcome {
			p.fail("the welcome to an empty channel is shown %s", when)
		}
	}
	check(p, "after the restart")

	// A page opened afresh shows the same.
	q := b.openSized(n.ts.URL+"/?c=caps", shots, 390, 844)
	q.waitFor("the match told again, on a phone", `document.querySelector("#messages .message")?.innerText.includes("told again from its log")`, wait)
	q.waitFor("the turn in progress, with its button, on a phone", placeButton, wait)
	q.waitFor("the newest message in view, on a phone", atEnd, wait)
	check(q, "in a page opened after the restart")
	var width int
	q.eval(`document.documentElement.scrollWidth`, &width)
	if width > 390 {
		q.fail("the page is %d px wide on a 390 px screen after the restart", width)
	}
	q.screenshot("restart-2-phone")

	// The button works: Ann's reinforcements are placed, in the same
	// message.
	p.call("Page.bringToFront", nil)
	var id string
	p.eval(lastMessage+`.id`, &id)
	p.eval(lastMessage+`.querySelector("button.btn").click()`, nil)
	p.waitFor("the placement in the turn's message", fmt.Sprintf(`document.getElementById(%q)?.innerText.includes("placed")`, id), wait)
	var copies int
	p.eval(fmt.Sprintf(`[...document.querySelectorAll("#messages .embed .title")].filter(t => t.textContent === document.getElementById(%q).querySelector(".embed .title").textContent).length`, id), &copies)
	if copies != 1 {
		p.fail("the turn's message shows %d times, want once (edited)", copies)
	}
	p.screenshot("restart-3-placed")

	// The console's channel: listed and headed as the console's.
	var listed string
	p.eval(`[...document.querySelectorAll("#channel-list a")].map(a => a.textContent).join(",")`, &listed)
	if !strings.Contains(listed, "# denconsole") {
		p.fail("the channels listed: %q, want den marked as the console's", listed)
	}
	c := b.openSized(n.ts.URL+"/?c=console:den", shots, 1400, 900)
	c.waitFor("the console's channel", `document.body?.dataset.ready && document.getElementById("channel-name").textContent === "den" && !document.getElementById("channel-kind").hidden`, wait)
	c.waitFor("the console's match told again", `document.querySelector("#messages .message")?.innerText.includes("told again from its log")`, wait)
	c.screenshot("restart-4-console")
	var header string
	c.eval(`document.querySelector("main > header").innerText`, &header)
	if !strings.Contains(strings.ToLower(header), "console") {
		c.fail("the console's channel is headed %q", header)
	}
	// The channel of the match won shows its end, not the welcome of a
	// new channel, and its Rematch button opens the rematch.
	w := b.openSized(n.ts.URL+"/?c=won", shots, 1400, 900)
	rematch := lastMessage + `?.querySelector("button.btn")?.textContent === "Rematch"`
	w.waitFor("the victory post, with its Rematch button", `(`+lastMessage+`?.innerText.includes("Ann wins")) && `+rematch, wait)
	w.waitFor("the victory's map in view", atEnd, wait)
	var welcome bool
	w.eval(`!!document.getElementById("welcome")`, &welcome)
	if welcome {
		w.fail("the welcome to an empty channel is shown in the channel of a match won")
	}
	w.screenshot("restart-5-won")
	w.eval(lastMessage+`.querySelector("button.btn").click()`, nil)
	w.waitFor("the rematch's lobby", `[...document.querySelectorAll("#messages .embed .title")].some(t => t.textContent.startsWith("Lobby — 1/"))`, wait)
	w.screenshot("restart-6-rematch")
	raw, _ := json.Marshal(before)
	t.Logf("turns before and after the restart: %s; screenshots in %s", raw, shots)
}

// TestBrowserTeamChatListed: when a match of teams starts, the page of a
// team's player lists the team's chat at once, without a reload.
func TestBrowserTeamChatListed(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := shotsDir(t)
	const wait = 30 * time.Second
	for _, size := range []struct {
		name          string
		width, height int
	}{{"wide", 1400, 900}, {"phone", 390, 844}} {
		channel := "teams" + size.name[:1]
		p := b.openSized(e.ts.URL+"/?c="+channel, shots, size.width, size.height)
		p.waitFor("the page", `document.body?.dataset.ready`, wait)
		if size.name == "wide" {
			p.eval(`document.getElementById("add-name-input").focus()`, nil)
			p.typeText("Ann")
			p.key("Enter")
		}
		p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)
		for _, l := range []string{"/risk new teams:2", "/risk host addbot level:easy", "/risk host addbot level:easy", "/risk host addbot level:easy"} {
			p.command(l, wait)
		}
		p.seen("three bots", "(4/6)", wait)
		p.command("/risk start", wait)
		p.seen("the start", "The match has started", wait)
		listed := fmt.Sprintf(`[...document.querySelectorAll("#channel-list a")].some(a => a.textContent === "# %s-team-1" || a.textContent === "# %s-team-2")`, channel, channel)
		if size.name == "phone" {
			p.eval(`document.getElementById("show-channels").click()`, nil)
		}
		p.waitFor("the team's chat listed", listed, wait)
		p.screenshot("team-chat-listed-" + size.name)
	}
}
