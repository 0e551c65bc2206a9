package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/discordsdk"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/snowflake"
	"github.com/riskbot/riskbot/bot/internal/lru"
)

// The page as Discord's Activity (docs/discord.md, "Inside Discord"):
// `risk discord --activity ADDR` serves it, Discord's client frames it
// beside a channel (the application's URL mapping points at this server),
// and the page plays that channel's match with the same clicks as on the
// web, as the Discord user who opened it, and only as them.
//
// The page finds itself inside Discord by the query Discord gives it
// (frame_id, instance_id), loads Discord's SDK (GET
// /static/discord-sdk.mjs, served only here), and has Discord's client
// authorize the application for its player: a code. It sends the code and
// the instance to POST /web/activity; the server exchanges the code for
// the player with the application's client secret, which the page never
// sees, and checks with Discord that the instance runs in a channel with
// the player in it (ActivityConfig.Identify). It answers a session: a
// token signed by the server naming the player, the channel and until
// when (activityTTL), which the page sends in the X-Risk-Activity header
// with every request that changes something, and which comes back as a
// cookie with the reads a page cannot add a header to (its event stream,
// its images). A session plays its player in its channel: nobody else,
// nowhere else. Without one, nothing but the page itself, its scripts and
// its words is served.
//
// The Activity's page shows the channel's messages as they are posted
// while it is open (Mirror: the bot's posts to Discord shown there too),
// and the answers to its own commands: a public answer is posted in the
// channel on Discord as a typed command's would be, a private one stays
// with its player.

// activityHeader carries the Activity's session with the page's requests;
// activityCookie carries it with the reads that cannot have a header.
const (
	activityHeader = "X-Risk-Activity"
	activityCookie = "risk_activity"
)

// activityTTL is how long a session lasts: the page signs in again with
// Discord (silently) each time it is opened.
const activityTTL = 12 * time.Hour

// ActivityConfig makes the page Discord's Activity (Config.Activity).
type ActivityConfig struct {
	// ClientID is the application's ID: the page's SDK needs it (it is
	// public).
	ClientID string
	// Identify exchanges a code of Discord's (the SDK's authorize, scope
	// identify) for the player it names, and checks that they are in the
	// Activity's instance, whose channel it returns. A refusal wraps
	// ErrNotSignedIn; any other error is Discord being out of reach.
	Identify func(ctx context.Context, code, instance string) (ActivityPlayer, error)
	// Key signs the sessions (32 bytes or more): the same for every
	// process serving the Activity, so that a session is good on any of
	// them and across restarts (derive it from the client secret). Nil
	// is a random key: sessions end with the process.
	Key []byte
	// Poster posts the public answers to the Activity's commands in the
	// channel (the bot's Poster: Discord), as a typed command's answer
	// is; nil shows them on the Activity's page only.
	Poster chat.Poster
	// FrameAncestors are the origins that may frame the page, besides
	// the server's own; nil is Discord's (DiscordOrigins).
	FrameAncestors []string
}

// DiscordOrigins are where Discord's clients frame an Activity from.
var DiscordOrigins = []string{"https://discord.com", "https://*.discord.com", "https://discordapp.com", "https://*.discordapp.com", "https://*.discordsays.com"}

// ActivityPlayer is the player an Activity's code names, and where they
// play: Identify's answer.
type ActivityPlayer struct {
	// UserID is the Discord user's ID (a snowflake, without "discord:");
	// Name is how Discord shows them.
	UserID, Name string
	// AccessToken is what the code was exchanged for: the page gives it to
	// the SDK's authenticate.
	AccessToken string
	// Channel and Guild are the IDs of where the Activity's instance runs.
	Channel, Guild string
}

// ErrNotSignedIn is wrapped by Identify's refusals: a code forged, used or
// expired, an instance not running or without the player.
var ErrNotSignedIn = errors.New("web: the Activity's player could not be signed in")

