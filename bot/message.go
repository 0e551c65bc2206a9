// Package bot is the chat-agnostic core of the Risk bot: it hosts one match
// per channel, turns slash commands into engine commands, keeps the turn
// clock, plays the bot seats, and says what happened. It knows nothing of
// Discord: adapters (bot/discord, bot/console) turn their input into a
// Request and deliver the Messages.
package bot

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// User is a person in a chat, identified across the platform.
type User struct {
	// ID is unique and stable, prefixed by the platform ("discord:1234").
	ID   string
	Name string
}

// Request is one slash command: /risk SUBCOMMAND option:value ...
type Request struct {
	Channel string // unique and stable, prefixed by the platform
	User    User
	Command string
	// Options are the values given, as text. User options hold the user's ID.
	Options map[string]string
	// Key, if not empty, identifies the request uniquely (on Discord, the
	// interaction's id): a request whose key was applied already is not
	// applied again.
	Key string
	// Server is the server (guild) of the channel, prefixed like channels
	// ("discord:1234"); empty outside any.
	Server string
	// Admin: the user may manage the server, or this channel (Discord's
	// Manage Server or Manage Channels): they may end any match and remove
	// any seat.
	Admin bool
	// BotLacks names the permissions the bot lacks in the channel to host a
	// match there ("Send Messages"); empty if it has them all, nil if the
	// platform did not say.
	BotLacks []string
	// ThreadLacks names the permissions the bot lacks to open a thread
	// for a match in the channel and post there; empty if it has them
	// all, nil if threads are not to be had (outside a server, or the
	// platform did not say).
	ThreadLacks []string
}

// Click is a press of a button the bot posted.
type Click struct {
	Channel string
	User    User
	ID      string // the button's ID
	// Label is the button's label, if known, to name the click to its
	// author.
	Label string
	// Key identifies the click uniquely, as Request.Key.
	Key string
	// Server, Admin and BotLacks are as in Request.
	Server   string
	Admin    bool
	BotLacks []string
}

// Message is what the bot says. Its Text may contain mentions, channels and
// times as markup ({{mention:ID}}, {{channel:ID}}, {{time:UNIX}}); adapters
// render them with a Markup.
type Message struct {
	// Private messages are seen only by the user who sent the command.
	Private bool
	Text    string
	// Embed, if set, is shown under the text as a card: the record of a
	// turn, the lobby, the standings. The Image, if any, is shown in it.
	Embed *Embed
	Image *Image
	// Buttons are laid out in rows.
	Buttons [][]Button
	// Replace, on the answer to a click, puts it in place of the message
	// whose button was clicked (the lobby shows its new seat), where the
	// chat can; else it is a message of its own. (The answer to a click
	// on a private answer always replaces it.)
	Replace bool
	// Mentions lists the user IDs the message may notify; no one else is
	// pinged, whatever the text says.
	Mentions []string
	// Key, on a post of queued news, is the same each time that post is
	// sent (the change that queued it, and its place in the news), so that
	// a chat that can (Discord's enforce_nonce) posts it once however often
	// it is sent: after a crash between posting and marking it delivered,
	// or when a slow delivery's lease ran out and another process took
	// over. Empty on replies. At most 25 characters.
	Key string
	// notice marks the pings of a turn, adjusted to their players'
	// choices when they are posted (Bot.reach).
	notice notice
	// ref names the living message this one posts or edits (postRef),
	// and mode how; empty for a message posted once.
	ref  string
	mode refMode
	// refused marks the answer to a command or click that was refused
	// (nothing changed).
	refused bool
}

// Embed is a card under a message's text, as Discord shows embeds: a
// side bar in a colour, a title, a description, fields and a footer. Its
// texts may carry markup, like a message's Text (a time, a mention, which
// notifies nobody there). Adapters without cards print it as text.
type Embed struct {
	Title       string
	Description string
	// Color is the side bar's colour, 0xRRGGBB; 0 for none.
	Color  int
	Fields []Field
	Footer string
}

// Field is a titled value of an embed; inline fields sit side by side.
type Field struct {
	Name, Value string
	Inline      bool
}

// Text returns the embed as plain text, for chats without cards: the
// title in bold, the description, a line per field, the footer.
func (e *Embed) Text() string {
	var parts []string
	if e.Title != "" {
		parts = append(parts, "**"+e.Title+"**")
	}
	if e.Description != "" {
		parts = append(parts, e.Description)
	}
	for _, f := range e.Fields {
		parts = append(parts, f.Name+": "+f.Value)
	}
	if e.Footer != "" {
		parts = append(parts, e.Footer)
	}
	return strings.Join(parts, "\n")
}

// Image is a rendered map, made on first use: adapters that must answer
// quickly acknowledge first and render after.
type Image struct {
	Name   string
	mu     sync.Mutex
	render func(context.Context) ([]byte, error)
	png    []byte
}

// NewImage returns an image rendered by render when first asked for.
func NewImage(name string, render func(context.Context) ([]byte, error)) *Image {
	return &Image{Name: name, render: render}
}

// PNG renders the image and returns its bytes. A success is kept for later
// calls; a failure (a cancelled context) is not.
func (im *Image) PNG(ctx context.Context) ([]byte, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.png != nil {
		return im.png, nil
	}
	png, err := im.render(ctx)
	if err != nil {
		return nil, err
	}
	im.png = png
	return png, nil
}

// ButtonStyle is the look of a button.
type ButtonStyle int

// The button styles, as Discord names them.
const (
	Primary ButtonStyle = iota + 1
	Secondary
	Success
	Danger
)

// Button is a clickable action under a message.
type Button struct {
	ID    string
	Label string
	Style ButtonStyle
}

