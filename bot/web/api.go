package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
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

// Token makes a new API token for user's seat in match id and returns it:
// shown once, to the seat's player; only its hash is kept. The bot makes
// them the same way (/risk me token): hosted.NewToken.
func (s *Server) Token(ctx context.Context, id int64, user chat.User) (string, error) {
	return hosted.NewToken(ctx, s.store, id, user, s.now())
}

// errNoToken: the request carries no token, or one the server never made;
// errRevoked: one revoked since (its player's command, a kick, a seat
// given up).
var (
	errNoToken = hosted.ErrNoToken
	errRevoked = hosted.ErrTokenRevoked
)

// seatOf returns the seat a request's token (Authorization: Bearer TOKEN)
// lets it play; errNoToken without a valid one, errRevoked for a revoked
// one.
func (s *Server) seatOf(r *http.Request) (hosted.TokenSeat, bool, error) {
	return s.bearer(r, s.tokens.Of)
}

// madeSeatOf is seatOf without the check that the token is still good:
// what is done with the seat must check it (TokenSeat.Requires, revoked).
func (s *Server) madeSeatOf(r *http.Request) (hosted.TokenSeat, bool, error) {
	return s.bearer(r, s.tokens.Seat)
}

// bearer reads a request's token with seat, and reports whether it has
// one.
func (s *Server) bearer(r *http.Request, seat func(context.Context, string) (hosted.TokenSeat, error)) (hosted.TokenSeat, bool, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return hosted.TokenSeat{}, false, nil
	}
	// The scheme's name is case-insensitive (RFC 9110, 11.1).
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return hosted.TokenSeat{}, true, errNoToken
	}
	ts, err := seat(r.Context(), tok)
	return ts, true, err
}

// revoked answers a request whose token (made for ts) is no longer good,
// and reports whether it did: 401 if it was revoked, 503 if the database
// cannot say.
func (s *Server) revoked(w http.ResponseWriter, r *http.Request, ts hosted.TokenSeat) bool {
	if err := hosted.CheckToken(r.Context(), s.store, ts); err != nil {
		s.tokenProblem(w, err)
		return true
	}
	return false
}

// tokenProblem answers a request whose token is not good: 401 for one
// the server never made or revoked since, 503 if the database is away.
func (s *Server) tokenProblem(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errRevoked):
		problem(w, http.StatusUnauthorized, "the token was revoked (by its player, or with its seat): ask for a new one")
	case errors.Is(err, errNoToken):
		problem(w, http.StatusUnauthorized, "the token is not valid")
	default:
		s.log.Error("read a token", "err", err)
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
	}
}

// token gives the page's player their seat's API token: {"channel", "as"}.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Channel string `json:"channel"`
		As      string `json:"as"`
	}
	if status, err := readJSON(w, r, maxForm, &in); err != nil {
		problem(w, status, "%v", err)
		return
	}
	channel, user, _, ok := s.actor(w, r, in.Channel, in.As)
	if !ok {
		return
	}
	l, err := s.bot.Matches().Active(r.Context(), channel)
	if err != nil || l.Game == nil || l.Game.State.SeatByID(user.ID) < 0 {
		problem(w, http.StatusNotFound, "%s has no seat in a started match here", user.Name)
		return
	}
	tok, err := s.Token(r.Context(), l.ID, user)
	if err != nil {
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"match": l.ID, "token": tok})
}

// matchID reads the {id} of a path.
func matchID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		problem(w, http.StatusNotFound, "no such match")
		return 0, false
	}
	return id, true
}

