package fakediscord

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"
)

// Discord's HTTP mode: instead of the gateway, Discord POSTs each
// interaction to the application's Interactions Endpoint URL, signed with
// the application's key (Ed25519 over the timestamp and the body), and
// takes the body of a 200 answer as the interaction's callback.

// key is the fake application's key pair, the same in every run.
var key = ed25519.NewKeyFromSeed(func() []byte { h := sha256.Sum256([]byte("fakediscord application key")); return h[:] }())

// PublicKey is the application's public key, as the developer portal
// shows it: the bot checks the signatures of the interactions with it.
func (s *Server) PublicKey() ed25519.PublicKey { return key.Public().(ed25519.PublicKey) }

// Sign returns the X-Signature-Timestamp and X-Signature-Ed25519 headers
// that Discord sends with a body at time at.
func Sign(at time.Time, body []byte) (timestamp, signature string) {
	timestamp = strconv.FormatInt(at.Unix(), 10)
	return timestamp, hex.EncodeToString(ed25519.Sign(key, append([]byte(timestamp), body...)))
}

// DeliverHTTP delivers an interaction payload to the bot's endpoint as
// Discord does in HTTP mode: registered as delivered now (Interaction),
// signed, POSTed. The body of a 200 answer is taken as the interaction's
// callback, under the same rules as one posted to the callback route (a
// broken one is a violation). It returns the interaction as delivered, the
// HTTP status and the answer's body.
func (s *Server) DeliverHTTP(endpoint string, payload []byte) (delivered []byte, status int, body []byte, err error) {
	delivered, err = s.Interaction(payload)
	if err != nil {
		return nil, 0, nil, err
	}
	var head struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal(delivered, &head); err != nil {
		return nil, 0, nil, err
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(delivered))
	if err != nil {
		return nil, 0, nil, err
	}
	s.mu.Lock()
	ts, sig := Sign(s.nowLocked(), delivered)
	if in := s.inter[head.ID]; in != nil {
		in.overHTTP = true
		in.timestamp, in.signature = ts, sig
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if in := s.inter[head.ID]; in != nil {
			in.overHTTP = false
		}
		s.mu.Unlock()
	}()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", sig)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return delivered, 0, nil, fmt.Errorf("fakediscord: deliver to %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		return delivered, resp.StatusCode, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return delivered, resp.StatusCode, body, nil
	}
	rec := httptest.NewRecorder()
	cb := httptest.NewRequest(http.MethodPost, "/api/v10/interactions/"+head.ID+"/(token)/callback", nil)
	s.mu.Lock()
	rest{s}.acknowledgeLocked(rec, cb, head.ID, head.Token, body, nil, nil)
	s.mu.Unlock()
	return delivered, resp.StatusCode, body, nil
}

// Signed returns the X-Signature-Timestamp and X-Signature-Ed25519
// headers an interaction was delivered with by DeliverHTTP ("" if it was
// not): what an eavesdropper would replay.
func (s *Server) Signed(interactionID string) (timestamp, signature string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.inter[interactionID]; in != nil {
		return in.timestamp, in.signature
	}
	return "", ""
}

// awaitHTTP waits (a few seconds at most) while the interaction with this
// token was delivered over HTTP and its response is on its way: Discord
// has the response of a request before the calls the bot makes after
// sending it.
func (s rest) awaitHTTP(token string) {
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		in := s.byTokenLocked(token)
		pending := in != nil && in.overHTTP
		s.mu.Unlock()
		if !pending {
			return
		}
	}
}
