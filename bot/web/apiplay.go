package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// maxBody bounds a POSTed command.
const maxBody = 4 << 10

// playJSON is the body of POST /api/matches/{id}/commands.
type playJSON struct {
	// Version is the number of commands in the log the command follows.
	Version *int            `json:"version"`
	Command json.RawMessage `json:"command"`
}

// decodePlay reads a POSTed command strictly: both fields, no others,
// a command the engine knows.
func decodePlay(b []byte) (int, engine.Command, error) {
	var p playJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return 0, nil, fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return 0, nil, errors.New("bad JSON: data after the value")
	}
	if p.Version == nil || *p.Version < 0 {
		return 0, nil, errors.New("version: want the number of commands in the log, 0 or more")
	}
	if len(p.Command) == 0 {
		return 0, nil, errors.New("command: missing")
	}
	c, err := engine.UnmarshalCommand(p.Command)
	if err != nil {
		return 0, nil, err
	}
	if _, ok := c.(engine.Undo); ok {
		return 0, nil, errors.New("command: undo is not played through the API")
	}
	if _, ok := c.(engine.Rollback); ok {
		return 0, nil, errors.New("command: a rollback is the host's, with /risk host rollback, not the API's")
	}
	return *p.Version, c, nil
}

func (ap *api) apiPlay(w http.ResponseWriter, r *http.Request, id int64) {
	// The token's seat is read from memory once read. That the token is
	// still good is checked by the command's save, in its transaction
	// (TokenSeat.Requires), and by a read before any other answer: a
	// revoked token stops at once, in every process.
	ts, has, err := ap.madeSeatOf(r)
	switch {
	case !has:
		problem(w, http.StatusUnauthorized, "a seat's token is needed: Authorization: Bearer TOKEN")
		return
	case err != nil:
		ap.tokenProblem(w, err)
		return
	case ts.Match != id:
		if ap.revoked(w, r) {
			return
		}
		if _, err := ap.store.Head(r.Context(), id); errors.Is(err, storage.ErrNotFound) {
			problem(w, http.StatusNotFound, "no such match")
			return
		}
		problem(w, http.StatusForbidden, "the token is for another match")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if !ap.revoked(w, r) {
			problem(w, http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", maxBody)
		}
		return
	}
	version, cmd, err := decodePlay(body)
	if err != nil {
		if !ap.revoked(w, r) {
			problem(w, http.StatusBadRequest, "%v", err)
		}
		return
	}
	reply, length, err := ap.bot.PlayRequiring(r.Context(), id, chat.User{ID: ts.User, Name: ts.Name}, version, cmd, ts.Requires())
	if err != nil && !errors.Is(err, bot.ErrRevoked) && ap.revoked(w, r) {
		return
	}
	var rc *bot.RefusedCommand
	switch {
	case errors.Is(err, bot.ErrRevoked):
		ap.tokenProblem(w, errRevoked)
	case errors.As(err, &rc):
		problem(w, http.StatusForbidden, "%s", rc.Reason)
	case errors.Is(err, bot.ErrStale):
		problem(w, http.StatusConflict, "%s", strings.TrimPrefix(err.Error(), "bot: "))
	case errors.Is(err, bot.ErrNoMatch):
		problem(w, http.StatusNotFound, "no such match")
	case errors.Is(err, bot.ErrNotPlaying):
		problem(w, http.StatusServiceUnavailable, "the match is not being played (in its lobby, or over)")
	case err != nil:
		ap.log.Error("play a command of the API", "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
	default:
		writeJSON(w, http.StatusOK, map[string]any{"index": version + 1, "commands": length, "reply": reply})
	}
}

func (ap *api) apiMap(w http.ResponseWriter, r *http.Request) {
	mi, ok := ap.loadMatch(w, r)
	if !ok {
		return
	}
	if mi.Game == nil {
		problem(w, http.StatusServiceUnavailable, "the match has not started")
		return
	}
	at := mi.Game.Version
	if a := r.URL.Query().Get("at"); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 || n > mi.Game.Version {
			problem(w, http.StatusBadRequest, "at: want a number of commands from 0 to %d", mi.Game.Version)
			return
		}
		at = n
	}
	png, err := mi.Map(r.Context(), at)
	if err != nil {
		ap.log.Error("draw a map for the API", "match", mi.ID, "err", err)
		problem(w, http.StatusServiceUnavailable, "the map could not be drawn")
		return
	}
	w.Header().Set("Content-Type", "image/png")
	if at < mi.Game.Version {
		w.Header().Set("Cache-Control", "public, max-age=86400")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	_, _ = w.Write(png)
}