// Replier answers the user's command or click. It is called at most once
// per request.
type Replier interface {
	Reply(ctx context.Context, m Message) error
}

// ReplierFunc adapts a function to Replier.
type ReplierFunc func(ctx context.Context, m Message) error

// Reply implements Replier.
func (f ReplierFunc) Reply(ctx context.Context, m Message) error { return f(ctx, m) }

// ErrUndeliverable, wrapped in a Poster's error, says that the channel will
// not take the message now or later (it was deleted, or the bot removed):
// the message is dropped instead of tried again.
var ErrUndeliverable = errors.New("the channel does not take messages")

// RefusedError is a Poster's error when the channel refused the post for
// good: it is gone, or the bot may not post there. The players and the
// host of its match are then told (the match goes on). It is an
// ErrUndeliverable.
type RefusedError struct {
	// Reason is what the chat said, for people ("Missing Permissions").
	Reason string
	// Needs names the permissions the bot needs in a channel, in the
	// chat's words, for telling people what to give it.
	Needs []string
	Err   error
}

// Error says the channel refused the post, and why.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("the channel refused the post (%s): %v", e.Reason, e.Err)
}

// Unwrap makes a RefusedError an ErrUndeliverable, and exposes its cause.
func (e *RefusedError) Unwrap() []error { return []error{ErrUndeliverable, e.Err} }

// Poster posts new messages to a channel: turn results of bot seats, pings
// and reminders, which come after (or without) any command. A failed post
// is tried again later (see Bot.Redeliver) unless its error wraps
// ErrUndeliverable.
type Poster interface {
	// Post posts m and returns its ID on the platform, for editing it
	// later ("" if the platform cannot).
	Post(ctx context.Context, channel string, m Message) (string, error)
}

// Editor is a Poster that can change a message it posted: the record of a
// turn grows as the turn is played. A chat that cannot (a terminal) shows
// the message again when it is complete, or not at all.
type Editor interface {
	// Edit replaces message id of channel with m: its text, embed,
	// buttons and image. It notifies nobody.
	Edit(ctx context.Context, channel, id string, m Message) error
}

// Threader is a Poster that can open a thread for a match: a channel of
// its own inside a channel, where every post of the match goes, archived
// when the match ends.
type Threader interface {
	// OpenThread opens a thread named name in channel and returns it, as
	// a channel.
	OpenThread(ctx context.Context, channel, name string) (string, error)
	// ArchiveThread archives a thread the bot opened.
	ArchiveThread(ctx context.Context, thread string) error
}

// DirectPoster is a Poster that can also write to a person directly (a
// direct message): to tell a host that their match's channel refuses the
// bot, or a player that it is their turn.
type DirectPoster interface {
	DM(ctx context.Context, user string, m Message) error
}

// mention returns markup that adapters turn into a mention of user id.
func mention(id string) string { return "{{mention:" + id + "}}" }

// channelLink returns markup that adapters turn into a link to a channel.
func channelLink(id string) string { return "{{channel:" + id + "}}" }

// timestamp returns markup that adapters turn into a relative time.
func timestamp(t time.Time) string { return "{{time:" + strconv.FormatInt(t.Unix(), 10) + "}}" }

var markup = regexp.MustCompile(`\{\{(mention|channel|time):([^{}]*)\}\}`)

// Markup renders the bot's markup in a message's text, the platform's way.
type Markup struct {
	// Mention gives the form of a mention of a user (by the core's ID).
	Mention func(id string) string
	// Channel gives the form of a link to a channel (by the core's ID);
	// nil shows the ID.
	Channel func(id string) string
	// Time gives the form of a time.
	Time func(unix int64) string
}

// Format renders the markup of text.
func (mk Markup) Format(text string) string {
	return markup.ReplaceAllStringFunc(text, func(m string) string {
		sub := markup.FindStringSubmatch(m)
		switch sub[1] {
		case "mention":
			return mk.Mention(sub[2])
		case "channel":
			if mk.Channel == nil {
				return sub[2]
			}
			return mk.Channel(sub[2])
		default:
			n, err := strconv.ParseInt(sub[2], 10, 64)
			if err != nil {
				return sub[2]
			}
			return mk.Time(n)
		}
	})
}

// Format renders the markup of a message's text: mention(id) and time(unix)
// give the platform's form of a mention and of a relative time; channels
// show their ID.
func Format(text string, mention func(id string) string, time func(unix int64) string) string {
	return Markup{Mention: mention, Time: time}.Format(text)
}

// PlainTime renders a time for a text-only client: "in 23 h (Nov 26 21:00 UTC)".
func PlainTime(now time.Time) func(unix int64) string {
	return func(unix int64) string {
		t := time.Unix(unix, 0).UTC()
		d := t.Sub(now).Round(time.Minute)
		rel := ""
		switch {
		case d >= time.Hour:
			rel = fmt.Sprintf("in %d h", int(d.Hours()+0.5))
		case d > 0:
			rel = fmt.Sprintf("in %d min", int(d.Minutes()))
		case d <= -time.Hour:
			rel = fmt.Sprintf("%d h ago", int(-d.Hours()+0.5))
		case d < 0:
			rel = fmt.Sprintf("%d min ago", int(-d.Minutes()))
		default:
			rel = "now"
		}
		return fmt.Sprintf("%s (%s)", rel, t.Format("Jan 2 15:04 MST"))
	}
}

// private returns a private message with the text.
func private(format string, args ...any) Message {
	return Message{Private: true, Text: fmt.Sprintf(format, args...)}
}

// capitalize upper-cases the first letter, for engine messages shown alone.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}
