package discord

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// postWithin posts a message through the adapter and returns its error,
// failing the test if the call has not returned within limit (discordgo
// alone would retry a 429 for ever: the call then never returns).
func postWithin(ctx context.Context, t *testing.T, e *env, limit time.Duration) (time.Duration, error) {
	t.Helper()
	at := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := e.a.Post(ctx, prefix+channel, chat.Message{Text: "a turn's post"})
		done <- err
	}()
	select {
	case err := <-done:
		return time.Since(at), err
	case <-time.After(limit):
		t.Fatalf("the post has not returned after %v", limit)
		return 0, nil
	}
}

// TestRateLimitBounded (issue 42, item 9): a call that Discord answers
// with 429 is sent again after the wait it says, a few times at most,
// then fails with a *RateLimitError; one that gets through in time
// succeeds. The waits end with the call's context, and a wait longer than
// the transport waits fails the call at once.
func TestRateLimitBounded(t *testing.T) {
	for _, tt := range []struct {
		name  string
		times int // 429s answered before the fake takes the post (<0: all)
		after time.Duration
		// cancel cancels the call's context this long after the fake's
		// first 429 (0: never): after it, however slow the machine is to
		// send the request.
		cancel time.Duration
		// want429s is how many 429s the fake answered; wantErr the error
		// (nil: the post went through).
		want429s  int
		wantErr   error
		wantUnder time.Duration
	}{
		{"two 429s, then through", 2, 20 * time.Millisecond, 0, 2, nil, 2 * time.Second},
		{"429 for ever", -1, 20 * time.Millisecond, 0, 1 + maxRateRetries, &RateLimitError{}, 2 * time.Second},
		{"a global 429 for ever", -1, 20 * time.Millisecond, 0, 1 + maxRateRetries, &RateLimitError{}, 2 * time.Second},
		{"told to wait longer than the transport waits", 1, 2 * maxRateWait, 0, 1, &RateLimitError{}, time.Second},
		{"cancelled while it waits", -1, 20 * time.Second, 100 * time.Millisecond, 1, context.Canceled, time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nil, DefaultDeferAfter)
			answered := e.fake.RateLimit("post", tt.times, tt.after, tt.name == "a global 429 for ever")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel > 0 {
				go func() {
					if fakediscord.Await(10*time.Second, func() bool { return answered() > 0 }) {
						time.Sleep(tt.cancel)
					}
					cancel()
				}()
			}
			took, err := postWithin(ctx, t, e, 10*time.Second)
			switch want := tt.wantErr; {
			case want == nil && err != nil:
				t.Errorf("got %v, want the post through", err)
			case want != nil && errors.Is(want, context.Canceled) && !errors.Is(err, context.Canceled):
				t.Errorf("got %v, want context.Canceled", err)
			case want != nil && !errors.Is(want, context.Canceled):
				var rl *RateLimitError
				if !errors.As(err, &rl) {
					t.Errorf("got %v, want a *RateLimitError", err)
				}
			}
			if took > tt.wantUnder {
				t.Errorf("the call took %v, want under %v", took.Round(time.Millisecond), tt.wantUnder)
			}
			if n := answered(); n != tt.want429s {
				t.Errorf("the fake answered %d 429s, want %d", n, tt.want429s)
			}
			posted := len(e.fake.Messages())
			if want := map[bool]int{true: 1, false: 0}[tt.wantErr == nil]; posted != want {
				t.Errorf("%d messages posted, want %d", posted, want)
			}
		})
	}
}

// TestRateLimitGlobalHoldsOthers: a global 429 holds the bot's other
// calls until it passes, not just the one it answered.
func TestRateLimitGlobalHoldsOthers(t *testing.T) {
	e := newEnv(t, nil, DefaultDeferAfter)
	const wait = 300 * time.Millisecond
	e.fake.RateLimit("post", 1, wait, true)
	ctx := context.Background()
	first := make(chan error, 1)
	go func() {
		_, err := e.a.Post(ctx, prefix+channel, chat.Message{Text: "first"})
		first <- err
	}()
	// The first call has met the 429 when the fake counts it; the second
	// then waits for the global limit too.
	time.Sleep(100 * time.Millisecond)
	at := time.Now()
	if _, err := e.a.Post(ctx, prefix+"645027906669510668", chat.Message{Text: "second"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(at); d < wait/2 {
		t.Errorf("the second call went through %v after the global 429, want it held for about %v", d.Round(time.Millisecond), wait)
	}
	if err := <-first; err != nil {
		t.Errorf("the first call: %v", err)
	}
}

// TestRetryAfter reads the waits of Discord's 429s.
func TestRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		name       string
		header     http.Header
		body       string
		want       time.Duration
		wantGlobal bool
	}{
		{"reset after", http.Header{"X-Ratelimit-Reset-After": {"1.234"}, "Retry-After": {"2"}}, "", 1234 * time.Millisecond, false},
		{"retry after", http.Header{"Retry-After": {"3"}}, "", 3 * time.Second, false},
		{"global header", http.Header{"Retry-After": {"1"}, "X-Ratelimit-Global": {"true"}}, "", time.Second, true},
		{"global scope", http.Header{"Retry-After": {"1"}, "X-Ratelimit-Scope": {"global"}}, "", time.Second, true},
		{"body only", http.Header{}, `{"retry_after": 0.5, "global": true}`, 500 * time.Millisecond, true},
		{"nothing said", http.Header{}, `<html>`, defaultRateWait, false},
		{"nonsense", http.Header{"Retry-After": {"-5"}}, "", defaultRateWait, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := &http.Response{StatusCode: http.StatusTooManyRequests, Header: tt.header, Body: http.NoBody}
			if tt.body != "" {
				res.Body = nopBody(tt.body)
			}
			got, global := retryAfter(res)
			if got != tt.want || global != tt.wantGlobal {
				t.Errorf("got %v global %v, want %v global %v", got, global, tt.want, tt.wantGlobal)
			}
		})
	}
}

func nopBody(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }
