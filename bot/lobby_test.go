package bot

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
)

// lobbyOf returns the channel's lobby message as it now is: the newest
// post that carries a lobby's card.
func (h *harness) lobbyOf(channel string) (chat.Message, bool) {
	posts, _ := h.postsNow()
	for i := len(posts) - 1; i >= 0; i-- {
		if e := posts[i].msg.Embed; posts[i].channel == channel && e != nil && strings.HasPrefix(e.Title, "Lobby — ") {
			return posts[i].msg, true
		}
	}
	return chat.Message{}, false
}

// wantLobby fails unless the channel has a lobby message that contains
// every part, and returns it.
func wantLobby(t *testing.T, h *harness, channel string, parts ...string) chat.Message {
	t.Helper()
	m, ok := h.lobbyOf(channel)
	if !ok {
		t.Fatalf("no lobby message in %s", channel)
	}
	wantPublic(t, m, parts...)
	return m
}

// wantOpened fails unless the answer to /risk new says the match is open
// (privately: the lobby is its public message), and the lobby posted in
// the channel contains every part.
func wantOpened(t *testing.T, h *harness, channel string, answer chat.Message, parts ...string) {
	t.Helper()
	wantPrivate(t, answer, "Your match is open")
	if answer.Refused {
		t.Errorf("/risk new refused: %q", answer.Text)
		return
	}
	wantLobby(t, h, channel, parts...)
}
