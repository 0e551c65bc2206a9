package web

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"
)

// shotsDir is where a browser test saves its screenshots (RISK_SHOTS=DIR
// keeps them).
func shotsDir(t *testing.T) string {
	if d := os.Getenv("RISK_SHOTS"); d != "" {
		return d
	}
	return t.TempDir()
}

// profileDir is a browser profile that outlives its browser within the
// test, removed at its end.
func profileDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "risk-profile-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The browser's last writes may land just after its death.
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if err := os.RemoveAll(dir); err == nil || time.Now().After(end) {
				return
			}
		}
	})
	return dir
}

const browserWait = 30 * time.Second

// ready waits for the page to have loaded its channel and names.
func (p *page) ready(channel string) {
	p.t.Helper()
	p.waitFor("the page", fmt.Sprintf(`document.body?.dataset.ready && document.getElementById("channel-name").textContent === %q`, channel), browserWait)
}

// addName types a name under Playing as.
func (p *page) addName(name string) {
	p.t.Helper()
	p.eval(`document.getElementById("add-name-input").focus()`, nil)
	p.typeText(name)
	p.key("Enter")
}

// playing waits for the page to play as name.
func (p *page) playing(name string) {
	p.t.Helper()
	p.waitFor(name+" chosen", fmt.Sprintf(`document.querySelector("#name-list .name.active")?.textContent === %q`, name), browserWait)
}

// times waits for text to be in n of the channel's messages or more.
func (p *page) times(what, text string, n int) {
	p.t.Helper()
	p.waitFor(what, fmt.Sprintf(`[...document.querySelectorAll("#messages .message")].filter(m => m.innerText.includes(%q)).length >= %d`, text, n), browserWait)
}

// has reports whether a message of the channel shows text (buttons
// included).
func (p *page) has(text string) bool {
	p.t.Helper()
	var ok bool
	p.eval(fmt.Sprintf(`[...document.querySelectorAll("#messages .message")].some(m => m.innerText.includes(%q))`, text), &ok)
	return ok
}

// TestBrowserRoles plays a lobby and a match from three browsers (three
// browser contexts, each its own cookies): the host, a seated player and a
// stranger. Only the host acts as host; the others get the bot's private
// refusals, and never the question that ends the match; the stranger is
// the page's admin only once their browser opened the operator's link.
func TestBrowserRoles(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	b := newBrowser(t)
	e := newEnv(t, Config{OperatorKey: key})
	shots := shotsDir(t)
	url := e.ts.URL + "/?c=roles"
	open := func(name string) *page {
		p := b.openIn(b.newContext(), url, shots)
		p.ready("roles")
		p.addName(name)
		p.playing(name)
		return p
	}
	ann, bob, cid := open("Ann"), open("Bob"), open("Cid")
	ann.command("/risk new", browserWait)
	ann.seen("the lobby", "opened a Risk match", browserWait)
	bob.command("/risk join", browserWait)
	ann.seen("Bob in the lobby", "2/6", browserWait)

	hostOnly := "Only Ann (the host) can remove players"
	cid.command("/risk host addbot level:easy", browserWait)
	cid.seen("the stranger refused a bot", "Only Ann (the host) can add bots", browserWait)
	cid.command("/risk host kick player:Bob", browserWait)
	cid.times("the stranger refused a kick", hostOnly, 1)
	bob.command("/risk host kick player:Ann", browserWait)
	bob.times("the seated player refused a kick", hostOnly, 1)
	ann.command("/risk host addbot level:easy", browserWait)
	ann.seen("the host's bot", "(3/6)", browserWait)
	ann.command("/risk start", browserWait)
	ann.seen("the start", "The match has started", browserWait)
	cid.command("/risk host kick player:Ann", browserWait)
	cid.times("the stranger refused kicking the host", hostOnly, 2)
	cid.command("/risk host abandon", browserWait)
	cid.seen("the stranger refused ending the match", "can end a match without a winner", browserWait)
	bob.command("/risk host abandon", browserWait)
	bob.seen("the seated player refused ending the match", "can end a match without a winner", browserWait)
	cid.screenshot("roles-0-stranger")
	for who, p := range map[string]*page{"Bob": bob, "Cid": cid} {
		if p.has("End the match") || p.has("Remove Ann") {
			p.fail("%s was offered to end the match or remove Ann", who)
		}
	}
	if ann.has("Only Ann (the host) can add bots") {
		ann.fail("Ann's page shows the stranger's private refusal")
	}

	// The host may remove a player.
	ann.command("/risk host kick player:Bob", browserWait)
	ann.seen("the question", "Remove Bob", browserWait)
	ann.eval(`[...document.querySelectorAll("button.btn")].find(b => b.textContent === "Remove Bob").click()`, nil)
	ann.seen("Bob removed", "Bob was removed", browserWait)

	// The operator's link makes the stranger's browser the page's admin.
	cid.eval(fmt.Sprintf(`location.hash = "operator=%s"`, key), nil)
	cid.waitFor("the operator's badge", `!document.getElementById("operator-badge").hidden && location.hash === ""`, browserWait)
	cid.command("/risk host abandon", browserWait)
	cid.seen("the operator asked", "End the match", browserWait)
	cid.screenshot("roles-1-operator")
	cid.eval(`[...document.querySelectorAll("button.btn")].find(b => b.textContent === "End the match").click()`, nil)
	ann.seen("the match ended by the operator", "ended the match without a winner", browserWait)
	if _, err := e.db.Active(context.Background(), Prefix+"roles"); err == nil {
		t.Error("the match is still open after the operator ended it")
	}
}

