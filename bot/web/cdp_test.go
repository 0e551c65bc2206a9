package web

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/riskbot/riskbot/internal/racetest"
)

// A small driver of a real browser (Debian's chromium) over the DevTools
// protocol, on the WebSocket library the repository has already: a page is
// opened, scripts are run in it, keys typed and screenshots taken.

// chromium returns the browser to drive, or "" if there is none.
func chromium() string {
	if p := os.Getenv("RISK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless chromium.
type browser struct {
	t    *testing.T
	cmd  *exec.Cmd
	addr string // host:port of its DevTools endpoint
	// exited is closed when the browser's process has ended.
	exited chan struct{}
}

// newBrowser starts a headless chromium, skipping the test without one.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserIn(t, "")
}

// underRace reports whether the browser test named test (or one of its
// subtests) runs under the race detector too: the match played from the
// page, the restart and the seat that comes back, where the server's
// goroutines meet most. The others drive the page more than the server, and
// under the detector the server's renders are several times slower: they
// took 330 s of the 376 s of go test -race ./bot/web. CI runs every browser
// test without the detector (.ci/run, the browser step).
func underRace(test string) bool {
	top, _, _ := strings.Cut(test, "/")
	switch top {
	case "TestBrowser", "TestBrowserRestart", "TestBrowserSeatComesBack":
		return true
	}
	return false
}

// newBrowserIn starts a headless chromium on the profile in dir, which
// outlives it (a browser closed and started again on it is the same
// browser to a site: its cookies, its storage); "" is a profile of its
// own, removed with it.
func newBrowserIn(t *testing.T, dir string) *browser {
	t.Helper()
	if racetest.Enabled && !underRace(t.Name()) {
		t.Skip("under the race detector only the browser tests of underRace run; CI runs them all without it")
	}
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium (apt-get install chromium); CI installs it and fails if this test skips")
	}
	own := dir == ""
	if own {
		var err error
		if dir, err = os.MkdirTemp("", "risk-chromium-"); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--user-data-dir=" + dir,
		"--window-size=1280,900", "--hide-scrollbars", "about:blank"}
	cmd := exec.Command(bin, args...)
	ownGroup(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	b := &browser{t: t, cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(b.exited) }()
	t.Cleanup(func() {
		killGroup(cmd)
		<-b.exited
		if !own {
			return
		}
		// The browser's last writes may land just after its death: try
		// again for a while before giving up on its profile.
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if err := os.RemoveAll(dir); err == nil || time.Now().After(end) {
				if err != nil {
					t.Logf("remove the browser's profile: %v", err)
				}
				break
			}
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "DevTools listening on ws://"); ok && !sent {
				host, _, _ := strings.Cut(rest, "/")
				found <- host
				sent = true
			}
		}
	}()
	select {
	case b.addr = <-found:
	case <-time.After(90 * time.Second):
		t.Fatal("chromium did not say where DevTools listens")
	}
	return b
}

