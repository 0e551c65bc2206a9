// Package web is the browser adapter of the bot and the match API: a page
// that looks and behaves like a chat channel with the bot in it (messages,
// embeds, maps, buttons, a command box with autocomplete, live updates),
// a read-only page per match for spectators, and a JSON API over HTTP
// (seed 000, section 6) for programs that follow or play a match.
//
// It runs the very same bot core as the Discord and console adapters, on
// channels named "web:NAME". A browser session may act as the players it
// named, and no one else; the host of a match acts as its host, and only
// the operator's browser (which opened the link with the key risk web
// prints) as the page's admin. The API needs a seat's token to play.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
)

// Store is what the adapter reads and writes itself, besides what the bot
// does: where the matches stand and their logs, the channels, and the
// settings (the browsers, their names, the seats' API tokens, kept
// hashed). Head and OpenHead say where a match stands without loading it:
// the matches themselves are read through the bot's cache (bot.Matches).
// It is the sum of what the parts the Server wires read, each declaring
// the methods it calls.
type Store interface {
	apiStore     // the match API: heads, logs, tokens
	playStore    // the page's requests: the open channels and matches
	feedStore    // the feeds: the channels to restore
	browserStore // the sessions and their names: settings, seats
}

// Server serves the page, the spectators' pages and the match API. It is
// the bot's Poster (and Editor, and TeamThreader) for the channels of the
// page. It wires the parts, each with the store methods it reads: feeds
// (the channels' messages and their pages' streams), play (the page's
// requests in a channel), api (the match API and its caches), browsers
// and naming (the sessions and the names they play), watchers (the
// spectators), guard (the gates in front of the handlers), and the
// Activity's side.
type Server struct {
	store headStore
	bot   *bot.Bot
	log   *slog.Logger

	// hosts are the names the server answers to, besides the loopback
	// ones and addresses.
	hosts hosts
	// guard is the gates in front of the handlers.
	guard *guard
	// feeds are the channels' messages and the pages following them.
	feeds *feeds
	// play serves the page's requests in a channel.
	play *play
	// api serves the match API.
	api *api
	// browsers are the page's sessions and the names they play; naming
	// serves the page's requests about those names.
	browsers *browsers
	naming   *naming
	// watchers look at the matches spectators follow.
	watchers *watchers
	// pageWords are the pages' own words in each language (GET /web/words).
	pageWords map[lang.Tag]pageWords
	// activity is the Activity's side, nil unless the server is Discord's
	// Activity (Config.Activity).
	activity *activity
}

// Config is what a Server is built from.
type Config struct {
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
	// Rate and Burst bound the API requests of one client (by address):
	// Rate a second, Burst at once. Zero means DefaultRate and
	// DefaultBurst.
	Rate  float64
	Burst int
	// Hosts are the names the server is reached by, besides the loopback
	// names and addresses (which it always answers): the name of the
	// machine, or those a proxy in front of it serves, with the port when
	// it is not the scheme's ("risk.example.org", "box.lan:8443"). Other
	// names get 421. A name is served over https (a proxy that
	// terminates TLS) unless it says its scheme ("http://box.lan:8080"):
	// the page's origin is that scheme and name.
	Hosts []string
	// Streams bounds the open event streams in all, ClientStreams those
	// of one address. Zero means DefaultStreams and DefaultClientStreams.
	Streams, ClientStreams int
	// Limits bound the names and matches visitors create; a zero field
	// is its default (DefaultNamesPerBrowser, ...).
	Limits Limits
	// OperatorKey makes the browser that gives it (POST /web/operator,
	// from the link risk web prints) the page's operator: its admin. ""
	// gives the page no operator.
	OperatorKey string
	// Activity, if set, makes the server Discord's Activity (activity.go)
	// and nothing else: it plays Discord's channels, each as the Discord
	// user signed in, and serves no channel of the page's.
	Activity *ActivityConfig
}

// The default bounds of a client's API requests.
const (
	DefaultRate  = 20
	DefaultBurst = 60
)

// New returns a server. Attach the bot with SetBot (the bot needs the
// server as its Poster first).
func New(cfg Config) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Rate <= 0 {
		cfg.Rate = DefaultRate
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Streams <= 0 {
		cfg.Streams = DefaultStreams
	}
	if cfg.ClientStreams <= 0 {
		cfg.ClientStreams = DefaultClientStreams
	}
	cfg.Limits = cfg.Limits.withDefaults()
	words, err := loadWords()
	if err != nil {
		// The catalogue is in the program and its tests read it: the
		// pages then say their words in English, from their HTML.
		cfg.Log.Error("web: no words for the pages", "err", err)
	}
	s := &Server{pageWords: words, store: cfg.Store, log: cfg.Log,
		hosts: newHosts(cfg.Hosts), watchers: newWatchers(cfg.Store),
		api: newAPI(cfg.Store, cfg.Now, cfg.Log), activity: newActivity(cfg.Activity, cfg.Now, cfg.Log)}
	s.browsers = newBrowsers(cfg.Store, s.api.tokens, cfg.Now, cfg.Limits, cfg.OperatorKey)
	s.feeds = newFeeds(cfg.Store, s.browsers, cfg.Now, cfg.Log)
	s.watchers.feeds = s.feeds
	s.naming = &naming{browsers: s.browsers, log: cfg.Log}
	s.play = &play{store: cfg.Store, browsers: s.browsers, feeds: s.feeds, api: s.api, activity: s.activity, limits: cfg.Limits, log: cfg.Log}
	s.guard = &guard{limit: newLimiter(cfg.Rate, cfg.Burst, cfg.Now), streams: newStreams(cfg.Streams, cfg.ClientStreams),
		origins: origins(cfg.Hosts), browsers: s.browsers, activity: s.activity, now: cfg.Now}
	if s.activity != nil {
		s.feeds.discord = true
		s.feeds.nameOf = s.nameOf
		// The Activity's sessions are Discord's players: no browser
		// names anyone there.
		s.browsers.activity = s.activity.session
	}
	return s
}

