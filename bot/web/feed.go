package web

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// feed is a channel's messages, kept in memory (the last maxPosts), and the
// pages following it.
type feed struct {
	posts []*post
	byID  map[string]*post
	subs  map[*sub]bool
	// members, in a team's chat (OpenPrivateThread), are the user IDs
	// who alone see it; nil for a channel everyone sees. title names it.
	members map[string]bool
	title   string
}

// post is one message of a channel.
type post struct {
	v view
	// to is the user ID who alone sees it; "" for everyone.
	to    string
	image *chat.Image
}

// sub is a page following a channel: it gets what its session may see.
// Spectators (se nil) get only the public messages.
type sub struct {
	se *session
	ch chan []byte
	// state is nudged when the channel changes, for spectators.
	state chan struct{}
}

// maxPosts is how many messages of a channel the server keeps.
const maxPosts = 300

// feeds are the channels of the page (and the Activity's, and the
// consoles' played here) as the server keeps them in memory: their
// messages (what the bot posts, Server.Post), the pages that follow them
// (their event streams), the teams' chats, and what Restore gives back
// after a restart.
type feeds struct {
	store    feedStore
	bot      *bot.Bot // attached by Server.SetBot
	now      func() time.Time
	log      *slog.Logger
	browsers *browsers
	// nameOf names a user in the messages (Server.nameOf).
	nameOf func(id string) string
	// discord: the channels are Discord's (the server is its Activity).
	discord bool
	// run tells this run of the server from earlier ones, in the
	// addresses of images.
	run string

	mu       sync.Mutex
	channels map[string]*feed // by channel
	nextID   int64
}

// feedStore is what the feeds read themselves: the channels to restore.
type feedStore interface {
	OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error)
	ClosedChannels(ctx context.Context, prefix string, limit int) ([]storage.Occupant, error)
}

func newFeeds(store feedStore, br *browsers, now func() time.Time, log *slog.Logger) *feeds {
	return &feeds{store: store, browsers: br, now: now, log: log, nameOf: br.nameOf, run: randomHex(4), channels: map[string]*feed{}}
}

func (fs *feeds) feedOf(channel string) *feed {
	f, ok := fs.channels[channel]
	if !ok {
		f = &feed{byID: map[string]*post{}, subs: map[*sub]bool{}}
		fs.channels[channel] = f
	}
	return f
}

// visible reports whether a page sees a post of feed fd.
func (fs *feeds) visible(fd *feed, sb *sub, p *post) bool {
	return fs.member(sb.se, fd) && (p.to == "" || fs.browsers.owns(sb.se, p.to))
}

// put adds or replaces a message of a channel and tells the pages that
// see it. id "" adds a new one. It returns the message's ID.
func (fs *feeds) put(channel, id, to string, m chat.Message) string {
	return fs.putAs(channel, id, to, m, false)
}

// putAs is put; keep adds a message new to the channel under id (the
// chat's own, for the Activity's Mirror) rather than one of the page's.
func (fs *feeds) putAs(channel, id, to string, m chat.Message, keep bool) string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	// Under the lock: the names of mentions are the sessions'.
	v := formatter{name: fs.nameOf, now: fs.now()}.render(m)
	fd := fs.feedOf(channel)
	p, ok := fd.byID[id]
	if !ok {
		// A message's ID names the run of the server too: the bot keeps
		// the IDs of the messages it edits later in the database, and
		// one of an earlier run must find nothing (Edit posts it anew),
		// never a message of this one.
		if !keep {
			fs.nextID++
			id = fs.run + "-" + strconv.FormatInt(fs.nextID, 10)
		}
		p = &post{}
		fd.posts = append(fd.posts, p)
		fd.byID[id] = p
		if len(fd.posts) > maxPosts {
			delete(fd.byID, fd.posts[0].v.ID)
			fd.posts = fd.posts[1:]
		}
		v.Time = fs.now().UnixMilli()
	} else {
		v.Time, v.Rev, v.Edited = p.v.Time, p.v.Rev+1, true
	}
	v.ID = id
	p.to, p.image = to, m.Image
	if m.Image != nil {
		// The revision: a browser keeps the images it was given.
		v.Image = "/web/img/" + id + "?rev=" + strconv.Itoa(v.Rev)
		// The maps of a moment are named so by look.Maps.ImageFor.
		v.Board = strings.HasPrefix(m.Image.Name, "risk-turn-")
	}
	if to != "" {
		v.To = fs.nameOf(to)
	}
	p.v = v
	fs.tell(fd, p)
	return id
}

// tell sends post p of feed fd to the pages that see it, as it now is, and
// nudges the spectators' pages. The caller holds fs.mu.
func (fs *feeds) tell(fd *feed, p *post) {
	msg, _ := json.Marshal(p.v)
	for sb := range fd.subs {
		if sb.state != nil {
			select {
			case sb.state <- struct{}{}:
			default:
			}
		}
		if !fs.visible(fd, sb, p) {
			continue
		}
		select {
		case sb.ch <- msg:
		default:
			// A page that does not keep up is dropped: it reconnects
			// and gets the channel afresh.
			close(sb.ch)
			delete(fd.subs, sb)
		}
	}
}

