package web

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// TestBrowserWords: a browser whose language is French reads the page in
// French (its header, a placeholder, the players' panel) and the bot's
// answers too; the switch set to EN re-words the page in English at once,
// without a reload, and the bot answers in English from then on. The
// spectators' page speaks the switch's language, and follows it.
func TestBrowserWords(t *testing.T) {
	b := newBrowser(t)
	e := newEnv(t, Config{})
	shots := t.TempDir()
	if d := os.Getenv("RISK_SHOTS"); d != "" {
		shots = d
	}
	const wait = 30 * time.Second
	p := b.open("about:blank", shots)
	p.debug = `[...document.querySelectorAll("#messages .message")].slice(-2).map(m => m.innerText).join("\n---\n")`
	// The browser's language, as a French person's is; the page takes it
	// when its switch was never set.
	var ua string
	p.eval(`navigator.userAgent`, &ua)
	p.call("Emulation.setUserAgentOverride", map[string]any{"userAgent": ua, "acceptLanguage": "fr-FR,fr"})
	p.call("Page.navigate", map[string]any{"url": e.ts.URL + "/?c=mots"})
	p.waitFor("the page", `document.body?.dataset.ready && document.getElementById("channel-name").textContent === "mots"`, wait)
	p.waitFor("the welcome", `document.getElementById("welcome")`, wait)

	type check struct{ what, script, want string }
	expect := func(checks []check) {
		t.Helper()
		for _, c := range checks {
			p.waitFor(fmt.Sprintf("%s: %q", c.what, c.want), fmt.Sprintf(`(%s) === %q`, c.script, c.want), wait)
		}
	}
	expect([]check{
		{"the page's language", `document.documentElement.lang`, "fr"},
		{"the switch", `document.getElementById("lang").value`, "fr"},
		{"the header's players button", `document.getElementById("show-seats").textContent`, "👥 Joueurs"},
		{"the header's channels button", `document.getElementById("show-channels").getAttribute("aria-label")`, "Salons"},
		{"the command box", `document.getElementById("command").placeholder`, "Message #mots — tape / pour les commandes"},
		{"the players' panel", `document.querySelector("#seats h2 span").textContent`, "Jouer en tant que"},
		{"the add-a-player box", `document.getElementById("add-name-input").placeholder`, "ajouter un joueur"},
		{"the seats", `document.getElementById("seat-list").textContent`, "Pas de partie ici : /risk new"},
		{"the welcome", `document.querySelector("#welcome h3").textContent`, "Bienvenue dans #mots"},
		{"the tab's title", `document.title`, "#mots — Risk"},
	})
	p.screenshot("0-fr")

	p.eval(`document.getElementById("add-name-input").focus()`, nil)
	p.typeText("Ann")
	p.key("Enter")
	p.waitFor("Ann in the seat picker", `document.querySelector("#name-list .name.active")?.textContent === "Ann"`, wait)
	expect([]check{{"the forget button's title", `document.querySelector("#name-list .forget").title`, "oublier Ann dans ce navigateur (quand aucune de ses parties n'est en cours)"}})
	p.command("/risk new", wait)
	p.seen("the bot's answer in French", "Ann ouvre une partie de Risk !", wait)
	p.screenshot("1-fr-new")

	// The switch to English: the page re-words itself at once.
	var reloads int
	p.eval(`window.notReloaded = true, 0`, nil)
	p.eval(`(() => { const s = document.getElementById("lang"); s.value = "en"; s.dispatchEvent(new Event("change")); return 0; })()`, nil)
	expect([]check{
		{"the page's language", `document.documentElement.lang`, "en"},
		{"the header's players button", `document.getElementById("show-seats").textContent`, "👥 Players"},
		{"the header's channels button", `document.getElementById("show-channels").getAttribute("aria-label")`, "Channels"},
		{"the command box", `document.getElementById("command").placeholder`, "Message #mots — type / for commands"},
		{"the players' panel", `document.querySelector("#seats h2 span").textContent`, "Playing as"},
		{"the add-a-player box", `document.getElementById("add-name-input").placeholder`, "add a player"},
		{"the forget button's title", `document.querySelector("#name-list .forget").title`, "forget Ann in this browser (once no match of theirs is under way)"},
		{"the switch saved", `localStorage.getItem("risk.lang")`, "en"},
	})
	p.eval(`window.notReloaded ? 0 : 1`, &reloads)
	if reloads != 0 {
		p.fail("the switch reloaded the page")
	}
	p.command("/risk addbot level:easy", wait)
	p.seen("the bot's answer in English", "(easy bot) takes a seat (2/6)", wait)
	p.screenshot("2-en")

	// The spectators' page speaks the switch's language, and follows a
	// switch made on the channel's page.
	p.command("/risk addbot level:easy", wait)
	p.seen("two bots", "(3/6)", wait)
	p.command("/risk start", wait)
	// (The channel's posts speak the match's language: the host's, French.)
	p.waitFor("the start", `state.info?.status === "active" && !document.getElementById("watch-link").hidden`, wait)
	var id int64
	p.eval(`+document.getElementById("watch-link").href.split("/").pop()`, &id)
	w := b.open(fmt.Sprintf("%s/watch/%d", e.ts.URL, id), shots)
	w.debug = `document.getElementById("watch").innerText`
	head := `[...document.querySelectorAll("#standings thead th")].map(th => th.textContent).join("|")`
	w.waitFor("the standings in English", head+` === "|Player|Territories|Armies|Cards|"`, wait)
	w.waitFor("the match in English", `document.getElementById("title").textContent === "Match `+fmt.Sprint(id)+` in #mots" && document.getElementById("status").textContent === "active — turn 0, setup"`, wait)
	p.call("Page.bringToFront", nil)
	p.eval(`(() => { const s = document.getElementById("lang"); s.value = "fr"; s.dispatchEvent(new Event("change")); return 0; })()`, nil)
	p.waitFor("the channel's page in French", `document.getElementById("show-seats").textContent === "👥 Joueurs"`, wait)
	w.waitFor("the standings in French", head+` === "|Joueur|Territoires|Armées|Cartes|"`, wait)
	w.waitFor("the match in French", `document.documentElement.lang === "fr" && document.getElementById("title").textContent === "Partie `+fmt.Sprint(id)+` dans #mots" && document.getElementById("status").textContent === "en cours — tour 0, mise en place" && document.querySelector("#watch h2").textContent === "Tours"`, wait)
	w.screenshot("3-watch-fr")

	// The times a message names, in the page's language: the browser's
	// words in French, the server's in English.
	times := `[...document.querySelectorAll("#messages time")].map(el => el.textContent)`
	p.call("Page.bringToFront", nil)
	p.waitFor("a time in French", times+`.some(s => /^dans \d+\sh \(\d\d\/\d\d \d\d:\d\d UTC\)$/.test(s))`, wait)
	p.eval(`(() => { const s = document.getElementById("lang"); s.value = "en"; s.dispatchEvent(new Event("change")); return 0; })()`, nil)
	p.waitFor("the times in English", times+`.length > 0 && `+times+`.every(s => /^(in|\d)/.test(s))`, wait)
}
