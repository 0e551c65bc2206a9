package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/storage"
)

// The settings scopes of the names browsers play. A name played from a
// browser stays bound to it, across restarts of the server, while it has a
// seat in a match under way or was used lately: a browser that comes
// without the cookie (a fresh one, or another site's request) cannot take
// over the seat, unless it proves it is the player's (the seat's token, or
// a one-time code from the browser that plays the name). Browsers are
// keyed by the SHA-256 of their cookie, codes by theirs, so a copy of the
// database lets no one act as a browser.
const (
	// nameScope: a name (in lower case) -> the browser that plays it, and
	// when it last did.
	nameScope = "web-name"
	// browserScope: a browser -> the names it plays, and whether it is
	// the operator's.
	browserScope = "web-browser"
	// codeScope: a one-time code -> the name it moves to another browser,
	// and until when.
	codeScope = "web-code"
)

// session is one browser: the players it named, whom it may act as (by
// their names in lower case), and whether it is the operator's. Its
// fields are read and written under its browsers' lock.
type session struct {
	id       string
	users    map[string]bool
	operator bool
	// activity is the Discord user and channel of a session of the
	// Activity (activity.go); nil for a browser's.
	activity *activityID
}

// nameRecord is a name's setting (nameScope).
type nameRecord struct {
	Browser string `json:"browser"`
	// Name is the name as typed (older records have none).
	Name string `json:"name,omitempty"`
	// Seen is when the name was last played (Unix seconds; 0 for names
	// kept before it was recorded, which count as seen at the start of
	// this run).
	Seen int64 `json:"seen,omitempty"`
}

// browserRecord is a browser's setting (browserScope).
type browserRecord struct {
	Names []string `json:"names"`
	// Operator is the SHA-256 of the operator's key the browser gave: it
	// is the operator's while the server runs with that key.
	Operator string `json:"operator,omitempty"`
}

// browserStore is what the browsers read and write: the sessions, names
// and codes kept as settings, the names' matches under way, and the match
// a token given as a proof names.
type browserStore interface {
	tokens.Store
	// Settings reads the page's names, once.
	Settings(ctx context.Context) ([]storage.Setting, error)
	// Seated says whether a name has a match under way.
	Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error)
	Head(ctx context.Context, id int64) (storage.Head, error)
}

// browsers are the sessions of the page and the names they play.
type browsers struct {
	store  browserStore
	tokens *tokens.Keeper // checks a token given as a proof
	now    func() time.Time
	limits Limits
	// started is when this run began: names kept without a time were
	// seen then.
	started time.Time
	// key signs the sessions' anti-forgery tokens. It lives as long as
	// the process: a page open across a restart fetches a new token.
	key []byte
	// operator is the SHA-256 of the operator's key, in hex; "" when the
	// page has no operator.
	operator string
	// activity, on the Activity's server, reads a request's session of
	// the Activity (activity.session): the only sessions there.
	activity func(*http.Request) *session

	// claiming orders claims, which read and write the store outside mu.
	claiming sync.Mutex
	// index is the names of the page, loaded once (under claiming).
	index *nameIndex

	mu       sync.Mutex
	sessions map[string]*session // by cookie
	owner    map[string]string   // name in lower case -> session cookie
	names    map[string]string   // name in lower case -> as typed
	// touched is when a name's record was last written, so that playing
	// writes it at most once a day.
	touched map[string]time.Time
}

func newBrowsers(store browserStore, tk *tokens.Keeper, now func() time.Time, limits Limits, operatorKey string) *browsers {
	key, _ := hex.DecodeString(randomHex(32))
	op := ""
	if operatorKey != "" {
		op = cookieHash(operatorKey)
	}
	return &browsers{store: store, tokens: tk, now: now, limits: limits, started: now(), key: key, operator: op,
		sessions: map[string]*session{}, owner: map[string]string{}, names: map[string]string{}, touched: map[string]time.Time{}}
}

const cookieName = "risk_session"

// maxSessions bounds the browsers remembered before those that named
// nobody are forgotten.
const maxSessions = 10000

