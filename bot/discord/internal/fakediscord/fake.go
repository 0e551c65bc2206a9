// Package fakediscord is an in-process fake of Discord for offline tests
// of code that uses the real discordgo library: an httptest server that
// serves the REST routes a slash-command bot uses, and a gateway websocket.
//
// The fake enforces Discord's documented limits, so that nothing passes
// offline that would fail live: command trees at registration; interactions
// answered once and within 3 seconds; edits and follow-ups only after an
// answer and within the token's 15 minutes; the ephemeral flag fixed when an
// interaction is deferred; message content, embeds (each part, and 6000
// characters in all), buttons, custom IDs, autocomplete choices and files
// within their limits. It models the bot's
// permissions in each channel (SetBotPermissions): interactions carry them
// as app_permissions, and posts without them are refused with Discord's
// 403s (Missing Access, Missing Permissions; embeds are dropped without
// Embed Links). Direct messages open a channel per user, and a user may
// refuse them (RefuseDMs). It answers what a bot reads to check its
// setup: itself, its application and commands, a channel of the fake's one
// server (GuildID), the server and the bot's membership, with the
// permissions set above (info.go). It also enforces the
// project's mention policy: every message that may notify says whom with
// allowed_mentions, and never lets @everyone or roles through.
//
// On demand it answers a route with a failure (FailNext) or with Discord's
// 429 Too Many Requests, with the headers and body Discord sends
// (RateLimit).
//
// A request that breaks a rule gets the error Discord would give, and is
// recorded as a violation; New registers a cleanup that fails the test if
// violations are left unclaimed (TakeViolations claims them).
//
// Point discordgo at it with Client, an http.Client whose transport
// rewrites requests for discord.com to the fake; discordgo's endpoint
// variables stay untouched.
package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Defaults of a new fake.
const (
	AppID    = "1180000000000000001"
	BotID    = "1180000000000000001"
	BotName  = "RiskBot"
	Token    = "fake-token.for-tests.only"
	Deadline = 3 * time.Second  // to answer an interaction
	TokenTTL = 15 * time.Minute // of an interaction token
)

// Server is the fake Discord. Its methods are safe for concurrent use.
type Server struct {
	http *httptest.Server

	mu sync.Mutex
	held
}

// held is what the fake holds: the Server's state, guarded by its mu. Its
// methods (the ...Locked helpers) are called with mu held.
type held struct {
	files      map[string][]byte // attachments served, by ID (Attach)
	offset     time.Duration     // added to the real clock (Advance)
	next       int64             // last snowflake handed out
	seq        int64             // last gateway sequence number
	inter      map[string]*interaction
	commands   map[string][]Command // by scope: "" global, else guild ID
	puts       int                  // bulk overwrites accepted
	messages   []*Message
	violations []string
	conns      map[*gatewayConn]bool
	identified []Identify
	failNext   map[string]int        // route key -> HTTP status to answer once
	limited    map[string]*rateLimit // route key -> 429s to answer (RateLimit)
	perms      map[string]int64      // the bot's permissions by channel (DefaultBotPermissions if absent)
	dms        map[string]string     // direct message channel -> its user
	noDMs      map[string]bool       // users who take no direct messages
	threads    map[string]*Thread
	deleted    map[string]bool // channels gone (DeleteChannel)
	// resent counts the posts answered with the message their nonce
	// created earlier (enforce_nonce), instead of a new one.
	resent int
	// act is the Activity's side (activity.go).
	act *activity
}

// NonceWindow is how long Discord remembers a post's nonce for
// enforce_nonce ("the past few minutes").
const NonceWindow = 5 * time.Minute

// Resent returns how many posts were answered with the message that their
// nonce created earlier, rather than posted again.
func (s *Server) Resent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resent
}

// Thread is a thread the bot opened.
type Thread struct {
	ID, Parent, Name string
	Archived         bool
	// Private: a private thread (type 12), which only its Members (user
	// ids, in the order added) and the bot see.
	Private bool
	Members []string
	// AutoArchive is its auto_archive_duration, in minutes.
	AutoArchive int
}

// Permission bits the fake models (Discord's values).
const (
	PermAdministrator       = 1 << 3
	PermManageChannels      = 1 << 4
	PermManageServer        = 1 << 5
	PermViewChannel         = 1 << 10
	PermSendMessages        = 1 << 11
	PermEmbedLinks          = 1 << 14
	PermAttachFiles         = 1 << 15
	PermReadMessageHistory  = 1 << 16
	PermUseAppCommands      = 1 << 31
	PermManageThreads       = 1 << 34
	PermCreatePublicThreads = 1 << 35
	PermCreatePrivThreads   = 1 << 36
	PermSendInThreads       = 1 << 38
)

// DefaultBotPermissions are the bot's permissions in a channel unless
// SetBotPermissions says otherwise: what the invite link asks for, without
// the thread permissions.
const DefaultBotPermissions = PermViewChannel | PermSendMessages | PermEmbedLinks | PermAttachFiles | PermReadMessageHistory

