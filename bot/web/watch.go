package web

import (
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"

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
	s.sessionOf(w, r)
	serveFile(w, "index.html")
}

// static serves the page's script and style.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
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

// watchPage serves the spectators' page of a match.
func (s *Server) watchPage(w http.ResponseWriter, r *http.Request) {
	if _, ok := matchID(w, r); !ok {
		return
	}
	serveFile(w, "watch.html")
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
// same database: the match is looked at every second).
func (s *Server) watchEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := matchID(w, r)
	if !ok {
		return
	}
	l, err := s.store.Load(r.Context(), id)
	if errors.Is(err, storage.ErrNotFound) {
		problem(w, http.StatusNotFound, "no such match")
		return
	}
	if err != nil {
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
		return
	}
	var last watchState
	onState := func() []byte {
		l, err := s.store.Load(r.Context(), id)
		if err != nil {
			return nil
		}
		st := watchState{Version: l.Version, Status: l.Status.String()}
		if l.Game != nil {
			st.Commands = l.Game.Version
		}
		if st == last {
			return nil
		}
		last = st
		b, _ := json.Marshal(st)
		return b
	}
	s.stream(w, r, l.Channel, &sub{ch: make(chan []byte, 64), state: make(chan struct{}, 1)}, onState)
}