// SessionDays is how long a browser keeps its session cookie after its
// last visit: each visit of the page renews it, so closing the browser
// loses nothing. (Its names outlive it while their matches go on.)
const SessionDays = 180

// sessionOf returns the browser's session, starting one (with its cookie)
// if it has none. A cookie of an earlier run of the server gets back the
// names it played.
func (b *browsers) sessionOf(w http.ResponseWriter, r *http.Request) *session {
	if b.activity != nil {
		if se := b.activity(r); se != nil {
			return se
		}
		return &session{users: map[string]bool{}} // nobody's, and kept nowhere
	}
	if c, err := r.Cookie(cookieName); err == nil {
		if se := b.known(r.Context(), c.Value); se != nil {
			return se
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sessions) >= maxSessions {
		// Browsers that never named a player are forgotten first: a
		// client without cookies makes a session per request.
		for id, old := range b.sessions {
			if len(old.users) == 0 && !old.operator {
				delete(b.sessions, id)
			}
		}
	}
	se := &session{id: randomHex(16), users: map[string]bool{}}
	b.sessions[se.id] = se
	setCookie(w, se)
	return se
}

// setCookie gives a browser its session's cookie, for SessionDays more.
func setCookie(w http.ResponseWriter, se *session) {
	if w == nil {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: se.id, Path: "/", MaxAge: SessionDays * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// known returns the session of a cookie: in memory, or remembered from an
// earlier run; nil for a cookie the server never made.
func (b *browsers) known(ctx context.Context, cookie string) *session {
	b.mu.Lock()
	se, ok := b.sessions[cookie]
	b.mu.Unlock()
	if ok {
		return se
	}
	if !isHex(cookie, 32) {
		return nil
	}
	raw, err := b.store.Setting(ctx, browserScope, cookieHash(cookie))
	if err != nil {
		// Not found, or the database is away: a fresh session, which may
		// claim its names again once it is back.
		return nil
	}
	var rec browserRecord
	if json.Unmarshal(raw, &rec) != nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if se, ok := b.sessions[cookie]; ok {
		return se
	}
	se = &session{id: cookie, users: map[string]bool{}, operator: b.operator != "" && rec.Operator == b.operator}
	for _, n := range rec.Names {
		key := strings.ToLower(n)
		if o, ok := b.owner[key]; ok && o != cookie {
			continue
		}
		b.owner[key], b.names[key], se.users[key] = cookie, n, true
	}
	b.sessions[cookie] = se
	return se
}

// cookieHash is how the store knows a browser (and a code, and the
// operator's key).
func cookieHash(cookie string) string {
	sum := sha256.Sum256([]byte(cookie))
	return hex.EncodeToString(sum[:])
}

// isHex reports whether s is n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// token is the session's anti-forgery token, which the page sends with
// every request that changes something: another site's page cannot read
// it.
func (b *browsers) token(se *session) string {
	m := hmac.New(sha256.New, b.key)
	m.Write([]byte(se.id))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// isOperator reports whether the session is the operator's: the page's
// admin (chat.Request.Admin), and bound by no visitor's limits.
func (b *browsers) isOperator(se *session) bool {
	if se == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return se.operator
}

// errNotOperator: a key that is not the operator's, or a page without one.
var errNotOperator = errors.New("that is not the operator's key (risk web prints the operator's link when it starts)")

// becomeOperator makes the session the operator's if key is the
// operator's, and remembers it across restarts with the same key.
func (b *browsers) becomeOperator(ctx context.Context, se *session, key string) error {
	if b.operator == "" || subtle.ConstantTimeCompare([]byte(cookieHash(key)), []byte(b.operator)) != 1 {
		return errNotOperator
	}
	b.claiming.Lock()
	defer b.claiming.Unlock()
	b.mu.Lock()
	se.operator = true
	b.mu.Unlock()
	return b.saveBrowser(ctx, se)
}

// saveBrowser writes a browser's record: its names and its role.
func (b *browsers) saveBrowser(ctx context.Context, se *session) error {
	b.mu.Lock()
	rec := browserRecord{Names: []string{}}
	for u := range se.users {
		rec.Names = append(rec.Names, b.names[u])
	}
	if se.operator {
		rec.Operator = b.operator
	}
	b.mu.Unlock()
	sortStrings(rec.Names)
	raw, _ := json.Marshal(rec)
	if err := b.store.SetSetting(ctx, browserScope, cookieHash(se.id), raw, b.now()); err != nil {
		return fmt.Errorf("web: keep a browser's names: %w", err)
	}
	return nil
}

// errTaken: the name is played from another browser.
var errTaken = errors.New("played from another browser")

// display is a name as its player typed it, if the page knows it.
func (b *browsers) display(key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n, ok := b.names[key]; ok {
		return n
	}
	return key
}

// touch notes that a name was played: its record is written at most once
// a day, so that a name in use never looks free.
func (b *browsers) touch(ctx context.Context, se *session, key string) {
	now := b.now()
	b.mu.Lock()
	last, ok := b.touched[key]
	if ok && now.Sub(last) < 24*time.Hour {
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	// Under the claims' lock, and only if the name is still this
	// browser's: a claim that moved it meanwhile is not undone.
	b.claiming.Lock()
	defer b.claiming.Unlock()
	b.mu.Lock()
	name, mine := b.names[key], se.users[key]
	if mine {
		b.touched[key] = now
	}
	b.mu.Unlock()
	if !mine {
		return
	}
	raw, _ := json.Marshal(nameRecord{Browser: cookieHash(se.id), Name: name, Seen: now.Unix()})
	_ = b.store.SetSetting(ctx, nameScope, key, raw, now) // tried again a day later at worst
}

// forget lets a browser give up a name with no match under way: it is free
// for anyone then.
func (b *browsers) forget(ctx context.Context, se *session, name string) error {
	key := strings.ToLower(name)
	b.mu.Lock()
	mine := se.users[key]
	b.mu.Unlock()
	if !mine {
		return refuse(http.StatusNotFound, "This browser does not play %s.", name)
	}
	b.claiming.Lock()
	defer b.claiming.Unlock()
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := b.store.Seated(ctx, prefix+key, prefix, 1)
		if err != nil {
			return fmt.Errorf("web: the names cannot be checked now: %w", err)
		}
		if len(open) > 0 {
			return refuse(http.StatusConflict, "%s has a seat in a match under way (%s): the name stays this browser's until it ends.", name, chat.Trunc(open[0].Channel, 50))
		}
	}
	idx, err := b.loadIndex(ctx)
	if err != nil {
		return err
	}
	if err := b.store.SetSetting(ctx, nameScope, key, nil, b.now()); err != nil {
		return fmt.Errorf("web: forget a name: %w", err)
	}
	b.mu.Lock()
	delete(se.users, key)
	delete(b.owner, key)
	delete(b.touched, key)
	b.mu.Unlock()
	idx.remove(key)
	return b.saveBrowser(ctx, se)
}

// owns reports whether the session plays user (an ID, "web:ann").
func (b *browsers) owns(se *session, user string) bool {
	_, name, ok := strings.Cut(user, ":")
	if !ok || se == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return se.users[name]
}

// takenFrom reports whether a browser other than se plays the name.
func (b *browsers) takenFrom(se *session, name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.owner[strings.ToLower(name)]
	return ok && o != se.id
}

// namesOf lists the names a session plays, as typed.
func (b *browsers) namesOf(se *session) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	names := []string{}
	for id := range se.users {
		names = append(names, b.names[id])
	}
	return names
}

// keysOf lists the names a session plays, in lower case.
func (b *browsers) keysOf(se *session) map[string]bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]bool{}
	for key := range se.users {
		out[key] = true
	}
	return out
}

// nameOf names a user for mentions: as they named themselves, or by the
// end of their ID.
func (b *browsers) nameOf(id string) string {
	_, rest, ok := strings.Cut(id, ":")
	if !ok {
		return id
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n, ok := b.names[rest]; ok {
		return n
	}
	return rest
}
