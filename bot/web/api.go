package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/internal/lru"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The match API (docs/api.md):
//
//	GET  /api/matches/{id}                  the public view; a seat's own with its token
//	GET  /api/matches/{id}/commands?after=N the log after its first N commands, with their dice
//	                                        (while played, as the caller may see it: Record.Tell)
//	POST /api/matches/{id}/commands         play a command as a seat (its token)
//	GET  /api/matches/{id}/map.png?at=N     the map, now or after N commands
//	GET  /api/matches/{id}/regions          where its territories lie in the map (regions.go)

// api serves the match API (docs/api.md) and keeps what makes its answers
// cheap: the answers of GET /api/matches/{id} by match, version and
// viewer, the logs told to each audience, the seats of the tokens used
// last.
type api struct {
	store apiStore
	bot   *bot.Bot // attached by Server.SetBot
	now   func() time.Time
	log   *slog.Logger
	// answers keeps the answers of GET /api/matches/{id}; answering
	// shares one making of an answer among those who ask for it at once.
	answers   *lru.Cache[answerKey, []byte]
	answering flights[answerKey, answer]
	// told keeps the logs of open matches as told to their audiences, by
	// match and token's user ("" for the public), told on as they grow:
	// toldLog.
	told *lru.Cache[tellKey, *telling]
	// tokens keeps the seats of the API tokens used last.
	tokens *tokens.Keeper
}

// apiStore is what the match API reads itself, besides the matches the
// bot loads: where a match stands, its log, and the seats' tokens (kept
// hashed in the settings).
type apiStore interface {
	tokens.Store
	Head(ctx context.Context, id int64) (storage.Head, error)
	ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error)
}

func newAPI(store apiStore, now func() time.Time, log *slog.Logger) *api {
	return &api{store: store, now: now, log: log, answers: lru.New[answerKey, []byte](cachedAnswers),
		told: lru.New[tellKey, *telling](cachedLogs), tokens: tokens.NewKeeper(store, cachedTokens)}
}

// Token makes a new API token for user's seat in match id and returns it:
// shown once, to the seat's player; only its hash is kept. The bot makes
// them the same way (/risk me token): tokens.New.
func (s *Server) Token(ctx context.Context, id int64, user chat.User) (string, error) {
	return s.api.newToken(ctx, id, user)
}

// newToken is Server.Token.
func (ap *api) newToken(ctx context.Context, id int64, user chat.User) (string, error) {
	return tokens.New(ctx, ap.store, id, user, ap.now())
}

// errNoToken: the request carries no token, or one the server never made;
// errRevoked: one revoked since (its player's command, a kick, a seat
// given up).
var (
	errNoToken = tokens.ErrUnknown
	errRevoked = tokens.ErrRevoked
)

// seatOf returns the seat a request's token (Authorization: Bearer TOKEN)
// lets it play; errNoToken without a valid one, errRevoked for a revoked
// one.
func (ap *api) seatOf(r *http.Request) (tokens.Seat, bool, error) {
	return ap.bearer(r, ap.tokens.Verify)
}

// madeSeatOf is seatOf without the check that the token is still good:
// what is done with the seat must check it (TokenSeat.Requires, revoked).
func (ap *api) madeSeatOf(r *http.Request) (tokens.Seat, bool, error) {
	return ap.bearer(r, ap.tokens.Claim)
}

// bearer reads a request's token with seat, and reports whether it has
// one.
func (ap *api) bearer(r *http.Request, seat func(context.Context, string) (tokens.Seat, error)) (tokens.Seat, bool, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return tokens.Seat{}, false, nil
	}
	// The scheme's name is case-insensitive (RFC 9110, 11.1).
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return tokens.Seat{}, true, errNoToken
	}
	ts, err := seat(r.Context(), tok)
	return ts, true, err
}

