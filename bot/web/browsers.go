package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// The settings scopes of the names browsers play. A name once played from
// a browser stays bound to it, across restarts of the server: a browser
// that comes without the cookie (a fresh one, or another site's request)
// cannot take over the seat. Both are keyed by the SHA-256 of the
// cookie, so a copy of the database lets no one act as a browser.
const (
	// nameScope: a name (in lower case) -> the browser that plays it.
	nameScope = "web-name"
	// browserScope: a browser -> the names it plays.
	browserScope = "web-browser"
)

// session is one browser: the players it named, whom it may act as (by
// their names in lower case). Its users are read and written under its
// browsers' lock.
type session struct {
	id    string
	users map[string]bool
}

// browsers are the sessions of the page and the names they play.
type browsers struct {
	store Store
	now   func() time.Time
	// key signs the sessions' anti-forgery tokens. It lives as long as
	// the process: a page open across a restart fetches a new token.
	key []byte

	// claiming orders claims, which read and write the store outside mu.
	claiming sync.Mutex

	mu       sync.Mutex
	sessions map[string]*session // by cookie
	owner    map[string]string   // name in lower case -> session cookie
	names    map[string]string   // name in lower case -> as typed
}

func newBrowsers(store Store, now func() time.Time) *browsers {
	key, _ := hex.DecodeString(randomHex(32))
	return &browsers{store: store, now: now, key: key, sessions: map[string]*session{}, owner: map[string]string{}, names: map[string]string{}}
}

const cookieName = "risk_session"

// maxSessions bounds the browsers remembered before those that named
// nobody are forgotten.
const maxSessions = 10000

// sessionOf returns the browser's session, starting one (with its cookie)
// if it has none. A cookie of an earlier run of the server gets back the
// names it played.
func (b *browsers) sessionOf(w http.ResponseWriter, r *http.Request) *session {
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
			if len(old.users) == 0 {
				delete(b.sessions, id)
			}
		}
	}
	se := &session{id: randomHex(16), users: map[string]bool{}}
	b.sessions[se.id] = se
	if w != nil {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: se.id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	return se
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
	var rec struct {
		Names []string `json:"names"`
	}
	if json.Unmarshal(raw, &rec) != nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if se, ok := b.sessions[cookie]; ok {
		return se
	}
	se = &session{id: cookie, users: map[string]bool{}}
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

// cookieHash is how the store knows a browser.
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

// errTaken: the name is played from another browser.
var errTaken = errors.New("played from another browser")

// claim lets session se act as the player name, unless another browser
// named them first, in this run of the server or an earlier one.
func (b *browsers) claim(ctx context.Context, se *session, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	key := strings.ToLower(name)
	b.claiming.Lock()
	defer b.claiming.Unlock()
	b.mu.Lock()
	o, ok := b.owner[key]
	b.mu.Unlock()
	if ok && o != se.id {
		return fmt.Errorf("%s is %w", name, errTaken)
	}
	if !ok {
		raw, err := b.store.Setting(ctx, nameScope, key)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return fmt.Errorf("the names cannot be checked now: %w", err)
		default:
			var rec struct {
				Browser string `json:"browser"`
			}
			if json.Unmarshal(raw, &rec) == nil && rec.Browser != cookieHash(se.id) {
				return fmt.Errorf("%s is %w", name, errTaken)
			}
		}
	}
	b.mu.Lock()
	names := []string{name}
	for u := range se.users {
		if u != key {
			names = append(names, b.names[u])
		}
	}
	b.mu.Unlock()
	if err := b.remember(ctx, se, key, names); err != nil {
		return fmt.Errorf("the name cannot be kept now: %w", err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.owner[key], b.names[key], se.users[key] = se.id, name, true
	return nil
}

// remember writes a claim down: the name's browser, and the browser's
// names.
func (b *browsers) remember(ctx context.Context, se *session, key string, names []string) error {
	h := cookieHash(se.id)
	rec, _ := json.Marshal(map[string]string{"browser": h})
	if err := b.store.SetSetting(ctx, nameScope, key, rec, b.now()); err != nil {
		return err
	}
	all, _ := json.Marshal(map[string][]string{"names": names})
	return b.store.SetSetting(ctx, browserScope, h, all, b.now())
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
