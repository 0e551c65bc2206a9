package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// The page and the spectators' page: plain HTML, CSS and JavaScript, in
// the binary, no build step and nothing fetched from elsewhere.
//
//go:embed static
var staticFiles embed.FS

// files serves the static folder.
var files, _ = fs.Sub(staticFiles, "static")

// page serves the channel page.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	s.browsers.sessionOf(w, r)
	serveFile(w, "index.html")
}

// static serves the page's script and style.
func static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name != path.Base(name) || strings.HasSuffix(name, ".html") {
		problem(w, http.StatusNotFound, "no such file")
		return
	}
	serveFile(w, name)
}

func serveFile(w http.ResponseWriter, name string) {
	b, err := fs.ReadFile(files, name)
	if err != nil {
		problem(w, http.StatusNotFound, "no such file")
		return
	}
	types := map[string]string{".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	t, ok := types[path.Ext(name)]
	if !ok {
		problem(w, http.StatusNotFound, "no such file")
		return
	}
	w.Header().Set("Content-Type", t)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// watchPage serves the spectators' page of a match, or a page saying
// there is none.
func (ws *watchers) watchPage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		missing(w, r, http.StatusNotFound, lang.M("page.missing.not-a-match", "Name", lang.Text(chat.Trunc(r.PathValue("id"), 40))))
		return
	}
	switch _, err := ws.store.Head(r.Context(), id); {
	case errors.Is(err, storage.ErrNotFound):
		missing(w, r, http.StatusNotFound, lang.M("page.missing.no-match", "Match", id))
		return
	case err != nil:
		missing(w, r, http.StatusServiceUnavailable, lang.M("page.missing.unreadable"))
		return
	}
	serveFile(w, "watch.html")
}

// missing answers a page's visitor, not a program, that what they asked
// for is not there, in the browser's language.
func missing(w http.ResponseWriter, r *http.Request, status int, msg lang.Msg) {
	p := lang.For(lang.FromLocale(pageLocale(r)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", string(p.Tag()))
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!doctype html><html lang="%s"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>%s</title><link rel="stylesheet" href="/static/style.css"></head><body class="watch"><div id="watch"><header>%s</header><p>%s</p><p><a href="/">%s</a></p></div></body></html>`,
		p.Tag(), html.EscapeString(p.T("page.missing.title")), html.EscapeString(p.T("page.missing.heading")), html.EscapeString(p.Msg(msg)), html.EscapeString(p.T("page.missing.open")))
}

// watchState is what a spectator's page is told when a match changes.
type watchState struct {
	Version  int64  `json:"version"`
	Commands int    `json:"commands"`
	Status   string `json:"status"`
}

// watchEvents streams a match to a spectator: the public messages of its
// channel (when the page hosts it) and a "state" event each time it
// changes, whoever changed it (this server, or another process on the
// same database). However many spectators follow a match, one watcher
// looks at it, and none once they have gone.
func (ws *watchers) watchEvents(w http.ResponseWriter, r *http.Request, id int64) {
	h, err := ws.store.Head(r.Context(), id)
	if errors.Is(err, storage.ErrNotFound) {
		problem(w, http.StatusNotFound, "no such match")
		return
	}
	if err != nil {
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
		return
	}
	sb := &sub{ch: make(chan []byte, 64), state: make(chan struct{}, 1)}
	wt := ws.follow(id, sb.state, stateOf(h))
	defer ws.leave(wt, sb.state)
	var last []byte
	onState := func() []byte {
		b := wt.current()
		if bytes.Equal(b, last) {
			return nil
		}
		last = b
		return b
	}
	ws.feeds.stream(w, r, h.Channel, sb, onState)
}

// stateOf is what spectators are told of a match.
func stateOf(h storage.Head) []byte {
	b, _ := json.Marshal(watchState{Version: h.Version, Commands: h.Commands, Status: h.Status.String()})
	return b
}

// watchEvery is how often a followed match is looked at.
const watchEvery = time.Second

// headStore says where a match stands without loading it: what the
// watchers look at, and what the Activity's gate checks a match's channel
// by.
type headStore interface {
	Head(ctx context.Context, id int64) (storage.Head, error)
}

// watchers look at the matches spectators follow, one each.
type watchers struct {
	store headStore
	// feeds stream the public messages of a match's channel.
	feeds *feeds
	// every is how often a followed match is looked at: watchEvery.
	every time.Duration
	mu    sync.Mutex
	by    map[int64]*watcher
	// looking counts the watchers at work.
	looking int
}

// watcher looks at one match every second while someone follows it, and
// nudges its followers when it changes.
type watcher struct {
	id   int64
	stop context.CancelFunc
	subs map[chan struct{}]bool // under watchers.mu

	mu    sync.Mutex
	state []byte
}

func newWatchers(store headStore) *watchers {
	return &watchers{store: store, every: watchEvery, by: map[int64]*watcher{}}
}

// follow adds a follower (nudged on a change) to match id's watcher,
// starting it if there is none; state is the match as the follower just
// loaded it.
func (ws *watchers) follow(id int64, nudge chan struct{}, state []byte) *watcher {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	wt, ok := ws.by[id]
	if !ok {
		ctx, cancel := context.WithCancel(context.Background())
		wt = &watcher{id: id, stop: cancel, subs: map[chan struct{}]bool{}, state: state}
		ws.by[id] = wt
		ws.looking++
		go ws.look(ctx, wt)
	}
	wt.subs[nudge] = true
	return wt
}

// leave removes a follower, and the watcher with the last one.
func (ws *watchers) leave(wt *watcher, nudge chan struct{}) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(wt.subs, nudge)
	if len(wt.subs) == 0 {
		wt.stop()
		delete(ws.by, wt.id)
	}
}

// look asks for the match's head (its version, not the match) every
// second until no one follows it; only the followers' pages load it, when
// it changed (one load for all: Server.answering).
func (ws *watchers) look(ctx context.Context, wt *watcher) {
	defer func() {
		ws.mu.Lock()
		ws.looking--
		ws.mu.Unlock()
	}()
	t := time.NewTicker(ws.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h, err := ws.store.Head(ctx, wt.id)
		if err != nil {
			continue
		}
		b := stateOf(h)
		wt.mu.Lock()
		changed := !bytes.Equal(b, wt.state)
		wt.state = b
		wt.mu.Unlock()
		if !changed {
			continue
		}
		ws.mu.Lock()
		for c := range wt.subs {
			select {
			case c <- struct{}{}:
			default:
			}
		}
		ws.mu.Unlock()
	}
}

// current is the match's state as last seen.
func (wt *watcher) current() []byte {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	return wt.state
}
