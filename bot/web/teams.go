package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
)

// A team's chat on the page: a channel of its own, listed to its members
// alone, whose messages only they read, where a line that is not a command
// is said to the team (/web/say). It is the page's private thread
// (chat.TeamThreader); like the page's feeds it lives in the server's
// memory: a restart opens it again, empty, to the same members (Restore).

// teamChatLen bounds a message said in a team's chat.
const teamChatLen = 1000

// OpenPrivateThread implements chat.TeamThreader: a team chat beside the
// channel, which only members (user ids) see.
func (s *Server) OpenPrivateThread(_ context.Context, channel, name string, members []string) (string, error) {
	base, ok := strings.CutPrefix(channel, Prefix)
	if !ok {
		return "", fmt.Errorf("web: open a team chat beside %q: not a channel of the page", channel)
	}
	return s.feeds.openThread(base, name, members), nil
}

var _ chat.TeamThreader = (*Server)(nil)

// openThread opens a team chat beside the page's channel base (its name
// without Prefix) and returns its channel.
func (fs *feeds) openThread(base, name string, members []string) string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for k := 1; ; k++ {
		id := Prefix + base + "-team-" + strconv.Itoa(k)
		if len(id)-len(Prefix) > 40 {
			id = Prefix + "team-" + strconv.Itoa(k) // channel names have 40 characters at most
		}
		if _, taken := fs.channels[id]; taken {
			continue
		}
		fd := fs.feedOf(id)
		fd.members = map[string]bool{}
		for _, m := range members {
			fd.members[m] = true
		}
		fd.title = name
		return id
	}
}

// member reports whether a page's session plays a member of a team chat's
// feed; every page sees an open channel.
func (fs *feeds) member(se *session, fd *feed) bool {
	if fd.members == nil {
		return true
	}
	for m := range fd.members {
		if fs.browsers.owns(se, m) {
			return true
		}
	}
	return false
}

// team reports whether channel is a team's chat, and whether user, played
// by a page of session se, is in the team.
func (fs *feeds) team(channel string, se *session, user string) (team, allowed bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd, exists := fs.channels[channel]
	team = exists && fd.members != nil
	return team, team && fd.members[user] && fs.member(se, fd)
}

// say writes a line in a team's chat: {"channel", "as", "text"}.
func (pl *play) say(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Channel string `json:"channel"`
		As      string `json:"as"`
		Text    string `json:"text"`
	}
	if status, err := readJSON(w, r, maxForm, &in); err != nil {
		problem(w, status, "%v", err)
		return
	}
	channel, user, se, ok := pl.actor(w, r, in.Channel, in.As)
	if !ok {
		return
	}
	text := strings.TrimSpace(in.Text)
	if text == "" || len([]rune(text)) > teamChatLen {
		problem(w, http.StatusBadRequest, "a message has 1 to %d characters", teamChatLen)
		return
	}
	team, allowed := pl.feeds.team(channel, se, user.ID)
	switch {
	case !team:
		problem(w, http.StatusBadRequest, "only a team's private chat takes messages here: commands start with /risk (try /risk help)")
		return
	case !allowed:
		problem(w, http.StatusForbidden, "%s is not in this team", user.Name)
		return
	}
	// What people write is shown as written, never as the bot's markup.
	pl.feeds.put(channel, "", "", chat.Message{Text: fmt.Sprintf("**%s**: %s", user.Name, plain.Replace(text))})
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// plain neutralises the chat markup in what a person writes.
var plain = strings.NewReplacer("*", "∗", "`", "'", "<", "‹", ">", "›", "|", "¦", "~", "∼")
