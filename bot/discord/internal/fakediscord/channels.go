package fakediscord

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/discord/snowflake"
)

func (s rest) post(w http.ResponseWriter, r *http.Request) {
	if s.injected(w, "post") {
		return
	}
	if !s.authorized(w, r) {
		return
	}
	channel, ok := s.channelPath(w, r)
	if !ok {
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
	case s.deleted[channel]:
		writeJSON(w, http.StatusNotFound, apiError{Code: 10003, Message: "Unknown Channel"})
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
func (s rest) openThread(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	var body struct {
		Name        string `json:"name"`
		Type        int    `json:"type"`
		AutoArchive int    `json:"auto_archive_duration"`
	}
	_, bad := readJSON(r, &body)
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
	need := int64(PermCreatePublicThreads)
	if body.Type == 12 {
		need = PermCreatePrivThreads
	}
	if perms&PermAdministrator == 0 && (perms&PermViewChannel == 0 || perms&need == 0) {
		writeJSON(w, http.StatusForbidden, apiError{Code: 50013, Message: "Missing Permissions"})
		return
	}
	th := &Thread{ID: s.snowflakeLocked(), Parent: parent, Name: body.Name, AutoArchive: cmp.Or(body.AutoArchive, 4320), Private: body.Type == 12}
	s.threads[th.ID] = th
	writeJSON(w, http.StatusCreated, map[string]any{"id": th.ID, "type": cmp.Or(body.Type, 11), "parent_id": parent, "name": th.Name,
		"owner_id": BotID, "thread_metadata": map[string]any{"archived": false, "auto_archive_duration": th.AutoArchive, "locked": false}})
}

// addThreadMember answers PUT /channels/{channel}/thread-members/{user}:
// a member added to a thread the bot opened.
func (s rest) addThreadMember(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	s.withThread(w, r, func(th *Thread) {
		if th.Archived {
			s.failLocked(w, r, http.StatusBadRequest, 50083, "Thread is archived")
			return
		}
		if u := r.PathValue("user"); !slices.Contains(th.Members, u) {
			th.Members = append(th.Members, u)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// withThread runs f, under the lock, on the thread the request's path
// names, or answers the error if it is no thread the bot opened.
func (s rest) withThread(w http.ResponseWriter, r *http.Request, f func(th *Thread)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	th, ok := s.threads[r.PathValue("channel")]
	if !ok {
		s.failLocked(w, r, http.StatusNotFound, 10003, "Unknown Channel (not a thread the bot opened)")
		return
	}
	f(th)
}

// editChannel answers PATCH /channels/{channel} for what the fake models:
// archiving (or not) a thread the bot opened.
func (s rest) editChannel(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	var body map[string]json.RawMessage
	_, bad := readJSON(r, &body)
	var archived bool
	if v, ok := body["archived"]; !ok || json.Unmarshal(v, &archived) != nil || len(body) != 1 {
		bad.add("the fake models only {\"archived\": true|false} on a thread")
	}
	if len(bad) > 0 {
		s.fail(w, r, http.StatusBadRequest, 50035, "Invalid Form Body: "+bad.err().Error())
		return
	}
	s.withThread(w, r, func(th *Thread) {
		th.Archived = archived
		writeJSON(w, http.StatusOK, map[string]any{"id": th.ID, "type": 11, "parent_id": th.Parent, "name": th.Name,
			"thread_metadata": map[string]any{"archived": th.Archived, "auto_archive_duration": th.AutoArchive}})
	})
}

// openDM answers POST /users/@me/channels: the direct message channel with
// a user (the same one each time).
func (s rest) openDM(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	_, bad := readJSON(r, &body)
	if len(bad) == 0 && !snowflake.Valid(body.RecipientID) {
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

func (s rest) overwrite(w http.ResponseWriter, r *http.Request) {
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
func (s rest) editPost(w http.ResponseWriter, r *http.Request) {
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
	if s.editedLocked(w, r, m, d, files) == nil {
		return
	}
	apply(m, d, files)
	m.Edits++
	writeJSON(w, http.StatusOK, messageJSON(m))
}
