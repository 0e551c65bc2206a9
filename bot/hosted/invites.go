package hosted

import (
	"strings"
	"time"

	"github.com/riskbot/riskbot/state"
)

// DropExpired forgets the invitations that expired before now.
func (m *Meta) DropExpired(now time.Time) {
	live := m.Invites[:0]
	for _, in := range m.Invites {
		if now.Before(in.Until) {
			live = append(live, in)
		}
	}
	if len(live) == 0 {
		live = nil
	}
	m.Invites = live
}

// Invited returns the index of the invitation of user id, or -1.
func (m Meta) Invited(id string) int {
	for i, in := range m.Invites {
		if in.ID == id {
			return i
		}
	}
	return -1
}

// Uninvite drops the invitation of user id, if there is one.
func (m *Meta) Uninvite(id string) {
	if i := m.Invited(id); i >= 0 {
		m.Invites = append(m.Invites[:i], m.Invites[i+1:]...)
		if len(m.Invites) == 0 {
			m.Invites = nil
		}
	}
}

// Free is how many seats of the lobby are neither taken nor held, with
// the expired invitations dropped.
func (m Meta) Free() int {
	return state.MaxSeats - len(m.Seats) - len(m.Invites)
}

// UserID reads who a person typed or chose is, for a user of the same
// chat as asker (whose ID is "PLATFORM:..."): an ID of that chat, or a
// mention (<@123>, as Discord writes one). It returns "" for anything
// else (a name, which only the adapters can look up).
func UserID(typed, asker string) string {
	platform, _, _ := strings.Cut(asker, ":")
	typed = strings.TrimSpace(typed)
	if inner, ok := strings.CutPrefix(typed, "<@"); ok && strings.HasSuffix(inner, ">") {
		inner = strings.TrimPrefix(strings.TrimSuffix(inner, ">"), "!")
		if inner == "" || strings.ContainsAny(inner, "<>@: ") {
			return ""
		}
		return platform + ":" + inner
	}
	if p, rest, ok := strings.Cut(typed, ":"); ok && p == platform && rest != "" && !strings.ContainsAny(rest, "<>@ ") {
		return typed
	}
	return ""
}
