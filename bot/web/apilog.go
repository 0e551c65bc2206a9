package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/riskbot/riskbot/engine"
)

// entryJSON is a log entry in the API: its place in the log (1 for the
// first command), the seat that played it, the command and the random
// outcomes it drew (dice faces less one, card picks), in order; while the
// match is played, those the caller may not see are -1 (engine.Withheld),
// and seen is what the entry shows the caller of hidden things
// (engine.Seen).
type entryJSON struct {
	Index int             `json:"index"`
	Seat  int             `json:"seat"`
	Cmd   json.RawMessage `json:"cmd"`
	Rand  []int32         `json:"rand,omitempty"`
	Seen  *engine.Seen    `json:"seen,omitempty"`
}

// commandsJSON is the answer of GET /api/matches/{id}/commands.
type commandsJSON struct {
	Match  int64  `json:"match"`
	Status string `json:"status"`
	// Audience is who the log is told to while the match is played: -1
	// the public, or the token's seat (engine.Record.Tell). Absent once
	// the match is over: the whole log is served.
	Audience *int `json:"audience,omitempty"`
	// Commands is the length of the log served: while the match is
	// played, up to where the secrets in progress began.
	Commands int `json:"commands"`
	// Setup starts the match: with Deal, and the generated map's name, it
	// rebuilds the start. Its seed is 0 while the match is played (the
	// dice to come must not be foreseen); a finished match shows it.
	Setup   *engine.Setup `json:"setup,omitempty"`
	Entries []entryJSON   `json:"entries"`
	// More: there are entries after these (ask again after the last).
	More bool `json:"more,omitempty"`
}

// maxEntries bounds the entries of one answer.
const maxEntries = 1000

// cachedLogs is how many told logs the server keeps (toldLog), each with
// its match's game as told so far: a few tens of bytes a command, and the
// state at the start of each turn (a rollback may return to any), a few
// kilobytes a turn.
const cachedLogs = 64

func (ap *api) apiCommands(w http.ResponseWriter, r *http.Request, id int64) {
	after := 0
	if a := r.URL.Query().Get("after"); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			problem(w, http.StatusBadRequest, "after: want a number of commands, 0 or more")
			return
		}
		after = n
	}
	ts, has, ok := ap.tokenFor(w, r, id)
	if !ok {
		return
	}
	ex, total, err := ap.store.ExportLog(r.Context(), id, after, maxEntries)
	if ap.readFailed(w, err, "export a match for the API", id) {
		return
	}
	out := commandsJSON{Match: id, Status: ex.Status.String(), Entries: []entryJSON{}}
	if ex.Status.Open() && len(ex.Record.Setup.Seats) > 0 {
		if ex.Record.Setup.Options.Fog {
			// Every command names territories and draws dice that some
			// players do not see: the log waits for the end.
			problem(w, http.StatusForbidden, "the log of a match with fog of war is served when the match ends")
			return
		}
		// While the match is played, each is told what it may see
		// (engine.Record.Tell): the public without a token, a seat with
		// its own.
		user := ""
		if has {
			user = ts.User
		}
		told, err := ap.toldLog(r, id, user)
		switch {
		case errors.Is(err, errNotSeated):
			problem(w, http.StatusForbidden, "the token is for another match")
			return
		case err != nil:
			ap.log.Error("tell a match's log for the API", "match", id, "err", err)
			problem(w, http.StatusServiceUnavailable, "the match is unavailable")
			return
		}
		total = len(told.Log)
		ex.Record = *told
		ex.Record.Log = told.Log[min(after, total):min(after+maxEntries, total)]
		out.Audience = &told.Audience
	}
	if after > total {
		problem(w, http.StatusBadRequest, "after: the log has %d commands", total)
		return
	}
	out.Commands = total
	if len(ex.Record.Setup.Seats) > 0 {
		out.Setup = &ex.Record.Setup
	}
	out.More = after+len(ex.Record.Log) < total
	for i, e := range ex.Record.Log {
		cmd, err := engine.MarshalCommand(e.Cmd)
		if err != nil {
			problem(w, http.StatusServiceUnavailable, "the match's log cannot be read")
			return
		}
		out.Entries = append(out.Entries, entryJSON{Index: after + i + 1, Seat: e.Seat, Cmd: cmd, Rand: e.Rand, Seen: e.Seen})
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// errNotSeated: the token's user has no seat in the match.
var errNotSeated = errors.New("no seat in the match")

// tellKey names a log told (toldLog): a match, to a token's user ("" for
// the public).
type tellKey struct {
	match int64
	user  string
}

// telling is the log of a match told to an audience as far as it was
// read, told on as the match goes on.
type telling struct {
	mu sync.Mutex
	t  *engine.Telling // nil until first read
}

// toldLog is the log of open match id as told to user's seat ("" for the
// public): engine.Record.Tell. A match's followers ask again and again as
// it goes on, and an entry told is the same whatever follows it: each
// audience's telling is kept (engine.Telling), and each ask reads and
// tells only the entries added since the last (a range read of the log),
// so an ask costs the same at turn 200 as at turn 10.
func (ap *api) toldLog(r *http.Request, id int64, user string) (*engine.Record, error) {
	tl := ap.told.GetOrAdd(tellKey{match: id, user: user}, func() *telling { return &telling{} })
	tl.mu.Lock()
	defer tl.mu.Unlock()
	after := 0
	if tl.t != nil {
		after = tl.t.Len()
	}
	x, total, err := ap.store.ExportLog(r.Context(), id, after, 0)
	if err != nil {
		return nil, err
	}
	if after > total {
		// (A log only grows: not the match the telling was of.)
		return nil, fmt.Errorf("web: match %d's log has %d entries, %d were told", id, total, after)
	}
	if tl.t == nil {
		audience := engine.Public
		if user != "" {
			g, err := engine.NewGame(x.Record.Setup)
			if err != nil {
				return nil, err
			}
			if audience = g.State.SeatByID(user); audience < 0 {
				return nil, errNotSeated
			}
		}
		t, err := x.Record.Telling(audience)
		if err != nil {
			return nil, err
		}
		tl.t = t
	} else if err := tl.t.Add(x.Record.Log...); err != nil {
		tl.t = nil // told anew at the next ask
		return nil, err
	}
	told := tl.t.Record()
	return &told, nil
}