// revoked answers a request whose token is no longer good, and reports
// whether it did: 401 if it was revoked, 503 if the database cannot say.
func (ap *api) revoked(w http.ResponseWriter, r *http.Request) bool {
	if _, _, err := ap.bearer(r, ap.tokens.Verify); err != nil {
		ap.tokenProblem(w, err)
		return true
	}
	return false
}

// tokenProblem answers a request whose token is not good: 401 for one
// the server never made or revoked since, 503 if the database is away.
func (ap *api) tokenProblem(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errRevoked):
		problem(w, http.StatusUnauthorized, "the token was revoked (by its player, or with its seat): ask for a new one")
	case errors.Is(err, errNoToken):
		problem(w, http.StatusUnauthorized, "the token is not valid")
	default:
		ap.log.Error("read a token", "err", err)
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
	}
}

// tokenFor reads the token of a request about match id: its seat, and
// whether it has one. A token that is not good, or is another match's, is
// answered with its problem (ok false).
func (ap *api) tokenFor(w http.ResponseWriter, r *http.Request, id int64) (ts tokens.Seat, has, ok bool) {
	ts, has, err := ap.seatOf(r)
	if err != nil {
		ap.tokenProblem(w, err)
		return ts, has, false
	}
	if has && ts.Match != id {
		problem(w, http.StatusForbidden, "the token is for another match")
		return ts, has, false
	}
	return ts, has, true
}

