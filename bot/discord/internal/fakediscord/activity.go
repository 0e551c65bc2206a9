package fakediscord

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"
)

// The Activity's side of Discord (docs/discord.md, "Inside Discord"):
//
//   - the OAuth2 code Discord's client gives an Activity's page (the SDK's
//     authorize, which a test makes with Authorize), exchanged by the app's
//     server for an access token with the client secret
//     (POST /oauth2/token), with which it reads its user (GET /users/@me,
//     Authorization: Bearer TOKEN);
//   - the Activity's instances (Launch), which the app's server reads
//     with the bot's token to know where one runs and who is in it
//     (GET /applications/{app}/activity-instance/{instance});
//   - the answer to an interaction that launches the Activity (callback
//     type 12, LAUNCH_ACTIVITY), which Discord takes only from an
//     application with Activities enabled (EnableActivities).
//
// A refused code or token is answered as Discord answers it and is no
// violation: a test sends forged ones on purpose.

// ClientSecret is the application's OAuth2 client secret; its client ID is
// AppID.
const ClientSecret = "fake-client-secret.for-tests.only"

// CodeTTL is how long an authorization code may be exchanged.
const CodeTTL = 10 * time.Minute

// User is a Discord user, as an Activity's OAuth2 reads them.
type User struct {
	ID, Username, GlobalName string
}

// activity is the fake's state of the Activity's side.
type activity struct {
	enabled   bool
	codes     map[string]grant // one-time codes
	tokens    map[string]User  // access tokens
	instances map[string]Instance
	exchanges int
}

// grant is an authorization code: its user and until when it holds.
type grant struct {
	user  User
	until time.Time
}

// Instance is an Activity's instance: the channel it was launched in and
// the users in it.
type Instance struct {
	ID, Channel string
	Users       []string
}

// newActivity is the Activity's side of a new fake: none enabled yet.
func newActivity() *activity {
	return &activity{codes: map[string]grant{}, tokens: map[string]User{}, instances: map[string]Instance{}}
}

// EnableActivities turns on the application's Activities (the Developer
// Portal's Activities, Settings): interactions may then be answered by
// launching the Activity.
func (s *Server) EnableActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.act.enabled = true
}

// Launch starts an instance of the Activity in channel, with users (their
// IDs) in it, and returns its ID: the instance_id Discord gives the page.
func (s *Server) Launch(channel string, users ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := "i-" + s.snowflakeLocked() + "-gc-" + GuildID + "-" + channel
	s.act.instances[id] = Instance{ID: id, Channel: channel, Users: append([]string(nil), users...)}
	return id
}

// Authorize is Discord's client authorizing the application for user (the
// SDK's authorize, scope identify): it returns the code the page gets, good
// for one exchange within CodeTTL.
func (s *Server) Authorize(user User) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := "code" + randomToken()[16:48]
	s.act.codes[code] = grant{user: user, until: s.nowLocked().Add(CodeTTL)}
	return code
}

// Exchanges returns how many codes were exchanged for a token.
func (s *Server) Exchanges() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.act.exchanges
}

// oauthError is the body of OAuth2's refusals (RFC 6749, 5.2), as Discord
// sends them.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// token answers POST /oauth2/token: an authorization code exchanged for an
// access token, with the application's client ID and secret, in a form.
func (s rest) token(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		s.fail(w, r, http.StatusBadRequest, 0, "the token request is a form (Content-Type: application/x-www-form-urlencoded)")
		return
	}
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, 0, "the token request's form: "+err.Error())
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.act
	switch {
	case f.Get("client_id") != AppID || f.Get("client_secret") != ClientSecret:
		writeJSON(w, http.StatusUnauthorized, oauthError{Error: "invalid_client"})
		return
	case f.Get("grant_type") != "authorization_code":
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "unsupported_grant_type"})
		return
	}
	g, ok := a.codes[f.Get("code")]
	delete(a.codes, f.Get("code"))
	if !ok || s.nowLocked().After(g.until) {
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_grant", Description: `Invalid "code" in request.`})
		return
	}
	tok := randomToken()[16:56]
	a.tokens[tok] = g.user
	a.exchanges++
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": randomToken()[16:56], "scope": "identify"})
}

// bearerMe answers GET /users/@me with an access token: its user.
func (s rest) bearerMe(w http.ResponseWriter, tok string) {
	s.mu.Lock()
	u, ok := s.act.tokens[tok]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusUnauthorized, apiError{Code: 0, Message: "401: Unauthorized"})
		return
	}
	var global any
	if u.GlobalName != "" {
		global = u.GlobalName
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": u.ID, "username": u.Username, "discriminator": "0", "global_name": global,
		"avatar": nil, "public_flags": 0})
}

// instance answers GET /applications/{app}/activity-instance/{instance}
// (with the bot's token): where the instance runs and who is in it, or 404
// if it is not running.
func (s rest) instance(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	s.mu.Lock()
	in, ok := s.act.instances[r.PathValue("instance")]
	s.mu.Unlock()
	if r.PathValue("app") != AppID || !ok {
		writeJSON(w, http.StatusNotFound, apiError{Code: 0, Message: "404: Not Found"})
		return
	}
	users := in.Users
	if users == nil {
		users = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"application_id": AppID, "instance_id": in.ID, "launch_id": strings.TrimPrefix(in.ID, "i-"),
		"location": map[string]any{"id": "gc-" + GuildID + "-" + in.Channel, "kind": "gc", "channel_id": in.Channel, "guild_id": GuildID},
		"users":    users})
}

// launchLocked checks an answer that launches the Activity (type 12): only
// to a command or a click, from an application with Activities enabled,
// with no data.
func (s rest) launchLocked(in *interaction, raw json.RawMessage) problems {
	var bad problems
	switch {
	case in.typ != 2 && in.typ != 3:
		bad.add("type: 12 (LAUNCH_ACTIVITY) answers a command or a component, not an interaction of type %d", in.typ)
	case !s.act.enabled:
		bad.add("type: 12 (LAUNCH_ACTIVITY): the application has no Activity (Developer Portal, Activities, Settings)")
	}
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Data) > 0 && string(body.Data) != "null" && string(body.Data) != "{}" {
		bad.add("data: LAUNCH_ACTIVITY takes none, got %s", fmt.Sprintf("%.40s", body.Data))
	}
	return bad
}
