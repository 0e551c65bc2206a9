package fakediscord

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"time"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h func(http.ResponseWriter, *http.Request)) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.HandleFunc(method+" /api/{version}"+path, func(w http.ResponseWriter, r *http.Request) {
			if v := r.PathValue("version"); v != "v9" && v != "v10" {
				s.fail(w, r, http.StatusNotFound, 0, "404: Not Found (API version "+v+")")
				return
			}
			h(w, r)
		})
	}
	api("GET /gateway", s.gateway)
	api("POST /interactions/{id}/{token}/callback", s.callback)
	api("PATCH /webhooks/{app}/{token}/messages/@original", s.editOriginal)
	api("DELETE /webhooks/{app}/{token}/messages/@original", s.deleteOriginal)
	api("POST /webhooks/{app}/{token}", s.followup)
	api("POST /channels/{channel}/messages", s.post)
	api("PATCH /channels/{channel}/messages/{message}", s.editPost)
	api("POST /users/@me/channels", s.openDM)
	api("POST /channels/{channel}/threads", s.openThread)
	api("PATCH /channels/{channel}", s.editChannel)
	api("PUT /applications/{app}/commands", s.overwrite)
	api("PUT /applications/{app}/guilds/{guild}/commands", s.overwrite)
	mux.HandleFunc("GET /ws", s.websocket)
	mux.HandleFunc("GET /ws/", s.websocket)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, 0, "404: Not Found (the fake does not serve this route)")
	})
	return mux
}

// apiError is Discord's error body.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// fail answers with Discord's error and records the violation.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failLocked(w, r, status, code, msg)
}

func (s *Server) failLocked(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
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

// injected answers a request with a failure asked for by FailNext.
func (s *Server) injected(w http.ResponseWriter, route string) bool {
	s.mu.Lock()
	status, ok := s.failNext[route]
	delete(s.failNext, route)
	s.mu.Unlock()
	if ok {
		writeJSON(w, status, apiError{Code: 0, Message: fmt.Sprintf("%d: injected failure", status)})
	}
	return ok
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bot "+Token {
		s.fail(w, r, http.StatusUnauthorized, 0, "401: Unauthorized (want the header Authorization: Bot TOKEN)")
		return false
	}
	return true
}

func (s *Server) gateway(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"url": "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws"})
}

var filePart = regexp.MustCompile(`^files\[(\d+)\]$`)

