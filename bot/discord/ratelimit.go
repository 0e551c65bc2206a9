package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Discord answers 429 Too Many Requests to a request over one of its
// limits, saying how long to wait. discordgo keeps to the limits its
// answers announce (X-RateLimit-Remaining and -Reset-After, per bucket),
// and so rarely meets a 429; but when it does, it sleeps as long as it is
// told, whatever the request's context says, and sends again, for ever
// (v0.29.0, restapi.go, RequestWithLockedBucket). The session's client
// carries every REST call through rateLimited instead, which waits out a
// 429 itself within the request's context, a few times at most, and then
// fails the call: discordgo never sees a 429.

// Bounds of the waits for Discord's 429s.
const (
	// maxRateRetries is how many times a call refused with 429 is sent
	// again before it fails.
	maxRateRetries = 3
	// maxRateWait is the longest wait for one 429: a call told to wait
	// longer fails at once rather than hold its caller (a turn's post, an
	// interaction's answer) for minutes.
	maxRateWait = 30 * time.Second
	// defaultRateWait is the wait for a 429 that does not say how long
	// (Cloudflare's, in front of Discord).
	defaultRateWait = time.Second
)

// rateLimited is an http.RoundTripper that waits out Discord's 429s. A
// global one (X-RateLimit-Global) holds every call until it passes.
type rateLimited struct {
	base    http.RoundTripper
	retries int
	maxWait time.Duration

	mu sync.Mutex
	// until is when a global 429 lets calls go again.
	until time.Time
}

// limitRate returns a copy of client whose calls go through a
// rateLimited transport.
func limitRate(client *http.Client) *http.Client {
	base := client.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c := *client
	c.Transport = &rateLimited{base: base, retries: maxRateRetries, maxWait: maxRateWait}
	return &c
}

// RateLimitError is the error of a call still refused with 429 after the
// retries, or told to wait longer than the transport waits.
type RateLimitError struct {
	Method, Path string
	// Attempts is how many times the call was sent; RetryAfter how long
	// Discord said to wait after the last.
	Attempts   int
	RetryAfter time.Duration
	Global     bool
}

func (e *RateLimitError) Error() string {
	scope := "the route's"
	if e.Global {
		scope = "the bot's global"
	}
	return fmt.Sprintf("discord: %s %s: over %s rate limit after %d attempts (Discord says wait %v more)",
		e.Method, e.Path, scope, e.Attempts, e.RetryAfter.Round(time.Millisecond))
}

// RoundTrip sends r, and again after each 429's wait, within r's context,
// retries times at most.
func (t *rateLimited) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	for attempt := 1; ; attempt++ {
		if err := t.waitGlobal(ctx); err != nil {
			closeBody(r)
			return nil, err
		}
		req := r
		if attempt > 1 {
			req = r.Clone(ctx)
			if r.Body != nil && r.Body != http.NoBody {
				body, err := r.GetBody()
				if err != nil {
					return nil, fmt.Errorf("discord: send %s %s again: %w", r.Method, r.URL.Path, err)
				}
				req.Body = body
			}
		}
		res, err := t.base.RoundTrip(req)
		if err != nil || res.StatusCode != http.StatusTooManyRequests {
			return res, err
		}
		wait, global := retryAfter(res)
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
		refused := &RateLimitError{Method: r.Method, Path: r.URL.Path, Attempts: attempt, RetryAfter: wait, Global: global}
		// Sent again only if its body can be: discordgo's always can.
		if attempt > t.retries || wait > t.maxWait || r.Body != nil && r.Body != http.NoBody && r.GetBody == nil {
			return nil, refused
		}
		if global {
			t.mu.Lock()
			t.until = later(t.until, time.Now().Add(wait))
			t.mu.Unlock()
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("%w, and the call was given up waiting: %w", refused, err)
		}
	}
}

// waitGlobal waits for a global 429 to pass, or for ctx.
func (t *rateLimited) waitGlobal(ctx context.Context) error {
	t.mu.Lock()
	d := time.Until(t.until)
	t.mu.Unlock()
	if d <= 0 {
		return nil
	}
	if err := sleep(ctx, d); err != nil {
		return fmt.Errorf("discord: waiting for the bot's global rate limit: %w", err)
	}
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// sleep waits for d, or for ctx to end (its error then).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeBody closes a request's body, as a RoundTripper must, even when it
// does not send it.
func closeBody(r *http.Request) {
	if r.Body != nil {
		r.Body.Close()
	}
}

// retryAfter reads how long a 429 says to wait, and whether it is the
// bot's global limit: X-RateLimit-Reset-After (to the millisecond), else
// Retry-After, else the body's retry_after, else defaultRateWait.
func retryAfter(res *http.Response) (time.Duration, bool) {
	h := res.Header
	global := strings.EqualFold(h.Get("X-RateLimit-Global"), "true") || strings.EqualFold(h.Get("X-RateLimit-Scope"), "global")
	for _, name := range []string{"X-RateLimit-Reset-After", "Retry-After"} {
		if d, ok := seconds(h.Get(name)); ok {
			return d, global
		}
	}
	var body struct {
		RetryAfter *float64 `json:"retry_after"`
		Global     bool     `json:"global"`
	}
	if b, err := io.ReadAll(io.LimitReader(res.Body, 64<<10)); err == nil && json.Unmarshal(b, &body) == nil && body.RetryAfter != nil {
		if d, ok := seconds(strconv.FormatFloat(*body.RetryAfter, 'f', -1, 64)); ok {
			return d, global || body.Global
		}
	}
	return defaultRateWait, global
}

// seconds reads a number of seconds, fractional or not, within a day.
func seconds(s string) (time.Duration, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > 86400 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}