// ThreadPermissions are what opening a public thread and posting in it
// take, on top of DefaultBotPermissions.
const ThreadPermissions = PermCreatePublicThreads | PermSendInThreads

// interaction is what the fake knows of an interaction it delivered.
type interaction struct {
	id, token, channel string
	typ                int // 2 command, 3 component, 4 autocomplete
	created            time.Time
	answered           int // callback type, 0 before the answer
	answeredAt         time.Time
	// shown is when its author first saw an answer, by the real clock
	// (Shown): the answer itself, or the first edit of a deferred one.
	shown    time.Time
	original *Message // the answer (type 4) or the deferred message (type 5)
	// clicked is the message whose button made a component interaction
	// (nil if the fake does not hold it): answers of type 6 and 7 edit it.
	clicked *Message
	// updated: the answer was put in place of the clicked message.
	updated bool
	// overHTTP: delivered to the bot's endpoint, whose response (the
	// answer) is not read yet.
	overHTTP  bool
	choices   []Choice
	followups int
	// timestamp and signature are the headers it was delivered with over
	// HTTP, for a test to replay it.
	timestamp, signature string
}

// Kind says how a message came to be.
type Kind int

// The kinds of messages.
const (
	// Response is the message of an interaction's answer (callback type 4,
	// or type 5 then edited).
	Response Kind = iota + 1
	// Followup is a follow-up message of an interaction.
	Followup
	// Channel is a message posted to a channel by the bot.
	Channel
)

func (k Kind) String() string {
	switch k {
	case Response:
		return "response"
	case Followup:
		return "followup"
	case Channel:
		return "channel"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Message is a message as Discord holds it.
type Message struct {
	ID          string
	ChannelID   string
	Kind        Kind
	Interaction string // the interaction it answers; "" for channel posts
	Ephemeral   bool
	// Closed: posted where only some see it, a direct message or a
	// private thread.
	Closed bool
	// Loading: an interaction was deferred and the answer is not in yet.
	Loading bool
	Deleted bool
	Content string
	Buttons [][]Button
	// Embeds are the message's embeds, as last set.
	Embeds []Embed
	Files  []File
	// Mentions is the allowed_mentions sent with the message (nil if none).
	Mentions *AllowedMentions
	Edits    int
	// Nonce is the nonce it was posted with ("" if none).
	Nonce string
	// History holds every content the message ever had, oldest first.
	History []string
	At      time.Time
}

// Public reports whether anyone in the channel saw or sees the message:
// not an ephemeral answer, a direct message or a private thread's.
func (m *Message) Public() bool { return !m.Ephemeral && !m.Closed }

// Embed is an embed of a message, as far as the fake reads it.
type Embed struct {
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Color       int          `json:"color"`
	Fields      []EmbedField `json:"fields"`
	Footer      *struct {
		Text string `json:"text"`
	} `json:"footer"`
	Image *struct {
		URL string `json:"url"`
	} `json:"image"`
}

// EmbedField is a field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline"`
}

// Text is all the text of the embed, for searching it.
func (e Embed) Text() string {
	parts := []string{e.Title, e.Description}
	for _, f := range e.Fields {
		parts = append(parts, f.Name+": "+f.Value)
	}
	if e.Footer != nil {
		parts = append(parts, e.Footer.Text)
	}
	return strings.Join(parts, "\n")
}

// Button is a button of a message.
type Button struct {
	CustomID string
	Label    string
	Style    int
}

// File is a file attached to a message.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// AllowedMentions says who a message may notify.
type AllowedMentions struct {
	Parse []string // nil if absent
	Users []string
	Roles []string
}

// Choice is an autocomplete result.
type Choice struct {
	Name  string
	Value string
}

// Identify is what a gateway client identified with.
type Identify struct {
	Token   string
	Intents int64
	// Shard is [shard, shards], nil if the client did not shard.
	Shard *[2]int
}

// New starts a fake Discord for the test and stops it when the test ends,
// failing the test if requests broke rules and no one claimed the
// violations.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{held: held{
		next:     1180000000000001000,
		inter:    map[string]*interaction{},
		commands: map[string][]Command{},
		conns:    map[*gatewayConn]bool{},
		failNext: map[string]int{},
		limited:  map[string]*rateLimit{},
		perms:    map[string]int64{},
		dms:      map[string]string{},
		noDMs:    map[string]bool{},
		threads:  map[string]*Thread{},
		deleted:  map[string]bool{},
		act:      newActivity(),
	}}
	s.http = httptest.NewServer(s.routes())
	t.Cleanup(func() {
		s.Close()
		if v := s.Violations(); len(v) > 0 {
			t.Errorf("fakediscord: %d requests broke Discord's rules:\n  %s", len(v), strings.Join(v, "\n  "))
		}
	})
	return s
}

// URL is the fake's base URL (http://127.0.0.1:PORT).
func (s *Server) URL() string { return s.http.URL }