// readBody reads a JSON body, or a multipart one (payload_json and
// files[n]), as Discord's upload endpoints take it.
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
func (s *Server) callback(w http.ResponseWriter, r *http.Request) {
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
func (s *Server) acknowledgeLocked(w http.ResponseWriter, r *http.Request, id, token string, raw []byte, files []File, bad problems) {
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
func (s *Server) newMessageLocked(channel string, kind Kind, interaction string, d *message, files []File, now time.Time) *Message {
	m := &Message{ID: s.snowflakeLocked(), ChannelID: channel, Kind: kind, Interaction: interaction, At: now}
	m.Ephemeral = d.Flags != nil && *d.Flags&flagEphemeral != 0
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
func (s *Server) webhookLocked(w http.ResponseWriter, r *http.Request) *interaction {
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
func (s *Server) readMessage(w http.ResponseWriter, r *http.Request, flags int) (*message, []File, bool) {
	raw, files, bad := readBody(r)
	var d message
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, &d); err != nil {
			bad.add("body: %v", err)
		}
	}
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

func (s *Server) editOriginal(w http.ResponseWriter, r *http.Request) {
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
	in := s.webhookLocked(w, r)
	if in == nil {
		return
	}
	m := in.original
	if m == nil || m.Deleted {
		s.failLocked(w, r, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	if d.Flags != nil && (*d.Flags&flagEphemeral != 0) != m.Ephemeral {
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: flags: a message's ephemeral state is decided by the deferral and cannot change")
		return
	}
	cp := *m
	apply(&cp, d, files)
	if strings.TrimSpace(cp.Content) == "" && len(cp.Buttons) == 0 && len(cp.Files) == 0 && len(cp.Embeds) == 0 {
		s.failLocked(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	if len(cp.Files) > MaxFiles {
		s.failLocked(w, r, http.StatusBadRequest, 50035, fmt.Sprintf("Invalid Form Body: at most %d files in a message", MaxFiles))
		return
	}
	apply(m, d, files)
	m.Loading = false
	m.Edits++
	if m == in.clicked {
		in.updated = true
	}
	writeJSON(w, http.StatusOK, messageJSON(m))
}

func (s *Server) deleteOriginal(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "delete") {
		return
	}
	s.awaitHTTP(r.PathValue("token"))
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.webhookLocked(w, r)
	if in == nil {
		return
	}
	m := in.original
	if m == nil || m.Deleted {
		s.failLocked(w, r, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	m.Deleted = true
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) followup(w http.ResponseWriter, r *http.Request) {
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

func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "post") {
		return
	}
	if !s.authorized(w, r) {
		return
	}
	channel := r.PathValue("channel")
	if !isSnowflake(channel) {
		s.fail(w, r, http.StatusNotFound, 10003, "Unknown Channel")
		return
	}
	d, files, ok := s.readMessage(w, r, flagSuppressEmbeds|flagSuppressNotifications)
	if !ok {
		return
	}
	if d.empty(len(files)) {
		s.fail(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// What the bot may do in the channel: Discord refuses the post, and
	// that is no rule the bot broke (it cannot know before trying), so
	// it is not a violation.
	perms := s.permsLocked(channel)
	send := int64(PermSendMessages)
	th, inThread := s.threads[channel]
	if inThread {
		send = PermSendInThreads
	}
	switch user, dm := s.dms[channel]; {
	case inThread && th.Archived:
		s.failLocked(w, r, http.StatusBadRequest, 50083, "Thread is archived (a post to a thread the bot archived)")
		return
	case dm && s.noDMs[user]:
		writeJSON(w, http.StatusForbidden, apiError{Code: 50007, Message: "Cannot send messages to this user"})
		return
	case perms&PermAdministrator != 0:
	case perms&PermViewChannel == 0:
		writeJSON(w, http.StatusForbidden, apiError{Code: 50001, Message: "Missing Access"})
		return
	case perms&send == 0, len(files) > 0 && perms&PermAttachFiles == 0:
		writeJSON(w, http.StatusForbidden, apiError{Code: 50013, Message: "Missing Permissions"})
		return
	case len(d.Embeds) > 0 && perms&PermEmbedLinks == 0:
		d.Embeds = nil // Discord drops them and posts the rest
	}
	now := s.nowLocked()
	nonce := strings.Trim(string(d.Nonce), `"`)
	if len(nonce) > 25 {
		s.failLocked(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: nonce: at most 25 characters")
		return
	}
	if d.EnforceNonce && nonce != "" {
		for _, m := range s.messages {
			if m.ChannelID == channel && m.Kind == Channel && m.Nonce == nonce && now.Sub(m.At) < NonceWindow {
				s.resent++
				writeJSON(w, http.StatusOK, messageJSON(m))
				return
			}
		}
	}
	m := s.newMessageLocked(channel, Channel, "", d, files, now)
	m.Nonce = nonce
	writeJSON(w, http.StatusOK, messageJSON(m))
}

// openThread answers POST /channels/{channel}/threads: a thread without a
// starting message, public (type 11) unless asked otherwise.
func (s *Server) openThread(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	raw, _, bad := readBody(r)
	var body struct {
		Name        string `json:"name"`
		Type        int    `json:"type"`
		AutoArchive int    `json:"auto_archive_duration"`
	}
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			bad.add("body: %v", err)
		}
	}
	if n := chars(body.Name); n < 1 || n > 100 {
		bad.add("name: must be 1 to 100 characters (has %d)", n)
	}
	if body.Type != 11 && body.Type != 12 && body.Type != 0 {
		bad.add("type: %d is not a thread type (11 public, 12 private)", body.Type)
	}
	if a := body.AutoArchive; a != 0 && a != 60 && a != 1440 && a != 4320 && a != 10080 {
		bad.add("auto_archive_duration: %d is not 60, 1440, 4320 or 10080", a)
	}
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	parent := r.PathValue("channel")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.threads[parent]; ok {
		s.failLocked(w, r, http.StatusBadRequest, 50024, "Cannot execute action on this channel type (a thread in a thread)")
		return
	}
	perms := s.permsLocked(parent)
	if perms&PermAdministrator == 0 && (perms&PermViewChannel == 0 || perms&PermCreatePublicThreads == 0) {
		writeJSON(w, http.StatusForbidden, apiError{Code: 50013, Message: "Missing Permissions"})
		return
	}
	th := &Thread{ID: s.snowflakeLocked(), Parent: parent, Name: body.Name, AutoArchive: cmp.Or(body.AutoArchive, 4320)}
	s.threads[th.ID] = th
	writeJSON(w, http.StatusCreated, map[string]any{"id": th.ID, "type": 11, "parent_id": parent, "name": th.Name,
		"owner_id": BotID, "thread_metadata": map[string]any{"archived": false, "auto_archive_duration": th.AutoArchive, "locked": false}})
}

// editChannel answers PATCH /channels/{channel} for what the fake models:
// archiving (or not) a thread the bot opened.
func (s *Server) editChannel(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	raw, _, bad := readBody(r)
	var body map[string]json.RawMessage
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			bad.add("body: %v", err)
		}
	}
	var archived bool
	if v, ok := body["archived"]; !ok || json.Unmarshal(v, &archived) != nil || len(body) != 1 {
		bad.add("the fake models only {\"archived\": true|false} on a thread")
	}
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	th, ok := s.threads[r.PathValue("channel")]
	if !ok {
		s.failLocked(w, r, http.StatusNotFound, 10003, "Unknown Channel (not a thread the bot opened)")
		return
	}
	th.Archived = archived
	writeJSON(w, http.StatusOK, map[string]any{"id": th.ID, "type": 11, "parent_id": th.Parent, "name": th.Name,
		"thread_metadata": map[string]any{"archived": th.Archived, "auto_archive_duration": th.AutoArchive}})
}

// openDM answers POST /users/@me/channels: the direct message channel with
// a user (the same one each time).
func (s *Server) openDM(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	raw, _, bad := readBody(r)
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if len(bad) == 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			bad.add("body: %v", err)
		}
	}
	if len(bad) == 0 && !isSnowflake(body.RecipientID) {
		bad.add("recipient_id: %q is not a snowflake", body.RecipientID)
	}
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := ""
	for ch, u := range s.dms {
		if u == body.RecipientID {
			id = ch
		}
	}
	if id == "" {
		id = s.snowflakeLocked()
		s.dms[id] = body.RecipientID
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": 1, "recipients": []any{map[string]any{"id": body.RecipientID, "username": "user" + body.RecipientID, "discriminator": "0"}}})
}

func (s *Server) overwrite(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "commands") {
		return
	}
	if !s.authorized(w, r) {
		return
	}
	if r.PathValue("app") != AppID {
		s.fail(w, r, http.StatusForbidden, 50001, "Missing Access (not this bot's application)")
		return
	}
	raw, _, bad := readBody(r)
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	var cmds []Command
	if err := json.Unmarshal(raw, &cmds); err != nil {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
		return
	}
	if p := checkCommands(cmds); len(p) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+p.err().Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range cmds {
		cmds[i].ID = s.snowflakeLocked()
	}
	s.commands[r.PathValue("guild")] = cmds
	s.puts++
	writeJSON(w, http.StatusOK, cmds)
}

// messageJSON is a message as Discord returns it.
func messageJSON(m *Message) map[string]any {
	flags := 0
	if m.Ephemeral {
		flags |= flagEphemeral
	}
	if m.Loading {
		flags |= 1 << 7
	}
	var atts []map[string]any
	for i, f := range m.Files {
		atts = append(atts, map[string]any{"id": fmt.Sprint(i + 1), "filename": f.Name, "size": len(f.Data), "content_type": f.ContentType,
			"url": "https://cdn.discordapp.com/attachments/" + m.ChannelID + "/" + m.ID + "/" + f.Name})
	}
	var rows []map[string]any
	for _, row := range m.Buttons {
		var cs []map[string]any
		for _, b := range row {
			cs = append(cs, map[string]any{"type": 2, "custom_id": b.CustomID, "label": b.Label, "style": b.Style})
		}
		rows = append(rows, map[string]any{"type": 1, "components": cs})
	}
	typ := 0
	if m.Interaction != "" {
		typ = 20
	}
	return map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "type": typ, "content": m.Content, "flags": flags,
		"author":      map[string]any{"id": BotID, "username": BotName, "bot": true, "discriminator": "0"},
		"attachments": atts, "components": rows, "embeds": []any{}, "mentions": []any{},
		"timestamp": m.At.UTC().Format(time.RFC3339Nano),
	}
}

// editPost edits a message the bot posted to a channel.
func (s *Server) editPost(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "edit post") {
		return
	}
	if !s.authorized(w, r) {
		return
	}
	d, files, ok := s.readMessage(w, r, flagSuppressEmbeds)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	channel, id := r.PathValue("channel"), r.PathValue("message")
	var m *Message
	for _, held := range s.messages {
		if held.ID == id && held.ChannelID == channel && !held.Deleted {
			m = held
		}
	}
	if m == nil || m.Kind != Channel {
		s.failLocked(w, r, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	cp := *m
	apply(&cp, d, files)
	if strings.TrimSpace(cp.Content) == "" && len(cp.Buttons) == 0 && len(cp.Files) == 0 && len(cp.Embeds) == 0 {
		s.failLocked(w, r, http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	apply(m, d, files)
	m.Edits++
	writeJSON(w, http.StatusOK, messageJSON(m))
}