// activity is the server's side of the Activity.
type activity struct {
	cfg ActivityConfig
	key []byte
	csp string // frame-ancestors
	// names are how Discord shows the players signed in lately, by user
	// ID: the page names them so ("Only Ann can see this").
	names *lru.Cache[string, string]
	now   func() time.Time
	log   *slog.Logger
}

// activityNames is how many players' names the Activity keeps.
const activityNames = 4096

func newActivity(cfg *ActivityConfig, now func() time.Time, log *slog.Logger) *activity {
	if cfg == nil {
		return nil
	}
	key := cfg.Key
	if len(key) < 32 {
		key = make([]byte, 32)
		_, _ = rand.Read(key) // crypto/rand does not fail on supported systems
	}
	frames := cfg.FrameAncestors
	if frames == nil {
		frames = DiscordOrigins
	}
	return &activity{cfg: *cfg, key: key, csp: "'self' " + strings.Join(frames, " "), names: lru.New[string, string](activityNames), now: now, log: log}
}

// activityID is who a session plays as, and where.
type activityID struct {
	user    chat.User // "discord:ID", as Discord shows them
	channel string    // "discord:ID"
	server  string    // "discord:ID" of the guild, "" if none
	until   int64     // Unix seconds
}

// ticket is a session's signed content.
type ticket struct {
	User    string `json:"u"`
	Name    string `json:"n"`
	Channel string `json:"c"`
	Guild   string `json:"g,omitempty"`
	Until   int64  `json:"e"`
}

// sign writes a session: its content and its signature, in base64url.
func (a *activity) sign(t ticket) string {
	raw, _ := json.Marshal(t)
	body := base64.RawURLEncoding.EncodeToString(raw)
	return body + "." + base64.RawURLEncoding.EncodeToString(a.mac(body))
}

func (a *activity) mac(body string) []byte {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte("risk activity session\x00"))
	m.Write([]byte(body))
	return m.Sum(nil)
}

