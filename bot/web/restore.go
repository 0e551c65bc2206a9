package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// The page keeps its channels' messages in memory: a restart of the server
// loses them, while the matches go on from the database. Restore gives
// each channel with an open match its messages again, as the bot tells
// them from the match's log (bot.Restore): the lobby, or the match's story
// so far and the turn in progress with its buttons; and each team its
// chat, to its members alone, without what was said there.

// restoreLimit bounds the messages a channel gets back: the history the
// page keeps of a channel.
const restoreLimit = maxPosts

// Restore gives every channel of the page, and every console's, its open
// match's messages again. Call it once when the server starts, after
// SetBot and before it serves or the bot's timers run, so that the story
// comes before anything new. A channel that could not be restored is
// reported, and the others restored all the same.
func (s *Server) Restore(ctx context.Context) error {
	var errs []error
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := s.store.OpenChannels(ctx, prefix)
		if err != nil {
			return fmt.Errorf("web: restore the channels: %w", err)
		}
		for _, o := range open {
			s.mu.Lock()
			fd, ok := s.feeds[o.Channel]
			told := ok && len(fd.posts) > 0
			s.mu.Unlock()
			if told {
				continue // restored already, or written to since
			}
			if err := s.bot.Restore(ctx, o.Channel, restoreLimit); err != nil {
				errs = append(errs, err)
				continue
			}
			if o.Status == storage.Active {
				if err := s.reopenTeams(ctx, o.ID); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// reopenTeams opens again the chats of match id's teams, each to its
// members alone, under the names the match knows them by.
func (s *Server) reopenTeams(ctx context.Context, id int64) error {
	mi, err := s.bot.Match(ctx, id)
	if err != nil {
		return fmt.Errorf("web: reopen the team chats of match %d: %w", id, err)
	}
	for _, th := range mi.TeamThreads() {
		s.mu.Lock()
		_, taken := s.feeds[th.ID]
		if !taken {
			fd := s.feedOf(th.ID)
			fd.members = map[string]bool{}
			for _, m := range th.Members {
				fd.members[m] = true
			}
			fd.title = fmt.Sprintf("Risk: team %d", th.Team)
		}
		s.mu.Unlock()
		if taken {
			continue
		}
		s.put(th.ID, "", "", chat.Message{Text: fmt.Sprintf("🤝 Team %d's chat: only its players see it. What was said here before the page restarted is gone; plan here again, and play in %s.",
			th.Team, chat.ChannelLink(mi.Channel))})
	}
	return nil
}
