package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	rs := rest{s}
	api := func(pattern string, h func(http.ResponseWriter, *http.Request)) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.HandleFunc(method+" /api/{version}"+path, func(w http.ResponseWriter, r *http.Request) {
			if v := r.PathValue("version"); v != "v9" && v != "v10" {
				rs.fail(w, r, http.StatusNotFound, 0, "404: Not Found (API version "+v+")")
				return
			}
			h(w, r)
		})
	}
	api("GET /gateway", rs.gateway)
	api("POST /interactions/{id}/{token}/callback", rs.callback)
	api("PATCH /webhooks/{app}/{token}/messages/@original", rs.editOriginal)
	api("DELETE /webhooks/{app}/{token}/messages/@original", rs.deleteOriginal)
	api("POST /webhooks/{app}/{token}", rs.followup)
	api("POST /channels/{channel}/messages", rs.post)
	api("PATCH /channels/{channel}/messages/{message}", rs.editPost)
	api("POST /users/@me/channels", rs.openDM)
	api("POST /channels/{channel}/threads", rs.openThread)
	api("PUT /channels/{channel}/thread-members/{user}", rs.addThreadMember)
	api("PATCH /channels/{channel}", rs.editChannel)
	api("PUT /applications/{app}/commands", rs.overwrite)
	api("PUT /applications/{app}/guilds/{guild}/commands", rs.overwrite)
	api("GET /applications/{app}/commands", rs.commandList)
	api("GET /applications/{app}/guilds/{guild}/commands", rs.commandList)
	api("GET /users/@me", rs.me)
	api("GET /oauth2/applications/@me", rs.application)
	api("GET /channels/{channel}", rs.channel)
	api("GET /guilds/{guild}", rs.guild)
	api("GET /guilds/{guild}/members/{user}", rs.member)
	api("POST /oauth2/token", rs.token)
	api("GET /applications/{app}/activity-instance/{instance}", rs.instance)
	mux.HandleFunc("GET /attachments/{channel}/{id}/{name}", rs.attachment)
	gw := gateway{s}
	mux.HandleFunc("GET /ws", gw.serve)
	mux.HandleFunc("GET /ws/", gw.serve)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		rs.fail(w, r, http.StatusNotFound, 0, "404: Not Found (the fake does not serve this route)")
	})
	return mux
}

// rest answers the routes of Discord's REST API and its CDN, over the
// fake's state.
type rest struct{ *Server }

// apiError is Discord's error body.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// fail answers with Discord's error and records the violation.
func (s rest) fail(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(w, r, status, code, msg)
}

func (s rest) failLocked(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	s.violations = append(s.violations, fmt.Sprintf("%s %s: %d %s", r.Method, redact(r.URL.Path), status, msg))
	writeJSON(w, status, apiError{Code: code, Message: msg})
}

// redact shortens interaction tokens in paths, for readable reports.
func redact(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if len(p) > 24 {
			parts[i] = p[:12] + "…"
		}
	}
	return strings.Join(parts, "/")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// injected answers a request with a failure asked for by FailNext, or
// with a 429 asked for by RateLimit.
func (s rest) injected(w http.ResponseWriter, route string) bool {
	s.mu.Lock()
	if rl := s.limited[route]; rl != nil && rl.left != 0 {
		rl.left--
		rl.answered++
		secs := strconv.FormatFloat(rl.retryAfter.Seconds(), 'f', 3, 64)
		h := w.Header()
		h.Set("Retry-After", secs)
		h.Set("X-RateLimit-Reset-After", secs)
		h.Set("X-RateLimit-Scope", "user")
		if rl.global {
			h.Set("X-RateLimit-Global", "true")
			h.Set("X-RateLimit-Scope", "global")
		}
		body := map[string]any{"message": "You are being rate limited.", "retry_after": rl.retryAfter.Seconds(), "global": rl.global}
		s.mu.Unlock()
		writeJSON(w, http.StatusTooManyRequests, body)
		return true
	}
	status, ok := s.failNext[route]
	delete(s.failNext, route)
	s.mu.Unlock()
	if ok {
		writeJSON(w, status, apiError{Code: 0, Message: fmt.Sprintf("%d: injected failure", status)})
	}
	return ok
}

func (s rest) authorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bot "+Token {
		s.fail(w, r, http.StatusUnauthorized, 0, "401: Unauthorized (want the header Authorization: Bot TOKEN)")
		return false
	}
	return true
}

