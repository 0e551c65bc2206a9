package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mtibben/confusables"
	"golang.org/x/text/secure/precis"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
)

// The names of the page: what a visitor may call a player, how many, and
// how a player takes their name to another browser.

// Limits bound what the page's visitors create (docs/api.md, "Threat
// model"): a visitor is a browser (its session cookie); the operator is
// bound by the totals only.
type Limits struct {
	// NamesPerBrowser bounds the names one browser plays; Names those of
	// the whole page.
	NamesPerBrowser, Names int
	// MatchesPerBrowser bounds the open matches hosted by one browser's
	// names; Matches those of the page's channels (and the console's it
	// plays).
	MatchesPerBrowser, Matches int
	// NameDays: a name unused that long, with no seat in a match under
	// way, may be taken by another browser.
	NameDays int
}

// The default limits.
const (
	DefaultNamesPerBrowser   = 6
	DefaultNames             = 2000
	DefaultMatchesPerBrowser = 3
	DefaultMatches           = 200
	DefaultNameDays          = 30
)

// withDefaults fills the limits left zero.
func (l Limits) withDefaults() Limits {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&l.NamesPerBrowser, DefaultNamesPerBrowser)
	set(&l.Names, DefaultNames)
	set(&l.MatchesPerBrowser, DefaultMatchesPerBrowser)
	set(&l.Matches, DefaultMatches)
	set(&l.NameDays, DefaultNameDays)
	return l
}

// lookalike is what a name looks like: two names with the same lookalike
// are confusable. It is the UTS #39 skeleton (confusables.Skeleton: the
// Cyrillic "А" of "Аlice" is the Latin "A", a capital "I" an "l") of the
// name's PRECIS nickname comparison form (width folded, NFKC, lower case,
// spaces collapsed), itself taken of the skeleton so that a confusable
// capital letter is caught before lower-casing hides it.
func lookalike(name string) string {
	s := confusables.Skeleton(name)
	if k, err := precis.Nickname.CompareKey(s); err == nil {
		s = k
	} else {
		s = strings.ToLower(s)
	}
	return confusables.Skeleton(s)
}

// mentionWords are the names that would read as a mention of many, or as
// the bot or the page's operator.
var mentionWords = []string{"everyone", "here", "channel", "all", "risk", "bot", "admin", "operator", "host"}

// nameIndex is the names of the page by what they look like, and their
// number: loaded once from the store, kept up to date by the claims.
type nameIndex struct {
	looks map[string]string   // lookalike -> name in lower case
	keys  map[string][]string // name in lower case -> its lookalikes
	// pruned is when free names were last let go of, to make room.
	pruned time.Time
}