// read checks a session and returns who it plays as, or nil.
func (a *activity) read(tok string, now time.Time) *activityID {
	body, sig, ok := strings.Cut(tok, ".")
	if !ok || len(tok) > 1024 {
		return nil
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, a.mac(body)) {
		return nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	var t ticket
	if err != nil || json.Unmarshal(raw, &t) != nil || now.Unix() >= t.Until || !snowflake.Valid(t.User) || !snowflake.Valid(t.Channel) {
		return nil
	}
	id := &activityID{user: chat.User{ID: discordPrefix + t.User, Name: t.Name}, channel: discordPrefix + t.Channel, until: t.Until}
	if t.Guild != "" {
		id.server = discordPrefix + t.Guild
	}
	return id
}

// session returns the session a request carries (its header,
// else its cookie), as the page's session of its player; nil without a
// good one.
func (a *activity) session(r *http.Request) *session {
	tok := r.Header.Get(activityHeader)
	if tok == "" {
		if c, err := r.Cookie(activityCookie); err == nil {
			tok = c.Value
		}
	}
	id := a.read(tok, a.now())
	if id == nil {
		return nil
	}
	if n, ok := a.names.Get(id.user.ID); !ok || n != id.user.Name {
		a.names.Add(id.user.ID, id.user.Name)
	}
	return activitySessionOf(id)
}

// nameOf names a user on the page: a Discord player of the Activity as
// Discord shows them, anyone else as the browsers know them.
func (s *Server) nameOf(id string) string {
	if s.activity != nil && strings.HasPrefix(id, discordPrefix) {
		if n, ok := s.activity.names.Get(id); ok {
			return n
		}
	}
	return s.browsers.nameOf(id)
}

// activitySessionOf is the page's session of an Activity's player: it
// plays their Discord user (browsers.owns), and only them.
func activitySessionOf(id *activityID) *session {
	return &session{id: "activity " + id.user.ID, users: map[string]bool{strings.TrimPrefix(id.user.ID, discordPrefix): true}, activity: id}
}

// activityActing is acting for a session of the Activity: its player, in
// its channel only.
func activityActing(se *session, channel string) (chat.User, error) {
	if channel != se.activity.channel {
		return chat.User{}, refuse(http.StatusForbidden, "this Activity plays its own channel's match only")
	}
	return se.activity.user, nil
}

// signIn answers POST /web/activity {"code", "instance"}: the
// code exchanged for the player, their session (also as a cookie), the
// access token for the SDK's authenticate, and the channel to play.
// GET /web/activity answers what the page needs first: the client ID.
func (a *activity) signIn(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, map[string]string{"client_id": a.cfg.ClientID})
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		// JSON only: another site's page cannot send it here without the
		// browser asking this server first, which it does not allow.
		problem(w, http.StatusForbidden, "the page sends JSON only (Content-Type: application/json)")
		return
	}
	var in struct {
		Code     string `json:"code"`
		Instance string `json:"instance"`
	}
	if !readBody(w, r, &in) {
		return
	}
	if in.Code == "" || in.Instance == "" {
		problem(w, http.StatusBadRequest, "a code (from Discord's authorize) and the Activity's instance are needed")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	p, err := a.cfg.Identify(ctx, in.Code, in.Instance)
	switch {
	case errors.Is(err, ErrNotSignedIn):
		a.log.Info("the Activity's sign-in refused", "err", err)
		problem(w, http.StatusUnauthorized, "Discord did not sign you in here: close the Activity and open it again from the channel")
		return
	case err != nil:
		a.log.Error("sign an Activity's player in", "err", err)
		problem(w, http.StatusServiceUnavailable, "Discord cannot be reached just now: try again in a moment")
		return
	case !snowflake.Valid(p.UserID) || !snowflake.Valid(p.Channel):
		a.log.Error("sign an Activity's player in: Discord named no user or channel", "user", p.UserID, "channel", p.Channel)
		problem(w, http.StatusServiceUnavailable, "Discord's answer was not understood: try again in a moment")
		return
	}
	name := p.Name
	if name == "" {
		name = p.UserID
	}
	a.names.Add(discordPrefix+p.UserID, name)
	until := a.now().Add(activityTTL)
	tok := a.sign(ticket{User: p.UserID, Name: chat.Trunc(name, 64), Channel: p.Channel, Guild: p.Guild, Until: until.Unix()})
	// Partitioned: the page is framed by Discord, another site, where
	// browsers keep such a cookie for that frame alone.
	http.SetCookie(w, &http.Cookie{Name: activityCookie, Value: tok, Path: "/", Expires: until, MaxAge: int(activityTTL.Seconds()),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteNoneMode, Partitioned: true})
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"session": tok, "access_token": p.AccessToken, "channel": discordPrefix + p.Channel,
		"user": map[string]string{"id": p.UserID, "name": name}, "until": until.Unix(),
	})
}

