// Package chat is the vocabulary the bot core shares with its adapters:
// what comes in (a Request, a Click), what goes out (a Message, with its
// Embed, Image and Buttons), the Replier and Posters an adapter provides,
// and the markup and writing helpers every message is made with. It is
// plain data and knows no chat platform: adapters (bot/discord,
// bot/console, bot/web) translate it.
package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Choice is one autocomplete suggestion: Name is shown, Value is sent.
type Choice struct {
	Name  string
	Value string
}

// MaxChoices is Discord's limit of autocomplete results.
const MaxChoices = 25

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
	// Locale is the user's language as their chat client has it ("fr",
	// "en-US"; Discord's locale), and GuildLocale the server's (Discord's
	// guild_locale); empty where the platform does not say.
	Locale, GuildLocale string
	// Files are the files sent with the command, by the name of the
	// option that asked for them (Discord's attachments, the page's
	// uploads), read whole and bounded by the adapter; the option's value
	// is the file's name.
	Files map[string]File
}

// File is a file sent with a command.
type File struct {
	Name string
	Data []byte
}

// Click is a press of a button the bot posted. Its answer replaces the
// clicked message if that was a private answer, where the chat can (its
// buttons are then superseded); the answer to a click on a public message
// is a message of its own.
type Click struct {
	Channel string
	User    User
	ID      string // the button's ID
	// Label is the button's label, if known, to name the click to its
	// author.
	Label string
	// Key identifies the click uniquely, as Request.Key.
	Key string
	// Server, Admin, BotLacks, Locale and GuildLocale are as in Request.
	Server              string
	Admin               bool
	BotLacks            []string
	Locale, GuildLocale string
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
	// Refused marks the answer to a command or click that was refused:
	// nothing changed.
	Refused bool
	// Again marks the answer to a request carried out already: the same
	// request delivered a second time (a replay; one delivery to two
	// processes). It is for that delivery only: where a chat would answer
	// it by changing an answer already given (Discord: an edit through
	// the interaction's token, which both deliveries share), it is not
	// sent at all.
	Again bool
	// Activity asks the chat to open the match's map beside the channel,
	// where it can (Discord: the application's Activity, launched as the
	// answer to the click), instead of showing the message; a chat that
	// cannot shows the message, which links to the page.
	Activity bool
}

// Private returns a private message with the text.
func Private(format string, args ...any) Message {
	return Message{Private: true, Text: fmt.Sprintf(format, args...)}
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

// TeamThreader is a Poster that can open a private thread for a team of a
// match: a channel inside a channel that only the members it names (and
// the bot) see, for the team to plan in.
type TeamThreader interface {
	// OpenPrivateThread opens a private thread named name in channel,
	// adds members (user ids) to it and returns it, as a channel.
	OpenPrivateThread(ctx context.Context, channel, name string, members []string) (string, error)
}

// DirectPoster is a Poster that can also write to a person directly (a
// direct message): to tell a host that their match's channel refuses the
// bot, or a player that it is their turn.
type DirectPoster interface {
	DM(ctx context.Context, user string, m Message) error
}