// looksOf are what a name looks like as typed and in lower case (a capital
// "I" looks like an "l", its lower case does not).
func looksOf(name, key string) []string {
	a, b := lookalike(name), lookalike(key)
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// loadIndex returns the page's names, reading them the first time. The
// caller holds b.claiming.
func (b *browsers) loadIndex(ctx context.Context) (*nameIndex, error) {
	if b.index != nil {
		return b.index, nil
	}
	all, err := b.store.Settings(ctx)
	if err != nil {
		return nil, fmt.Errorf("web: the names cannot be checked now: %w", err)
	}
	idx := &nameIndex{looks: map[string]string{}, keys: map[string][]string{}}
	for _, st := range all {
		if st.Scope != nameScope {
			continue
		}
		var rec nameRecord
		_ = json.Unmarshal(st.Value, &rec)
		name := rec.Name
		if strings.ToLower(name) != st.ID {
			name = st.ID
		}
		idx.add(name, st.ID)
	}
	b.index = idx
	return idx, nil
}

func (x *nameIndex) add(name, key string) {
	x.remove(key)
	x.keys[key] = looksOf(name, key)
	for _, l := range x.keys[key] {
		x.looks[l] = key
	}
}

func (x *nameIndex) remove(key string) {
	for _, l := range x.keys[key] {
		if x.looks[l] == key {
			delete(x.looks, l)
		}
	}
	delete(x.keys, key)
}

// admits refuses a name new to the page that looks like a mention or
// another's name, or that the page has no room for.
func (x *nameIndex) admits(name, key string, most int) error {
	looks := looksOf(name, key)
	for _, w := range mentionWords {
		for _, l := range looks {
			if l == lookalike(w) {
				return refuse(http.StatusBadRequest, "%q reads like a mention of everyone or like the bot: choose another name.", name)
			}
		}
	}
	for _, l := range looks {
		if other, ok := x.looks[l]; ok && other != key {
			return refuse(http.StatusConflict, "%q looks too much like %q, a name played here already: choose another.", name, other)
		}
	}
	if len(x.keys) >= most {
		return refuse(http.StatusTooManyRequests, "The page has %s, the most it keeps: ask its operator, or play one of yours.", chat.Plural(len(x.keys), "name", "names"))
	}
	return nil
}

// pruneEvery is how often a full page looks for free names to let go of.
const pruneEvery = 10 * time.Minute

// makeRoom lets go of the names free to take (unused for NameDays, no
// match under way) when the page has as many as it keeps, at most every
// pruneEvery. The caller holds b.claiming.
func (b *browsers) makeRoom(ctx context.Context, idx *nameIndex) error {
	if len(idx.keys) < b.limits.Names || b.now().Sub(idx.pruned) < pruneEvery {
		return nil
	}
	idx.pruned = b.now()
	all, err := b.store.Settings(ctx)
	if err != nil {
		return fmt.Errorf("web: the names cannot be checked now: %w", err)
	}
	for _, st := range all {
		if st.Scope != nameScope {
			continue
		}
		var rec nameRecord
		if json.Unmarshal(st.Value, &rec) != nil {
			continue
		}
		free, err := b.free(ctx, st.ID, rec)
		if err != nil {
			return err
		}
		if !free {
			continue
		}
		if err := b.store.SetSetting(ctx, nameScope, st.ID, nil, b.now()); err != nil {
			return fmt.Errorf("web: let go of a name: %w", err)
		}
		if err := b.dropFrom(ctx, rec.Browser, st.ID); err != nil {
			return err
		}
		b.mu.Lock()
		if o := b.sessions[b.owner[st.ID]]; o != nil {
			delete(o.users, st.ID)
		}
		delete(b.owner, st.ID)
		b.mu.Unlock()
		idx.remove(st.ID)
	}
	return nil
}

// codeTTL is how long a one-time code moves its name.
const codeTTL = time.Hour

// codeAlphabet has no letters or digits that read alike (0 O, 1 I L, 5 S,
// 2 Z, 8 B, U V): a code is read off one screen and typed into another.
const codeAlphabet = "ACDEFGHJKMNPQRTWXY34679"

// codeRecord is a code's setting (codeScope).
type codeRecord struct {
	Name  string `json:"name"`
	Until int64  `json:"until"`
}

// newCode makes a one-time code that moves the name key to the browser
// that gives it, within codeTTL: 12 characters of codeAlphabet (54 bits),
// as XXXX-XXXX-XXXX.
func (b *browsers) newCode(ctx context.Context, key string) (string, time.Time, error) {
	raw := make([]byte, 12)
	if _, err := rand.Read(raw); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	var sb strings.Builder
	for i, c := range raw {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(codeAlphabet[int(c)%len(codeAlphabet)])
	}
	code := sb.String()
	until := b.now().Add(codeTTL)
	rec, _ := json.Marshal(codeRecord{Name: key, Until: until.Unix()})
	if err := b.store.SetSetting(ctx, codeScope, cookieHash(normCode(code)), rec, b.now()); err != nil {
		return "", time.Time{}, fmt.Errorf("web: keep a code: %w", err)
	}
	return code, until, nil
}

// normCode is a code as typed, in the form it is kept under.
func normCode(code string) string {
	code = strings.ToUpper(code)
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, code)
}

// useCode checks a one-time code for the name key, and uses it up.
func (b *browsers) useCode(ctx context.Context, key, code string) error {
	id := cookieHash(normCode(code))
	raw, err := b.store.Setting(ctx, codeScope, id)
	if errors.Is(err, storage.ErrNotFound) {
		return refuse(http.StatusForbidden, "That code is not valid: ask the browser that plays %s for a new one (codes work once, for an hour).", b.display(key))
	}
	if err != nil {
		return fmt.Errorf("web: check a code: %w", err)
	}
	var rec codeRecord
	if json.Unmarshal(raw, &rec) != nil || rec.Name != key {
		return refuse(http.StatusForbidden, "That code is for another name.")
	}
	if err := b.store.SetSetting(ctx, codeScope, id, nil, b.now()); err != nil {
		return fmt.Errorf("web: use a code: %w", err)
	}
	if b.now().Unix() > rec.Until {
		return refuse(http.StatusForbidden, "That code has expired: ask the browser that plays %s for a new one.", b.display(key))
	}
	return nil
}

// errorStatus is the status of a claim's error: its refusal's, or 503
// for the database.
func errorStatus(err error) (int, string) {
	if r, ok := errors.AsType[*refusal](err); ok {
		return r.status, r.msg
	}
	return http.StatusServiceUnavailable, "the names cannot be checked now: try again"
}

// naming serves the page's requests about the names a browser plays:
// which (GET /web/names), one more or one fewer, a code to move one to
// another browser, and the operator's key.
type naming struct {
	browsers *browsers
	log      *slog.Logger
}

// listNames answers the players the browser plays: {"names": [...]}.
func (nm *naming) listNames(w http.ResponseWriter, r *http.Request) {
	nm.writeNames(w, nm.browsers.sessionOf(w, r))
}

// writeNames answers the names a session plays, its anti-forgery token,
// and whether it is the operator's; it renews the session's cookie.
func (nm *naming) writeNames(w http.ResponseWriter, se *session) {
	setCookie(w, se)
	writeJSON(w, http.StatusOK, map[string]any{"names": nm.browsers.namesOf(se), "token": nm.browsers.token(se), "operator": nm.browsers.isOperator(se)})
}

// addName lets the browser play a player: {"name", "proof"} (proof: the
// seat's token or a one-time code, for a name another browser plays).
func (nm *naming) addName(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name  string `json:"name"`
		Proof string `json:"proof"`
	}
	if !readBody(w, r, &in) {
		return
	}
	se := nm.browsers.sessionOf(w, r)
	if err := nm.browsers.claim(r.Context(), se, in.Name, in.Proof); err != nil {
		if _, ok := errors.AsType[*refusal](err); !ok {
			nm.log.Error("claim a name", "err", err)
		}
		st, msg := errorStatus(err)
		problem(w, st, "%s", msg)
		return
	}
	nm.writeNames(w, se)
}

// forgetName gives up a name of this browser: {"name"}.
func (nm *naming) forgetName(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !readBody(w, r, &in) {
		return
	}
	se := nm.browsers.sessionOf(w, r)
	if err := nm.browsers.forget(r.Context(), se, in.Name); err != nil {
		st, msg := errorStatus(err)
		problem(w, st, "%s", msg)
		return
	}
	nm.writeNames(w, se)
}

// code gives a one-time code that moves a name this browser plays to
// another browser: {"as"}. The operator may ask one for any name of the
// page, for a player who lost their browser.
func (nm *naming) code(w http.ResponseWriter, r *http.Request) {
	var in struct {
		As string `json:"as"`
	}
	if !readBody(w, r, &in) {
		return
	}
	se := nm.browsers.sessionOf(w, r)
	key := strings.ToLower(in.As)
	if !nm.browsers.owns(se, Prefix+key) {
		ok := false
		if nm.browsers.isOperator(se) {
			_, known, err := nm.browsers.record(r.Context(), key)
			if err != nil {
				problem(w, http.StatusServiceUnavailable, "the names cannot be checked now: try again")
				return
			}
			ok = known
		}
		if !ok {
			problem(w, http.StatusForbidden, "only the browser that plays %s (or the page's operator) can give a code for them", chat.Trunc(in.As, 40))
			return
		}
	}
	code, until, err := nm.browsers.newCode(r.Context(), key)
	if err != nil {
		nm.log.Error("make a code", "err", err)
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": in.As, "code": code, "until": until.Unix()})
}

// operator makes this browser the operator's: {"key"} (the key of the
// link risk web prints at start).
func (nm *naming) operator(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Key string `json:"key"`
	}
	if !readBody(w, r, &in) {
		return
	}
	se := nm.browsers.sessionOf(w, r)
	if err := nm.browsers.becomeOperator(r.Context(), se, in.Key); err != nil {
		if errors.Is(err, errNotOperator) {
			problem(w, http.StatusForbidden, "%v", err)
			return
		}
		nm.log.Error("keep the operator's browser", "err", err)
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
		return
	}
	nm.writeNames(w, se)
}

// opens reports whether a button opens a match (a rematch).
func opens(id string) bool {
	bt, err := button.Parse(id)
	return err == nil && bt.Action == button.Rematch
}

// mayOpen refuses a new match, privately as the bot refuses, when the
// page or the browser has as many open as it may (the operator is bound by
// the page's bound only), and answers the request then (ok false). The
// caller holds pl.opening, so that two requests cannot both take the last
// place.
func (pl *play) mayOpen(w http.ResponseWriter, r *http.Request, se *session, pr pageReplier) bool {
	total, theirs := 0, 0
	mine := pl.browsers.keysOf(se)
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := pl.store.OpenMatches(r.Context(), prefix)
		if err != nil {
			pl.log.Error("count the open matches", "err", err)
			problem(w, http.StatusServiceUnavailable, "the database is unavailable")
			return false
		}
		for _, m := range open {
			total++
			// The browser's names host as "web:ann" on the page and as
			// "console:ann" in the console's channels.
			if meta, err := hosted.DecodeMeta(m.Meta); err == nil && strings.HasPrefix(meta.Host, prefix) && mine[strings.TrimPrefix(meta.Host, prefix)] {
				theirs++
			}
		}
	}
	var why string
	switch {
	case total >= pl.limits.Matches:
		why = fmt.Sprintf("The page has %s, the most it holds: join one, or try again when one ends.", chat.Plural(total, "open match", "open matches"))
	case !pl.browsers.isOperator(se) && theirs >= pl.limits.MatchesPerBrowser:
		why = fmt.Sprintf("Your players host %s already, the most one browser may: finish or end one first (/risk host abandon).", chat.Plural(theirs, "open match", "open matches"))
	default:
		return true
	}
	_ = pr.Reply(r.Context(), chat.Message{Private: true, Refused: true, Text: why})
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	return false
}