func (s rest) gateway(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"url": "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws"})
}

var filePart = regexp.MustCompile(`^files\[(\d+)\]$`)

// readBody reads a JSON body, or a multipart one (payload_json and
// files[n]), as Discord's upload endpoints take it.
// readJSON reads a request's JSON body, or its multipart body's JSON
// payload, into v (readBody): its files, and what is wrong with it.
func readJSON(r *http.Request, v any) ([]File, problems) {
	raw, files, bad := readBody(r)
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, v); err != nil {
			bad.add("body: %v", err)
		}
	}
	return files, bad
}

func readBody(r *http.Request) ([]byte, []File, problems) {
	var p problems
	body := http.MaxBytesReader(nil, r.Body, 64<<20)
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		b, err := io.ReadAll(body)
		if err != nil {
			p.add("body: %v", err)
		}
		return b, nil, p
	case "multipart/form-data":
	default:
		p.add("body: content type %q (want application/json or multipart/form-data)", ct)
		return nil, nil, p
	}
	if params["boundary"] == "" {
		p.add("body: multipart without a boundary")
		return nil, nil, p
	}
	var payload []byte
	var files []File
	seen := map[string]bool{}
	mr := multipart.NewReader(body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.add("body: %v", err)
			return nil, nil, p
		}
		data, err := io.ReadAll(io.LimitReader(part, MaxFileSize+1))
		if err != nil {
			p.add("body: %v", err)
			return nil, nil, p
		}
		name := part.FormName()
		if seen[name] {
			p.add("body: part %q twice", name)
		}
		seen[name] = true
		switch {
		case name == "payload_json":
			payload = data
		case filePart.MatchString(name):
			if part.FileName() == "" {
				p.add("%s: a file needs a filename", name)
			}
			if len(data) > MaxFileSize {
				p.add("%s: request entity too large (files are at most %d bytes)", name, MaxFileSize)
			}
			files = append(files, File{Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
		default:
			p.add("body: unexpected part %q (want payload_json and files[n])", name)
		}
	}
	if payload == nil {
		p.add("body: multipart without payload_json")
	}
	return payload, files, p
}

// callback answers POST /interactions/{id}/{token}/callback.
func (s rest) callback(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "callback") {
		return
	}
	raw, files, bad := readBody(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acknowledgeLocked(w, r, r.PathValue("id"), r.PathValue("token"), raw, files, bad)
}