// SetBot attaches the bot the page talks to.
func (s *Server) SetBot(b *bot.Bot) { s.bot, s.feeds.bot, s.api.bot, s.play.bot = b, b, b, b }

// form is what every form of the page names: its channel, and the player
// acting in it. A request's body embeds it.
type form struct {
	Channel string `json:"channel"`
	As      string `json:"as"`
}

func (f *form) named() *form { return f }

// readForm reads a page's form (its JSON body, into in, which embeds a
// form) and its actor, answering the problem itself if either does not
// hold (ok false).
func (pl *play) readForm(w http.ResponseWriter, r *http.Request, in interface{ named() *form }) (channel string, user chat.User, se *session, ok bool) {
	if !readBody(w, r, in) {
		return "", chat.User{}, nil, false
	}
	f := in.named()
	return pl.actor(w, r, f.Channel, f.As)
}

// actor reads the channel and the player a page's form names, with the
// page's session, answering the problem itself if they do not hold (ok
// false).
func (pl *play) actor(w http.ResponseWriter, r *http.Request, channelIn, as string) (channel string, user chat.User, se *session, ok bool) {
	channel, ok = pl.checkChannel(w, channelIn)
	if !ok {
		return "", chat.User{}, nil, false
	}
	se = pl.browsers.sessionOf(w, r)
	user, err := pl.acting(r.Context(), se, channel, as)
	if err != nil {
		if _, ok := errors.AsType[*refusal](err); !ok {
			pl.log.Error("claim a name", "err", err)
		}
		_, msg := errorStatus(err)
		problem(w, http.StatusForbidden, "%s", msg)
		return "", chat.User{}, nil, false
	}
	return channel, user, se, true
}

// acting returns the player the session acts as in channel, named in a
// request, claiming the name if it is free. A console's channel is the
// terminal's owner's: the page acts in it only from the operator's
// browser, since a page name is anyone's who names it first and would
// otherwise play the console's seat of the same name.
func (pl *play) acting(ctx context.Context, se *session, channel, name string) (chat.User, error) {
	if se.activity != nil {
		return activityActing(se, channel)
	}
	if name == "" {
		return chat.User{}, errors.New("choose who you play as first")
	}
	if platform(channel) == consolePrefix && !pl.browsers.isOperator(se) {
		return chat.User{}, refuse(http.StatusForbidden, "a console's channel is played from the terminal (risk console --channel %s), or here from the operator's browser (the link risk web printed at start)", strings.TrimPrefix(channel, consolePrefix))
	}
	if err := pl.browsers.claim(ctx, se, name, ""); err != nil {
		return chat.User{}, err
	}
	pl.browsers.touch(ctx, se, strings.ToLower(name))
	return userIn(channel, name), nil
}

// channelName checks a channel name from the page and returns the
// channel: a channel of Discord's on the Activity (activityChannel), else
// one of the page's or a console's (pageChannel).
func (pl *play) channelName(name string) (string, error) {
	if pl.activity != nil {
		return activityChannel(name)
	}
	return pageChannel(name)
}

// checkChannel is channelName's channel, answering the problem itself if
// name is none the page may use (ok false).
func (pl *play) checkChannel(w http.ResponseWriter, name string) (string, bool) {
	channel, err := pl.channelName(name)
	if err != nil {
		problem(w, http.StatusBadRequest, "%v", err)
		return "", false
	}
	return channel, true
}

// pageChannel checks a channel name from the page ("main", or
// "console:main" for a console's) and returns the channel.
func pageChannel(name string) (string, error) {
	prefix := Prefix
	if rest, ok := strings.CutPrefix(name, consolePrefix); ok {
		prefix, name = consolePrefix, rest
	}
	if name == "" || len(name) > 40 {
		return "", errors.New("a channel name has 1 to 40 characters")
	}
	for _, r := range name {
		if !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) && r != '-' && r != '_' {
			return "", errors.New("a channel name has letters, digits, '-' and '_' only")
		}
	}
	return prefix + strings.ToLower(name), nil
}