// activityGate is the Activity's server in front of the page's handlers:
// the page, its scripts and words, Discord's SDK and the sign-in for
// anyone; for a session, what the page reads and does in its channel;
// nothing else (no other channel, no list of channels, no names, no
// spectators' pages, no match API beyond its channel's map and regions).
func (s *Server) activityGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch {
		case get && (p == "/" || p == "/web/words" || strings.HasPrefix(p, "/static/") && p != "/static/discord-sdk.mjs"):
			next.ServeHTTP(w, r)
			return
		case get && p == "/static/discord-sdk.mjs":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Header().Set("Cache-Control", "public, max-age=86400")
			_, _ = w.Write(discordsdk.Module)
			return
		case p == "/web/activity" && (get || r.Method == http.MethodPost):
			s.guard.limited(s.activity.signIn)(w, r)
			return
		}
		se := s.activity.session(r)
		if se == nil {
			problem(w, http.StatusUnauthorized, "this server is Risk's Discord Activity: open it from Discord, in a channel where the bot plays (its Activities, 🚀)")
			return
		}
		id := se.activity
		switch {
		case get && p == "/web/names":
			// The page plays one player: the Activity's.
			writeJSON(w, http.StatusOK, map[string]any{"names": []string{strings.TrimPrefix(id.user.ID, discordPrefix)}, "token": "activity", "operator": false})
		case get && (p == "/web/channel" || p == "/web/events" || p == "/web/board" || p == "/web/complete"):
			if r.URL.Query().Get("channel") != id.channel {
				problem(w, http.StatusForbidden, "this Activity shows its own channel only")
				return
			}
			next.ServeHTTP(w, r)
		case r.Method == http.MethodPost && (p == "/web/command" || p == "/web/click"):
			next.ServeHTTP(w, r) // acting checks the channel
		case get && strings.HasPrefix(p, "/web/img/"):
			if s.feeds.imageChannel(strings.TrimPrefix(p, "/web/img/")) != id.channel {
				problem(w, http.StatusNotFound, "no such image")
				return
			}
			next.ServeHTTP(w, r)
		case get && strings.HasPrefix(p, "/api/matches/"):
			// A match's map and where its territories lie, for the map the
			// page plays on: its channel's matches only.
			rest := strings.TrimPrefix(p, "/api/matches/")
			n, what, _ := strings.Cut(rest, "/")
			mid, err := strconv.ParseInt(n, 10, 64)
			if err != nil || (what != "map.png" && what != "regions" && what != "regions.png") {
				problem(w, http.StatusNotFound, "not served by the Activity")
				return
			}
			if h, err := s.store.Head(r.Context(), mid); err != nil || h.Channel != id.channel {
				problem(w, http.StatusNotFound, "no such match")
				return
			}
			next.ServeHTTP(w, r)
		default:
			problem(w, http.StatusNotFound, "not served by the Activity")
		}
	})
}

// Mirror shows on the Activity's page a message the bot posted in a
// channel of Discord's, or its new version (id is the chat's, for the
// edits to follow): only while a page has that channel open, since
// Discord keeps the channel's history, not the page.
func (s *Server) Mirror(channel, id string, m chat.Message) {
	if s.activity == nil || m.Private || !strings.HasPrefix(channel, discordPrefix) {
		return
	}
	if s.feeds.followed(channel) {
		s.feeds.putAs(channel, id, "", onThePage(m), true)
	}
}

// onThePage is a post of the channel as the Activity shows it: without its
// Play on the map, since the page is the map.
func onThePage(m chat.Message) chat.Message {
	var rows [][]chat.Button
	for _, row := range m.Buttons {
		var kept []chat.Button
		for _, b := range row {
			if bt, err := button.Parse(b.ID); err != nil || bt.Action != button.Map {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			rows = append(rows, kept)
		}
	}
	m.Buttons = rows
	return m
}

// activityPost posts a public answer to an Activity's command in its
// channel, as a typed command's answer is seen there, and shows it on the
// page; on the page only if it cannot be posted.
func (pl *play) activityPost(ctx context.Context, channel string, m chat.Message) {
	if p := pl.activity.cfg.Poster; p != nil {
		id, err := p.Post(ctx, channel, m)
		if err == nil && id != "" {
			pl.feeds.putAs(channel, id, "", onThePage(m), true) // as Mirror would: once, whoever shows it
			return
		}
		if err != nil {
			pl.log.Warn("post an Activity's answer in its channel", "channel", channel, "err", err)
		}
	}
	pl.feeds.put(channel, "", "", m)
}

// activityChannel checks a channel's name from the Activity's page: a
// channel of Discord's, "discord:ID".
func activityChannel(name string) (string, error) {
	id, ok := strings.CutPrefix(name, discordPrefix)
	if !ok || !snowflake.Valid(id) {
		return "", fmt.Errorf("the Activity plays a channel of Discord's (discord:ID), not %q", chat.Trunc(name, 40))
	}
	return name, nil
}
