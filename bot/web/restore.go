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
// chat, to its members alone, without what was said there. A channel
// whose latest match is over gets its end again (the victory post with
// its Rematch button, or how it was ended): the most recently closed
// when the server starts, so that they are listed as before; any other
// when a page first opens it (restoreLate), so that no channel that
// hosted a match reads as a new one, however many there are.

// restoreLimit bounds the messages a channel gets back: the history the
// page keeps of a channel.
const restoreLimit = maxPosts

// restoreClosed bounds the channels whose match is over that the server
// restores as it starts (the most recently closed), so that the start
// costs the same however many matches have ended. Each costs about as
// much as a match under way: its log told again (BenchmarkRestartClosed).
const restoreClosed = 20

// Restore gives every channel of the page, and every console's, its open
// match's messages again, and the restoreClosed channels whose match
// closed last their end. Call it once when the server starts, after
// SetBot and before it serves or the bot's timers run, so that the story
// comes before anything new. A channel that could not be restored is
// reported, and the others restored all the same.
func (s *Server) Restore(ctx context.Context) error { return s.feeds.restore(ctx) }

// restore is Server.Restore.
func (fs *feeds) restore(ctx context.Context) error {
	var errs []error
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := fs.store.OpenChannels(ctx, prefix)
		if err != nil {
			return fmt.Errorf("web: restore the channels: %w", err)
		}
		closed, err := fs.store.ClosedChannels(ctx, prefix, restoreClosed)
		if err != nil {
			return fmt.Errorf("web: restore the channels: %w", err)
		}
		for _, o := range append(open, closed...) {
			fs.mu.Lock()
			fd, ok := fs.channels[o.Channel]
			told := ok && len(fd.posts) > 0
			fs.mu.Unlock()
			if told {
				continue // restored already, or written to since
			}
			if err := fs.bot.Restore(ctx, o.Channel, restoreLimit, nil); err != nil {
				errs = append(errs, err)
				continue
			}
			if o.Status == storage.Active {
				if err := fs.reopenTeams(ctx, o.ID); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// restoreLate gives a channel of the page (or a console's) that shows
// nothing, as a page opens it, what Restore would have: the end of its
// latest match, beyond the restoreClosed restored at the start, or a
// match opened since by another process (the console). A channel that
// never hosted a match costs two lookups of an index, and stays empty.
func (fs *feeds) restoreLate(ctx context.Context, channel string) {
	blank := func() bool {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		fd, ok := fs.channels[channel]
		return !ok || len(fd.posts) == 0 && fd.members == nil
	}
	if fs.bot == nil || fs.discord || !blank() {
		// (The Activity's channels are Discord's: the bot's Restore would
		// post there again.)
		return
	}
	if err := fs.bot.Restore(ctx, channel, restoreLimit, blank); err != nil {
		fs.log.Error("restore a channel", "channel", channel, "err", err)
	}
}

// reopenTeams opens again the chats of match id's teams, each to its
// members alone, under the names the match knows them by.
func (fs *feeds) reopenTeams(ctx context.Context, id int64) error {
	mi, err := fs.bot.Match(ctx, id)
	if err != nil {
		return fmt.Errorf("web: reopen the team chats of match %d: %w", id, err)
	}
	for _, th := range mi.TeamThreads() {
		fs.mu.Lock()
		_, taken := fs.channels[th.ID]
		if !taken {
			fd := fs.feedOf(th.ID)
			fd.members = map[string]bool{}
			for _, m := range th.Members {
				fd.members[m] = true
			}
			fd.title = fmt.Sprintf("Risk: team %d", th.Team)
		}
		fs.mu.Unlock()
		if taken {
			continue
		}
		fs.put(th.ID, "", "", chat.Message{Text: fmt.Sprintf("🤝 Team %d's chat: only its players see it. What was said here before the page restarted is gone; plan here again, and play in %s.",
			th.Team, chat.ChannelLink(mi.Channel))})
	}
	return nil
}
