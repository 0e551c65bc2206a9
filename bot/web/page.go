package web

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/storage"
)

// The page's channels: what the bot posts there, and the page's requests
// to read and play them.

// play serves the page's requests in a channel: to read it (its events,
// images, match, board, the completions of a command line) and to play
// in it (commands, clicks, a team's chat, a seat's API token), as the
// players the page's session plays.
type play struct {
	store    playStore
	bot      *bot.Bot // attached by Server.SetBot
	browsers *browsers
	feeds    *feeds
	// api makes a seat's API token (POST /web/token).
	api *api
	// activity is the Activity's side, nil unless the server is
	// Discord's Activity: its channels are Discord's.
	activity *activity
	log      *slog.Logger
	// limits bound what visitors create; opening orders the checks of
	// the matches opened with the opening itself.
	limits  Limits
	opening sync.Mutex
}

// playStore is what the page's requests read themselves, besides the
// matches the bot loads: the channels with an open match, and the open
// matches (the page's limits).
type playStore interface {
	OpenHead(ctx context.Context, channel string) (storage.Head, error)
	OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error)
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
}

// Post implements bot.Poster.
func (s *Server) Post(_ context.Context, channel string, m chat.Message) (string, error) {
	if !strings.HasPrefix(channel, Prefix) && !strings.HasPrefix(channel, consolePrefix) {
		return "", fmt.Errorf("web: not a channel of the page: %q: %w", channel, chat.ErrUndeliverable)
	}
	return s.feeds.put(channel, "", "", m), nil
}

// Edit implements bot.Editor: the page replaces the message, or posts it
// anew when it is gone from memory (an earlier run of the server).
func (s *Server) Edit(_ context.Context, channel, id string, m chat.Message) error {
	s.feeds.edit(channel, id, m)
	return nil
}

var (
	_ chat.Poster = (*Server)(nil)
	_ chat.Editor = (*Server)(nil)
)

// events streams a channel to the page.
func (pl *play) events(w http.ResponseWriter, r *http.Request) {
	channel, ok := pl.checkChannel(w, r.URL.Query().Get("channel"))
	if !ok {
		return
	}
	se := pl.browsers.sessionOf(w, r)
	pl.feeds.restoreLate(r.Context(), channel)
	pl.feeds.stream(w, r, channel, &sub{se: se, ch: make(chan []byte, 64)}, nil)
}

