package fakediscord

import (
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/discord/snowflake"
)

// What the bot may read of itself, its application, its commands, a
// channel and the server, as `risk discord --check` reads them. The fake
// has one server (GuildID), in which every snowflake that is not a direct
// message or a thread is a text channel (until DeleteChannel). The bot's
// permissions in a channel (SetBotPermissions) are shown as Discord would
// let a client compute them: the @everyone role holds
// DefaultBotPermissions, and the channel's overwrite for @everyone allows
// and denies the difference.

// The fake's server and the bot's place in it.
const (
	// GuildID is the fake's one server: the guild of the interaction
	// fixtures.
	GuildID   = "290926798626357999"
	GuildName = "Risk Club"
	// OwnerID owns the server (not the bot: an owner has every
	// permission).
	OwnerID = "100000000000000009"
	// BotRoleID is the bot's managed role, which Discord gives a bot
	// when it joins; it holds no permission of its own here.
	BotRoleID = "1180000000000000002"
	// ChannelName is the name of every text channel.
	ChannelName = "general"
)

// DeleteChannel makes a channel unknown: reading it, and posting to it,
// answer 404 Unknown Channel (not a violation: the bot cannot know).
func (s *Server) DeleteChannel(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleted[channel] = true
}

// me answers GET /users/@me: the bot user, or with an access token
// (Authorization: Bearer) the user who granted it (activity.go).
func (s rest) me(w http.ResponseWriter, r *http.Request) {
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		s.bearerMe(w, tok)
		return
	}
	if !s.authorized(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, botUser())
}

func botUser() map[string]any {
	return map[string]any{"id": BotID, "username": BotName, "discriminator": "0", "global_name": nil, "avatar": nil, "bot": true}
}

// application answers GET /oauth2/applications/@me: the bot's
// application, with its public key (verify_key).
func (s rest) application(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": AppID, "name": BotName, "description": "", "bot_public": false, "bot_require_code_grant": false,
		"verify_key": hex.EncodeToString(s.PublicKey()), "bot": botUser(), "flags": 0,
	})
}

// commandList answers GET /applications/{app}/commands and its guild
// form: the commands registered there.
func (s rest) commandList(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	if r.PathValue("app") != AppID {
		s.fail(w, r, http.StatusForbidden, 50001, "Missing Access (not this bot's application)")
		return
	}
	guild := r.PathValue("guild")
	if guild != "" && guild != GuildID {
		writeJSON(w, http.StatusForbidden, apiError{Code: 50001, Message: "Missing Access"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cmds := append([]Command{}, s.commands[guild]...)
	writeJSON(w, http.StatusOK, cmds)
}

// channelPath is the channel the request's path names, or false (the
// error answered) if that is no snowflake.
func (s rest) channelPath(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := r.PathValue("channel")
	if !snowflake.Valid(id) {
		s.fail(w, r, http.StatusNotFound, 10003, "Unknown Channel")
		return "", false
	}
	return id, true
}

// guildPath reports whether the request's path names the fake's server,
// answering 404 if not.
func guildPath(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("guild") != GuildID {
		writeJSON(w, http.StatusNotFound, apiError{Code: 10004, Message: "Unknown Guild"})
		return false
	}
	return true
}

// channel answers GET /channels/{channel}.
func (s rest) channel(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	id, ok := s.channelPath(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[id] {
		writeJSON(w, http.StatusNotFound, apiError{Code: 10003, Message: "Unknown Channel"})
		return
	}
	if user, ok := s.dms[id]; ok {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": 1,
			"recipients": []any{map[string]any{"id": user, "username": "user" + user, "discriminator": "0"}}})
		return
	}
	if th, ok := s.threads[id]; ok {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": 11, "guild_id": GuildID, "parent_id": th.Parent, "name": th.Name,
			"owner_id": BotID, "thread_metadata": map[string]any{"archived": th.Archived, "auto_archive_duration": th.AutoArchive, "locked": false}})
		return
	}
	p := s.permsLocked(id)
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "type": 0, "guild_id": GuildID, "name": ChannelName, "position": 0,
		"permission_overwrites": []any{map[string]any{"id": GuildID, "type": 0,
			"allow": strconv.FormatInt(p&^DefaultBotPermissions, 10),
			"deny":  strconv.FormatInt(DefaultBotPermissions&^p, 10)}}})
}

// guild answers GET /guilds/{guild}: the server, with its roles.
func (s rest) guild(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	if !guildPath(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": GuildID, "name": GuildName, "owner_id": OwnerID, "roles": []any{
		map[string]any{"id": GuildID, "name": "@everyone", "permissions": strconv.FormatInt(DefaultBotPermissions, 10), "position": 0},
		map[string]any{"id": BotRoleID, "name": BotName, "permissions": "0", "position": 1, "managed": true},
	}})
}

// member answers GET /guilds/{guild}/members/{user}: the bot is a member
// of the server; the fake knows no other member.
func (s rest) member(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	if !guildPath(w, r) {
		return
	}
	if r.PathValue("user") != BotID {
		writeJSON(w, http.StatusNotFound, apiError{Code: 10007, Message: "Unknown Member"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": botUser(), "roles": []any{BotRoleID}, "nick": nil,
		"joined_at": "2024-03-13T19:19:14.040000+00:00", "deaf": false, "mute": false})
}
