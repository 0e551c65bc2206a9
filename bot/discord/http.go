package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord's second way to deliver interactions: instead of the gateway, an
// HTTP endpoint (the application's Interactions Endpoint URL) to which
// Discord POSTs each interaction, signed, and which answers it in the body
// of its response. Nothing is kept between requests (the buttons carry
// their match and its moment; everything else is in the database), so any
// process behind a load balancer can answer any interaction.

// Limits of the endpoint.
const (
	// MaxSkew is how far a request's signed timestamp may be from the
	// endpoint's clock: a request signed longer ago is stale, and refused
	// like a bad signature. Discord sends at once; a minute leaves room
	// for clocks a little apart.
	MaxSkew = time.Minute
	// maxBody bounds an interaction's body (Discord's are a few KB).
	maxBody = 1 << 20
	// answerWait bounds the wait for the core's first answer: Discord's
	// 3 s run from its sending. The adapter defers well before (at once
	// for slow commands, after DeferAfter for quick ones).
	answerWait = 2500 * time.Millisecond
	// maxSeen bounds the keys remembered against replays (two a
	// request), under 30 MB. Only requests signed with the application's
	// key are remembered, each for at most 2 MaxSkew and a sweep: the
	// bound is some 1,000 requests a second, more than one process
	// answers. A full set refuses (503) rather than forget a request
	// early, which would let its replay in.
	maxSeen = 1 << 18
	// sweepEvery spaces the sweeps of the expired requests, so that a
	// request costs no walk of the whole set.
	sweepEvery = 10 * time.Second
)

// Endpoint is the HTTP handler of Discord's interactions: it checks every
// request's signature, timestamp and freshness before anything else
// (refusing with 401, as Discord requires: it sends bad signatures on
// purpose to check), answers PING, and hands commands, autocompletes and
// clicks to the core through the adapter, whose first answer goes back in
// the response body and the rest through Discord's webhooks, as in gateway
// mode.
type Endpoint struct {
	a    *Adapter
	core Core
	key  ed25519.PublicKey
	now  func() time.Time
	// ctx bounds the answers in flight, which outlive their requests.
	ctx context.Context
	wg  sync.WaitGroup

	mu sync.Mutex
	// seen are the requests accepted within the skew, by when they can
	// be forgotten: a request sent again is a replay. Each is there twice,
	// by its signature's bytes (not the header's text: hex has upper and
	// lower case, so one signature has many spellings) and by its
	// interaction's ID (what a replay is of, however it is spelled).
	seen map[seenKey]time.Time
	// sweepAt is when the expired requests are next swept out of seen.
	sweepAt time.Time
	// maxSeen bounds seen (the constant maxSeen, smaller in tests).
	maxSeen int
	// waiting are the interactions whose first answer goes in the body of
	// their request's response, by interaction ID.
	waiting map[string]*awaiting
}

// awaiting is an interaction whose first answer goes in the response to
// its request.
type awaiting struct {
	answer chan []byte
	// sent is closed once the response is written: only then may the
	// core go on to edit the answer, or Discord would not know it yet.
	sent chan struct{}
}

// NewEndpoint returns the endpoint of the interactions signed with the
// application's public key (the developer portal's General Information),
// answered by core. Answers in flight stop with ctx (Wait waits for
// them). The adapter's REST calls go through it from now on: the first
// answer to an interaction it delivered goes back in the response.
func (a *Adapter) NewEndpoint(ctx context.Context, core Core, key ed25519.PublicKey) (*Endpoint, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord: the application's public key has %d bytes, want %d", len(key), ed25519.PublicKeySize)
	}
	e := &Endpoint{a: a, core: core, key: key, now: time.Now, ctx: ctx, seen: map[seenKey]time.Time{}, maxSeen: maxSeen, waiting: map[string]*awaiting{}}
	base := a.s.Client.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	client := *a.s.Client
	client.Transport = catcher{e: e, base: base}
	a.s.Client = &client
	return e, nil
}

// ParsePublicKey reads an application's public key as the developer portal
// shows it (64 hexadecimal digits).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("discord: the public key is not 64 hexadecimal digits (developer portal, General Information, Public Key)")
	}
	return ed25519.PublicKey(b), nil
}

// Wait waits for the answers in flight.
func (e *Endpoint) Wait() { e.wg.Wait() }