// call sends a command to the browser itself (not a tab) and decodes its
// result into v.
func (b *browser) call(method string, params, v any) {
	t := b.t
	t.Helper()
	res, err := http.Get("http://" + b.addr + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	var version struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	err = json.NewDecoder(res.Body).Decode(&version)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	ws, _, err := websocket.DefaultDialer.Dial(version.WS, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteJSON(map[string]any{"id": 1, "method": method, "params": params}); err != nil {
		t.Fatal(err)
	}
	for {
		var msg struct {
			ID int `json:"id"`
			cdpReply
		}
		if err := ws.ReadJSON(&msg); err != nil {
			if method == "Browser.close" {
				return // it closed before it answered
			}
			t.Fatalf("%s: %v", method, err)
		}
		if msg.ID != 1 {
			continue
		}
		if msg.Error != nil {
			t.Fatalf("%s: %s", method, msg.Error.Message)
		}
		if v != nil {
			if err := json.Unmarshal(msg.Result, v); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
}

// newContext makes a browser context: cookies and storage of its own, as
// another browser would have, in the same process.
func (b *browser) newContext() string {
	b.t.Helper()
	var out struct {
		ID string `json:"browserContextId"`
	}
	b.call("Target.createBrowserContext", map[string]any{}, &out)
	return out.ID
}

// openIn opens a new tab at url in a browser context (newContext).
func (b *browser) openIn(context, url, shots string) *page {
	b.t.Helper()
	var out struct {
		ID string `json:"targetId"`
	}
	b.call("Target.createTarget", map[string]any{"url": "about:blank", "browserContextId": context}, &out)
	return b.attach("ws://"+b.addr+"/devtools/page/"+out.ID, url, shots, 0, 0)
}

// close closes the browser as a person would (its profile written to
// disk), and waits for it to end.
func (b *browser) close() {
	b.t.Helper()
	b.call("Browser.close", map[string]any{}, nil)
	select {
	case <-b.exited:
	case <-time.After(30 * time.Second):
		b.t.Fatal("chromium did not close")
	}
	killGroup(b.cmd) // what the wrapper script left
}

// page is one tab, driven over its own WebSocket.
type page struct {
	t    *testing.T
	ws   *websocket.Conn
	dir  string // screenshots go here
	mu   sync.Mutex
	next int
	wait map[int]chan cdpReply
	done chan struct{}
	logs []string
	// debug is a script whose value is shown when the test fails.
	debug string
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// open opens a new tab at url, in the browser's window.
func (b *browser) open(url, shots string) *page {
	return b.openSized(url, shots, 0, 0)
}

// openPhone opens a new tab at url as a phone shows it: 390 by 844 CSS
// pixels, touch, the mobile viewport.
func (b *browser) openPhone(url, shots string) *page {
	return b.openSized(url, shots, 390, 844)
}

// openSized opens a new tab at url, width by height CSS pixels (0: the
// window's size), as a phone if at most 800 wide.
func (b *browser) openSized(url, shots string, width, height int) *page {
	t := b.t
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, "http://"+b.addr+"/json/new?about:blank", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var target struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(res.Body).Decode(&target); err != nil || target.WS == "" {
		t.Fatalf("open a tab: %v (%s)", err, res.Status)
	}
	return b.attach(target.WS, url, shots, width, height)
}

// attach drives the tab of a DevTools WebSocket address, and opens url in
// it, width by height CSS pixels as a phone (0: the window's size).
func (b *browser) attach(wsURL, url, shots string, width, height int) *page {
	t := b.t
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ws: ws, dir: shots, wait: map[int]chan cdpReply{}, done: make(chan struct{})}
	go p.read()
	t.Cleanup(func() { ws.Close(); <-p.done })
	p.call("Runtime.enable", nil)
	p.call("Page.enable", nil)
	if width > 0 {
		phone := width <= 800
		scale := 1
		if phone {
			scale = 2
		}
		p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": scale, "mobile": phone})
		p.call("Emulation.setTouchEmulationEnabled", map[string]any{"enabled": phone})
	}
	p.call("Page.navigate", map[string]any{"url": url})
	return p
}

func (p *page) read() {
	defer close(p.done)
	for {
		var msg struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			cdpReply
		}
		if err := p.ws.ReadJSON(&msg); err != nil {
			return
		}
		if msg.ID == 0 {
			if msg.Method == "Runtime.exceptionThrown" || msg.Method == "Runtime.consoleAPICalled" {
				p.mu.Lock()
				p.logs = append(p.logs, msg.Method+": "+string(msg.Params))
				p.mu.Unlock()
			}
			continue
		}
		p.mu.Lock()
		ch := p.wait[msg.ID]
		delete(p.wait, msg.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- msg.cdpReply
		}
	}
}

// call sends a DevTools command and returns its result.
func (p *page) call(method string, params any) json.RawMessage {
	p.t.Helper()
	p.mu.Lock()
	p.next++
	id := p.next
	ch := make(chan cdpReply, 1)
	p.wait[id] = ch
	err := p.ws.WriteJSON(map[string]any{"id": id, "method": method, "params": params})
	p.mu.Unlock()
	if err != nil {
		p.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			p.t.Fatalf("%s: %s", method, r.Error.Message)
		}
		return r.Result
	case <-time.After(60 * time.Second):
		p.fail("%s: no answer", method)
	}
	return nil
}

// eval runs a script (awaiting a promise) and decodes its value into v.
func (p *page) eval(script string, v any) {
	p.t.Helper()
	raw := p.call("Runtime.evaluate", map[string]any{"expression": script, "awaitPromise": true, "returnByValue": true})
	var out struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		p.t.Fatal(err)
	}
	if out.Exception != nil {
		p.fail("script %q: %s %s", script, out.Exception.Text, out.Exception.Exception.Description)
	}
	if v != nil && len(out.Result.Value) > 0 {
		if err := json.Unmarshal(out.Result.Value, v); err != nil {
			p.fail("script %q: decode %s: %v", script, out.Result.Value, err)
		}
	}
}

// waitFor waits until a script's value is true.
func (p *page) waitFor(what, script string, timeout time.Duration) {
	p.t.Helper()
	if !p.becomes(script, timeout) {
		p.fail("waited %v for %s", timeout, what)
	}
}

// becomes reports whether a script's value turns true within timeout.
func (p *page) becomes(script string, timeout time.Duration) bool {
	p.t.Helper()
	end := time.Now().Add(timeout)
	for {
		var ok bool
		p.eval("!!("+script+")", &ok)
		if ok || time.Now().After(end) {
			return ok
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// typeText types text into the focused element, as keys would.
func (p *page) typeText(text string) {
	p.t.Helper()
	p.call("Input.insertText", map[string]any{"text": text})
}

// key presses a key (Enter, Tab, ArrowDown) on the focused element.
func (p *page) key(name string) {
	p.t.Helper()
	codes := map[string]int{"Enter": 13, "Tab": 9, "ArrowDown": 40, "ArrowUp": 38, "Escape": 27}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		params := map[string]any{"type": typ, "key": name, "code": name, "windowsVirtualKeyCode": codes[name]}
		if name == "Enter" && typ == "rawKeyDown" {
			params["text"] = "\r"
			params["type"] = "keyDown"
		}
		p.call("Input.dispatchKeyEvent", params)
	}
}

// screenshot saves the page as a PNG under the page's folder and returns
// its path.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	raw := p.call("Page.captureScreenshot", map[string]any{"format": "png"})
	var out struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		p.t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(p.dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// fail saves a screenshot and the page's console, then fails the test.
func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	msg := fmt.Sprintf(format, args...)
	shot := p.trySave("failure")
	if p.debug != "" {
		raw := p.call("Runtime.evaluate", map[string]any{"expression": p.debug, "returnByValue": true})
		msg += "\npage state: " + string(raw)
	}
	p.mu.Lock()
	logs := strings.Join(p.logs, "\n")
	p.mu.Unlock()
	p.t.Fatalf("%s\nscreenshot: %s\npage console:\n%s", msg, shot, logs)
}

// trySave takes a screenshot without failing the test if it cannot.
func (p *page) trySave(name string) string {
	p.mu.Lock()
	p.next++
	id := p.next
	rc := make(chan cdpReply, 1)
	p.wait[id] = rc
	err := p.ws.WriteJSON(map[string]any{"id": id, "method": "Page.captureScreenshot", "params": map[string]any{"format": "png"}})
	p.mu.Unlock()
	if err != nil {
		return "(none: " + err.Error() + ")"
	}
	select {
	case r := <-rc:
		var out struct {
			Data string `json:"data"`
		}
		_ = json.Unmarshal(r.Result, &out)
		png, _ := base64.StdEncoding.DecodeString(out.Data)
		path := filepath.Join(p.dir, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			return "(none: " + err.Error() + ")"
		}
		return path
	case <-time.After(10 * time.Second):
		return "(none: timeout)"
	}
}