// TestBrowserSeatComesBack: a player who closes the browser finds their
// seat when they open it again (the session's cookie is remembered); on
// another browser (another profile) they take their name over with a
// one-time code from the first, which loses it; without the code the
// name stays where it is. Before, the cookie ended with the browser and
// the seat was lost for good.
func TestBrowserSeatComesBack(t *testing.T) {
	e := newEnv(t, Config{})
	shots := shotsDir(t)
	url := e.ts.URL + "/?c=back"
	dir := profileDir(t)
	b1 := newBrowserIn(t, dir)
	p := b1.open(url, shots)
	p.ready("back")
	p.addName("Ann")
	p.playing("Ann")
	p.command("/risk new", browserWait)
	p.command("/risk host addbot level:easy", browserWait)
	p.seen("the bot", "(2/6)", browserWait)
	p.command("/risk start", browserWait)
	p.seen("the start", "The match has started", browserWait)
	b1.close()

	// The same browser, opened again.
	b1 = newBrowserIn(t, dir)
	p = b1.open(url, shots)
	p.ready("back")
	p.playing("Ann")
	p.command("/risk place", browserWait)
	p.seen("Ann's armies placed", "Ann placed", browserWait)
	p.screenshot("back-0-reopened")

	// Another browser: the name is taken, until the code.
	b2 := newBrowserIn(t, profileDir(t))
	q := b2.open(url, shots)
	q.ready("back")
	q.addName("Ann")
	q.waitFor("the claim", `!document.getElementById("claim").hidden && document.getElementById("error").textContent.includes("another browser")`, browserWait)
	q.eval(`document.getElementById("claim-proof").focus()`, nil)
	q.typeText("AAAA-AAAA-AAAA")
	q.eval(`document.getElementById("claim").requestSubmit()`, nil)
	q.waitFor("a wrong code refused", `document.getElementById("error").textContent.includes("not valid")`, browserWait)
	q.eval(`document.getElementById("claim-proof").value = ""`, nil)
	p.eval(`document.getElementById("code-button").click()`, nil)
	p.waitFor("the code", `/[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/.test(document.getElementById("token").textContent)`, browserWait)
	p.screenshot("back-1-code")
	var shown string
	p.eval(`document.getElementById("token").textContent`, &shown)
	code := regexp.MustCompile(`[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}`).FindString(shown)
	q.eval(`document.getElementById("claim-proof").focus()`, nil)
	q.typeText(code)
	q.eval(`document.getElementById("claim").requestSubmit()`, nil)
	q.playing("Ann")
	q.command("/risk me token", browserWait)
	q.seen("Ann's token in the other browser", "Your API token", browserWait)
	q.screenshot("back-2-moved")
	p.command("/risk show status", browserWait)
	p.waitFor("the first browser refused", `document.getElementById("error").textContent.includes("another browser")`, browserWait)
}