// readFailed answers err, the failure of reading match id from the store
// (doing says what, for the log), and reports whether there was one: no
// such match, or the match unavailable.
func (ap *api) readFailed(w http.ResponseWriter, err error, doing string, id int64) bool {
	switch {
	case errors.Is(err, storage.ErrNotFound):
		problem(w, http.StatusNotFound, "no such match")
		return true
	case err != nil:
		ap.log.Error(doing, "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
		return true
	}
	return false
}

// loadMatch loads match id for the API, answering the failures.
func (ap *api) loadMatch(w http.ResponseWriter, r *http.Request) (*bot.MatchInfo, bool) {
	id, ok := matchID(w, r)
	if !ok {
		return nil, false
	}
	mi, err := ap.bot.Match(r.Context(), id)
	switch {
	case errors.Is(err, bot.ErrNoMatch):
		problem(w, http.StatusNotFound, "no such match")
		return nil, false
	case err != nil:
		ap.log.Error("load a match for the API", "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
		return nil, false
	}
	return mi, true
}

// seatJSON is a seat in the API's answers.
type seatJSON struct {
	Name  string `json:"name"`
	Color string `json:"color,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
}

// matchJSON is the answer of GET /api/matches/{id}.
type matchJSON struct {
	ID       int64      `json:"id"`
	Channel  string     `json:"channel"`
	Status   string     `json:"status"`
	Version  int64      `json:"version"`
	Commands int        `json:"commands"`
	Viewer   int        `json:"viewer"`
	Seats    []seatJSON `json:"seats,omitempty"`
	// State is the match as Viewer may see it (state.View): the public
	// view (-1) hides every hand, item and the generator.
	State *state.State `json:"state,omitempty"`
}

// answerKey names an answer of GET /api/matches/{id}: the match at a
// version, as a seat's user sees it ("" for the public view).
type answerKey struct {
	match, version int64
	user           string
}

// cachedAnswers is how many answers of GET /api/matches/{id} the server
// keeps: a few kilobytes each.
const cachedAnswers = 256

// cachedTokens is how many API tokens' seats the server keeps: a hundred
// bytes each.
const cachedTokens = 1024

func (ap *api) apiMatch(w http.ResponseWriter, r *http.Request, id int64) {
	ts, has, ok := ap.tokenFor(w, r, id)
	if !ok {
		return
	}
	// The match's head says whether an answer kept is still the answer:
	// a match at a version is that match, whoever changed it.
	h, err := ap.store.Head(r.Context(), id)
	if ap.readFailed(w, err, "read a match's version for the API", id) {
		return
	}
	key := answerKey{match: id, version: h.Version}
	if has {
		key.user = ts.User
	}
	if body, ok := ap.answers.Get(key); ok {
		writeAnswer(w, body)
		return
	}
	// When a match changes, its spectators' pages all ask at once: one
	// of them loads it, the others wait for its answer.
	// (Whoever waits is answered even if the one loading goes away.)
	ctx := context.WithoutCancel(r.Context())
	a := ap.answering.do(key, func() answer { return ap.matchAnswer(ctx, id, ts, has) })
	if a.status != http.StatusOK {
		problem(w, a.status, "%s", a.problem)
		return
	}
	writeAnswer(w, a.body)
}

// answer is an answer of GET /api/matches/{id}: the body of a 200, or
// another status and its problem.
type answer struct {
	status  int
	body    []byte
	problem string
}

// matchAnswer loads match id and answers GET /api/matches/{id} for the
// seat of ts (if has), keeping a 200 in ap.answers.
func (ap *api) matchAnswer(ctx context.Context, id int64, ts tokens.Seat, has bool) answer {
	mi, err := ap.bot.Match(ctx, id)
	switch {
	case errors.Is(err, bot.ErrNoMatch):
		return answer{status: http.StatusNotFound, problem: "no such match"}
	case err != nil:
		ap.log.Error("load a match for the API", "match", id, "err", err)
		return answer{status: http.StatusServiceUnavailable, problem: "the match is unavailable"}
	}
	viewer := -1
	if has {
		if mi.Game == nil || mi.Game.State.SeatByID(ts.User) < 0 {
			return answer{status: http.StatusForbidden, problem: "the token is for another match"}
		}
		viewer = mi.Game.State.SeatByID(ts.User)
	}
	out := matchJSON{ID: mi.ID, Channel: mi.Channel, Status: mi.Status.String(), Version: mi.Version, Viewer: viewer}
	if g := mi.Game; g != nil {
		out.Commands = g.Version
		out.State = g.State.View(viewer)
		for i, seat := range g.State.Seats {
			sj := seatJSON{Name: seat.Name, Bot: i < len(mi.Bots) && mi.Bots[i]}
			if i < len(mi.RGB) {
				sj.Color = fmt.Sprintf("#%06x", mi.RGB[i])
			}
			out.Seats = append(out.Seats, sj)
		}
	}
	body, err := json.Marshal(out)
	if err != nil {
		ap.log.Error("write a match for the API", "match", id, "err", err)
		return answer{status: http.StatusServiceUnavailable, problem: "the match is unavailable"}
	}
	body = append(body, '\n')
	key := answerKey{match: id, version: mi.Version} // what was loaded, which may be newer than the head
	if has {
		key.user = ts.User
	}
	ap.answers.Add(key, body)
	return answer{status: http.StatusOK, body: body}
}

// flights share a computation among the callers that ask for it at once:
// the first computes, those that ask meanwhile wait for its result.
type flights[K comparable, V any] struct {
	mu sync.Mutex
	in map[K]*flight[V]
}

type flight[V any] struct {
	done chan struct{}
	v    V
}

// do returns f's result for k: computed now, or by the caller already
// computing it.
func (fs *flights[K, V]) do(k K, f func() V) V {
	fs.mu.Lock()
	if fl, ok := fs.in[k]; ok {
		fs.mu.Unlock()
		<-fl.done
		return fl.v
	}
	if fs.in == nil {
		fs.in = map[K]*flight[V]{}
	}
	fl := &flight[V]{done: make(chan struct{})}
	fs.in[k] = fl
	fs.mu.Unlock()
	defer func() {
		fs.mu.Lock()
		delete(fs.in, k)
		fs.mu.Unlock()
		close(fl.done)
	}()
	fl.v = f()
	return fl.v
}

// writeAnswer writes a JSON answer kept, as writeJSON would have.
func writeAnswer(w http.ResponseWriter, body []byte) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
