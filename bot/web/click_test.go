package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestClickOnAnOldPrivateAnswer: the answer to a button of a private
// answer replaces it while it is the newest message its reader sees; once
// others came after it (turns later), the answer goes at the end, and the
// old answer keeps its words, without its buttons.
func TestClickOnAnOldPrivateAnswer(t *testing.T) {
	e := newEnv(t, Config{})
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("claim Ann: %d %s", status, body)
	}
	send := func(path string, v map[string]string) {
		t.Helper()
		v["channel"], v["as"] = "old", "Ann"
		b, _ := json.Marshal(v)
		if status, body := ann.post(path, string(b)); status != http.StatusOK {
			t.Fatalf("%s %v: %d %s", path, v, status, body)
		}
		e.bot.Wait()
	}
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk addbot level:easy", "/risk start", "/risk place", "/risk show history"} {
		send("/web/command", map[string]string{"line": l})
	}
	se := e.srv.browsers.known(context.Background(), cookieOf(t, ann, e))
	seen := func() []view { return e.backlog(t, Prefix+"old", se) }
	first := seen()
	hist := first[len(first)-1]
	if hist.To != "Ann" || len(hist.Buttons) == 0 {
		t.Fatalf("the history's answer: %+v", hist)
	}
	send("/web/click", map[string]string{"message": hist.ID, "button": hist.Buttons[0][0].ID})
	now := seen()
	if len(now) != len(first) || now[len(now)-1].ID != hist.ID || now[len(now)-1].Rev != 1 {
		t.Fatalf("a button of the newest answer: %d messages, then %d, the last %s rev %d; want the answer in its place (%s rev 1)",
			len(first), len(now), now[len(now)-1].ID, now[len(now)-1].Rev, hist.ID)
	}
	hist = now[len(now)-1]
	for _, l := range []string{"/risk place", "/risk end"} {
		send("/web/command", map[string]string{"line": l})
	}
	before := seen()
	send("/web/click", map[string]string{"message": hist.ID, "button": hist.Buttons[0][0].ID})
	after := seen()
	last := after[len(after)-1]
	if len(after) != len(before)+1 || last.To != "Ann" || !strings.Contains(last.text(), "of the match&#39;s history") {
		t.Fatalf("a button of an answer far up: %d messages, then %d, the last %q; want the answer at the end", len(before), len(after), last.text())
	}
	for _, v := range after {
		if v.ID == hist.ID && (v.text() != hist.text() || len(v.Buttons) != 0) {
			t.Errorf("the old answer became %q with %d rows of buttons; want %q without buttons", v.text(), len(v.Buttons), hist.text())
		}
	}
}
