package discord

import (
	"net/http"
	"strings"
	"testing"
)

// TestSession: the token is taken with or without its "Bot " and its
// spaces; none is an error; the session keeps no state and its calls go
// through the given client, rate-limited.
func TestSession(t *testing.T) {
	mine := &http.Transport{}
	for _, tc := range []struct {
		name, token string
		client      *http.Client
		want        string // the session's token, or the error's words
	}{
		{"bare", "abc.def", nil, "Bot abc.def"},
		{"with Bot", "Bot abc.def", nil, "Bot abc.def"},
		{"with spaces", "Bot  abc.def \n", &http.Client{Transport: mine}, "Bot abc.def"},
		{"empty", "", nil, "no bot token"},
		{"only Bot", "Bot ", nil, "no bot token"},
		{"only spaces", "   ", nil, "no bot token"},
		{"pasted with spaces first", "  Bot abc.def", nil, "Bot abc.def"},
		{"only Bot, spaced", " Bot  ", nil, "no bot token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := session(tc.token, tc.client)
			if strings.HasPrefix(tc.want, "Bot ") {
				if err != nil {
					t.Fatalf("got %v, want a session", err)
				}
				if s.Token != tc.want || s.StateEnabled {
					t.Errorf("got token %q, state %v; want %q, no state", s.Token, s.StateEnabled, tc.want)
				}
				rl, ok := s.Client.Transport.(*rateLimited)
				switch {
				case !ok:
					t.Errorf("transport: got %T, want *rateLimited", s.Client.Transport)
				case tc.client != nil && rl.base != mine:
					t.Errorf("base transport: got %v, want the client's", rl.base)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := New(Config{}); err == nil || err.Error() != "discord: no bot token" {
		t.Errorf("New without a token: got %v, want discord: no bot token", err)
	}
	if _, err := Check(t.Context(), CheckConfig{}); err == nil || err.Error() != "discord: check: no bot token" {
		t.Errorf("Check without a token: got %v, want discord: check: no bot token", err)
	}
}