// ServeHTTP implements http.Handler.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := e.now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST interactions here", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	sig, expires, why := e.verify(r.Header, body, arrived)
	if why != "" {
		e.a.log.Warn("refused an interaction request", "why", why, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	switch e.remember(sig, i.ID, arrived, expires) {
	case replayed:
		// Refused before the adapter sees it: a replay answered again
		// would edit the first one's answers with its token.
		e.a.log.Warn("refused an interaction request", "why", "replayed request", "id", i.ID, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	case full:
		e.a.log.Error("too many interaction requests to remember against replays: refused one", "id", i.ID, "limit", e.maxSeen)
		http.Error(w, "too many requests", http.StatusServiceUnavailable)
		return
	}
	switch i.Type {
	case discordgo.InteractionPing:
		writeAnswer(w, []byte(`{"type":1}`))
		return
	case discordgo.InteractionApplicationCommand, discordgo.InteractionMessageComponent, discordgo.InteractionApplicationCommandAutocomplete:
	default:
		// Nothing would answer it (the bot shows no modals): said at
		// once, rather than after waiting for an answer that never comes.
		e.a.log.Info("refused an interaction of a type not handled", "id", i.ID, "type", int(i.Type))
		http.Error(w, fmt.Sprintf("interaction type %d is not handled", int(i.Type)), http.StatusBadRequest)
		return
	}
	p := &awaiting{answer: make(chan []byte, 1), sent: make(chan struct{})}
	e.mu.Lock()
	e.waiting[i.ID] = p
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.waiting, i.ID)
		e.mu.Unlock()
		close(p.sent)
	}()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		ctx, cancel := context.WithTimeout(e.ctx, tokenTTL)
		defer cancel()
		if err := e.a.handle(ctx, e.core, &i, arrived); err != nil {
			e.a.log.Error("interaction", "id", i.ID, "channel", i.ChannelID, "err", err)
		}
	}()
	t := time.NewTimer(answerWait - e.now().Sub(arrived))
	defer t.Stop()
	select {
	case b := <-p.answer:
		writeAnswer(w, b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	case <-t.C:
		// Not answered in time: no answer is better than a late one,
		// which Discord would not take. Should the core answer now, its
		// callback goes to Discord's route, which refuses it.
		e.a.log.Error("no answer in time to an interaction over HTTP", "id", i.ID, "channel", i.ChannelID)
		http.Error(w, "no answer in time", http.StatusServiceUnavailable)
	case <-r.Context().Done():
	}
}

func writeAnswer(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// verify checks a request's signature, then its timestamp, and says what
// is wrong ("" if nothing). It returns the signature's bytes and when the
// request stops being fresh.
func (e *Endpoint) verify(h http.Header, body []byte, now time.Time) (sig []byte, expires time.Time, why string) {
	sigHex, ts := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sigHex == "" || ts == "" {
		return nil, time.Time{}, "missing signature headers"
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, time.Time{}, "malformed signature"
	}
	// Verify takes only the canonical encoding of a signature (it refuses
	// a scalar S past the group's order), so a message has one signature
	// as bytes: the replay check can key on them.
	if !ed25519.Verify(e.key, append([]byte(ts), body...), sig) {
		return nil, time.Time{}, "bad signature"
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return nil, time.Time{}, "malformed timestamp"
	}
	at := time.Unix(secs, 0)
	if d := now.Sub(at); d > MaxSkew || d < -MaxSkew {
		return nil, time.Time{}, fmt.Sprintf("stale timestamp (%s off)", d.Round(time.Second))
	}
	// A request is fresh for MaxSkew either side of its timestamp.
	return sig, at.Add(MaxSkew), ""
}

// seenKey is a request remembered against replays: by its signature or
// by its interaction's ID.
type seenKey struct {
	sig bool
	s   string
}

// freshness is what remember makes of a request.
type freshness int

const (
	fresh    freshness = iota // first seen: remembered
	replayed                  // seen before, under either key
	full                      // not seen, but no room to remember it
)

// remember records a verified request until it expires, unless it, or
// its interaction, was seen before.
func (e *Endpoint) remember(sig []byte, id string, now, expires time.Time) freshness {
	keys := []seenKey{{sig: true, s: string(sig)}}
	if id != "" {
		keys = append(keys, seenKey{s: id})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, k := range keys {
		if _, ok := e.seen[k]; ok {
			return replayed
		}
	}
	if !now.Before(e.sweepAt) {
		for k, until := range e.seen {
			if now.After(until) {
				delete(e.seen, k)
			}
		}
		e.sweepAt = now.Add(sweepEvery)
	}
	if len(e.seen)+len(keys) > e.maxSeen {
		return full
	}
	for _, k := range keys {
		e.seen[k] = expires
	}
	return fresh
}

// callbackPath matches the route of an interaction's first answer.
var callbackPath = regexp.MustCompile(`^/api/v[0-9]+/interactions/([0-9]+)/[^/]+/callback$`)

// catcher carries the adapter's REST calls. The first answer to an
// interaction that came over HTTP goes back in the body of its request's
// response instead: Discord takes it from there.
type catcher struct {
	e    *Endpoint
	base http.RoundTripper
}

func (c catcher) RoundTrip(r *http.Request) (*http.Response, error) {
	m := callbackPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		return c.base.RoundTrip(r)
	}
	c.e.mu.Lock()
	p := c.e.waiting[m[1]]
	delete(c.e.waiting, m[1])
	c.e.mu.Unlock()
	if p == nil {
		return c.base.RoundTrip(r)
	}
	var body []byte
	if r.Body != nil {
		var err error
		body, err = io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	p.answer <- body
	select {
	case <-p.sent:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	return &http.Response{StatusCode: http.StatusNoContent, Status: "204 No Content", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(nil)), Request: r}, nil
}