// newest reports whether post p is the newest of feed fd that a page of
// session se sees: the one in sight at the end of the channel.
func (fs *feeds) newest(fd *feed, se *session, p *post) bool {
	sb := &sub{se: se}
	for i := len(fd.posts) - 1; i >= 0; i-- {
		if fs.visible(fd, sb, fd.posts[i]) {
			return fd.posts[i] == p
		}
	}
	return false
}

// spend takes the buttons off a private answer whose button was clicked
// while it was out of sight, answered at the end of the channel: as an
// answer replaced in place would, it offers them no more.
func (fs *feeds) spend(channel, id string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd := fs.feedOf(channel)
	if p, ok := fd.byID[id]; ok && len(p.v.Buttons) > 0 {
		p.v.Buttons = nil
		p.v.Rev++
		fs.tell(fd, p)
	}
}

// edit replaces message id of channel, or posts it anew when it is gone
// from memory (an earlier run of the server).
func (fs *feeds) edit(channel, id string, m chat.Message) {
	fs.mu.Lock()
	_, ok := fs.feedOf(channel).byID[id]
	fs.mu.Unlock()
	if !ok {
		id = ""
	}
	fs.put(channel, id, "", m)
}

// subscribe adds a page to a channel and returns what it sees already.
func (fs *feeds) subscribe(channel string, sb *sub) [][]byte {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd := fs.feedOf(channel)
	fd.subs[sb] = true
	var out [][]byte
	for _, p := range fd.posts {
		if fs.visible(fd, sb, p) {
			b, _ := json.Marshal(p.v)
			out = append(out, b)
		}
	}
	return out
}

func (fs *feeds) unsubscribe(channel string, sb *sub) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd := fs.feedOf(channel)
	if fd.subs[sb] {
		delete(fd.subs, sb)
		close(sb.ch)
	}
	if len(fd.subs) == 0 && (len(fd.posts) == 0 && fd.members == nil || strings.HasPrefix(channel, discordPrefix)) {
		// A channel followed and never written to: any name a client
		// asks for would stay in memory (and in the list of channels).
		// A Discord channel's messages are Discord's to keep: the
		// Activity shows them while it is open.
		delete(fs.channels, channel)
	}
}

// heartbeat keeps idle event streams open through proxies.
const heartbeat = 25 * time.Second

// stream sends a channel's messages to a page as Server-Sent Events
// ("put": a message to add or replace), until the page goes. onState, if
// set, is called when sb.state is nudged, for spectators.
func (fs *feeds) stream(w http.ResponseWriter, r *http.Request, channel string, sb *sub, onState func() []byte) {
	fl, ok := w.(http.Flusher)
	if !ok {
		problem(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	backlog := fs.subscribe(channel, sb)
	defer fs.unsubscribe(channel, sb)
	w.WriteHeader(http.StatusOK)
	for _, b := range backlog {
		fmt.Fprintf(w, "event: put\ndata: %s\n\n", b)
	}
	sendState := func() {
		if onState == nil {
			return
		}
		if b := onState(); b != nil {
			fmt.Fprintf(w, "event: state\ndata: %s\n\n", b)
		}
	}
	sendState()
	fmt.Fprint(w, ": ready\n\n")
	fl.Flush()
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case b, ok := <-sb.ch:
			if !ok {
				return
			}
			fmt.Fprintf(w, "event: put\ndata: %s\n\n", b)
		case <-sb.state:
			sendState()
		case <-beat.C:
			fmt.Fprint(w, ": beat\n\n")
		}
		fl.Flush()
	}
}

// imageChannel is the channel whose message has image id ("" if none).
func (fs *feeds) imageChannel(id string) string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for c, fd := range fs.channels {
		if _, ok := fd.byID[id]; ok {
			return c
		}
	}
	return ""
}

// imageOf is the image of message id and the user it is for ("" for
// everyone); nil if there is none.
func (fs *feeds) imageOf(id string) (im *chat.Image, to string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, fd := range fs.channels {
		if p, ok := fd.byID[id]; ok {
			im, to = p.image, p.to
		}
	}
	return im, to
}

// followed reports whether a page follows channel.
func (fs *feeds) followed(channel string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd, ok := fs.channels[channel]
	return ok && len(fd.subs) > 0
}

// listed calls show with each channel kept that session se may see (a
// team's chat is listed to its members only).
func (fs *feeds) listed(se *session, show func(channel string)) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for c, fd := range fs.channels {
		if fs.member(se, fd) {
			show(c)
		}
	}
}

// pressed finds the button a page of session se clicks, as user, on
// message id of channel: its label ("" if the page sees no such button),
// and what the answer does to the message: replace it (in sight) or spend
// it (far up the channel).
func (fs *feeds) pressed(channel string, se *session, user, id, button string) (label, replace, spent string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fd := fs.feedOf(channel)
	p, ok := fd.byID[id]
	if !ok || !fs.visible(fd, &sub{se: se}, p) {
		return "", "", ""
	}
	for _, row := range p.v.Buttons {
		for _, b := range row {
			if b.ID == button {
				label = b.Label
			}
		}
	}
	switch {
	case p.to != user:
	case fs.newest(fd, se, p):
		replace = id // in sight: the answer takes its place
	default:
		// Far up the channel: the answer goes at the end, where the
		// player looks, and the old one keeps its words.
		spent = id
	}
	return label, replace, spent
}