// loadMatch loads match id for the API, answering the failures.
func (s *Server) loadMatch(w http.ResponseWriter, r *http.Request) (*bot.MatchInfo, bool) {
	id, ok := matchID(w, r)
	if !ok {
		return nil, false
	}
	mi, err := s.bot.Match(r.Context(), id)
	switch {
	case errors.Is(err, bot.ErrNoMatch):
		problem(w, http.StatusNotFound, "no such match")
		return nil, false
	case err != nil:
		s.log.Error("load a match for the API", "match", id, "err", err)
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

func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	id, ok := matchID(w, r)
	if !ok {
		return
	}
	ts, has, err := s.seatOf(r)
	if err != nil {
		s.tokenProblem(w, err)
		return
	}
	if has && ts.Match != id {
		problem(w, http.StatusForbidden, "the token is for another match")
		return
	}
	// The match's head says whether an answer kept is still the answer:
	// a match at a version is that match, whoever changed it.
	h, err := s.store.Head(r.Context(), id)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		problem(w, http.StatusNotFound, "no such match")
		return
	case err != nil:
		s.log.Error("read a match's version for the API", "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
		return
	}
	key := answerKey{match: id, version: h.Version}
	if has {
		key.user = ts.User
	}
	if body, ok := s.answers.Get(key); ok {
		writeAnswer(w, body)
		return
	}
	// When a match changes, its spectators' pages all ask at once: one
	// of them loads it, the others wait for its answer.
	// (Whoever waits is answered even if the one loading goes away.)
	ctx := context.WithoutCancel(r.Context())
	a := s.answering.do(key, func() answer { return s.matchAnswer(ctx, id, ts, has) })
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
// seat of ts (if has), keeping a 200 in s.answers.
func (s *Server) matchAnswer(ctx context.Context, id int64, ts hosted.TokenSeat, has bool) answer {
	mi, err := s.bot.Match(ctx, id)
	switch {
	case errors.Is(err, bot.ErrNoMatch):
		return answer{status: http.StatusNotFound, problem: "no such match"}
	case err != nil:
		s.log.Error("load a match for the API", "match", id, "err", err)
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
		s.log.Error("write a match for the API", "match", id, "err", err)
		return answer{status: http.StatusServiceUnavailable, problem: "the match is unavailable"}
	}
	body = append(body, '\n')
	key := answerKey{match: id, version: mi.Version} // what was loaded, which may be newer than the head
	if has {
		key.user = ts.User
	}
	s.answers.Add(key, body)
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

func (s *Server) apiCommands(w http.ResponseWriter, r *http.Request) {
	id, ok := matchID(w, r)
	if !ok {
		return
	}
	after := 0
	if a := r.URL.Query().Get("after"); a != "" {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			problem(w, http.StatusBadRequest, "after: want a number of commands, 0 or more")
			return
		}
		after = n
	}
	ts, has, err := s.seatOf(r)
	if err != nil {
		s.tokenProblem(w, err)
		return
	}
	if has && ts.Match != id {
		problem(w, http.StatusForbidden, "the token is for another match")
		return
	}
	ex, total, err := s.store.ExportLog(r.Context(), id, after, maxEntries)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		problem(w, http.StatusNotFound, "no such match")
		return
	case err != nil:
		s.log.Error("export a match for the API", "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
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
		told, err := s.toldLog(r, id, user)
		switch {
		case errors.Is(err, errNotSeated):
			problem(w, http.StatusForbidden, "the token is for another match")
			return
		case err != nil:
			s.log.Error("tell a match's log for the API", "match", id, "err", err)
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
func (s *Server) toldLog(r *http.Request, id int64, user string) (*engine.Record, error) {
	tl := s.told.GetOrAdd(tellKey{match: id, user: user}, func() *telling { return &telling{} })
	tl.mu.Lock()
	defer tl.mu.Unlock()
	after := 0
	if tl.t != nil {
		after = tl.t.Len()
	}
	x, total, err := s.store.ExportLog(r.Context(), id, after, 0)
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

func (s *Server) apiPlay(w http.ResponseWriter, r *http.Request) {
	id, ok := matchID(w, r)
	if !ok {
		return
	}
	// The token's seat is read from memory once read. That the token is
	// still good is checked by the command's save, in its transaction
	// (TokenSeat.Requires), and by a read before any other answer: a
	// revoked token stops at once, in every process.
	ts, has, err := s.madeSeatOf(r)
	switch {
	case !has:
		problem(w, http.StatusUnauthorized, "a seat's token is needed: Authorization: Bearer TOKEN")
		return
	case err != nil:
		s.tokenProblem(w, err)
		return
	case ts.Match != id:
		if s.revoked(w, r, ts) {
			return
		}
		if _, err := s.store.Head(r.Context(), id); errors.Is(err, storage.ErrNotFound) {
			problem(w, http.StatusNotFound, "no such match")
			return
		}
		problem(w, http.StatusForbidden, "the token is for another match")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if !s.revoked(w, r, ts) {
			problem(w, http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", maxBody)
		}
		return
	}
	version, cmd, err := decodePlay(body)
	if err != nil {
		if !s.revoked(w, r, ts) {
			problem(w, http.StatusBadRequest, "%v", err)
		}
		return
	}
	reply, length, err := s.bot.PlayRequiring(r.Context(), id, chat.User{ID: ts.User, Name: ts.Name}, version, cmd, ts.Requires())
	if err != nil && !errors.Is(err, bot.ErrRevoked) && s.revoked(w, r, ts) {
		return
	}
	var rc *bot.RefusedCommand
	switch {
	case errors.Is(err, bot.ErrRevoked):
		s.tokenProblem(w, errRevoked)
	case errors.As(err, &rc):
		problem(w, http.StatusForbidden, "%s", rc.Reason)
	case errors.Is(err, bot.ErrStale):
		problem(w, http.StatusConflict, "%s", strings.TrimPrefix(err.Error(), "bot: "))
	case errors.Is(err, bot.ErrNoMatch):
		problem(w, http.StatusNotFound, "no such match")
	case errors.Is(err, bot.ErrNotPlaying):
		problem(w, http.StatusServiceUnavailable, "the match is not being played (in its lobby, or over)")
	case err != nil:
		s.log.Error("play a command of the API", "match", id, "err", err)
		problem(w, http.StatusServiceUnavailable, "the match is unavailable")
	default:
		writeJSON(w, http.StatusOK, map[string]any{"index": version + 1, "commands": length, "reply": reply})
	}
}

func (s *Server) apiMap(w http.ResponseWriter, r *http.Request) {
	mi, ok := s.loadMatch(w, r)
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
		s.log.Error("draw a map for the API", "match", mi.ID, "err", err)
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

// limiter bounds each client's requests: a bucket of Burst tokens per
// address, refilled at Rate a second.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token of client's bucket, if there is one.
func (l *limiter) allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.buckets) > 10000 {
		// Forget the full buckets: they are as good as new.
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
	}
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// limited answers 429 to a client over its bound.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.limit.allow(clientOf(r)) {
			w.Header().Set("Retry-After", "1")
			problem(w, http.StatusTooManyRequests, "too many requests: slow down")
			return
		}
		h(w, r)
	}
}