// acknowledgeLocked takes the answer to an interaction (its callback body,
// or in HTTP mode the body of the HTTP response), under Discord's rules.
func (s rest) acknowledgeLocked(w http.ResponseWriter, r *http.Request, id, token string, raw []byte, files []File, bad problems) {
	var resp struct {
		Type int     `json:"type"`
		Data message `json:"data"`
	}
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, &resp); err != nil {
			bad.add("body: %v", err)
		}
	}
	in := s.inter[id]
	now := s.nowLocked()
	switch {
	case in == nil || in.token != token:
		s.failLocked(w, r, http.StatusNotFound, 10062, "Unknown interaction")
		return
	case in.answered != 0:
		s.failLocked(w, r, http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
		return
	case now.Sub(in.created) > Deadline:
		s.failLocked(w, r, http.StatusNotFound, 10062, fmt.Sprintf("Unknown interaction (answered after %s; the limit is %s)", now.Sub(in.created).Round(time.Millisecond), Deadline))
		return
	case len(bad) > 0:
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	d := &resp.Data
	switch {
	case in.typ == 1:
		if resp.Type != 1 {
			bad.add("type: a PING is answered with type 1 (PONG), not %d", resp.Type)
		}
	case in.typ == 4 && resp.Type != 8:
		bad.add("type: an autocomplete interaction is answered with type 8, not %d", resp.Type)
	case in.typ == 4:
		if d.Choices == nil {
			bad.add("data.choices: required (give [] for no suggestions)")
		}
		bad = append(bad, checkChoices(d.Choices)...)
	case resp.Type == 4:
		bad = append(bad, checkMessage(d, len(files), flagEphemeral|flagSuppressEmbeds|flagSuppressNotifications)...)
		bad = append(bad, checkPolicy(d)...)
		if d.empty(len(files)) {
			s.failLocked(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
			return
		}
	case resp.Type == 5:
		if d.Flags != nil && *d.Flags&^flagEphemeral != 0 {
			bad.add("data.flags: a deferral takes only the EPHEMERAL flag, not %d", *d.Flags)
		}
		if len(files) > 0 {
			bad.add("a deferral carries no files")
		}
	case resp.Type == 12:
		bad = append(bad, s.launchLocked(in, raw)...)
	case resp.Type == 6 || resp.Type == 7:
		switch {
		case in.typ != 3:
			bad.add("type: %d is only for component interactions", resp.Type)
		case in.clicked == nil:
			bad.add("type: %d updates the clicked message, which the fake does not hold (click a message it holds)", resp.Type)
		case resp.Type == 6 && len(files) > 0:
			bad.add("a deferral carries no files")
		case resp.Type == 7:
			bad = append(bad, checkMessage(d, len(files), flagSuppressEmbeds)...)
		}
	default:
		bad.add("type: %d is not a valid answer to an interaction of type %d", resp.Type, in.typ)
	}
	if len(bad) > 0 {
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	in.answered, in.answeredAt = resp.Type, now
	if resp.Type == 4 || resp.Type == 7 {
		in.shown = time.Now()
	}
	switch resp.Type {
	case 8:
		for _, c := range d.Choices {
			in.choices = append(in.choices, Choice{Name: c.Name, Value: fmt.Sprint(c.Value)})
		}
	case 4:
		in.original = s.newMessageLocked(in.channel, Response, in.id, d, files, now)
	case 6:
		in.original = in.clicked
	case 7:
		in.original = in.clicked
		apply(in.clicked, d, files)
		in.clicked.Edits++
		in.updated = true
	case 5:
		m := &Message{ID: s.snowflakeLocked(), ChannelID: in.channel, Kind: Response, Interaction: in.id, Loading: true, At: now}
		m.Ephemeral = d.Flags != nil && *d.Flags&flagEphemeral != 0
		s.messages = append(s.messages, m)
		in.original = m
	}
	w.WriteHeader(http.StatusNoContent)
}

// newMessageLocked creates a message from a request's fields.
func (s rest) newMessageLocked(channel string, kind Kind, interaction string, d *message, files []File, now time.Time) *Message {
	m := &Message{ID: s.snowflakeLocked(), ChannelID: channel, Kind: kind, Interaction: interaction, At: now}
	m.Ephemeral = d.Flags != nil && *d.Flags&flagEphemeral != 0
	_, dm := s.dms[channel]
	th := s.threads[channel]
	m.Closed = dm || th != nil && th.Private
	apply(m, d, files)
	s.messages = append(s.messages, m)
	return m
}

// apply sets the fields a create or an edit gives.
func apply(m *Message, d *message, files []File) {
	if d.Content != nil {
		m.Content = *d.Content
		m.History = append(m.History, m.Content)
	}
	if d.Components != nil {
		m.Buttons = nil
		for _, row := range d.Components {
			var bs []Button
			for _, c := range row.Components {
				bs = append(bs, Button{CustomID: c.CustomID, Label: c.Label, Style: c.Style})
			}
			m.Buttons = append(m.Buttons, bs)
		}
	}
	if d.Embeds != nil {
		m.Embeds = nil
		for _, raw := range d.Embeds {
			var e Embed
			if json.Unmarshal(raw, &e) == nil {
				m.Embeds = append(m.Embeds, e)
			}
		}
	}
	if d.Attachments != nil {
		// The attachments kept are listed; files sent with the edit add to
		// them (the fake keeps none of the old ones when the list is empty).
		if len(d.Attachments) == 0 {
			m.Files = nil
		}
	}
	m.Files = append(m.Files, files...)
	if am := d.AllowedMentions; am != nil {
		m.Mentions = &AllowedMentions{Users: am.Users, Roles: am.Roles}
		if am.Parse != nil {
			m.Mentions.Parse = append([]string{}, *am.Parse...)
		}
	}
}

// webhookLocked finds the interaction of a webhook route and checks its
// token's age. It answers the request and returns nil if it cannot go on.
func (s rest) webhookLocked(w http.ResponseWriter, r *http.Request) *interaction {
	in := s.byTokenLocked(r.PathValue("token"))
	now := s.nowLocked()
	switch {
	case r.PathValue("app") != AppID:
		s.failLocked(w, r, http.StatusNotFound, 10015, fmt.Sprintf("Unknown Webhook (application %q; is application_id missing from the interaction?)", r.PathValue("app")))
		return nil
	case in == nil:
		s.failLocked(w, r, http.StatusNotFound, 10015, "Unknown Webhook")
		return nil
	case now.Sub(in.created) > TokenTTL:
		s.failLocked(w, r, http.StatusUnauthorized, 50027, fmt.Sprintf("Invalid Webhook Token (the interaction is %s old; tokens last %s)", now.Sub(in.created).Round(time.Second), TokenTTL))
		return nil
	case in.answered == 0:
		s.failLocked(w, r, http.StatusNotFound, 10015, "Unknown Webhook (the interaction was not answered or deferred first)")
		return nil
	case in.typ == 4:
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: an autocomplete interaction has no messages")
		return nil
	}
	return in
}

// readMessage reads and checks a webhook or channel message body.
func (s rest) readMessage(w http.ResponseWriter, r *http.Request, flags int) (*message, []File, bool) {
	var d message
	files, bad := readJSON(r, &d)
	if len(bad) == 0 {
		bad = append(bad, checkMessage(&d, len(files), flags)...)
		bad = append(bad, checkPolicy(&d)...)
	}
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return nil, nil, false
	}
	return &d, files, true
}

func (s rest) editOriginal(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "edit") {
		return
	}
	s.awaitHTTP(r.PathValue("token"))
	d, files, ok := s.readMessage(w, r, flagEphemeral|flagSuppressEmbeds)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, m := s.originalLocked(w, r)
	if m == nil {
		return
	}
	if d.Flags != nil && (*d.Flags&flagEphemeral != 0) != m.Ephemeral {
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: flags: a message's ephemeral state is decided by the deferral and cannot change")
		return
	}
	cp := s.editedLocked(w, r, m, d, files)
	if cp == nil {
		return
	}
	if len(cp.Files) > MaxFiles {
		s.failLocked(w, r, http.StatusBadRequest, 50035, fmt.Sprintf("Invalid Form Body: at most %d files in a message", MaxFiles))
		return
	}
	apply(m, d, files)
	if m.Loading && in.shown.IsZero() {
		in.shown = time.Now()
	}
	m.Loading = false
	m.Edits++
	if m == in.clicked {
		in.updated = true
	}
	writeJSON(w, http.StatusOK, messageJSON(m))
}

func (s rest) deleteOriginal(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "delete") {
		return
	}
	s.awaitHTTP(r.PathValue("token"))
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, m := s.originalLocked(w, r); m != nil {
		m.Deleted = true
		w.WriteHeader(http.StatusNoContent)
	}
}