// Close stops the server and drops the gateway connections.
func (s *Server) Close() {
	s.mu.Lock()
	conns := make([]*gatewayConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close()
	}
	s.http.Close()
}

// Client returns an HTTP client that sends every request for Discord's
// hosts to the fake, and refuses any other host.
func (s *Server) Client() *http.Client {
	u, _ := url.Parse(s.http.URL)
	return &http.Client{Transport: rewrite{host: u.Host, base: s.http.Client().Transport}, Timeout: 30 * time.Second}
}

// rewrite is a RoundTripper that redirects Discord's hosts to the fake.
type rewrite struct {
	host string
	base http.RoundTripper
}

func (rw rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	h := r.URL.Hostname()
	if h != "discord.com" && !strings.HasSuffix(h, ".discord.com") && h != "discordapp.com" && !strings.HasSuffix(h, ".discordapp.com") {
		return nil, fmt.Errorf("fakediscord: refusing a request for %s: only Discord's hosts are faked", r.URL.Host)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = "http", rw.host, ""
	return rw.base.RoundTrip(r)
}

// nowLocked is the fake's clock: the real time plus what Advance added.
func (h *held) nowLocked() time.Time { return time.Now().Add(h.offset) }

// Advance moves the fake's clock forward, as if d had passed: use it to
// make interactions late without sleeping.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	s.offset += d
	s.mu.Unlock()
}

// snowflakeLocked hands out a new ID.
func (h *held) snowflakeLocked() string {
	h.next++
	return strconv.FormatInt(h.next, 10)
}

// Snowflake returns a new unique ID, for building payloads.
func (s *Server) Snowflake() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snowflakeLocked()
}

// SetBotPermissions sets the bot's permissions in a channel, as its roles
// and the channel's overwrites would: interactions from the channel carry
// them as app_permissions, and posts there need them.
func (s *Server) SetBotPermissions(channel string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perms[channel] = perms
}

// permsLocked are the bot's permissions in a channel: all in a direct
// message.
func (h *held) permsLocked(channel string) int64 {
	if _, ok := h.dms[channel]; ok {
		return PermViewChannel | PermSendMessages | PermEmbedLinks | PermAttachFiles | PermReadMessageHistory
	}
	if th, ok := h.threads[channel]; ok {
		channel = th.Parent // a thread has its parent's permissions
	}
	if p, ok := h.perms[channel]; ok {
		return p
	}
	return DefaultBotPermissions
}

// Interaction registers an interaction payload (the d of an
// INTERACTION_CREATE) as delivered now, and returns it. A missing id or
// token is filled in, and so is app_permissions: the bot's permissions in
// the channel. The payload is returned re-encoded, ready to be
// unmarshalled by discordgo.
func (s *Server) Interaction(payload []byte) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		return nil, fmt.Errorf("fakediscord: interaction payload: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, _ := m["id"].(string); id == "" || s.inter[id] != nil {
		m["id"] = s.snowflakeLocked()
	}
	if tok, _ := m["token"].(string); tok == "" || s.byTokenLocked(tok) != nil {
		m["token"] = randomToken()
	}
	typ, _ := m["type"].(float64)
	ch, _ := m["channel_id"].(string)
	if _, ok := m["app_permissions"]; !ok && ch != "" {
		m["app_permissions"] = strconv.FormatInt(s.permsLocked(ch), 10)
	}
	in := &interaction{id: m["id"].(string), token: m["token"].(string), channel: ch, typ: int(typ), created: s.nowLocked()}
	if msg, ok := m["message"].(map[string]any); ok && in.typ == 3 {
		// The click of a button of a message the fake holds: the newest
		// one showing a button of that custom_id, as Discord would
		// deliver it (its id and flags). A button no held message shows
		// (made up by a test, or gone with an update) comes with a
		// message the fake does not know.
		data, _ := m["data"].(map[string]any)
		cid, _ := data["custom_id"].(string)
		for i := len(s.messages) - 1; i >= 0 && in.clicked == nil; i-- {
			held := s.messages[i]
			for _, row := range held.Buttons {
				for _, b := range row {
					if b.CustomID == cid && !held.Deleted && in.clicked == nil {
						in.clicked = held
					}
				}
			}
		}
		if in.clicked != nil {
			msg["id"] = in.clicked.ID
			flags := 0
			if in.clicked.Ephemeral {
				flags = flagEphemeral
			}
			msg["flags"] = flags
		} else {
			msg["id"] = ""
		}
	}
	s.inter[in.id] = in
	return json.Marshal(m)
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return "aW50ZXJhY3Rpb24" + hex.EncodeToString(b)
}

// byTokenLocked is the interaction of that token, or nil.
func (h *held) byTokenLocked(token string) *interaction {
	for _, in := range h.inter {
		if in.token == token {
			return in
		}
	}
	return nil
}

// gatewayConn is one client connected to the fake gateway.
type gatewayConn struct {
	ws *websocket.Conn
	mu sync.Mutex // serialises writes
}

func (c *gatewayConn) send(v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ws.WriteJSON(v)
}
