package fakediscord

import (
	"slices"
	"strings"
	"time"
)

// Threads returns the threads the bot opened, oldest first.
func (s *Server) Threads() []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Thread
	for _, th := range s.threads {
		out = append(out, *th)
	}
	slices.SortFunc(out, func(a, b Thread) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// RefuseDMs makes a user take no direct messages (their privacy setting):
// the bot's are refused with 403, code 50007.
func (s *Server) RefuseDMs(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noDMs[user] = true
}

// DMs returns the direct messages the bot sent to a user, oldest first.
func (s *Server) DMs(user string) []Message {
	var out []Message
	s.mu.Lock()
	dms := map[string]bool{}
	for ch, u := range s.dms {
		if u == user {
			dms[ch] = true
		}
	}
	s.mu.Unlock()
	for _, m := range s.Messages() {
		if dms[m.ChannelID] {
			out = append(out, m)
		}
	}
	return out
}

// Messages returns copies of every message, in the order they were created.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, len(s.messages))
	for i, m := range s.messages {
		out[i] = *m
		out[i].History = append([]string(nil), m.History...)
	}
	return out
}

// Answer returns the message that answers an interaction (nil if none),
// and the callback type it was answered with (0 if not yet).
func (s *Server) Answer(interactionID string) (*Message, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.inter[interactionID]
	if in == nil {
		return nil, 0
	}
	if in.original == nil {
		return nil, in.answered
	}
	cp := *in.original
	return &cp, in.answered
}

// Shown returns when an interaction's author first saw its answer, by
// the real clock (not the fake's, which Advance moves): the answer itself
// (callback type 4 or 7), or the first edit of a deferred one. ok is
// false before. What a benchmark times a command up to.
func (s *Server) Shown(interactionID string) (at time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.inter[interactionID]; in != nil && !in.shown.IsZero() {
		return in.shown, true
	}
	return time.Time{}, false
}

// Replies returns the messages of an interaction that are not deleted:
// its answer and its follow-ups.
func (s *Server) Replies(interactionID string) []Message {
	s.mu.Lock()
	var updated string // the clicked message an answer of type 6 or 7 updated
	if in := s.inter[interactionID]; in != nil && in.updated && in.clicked != nil {
		updated = in.clicked.ID
	}
	s.mu.Unlock()
	var out []Message
	for _, m := range s.Messages() {
		if (m.Interaction == interactionID || m.ID == updated) && !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

// Choices returns the autocomplete results an interaction was answered
// with, and whether it was.
func (s *Server) Choices(interactionID string) ([]Choice, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.inter[interactionID]
	if in == nil || in.answered != 8 {
		return nil, false
	}
	return append([]Choice(nil), in.choices...), true
}

// Commands returns the commands registered in a scope: "" for the global
// ones, or a guild ID.
func (s *Server) Commands(scope string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Command(nil), s.commands[scope]...)
}

// Overwrites counts the bulk overwrites of commands the fake accepted.
func (s *Server) Overwrites() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.puts
}

// Identified lists what gateway clients identified with.
func (s *Server) Identified() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.identified...)
}

// Violations returns the rules broken so far.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// TakeViolations returns the rules broken so far and forgets them, for
// tests that break rules on purpose.
func (s *Server) TakeViolations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.violations
	s.violations = nil
	return v
}

// DeleteMessage deletes a message, as a member who may manage messages
// does: it leaves the channel, and its edits are refused (404, Unknown
// Message). It reports whether there was such a message.
func (s *Server) DeleteMessage(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.messages {
		if m.ID == id && !m.Deleted {
			m.Deleted = true
			return true
		}
	}
	return false
}

// FailNext makes the next request to a route fail with the HTTP status:
// route is "callback", "edit", "delete", "followup", "post" or "commands".
func (s *Server) FailNext(route string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext[route] = status
}

// rateLimit is what RateLimit set for a route.
type rateLimit struct {
	left       int // 429s still to answer; < 0: for ever
	retryAfter time.Duration
	global     bool
	answered   int // 429s answered
}

// RateLimit makes the next times requests to a route (as FailNext names
// them) answer 429 Too Many Requests, as Discord does, with retryAfter in
// the Retry-After and X-RateLimit-Reset-After headers and the body's
// retry_after, global or for the route's bucket; times < 0 answers every
// request so, for ever. It returns a function that counts the 429s
// answered. A request refused so is not a violation.
func (s *Server) RateLimit(route string, times int, retryAfter time.Duration, global bool) (answered func() int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rl := &rateLimit{left: times, retryAfter: retryAfter, global: global}
	s.limited[route] = rl
	return func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		return rl.answered
	}
}

// Await polls until cond holds or the timeout passes, and reports whether
// it held.
func Await(timeout time.Duration, cond func() bool) bool {
	end := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}