// originalLocked is the interaction of the webhook the request names and
// its original response, or a nil message (the error answered) if there
// is no such interaction or its response is not there (never sent, or
// deleted).
func (s rest) originalLocked(w http.ResponseWriter, r *http.Request) (*interaction, *Message) {
	in := s.webhookLocked(w, r)
	if in == nil {
		return nil, nil
	}
	if m := in.original; m != nil && !m.Deleted {
		return in, m
	}
	s.failLocked(w, r, http.StatusNotFound, 10008, "Unknown Message")
	return in, nil
}

// editedLocked is m as an edit of d and files would leave it, or nil (the
// error answered) if that is empty: Discord refuses an edit that leaves
// nothing to show.
func (s rest) editedLocked(w http.ResponseWriter, r *http.Request, m *Message, d *message, files []File) *Message {
	cp := *m
	apply(&cp, d, files)
	if strings.TrimSpace(cp.Content) == "" && len(cp.Buttons) == 0 && len(cp.Files) == 0 && len(cp.Embeds) == 0 {
		s.failLocked(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
		return nil
	}
	return &cp
}

func (s rest) followup(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "followup") {
		return
	}
	s.awaitHTTP(r.PathValue("token"))
	d, files, ok := s.readMessage(w, r, flagEphemeral|flagSuppressEmbeds|flagSuppressNotifications)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.webhookLocked(w, r)
	if in == nil {
		return
	}
	if d.empty(len(files)) {
		s.failLocked(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	var m *Message
	if o := in.original; o != nil && o.Loading {
		// Discord's documented quirk: the first follow-up after a deferral
		// edits the loading message, keeping the deferral's ephemeral
		// state whatever the flags say.
		if o.Deleted {
			s.failLocked(w, r, http.StatusNotFound, 10008, "Unknown Message (the deferred message was deleted before it was completed)")
			return
		}
		apply(o, d, files)
		o.Loading = false
		o.Edits++
		m = o
	} else {
		m = s.newMessageLocked(in.channel, Followup, in.id, d, files, s.nowLocked())
		in.followups++
	}
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, messageJSON(m))
}
