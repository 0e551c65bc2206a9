package faketest

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// Chat is a chat that records what the core sends it: posts (IDs "1",
// "2", ...), edits in place, direct messages (as posts to "dm:USER"), and
// threads (thread N of a channel is "CHANNEL/N"). It is a chat.Poster,
// Editor, DirectPoster, Threader and TeamThreader; its methods are safe
// for concurrent use.
type Chat struct {
	mu      sync.Mutex
	refuse  func(channel string) error
	posts   []Sent
	edits   int
	nextID  int
	deleted map[string]bool
	// channels are the channels of the messages posted, by ID.
	channels map[string]string
	// Threads are the threads opened, Archived those archived, in order.
	threads, archived []string
	// members are the people each private thread was opened with.
	members map[string][]string
}

// Sent is a message the chat holds: its channel, its ID and what it says
// now (edits change it in place).
type Sent struct {
	Channel string
	ID      string
	Msg     chat.Message
}

// Refuse makes the chat ask f before each post, edit and direct message,
// with its channel ("dm:USER" for a direct message): an error f returns
// is the chat's, and nothing is sent; nil takes everything again. For a
// chat that is down (any error) or a channel that refuses the bot (a
// *chat.RefusedError).
func (c *Chat) Refuse(f func(channel string) error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse = f
}

// refused is the refusal of a message to channel, if any, under c.mu.
func (c *Chat) refused(channel string) error {
	if c.refuse == nil {
		return nil
	}
	return c.refuse(channel)
}

// Post implements chat.Poster.
func (c *Chat) Post(_ context.Context, channel string, m chat.Message) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refused(channel); err != nil {
		return "", err
	}
	c.nextID++
	id := fmt.Sprint(c.nextID)
	c.posts = append(c.posts, Sent{Channel: channel, ID: id, Msg: m})
	if c.channels == nil {
		c.channels = map[string]string{}
	}
	c.channels[id] = channel
	return id, nil
}

// Edit implements chat.Editor: the message is replaced in place (one
// the test took is held again, as edited). A message deleted (Delete) or
// never posted is refused as gone (chat.ErrUndeliverable).
func (c *Chat) Edit(_ context.Context, channel, id string, m chat.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.refused(channel); err != nil {
		return err
	}
	if c.deleted[id] || c.channels[id] != channel {
		return fmt.Errorf("faketest: edit message %s: unknown message: %w", id, chat.ErrUndeliverable)
	}
	c.edits++
	if i := slices.IndexFunc(c.posts, func(s Sent) bool { return s.ID == id }); i >= 0 {
		c.posts[i].Msg = m
		return nil
	}
	c.posts = append(c.posts, Sent{Channel: channel, ID: id, Msg: m})
	return nil
}

// DM implements chat.DirectPoster, as a post to "dm:USER".
func (c *Chat) DM(ctx context.Context, user string, m chat.Message) error {
	_, err := c.Post(ctx, "dm:"+user, m)
	return err
}

// OpenThread implements chat.Threader.
func (c *Chat) OpenThread(_ context.Context, channel, _ string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.threads = append(c.threads, fmt.Sprintf("%s/%d", channel, len(c.threads)+1))
	return c.threads[len(c.threads)-1], nil
}

// ArchiveThread implements chat.Threader.
func (c *Chat) ArchiveThread(_ context.Context, thread string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.archived = append(c.archived, thread)
	return nil
}

// OpenPrivateThread implements chat.TeamThreader.
func (c *Chat) OpenPrivateThread(ctx context.Context, channel, name string, members []string) (string, error) {
	th, _ := c.OpenThread(ctx, channel, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.members == nil {
		c.members = map[string][]string{}
	}
	c.members[th] = slices.Clone(members)
	return th, nil
}

// Delete deletes message id, as a person may: it leaves the chat, and
// its edits are refused.
func (c *Chat) Delete(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deleted == nil {
		c.deleted = map[string]bool{}
	}
	c.deleted[id] = true
	c.posts = slices.DeleteFunc(c.posts, func(s Sent) bool { return s.ID == id })
}

// Sent returns the messages the chat holds, in the order posted, as
// edited since.
func (c *Chat) Sent() []Sent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.posts)
}

// In returns the messages channel holds, in order.
func (c *Chat) In(channel string) []Sent {
	var out []Sent
	for _, s := range c.Sent() {
		if s.Channel == channel {
			out = append(out, s)
		}
	}
	return out
}

// Take returns the messages the chat holds and forgets them, for a test
// to see what comes next: a message taken and edited later is held
// again, as edited.
func (c *Chat) Take() []Sent {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.posts
	c.posts = nil
	return p
}

// Counts returns how many messages were posted in all (direct messages
// too, deleted and taken ones too) and how many edits went through.
func (c *Chat) Counts() (posts, edits int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nextID, c.edits
}

// Threads returns the threads opened and those archived, in order.
func (c *Chat) Threads() (opened, archived []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.threads), slices.Clone(c.archived)
}

// Members returns the people a private thread was opened with.
func (c *Chat) Members(thread string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.members[thread])
}

// Renderer is a renderer that draws nothing worth seeing: each map is a
// few bytes naming the state's turn and the renderer's Name, counted.
// For the parts that only pass images on.
type Renderer struct {
	Name string

	mu    sync.Mutex
	drawn int
}

// Render implements look.Renderer.
func (r *Renderer) Render(_ context.Context, s *state.State) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drawn++
	return fmt.Appendf(nil, "map %s turn %d", r.Name, s.Turn), nil
}

// Drawn is how many maps were drawn.
func (r *Renderer) Drawn() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.drawn
}