// image serves the map of a message, rendered on first request.
func (pl *play) image(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	se := pl.browsers.sessionOf(w, r)
	im, to := pl.feeds.imageOf(id)
	// The image of a private answer (a player's own view, with fog of
	// war) is its reader's alone, as the answer is.
	if im == nil || to != "" && !pl.browsers.owns(se, to) {
		problem(w, http.StatusNotFound, "no such image")
		return
	}
	png, err := im.PNG(r.Context())
	if err != nil {
		pl.log.Error("draw a map", "err", err)
		problem(w, http.StatusInternalServerError, "the map could not be drawn")
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=86400")
	_, _ = w.Write(png)
}

// pageReplier shows the bot's answer to a command or click typed in the
// page: a private answer to its author only; an answer to a click on a
// private message replaces that message, as on Discord.
type pageReplier struct {
	pl      *play
	channel string
	user    chat.User
	replace string // the clicked private message, if any
}

func (pr pageReplier) Reply(ctx context.Context, m chat.Message) error {
	if !m.Private && pr.pl.activity != nil {
		// Typed in Discord, the answer would be seen in the channel.
		pr.pl.activityPost(ctx, pr.channel, m)
		return nil
	}
	to := ""
	if m.Private {
		to = pr.user.ID
	}
	id := ""
	if m.Private && pr.replace != "" {
		id = pr.replace
	}
	pr.pl.feeds.put(pr.channel, id, to, m)
	return nil
}

// command runs a command typed in the page: {"channel", "as", "line"}.
func (pl *play) command(w http.ResponseWriter, r *http.Request) {
	var in struct {
		form
		Line string `json:"line"`
	}
	channel, user, se, ok := pl.readForm(w, r, &in)
	if !ok {
		return
	}
	if team, _ := pl.feeds.team(channel, se, user.ID); team {
		problem(w, http.StatusBadRequest, "this is a team's private chat: write messages here, and play in the match's channel")
		return
	}
	cmd, opts, err := parseCommand(in.Line)
	if err != nil {
		problem(w, http.StatusBadRequest, "%v", err)
		return
	}
	command.People(pl.bot.Specs(), cmd, opts, func(name string) string { return userIn(channel, name).ID })
	server, locale := pageOrigin(r, se)
	req := chat.Request{Channel: channel, User: user, Command: cmd, Options: opts, Key: "web/" + randomHex(8), Server: server,
		Admin: pl.browsers.isOperator(se), Locale: locale, GuildLocale: locale}
	pr := pageReplier{pl: pl, channel: channel, user: user}
	if !pl.run(w, r, se, pr, command.Alias(cmd) == "new", func() error { return pl.bot.Handle(r.Context(), req, pr) }) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// pageOrigin is the server a request of the page is from, "web" or, in
// Discord's Activity, Discord's (its defaults and limits, as a typed
// command's), and its reader's locale.
func pageOrigin(r *http.Request, se *session) (server, locale string) {
	server = "web"
	if se.activity != nil {
		server = se.activity.server
	}
	return server, pageLocale(r)
}

// run runs handle, a command's or a click's handling, answering 500 if it
// fails. One that may open a match (opening) on the page's own names
// waits for any other such and is refused past the page's limits
// (mayOpen), so that two cannot both take the last match allowed. It
// reports whether handle ran and succeeded.
func (pl *play) run(w http.ResponseWriter, r *http.Request, se *session, pr pageReplier, opening bool, handle func() error) bool {
	if opening && se.activity == nil {
		pl.opening.Lock()
		defer pl.opening.Unlock()
		if !pl.mayOpen(w, r, se, pr) {
			return false
		}
	}
	if err := handle(); err != nil {
		problem(w, http.StatusInternalServerError, "%v", err)
		return false
	}
	return true
}

// click presses a button of a message: {"channel", "as", "message", "button"}.
func (pl *play) click(w http.ResponseWriter, r *http.Request) {
	var in struct {
		form
		Message string `json:"message"`
		Button  string `json:"button"`
	}
	channel, user, se, ok := pl.readForm(w, r, &in)
	if !ok {
		return
	}
	label, replace, spent := pl.feeds.pressed(channel, se, user.ID, in.Message, in.Button)
	if label == "" {
		problem(w, http.StatusNotFound, "no such button")
		return
	}
	server, locale := pageOrigin(r, se)
	c := chat.Click{Channel: channel, User: user, ID: in.Button, Label: label, Key: "web/" + randomHex(8), Server: server,
		Admin: pl.browsers.isOperator(se), Locale: locale, GuildLocale: locale}
	pr := pageReplier{pl: pl, channel: channel, user: user, replace: replace}
	if !pl.run(w, r, se, pr, opens(in.Button), func() error { return pl.bot.HandleClick(r.Context(), c, pr) }) {
		return
	}
	if spent != "" {
		pl.feeds.spend(channel, spent)
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// channels lists the channels of the page: those with an open match and
// those seen since the server started.
func (pl *play) channels(w http.ResponseWriter, r *http.Request) {
	seen := map[string]bool{}
	// The page's channels by their names, the console's with theirs
	// prefixed ("console:main").
	show := func(c string) {
		if name, ok := strings.CutPrefix(c, Prefix); ok {
			seen[name] = true
		} else if strings.HasPrefix(c, consolePrefix) {
			seen[c] = true
		}
	}
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := pl.store.OpenChannels(r.Context(), prefix)
		if err != nil {
			problem(w, http.StatusServiceUnavailable, "the database is unavailable")
			return
		}
		for _, m := range open {
			show(m.Channel)
		}
	}
	se := pl.browsers.sessionOf(w, r)
	pl.feeds.listed(se, show) // a team's chat is listed to its members only
	names := []string{}
	for n := range seen {
		names = append(names, n)
	}
	sortStrings(names)
	writeJSON(w, http.StatusOK, map[string][]string{"channels": names})
}

// seatInfo is a seat as the page's seat picker shows it.
type seatInfo struct {
	Name  string `json:"name"`
	ID    string `json:"id"`
	Color string `json:"color,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
	// Web: a player of the page, whom a browser may play.
	Web bool `json:"web,omitempty"`
	// Yours: this browser plays them; Taken: another one does.
	Yours bool `json:"yours,omitempty"`
	Taken bool `json:"taken,omitempty"`
	Turn  bool `json:"turn,omitempty"`
}

// channelInfo tells the page about a channel's match: its id (for the
// spectators' link and the API), status and seats.
func (pl *play) channelInfo(w http.ResponseWriter, r *http.Request) {
	channel, ok := pl.checkChannel(w, r.URL.Query().Get("channel"))
	if !ok {
		return
	}
	se := pl.browsers.sessionOf(w, r)
	out := struct {
		Match  int64      `json:"match,omitempty"`
		Status string     `json:"status"`
		Seats  []seatInfo `json:"seats"`
	}{Status: "none", Seats: []seatInfo{}}
	l, err := pl.store.OpenHead(r.Context(), channel)
	if err == nil {
		out.Match, out.Status = l.ID, l.Status.String()
		if mi, err := pl.bot.Match(r.Context(), l.ID); err == nil && mi.Game != nil {
			st := mi.Game.State
			for i, seat := range st.Seats {
				// (The Activity's seats are Discord's players: none is
				// the page's to take.)
				si := seatInfo{Name: seat.Name, ID: seat.ID, Bot: i < len(mi.Bots) && mi.Bots[i], Web: strings.HasPrefix(seat.ID, platform(channel)) && se.activity == nil, Turn: st.Current == i}
				if i < len(mi.RGB) {
					si.Color = fmt.Sprintf("#%06x", mi.RGB[i])
				}
				si.Yours = si.Web && pl.browsers.owns(se, seat.ID)
				si.Taken = pl.browsers.takenFrom(se, seat.Name)
				out.Seats = append(out.Seats, si)
			}
		} else if mi != nil {
			out.Seats = append(out.Seats, lobbySeats(mi.Meta, platform(channel))...)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// lobbySeats reads the seats of a lobby from the bot's data, leniently:
// the page only shows them.
func lobbySeats(meta json.RawMessage, platform string) []seatInfo {
	var m struct {
		Seats []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"seats"`
	}
	_ = json.Unmarshal(meta, &m)
	var out []seatInfo
	for _, st := range m.Seats {
		out = append(out, seatInfo{Name: st.Name, ID: st.ID, Web: strings.HasPrefix(st.ID, platform)})
	}
	return out
}

// token gives the page's player their seat's API token: {"channel", "as"}.
func (pl *play) token(w http.ResponseWriter, r *http.Request) {
	var in struct {
		form
	}
	channel, user, _, ok := pl.readForm(w, r, &in)
	if !ok {
		return
	}
	l, err := pl.bot.Matches().Active(r.Context(), channel)
	if err != nil || l.Game == nil || l.Game.State.SeatByID(user.ID) < 0 {
		problem(w, http.StatusNotFound, "%s has no seat in a started match here", user.Name)
		return
	}
	tok, err := pl.api.newToken(r.Context(), l.ID, user)
	if err != nil {
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"match": l.ID, "token": tok})
}
