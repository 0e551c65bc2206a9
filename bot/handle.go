package bot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/storage"
)

// resultOf names the outcome of a command or click for Meter.Command.
func resultOf(err error) string {
	var ue *chat.Refusal
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, storage.ErrConflict) || errors.Is(err, hosted.ErrMovedOn):
		return "moved_on"
	case errors.As(err, &ue):
		return "refused"
	}
	return "error"
}

// Handle answers one /risk command. Rule violations and mistakes are
// answered privately; the returned error is only for failures to reply.
func (b *Bot) Handle(ctx context.Context, req chat.Request, r chat.Replier) error {
	// A command says its author is back (not /risk me notify, which may
	// be what makes them away).
	as := aside(req.Channel, req.User.ID, command.Alias(req.Command) != "me notify")
	res, err := b.handle(ctx, req, as.reads)
	name := "unknown"
	if spec, ok := command.Find(b.specs, command.Alias(req.Command)); ok {
		name = spec.FullName()
	}
	b.cfg.Meter.Command(name, resultOf(err))
	return b.finish(ctx, req.Channel, req.User, req.Command, req.BotLacks, req.Locale, res, err, r, as)
}

// summary words a command as its author typed it, for telling them later
// (named as Discord users type it now: an old word by its new name).
func summary(req chat.Request) string {
	parts := []string{command.Slash(req.Command)}
	for _, k := range slices.Sorted(maps.Keys(req.Options)) {
		v := req.Options[k]
		if strings.ContainsAny(v, " \t") {
			v = strconv.Quote(v)
		}
		parts = append(parts, k+":"+v)
	}
	return chat.Clip(strings.Join(parts, " "))
}

// handle runs a command; the changes it saves read reads (asides).
func (b *Bot) handle(ctx context.Context, req chat.Request, reads *storage.Reads) (hosted.Result, error) {
	req.Command = command.Alias(req.Command)
	spec, ok := command.Find(b.specs, req.Command)
	if !ok {
		if near := command.Suggest(b.specs, req.Command); len(near) > 0 {
			for i, n := range near {
				near[i] = command.Slash(n)
			}
			return hosted.Result{}, chat.RefuseMsg("bot.no-command.near", "Command", lang.Text(chat.Quote(req.Command)), "Near", orList(near))
		}
		return hosted.Result{}, chat.RefuseMsg("bot.no-command", "Command", lang.Text(chat.Quote(req.Command)))
	}
	a, err := command.Parse(spec, req.Options)
	if miss, ok := errors.AsType[*command.Missing](err); ok {
		// The usage's example is the classic map's; play words one in the
		// names of the channel's match.
		return hosted.Result{}, b.play.Missing(ctx, req, miss)
	}
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("hosted.sentence", "Reason", err)
	}
	h, ok := b.handlers[spec.FullName()]
	if !ok {
		return hosted.Result{}, chat.RefuseMsg("bot.not-yet", "Command", lang.Text(spec.Slash()))
	}
	// Commands that only read need no lock: storage gives them a consistent
	// view, and they must not wait behind a long computer turn.
	if command.ReadOnly(spec.FullName(), a) {
		return h(ctx, &hosted.Call{Req: req, Args: a, Reads: reads})
	}
	return b.apply(ctx, request{channel: req.Channel, user: req.User, key: req.Key, locale: req.Locale, summary: summary(req),
		run: func(ctx context.Context, rec *hosted.Record) (hosted.Result, error) {
			return h(ctx, &hosted.Call{Req: req, Args: a, Reads: reads, Rec: rec})
		}})
}

// request is a change asked of a channel, a command or a click: what the
// one routine that runs both (apply) needs.
type request struct {
	channel string
	user    chat.User
	// key is the chat's ID of the request ("" if it has none): a request
	// delivered twice is applied once, and its author told so.
	key     string
	locale  string
	summary string // the request as its author is told of it later
	// run does the request, rec following what it saves. It loads what
	// it needs itself, so that a run again after a conflict plays on the
	// match as it now is.
	run func(ctx context.Context, rec *hosted.Record) (hosted.Result, error)
}

// apply runs a command or a click under its channel's lock: a repeat is
// answered once, the request recorded with what it saves, run again if
// another process moved the match on between its load and its save, and
// marked to be answered. Commands and clicks share it, and so its policy:
// a click that lost the race runs again on the match as it now is, as a
// command does (a button bound to the version it was posted at is then
// refused as stale by its handler, politely, rather than "moved on").
func (b *Bot) apply(ctx context.Context, r request) (hosted.Result, error) {
	unlock := b.locks.Lock(r.channel)
	defer unlock()
	// Recorded nowhere without a key, but followed: a request run again
	// after a conflict must not have saved anything.
	rec := &hosted.Record{}
	if r.key != "" {
		if res, ok, err := b.repeated(ctx, r.channel, r.user, r.key, r.locale); ok || err != nil {
			return res, err
		}
		rec.Req = storage.Request{Key: r.key, User: r.user.ID, Summary: r.summary}
	}
	res, err := r.run(ctx, rec)
	// Another process changed the match between this one's load and its
	// save (within a process the channel's lock prevents it). Nothing was
	// saved: the request runs again on the match as it now is, as it would
	// have had it waited for the lock.
	for try := 1; try < conflictTries && errors.Is(err, storage.ErrConflict) && !rec.Saved && ctx.Err() == nil; try++ {
		b.cfg.Log.Debug("the match moved on in another process: running the request again", "channel", r.channel, "request", r.summary, "try", try+1)
		if r.key != "" {
			// The change that beat it may be this very request, delivered
			// twice, to two processes.
			if res, ok, err := b.repeated(ctx, r.channel, r.user, r.key, r.locale); ok || err != nil {
				return res, err
			}
		}
		res, err = r.run(ctx, rec)
	}
	if rec.Saved {
		res.Answers = r.key
	}
	return res, err
}

// conflictTries bounds the runs of a request that keeps losing the race
// for its match to other processes; then it gets the polite answer.
const conflictTries = 3

// lostAnswer is how long after a request a lost answer is told: longer
// than a restart takes, short enough that the author still waits for it.
const lostAnswer = time.Hour

// repeated answers a request that must not be applied: one whose key was
// applied already (delivered twice), or the first command of a user whose
// previous request here was applied by an earlier process that stopped
// before answering it. That one is told what was done instead: a person
// who got no answer types the command again, and it must not apply twice.
// It is under the channel's lock.
// locale is the author's language, for the answer.
func (b *Bot) repeated(ctx context.Context, channel string, u chat.User, key, locale string) (hosted.Result, bool, error) {
	p := lang.For(lang.FromLocale(locale))
	if a, err := b.cfg.Store.Applied(ctx, key); err == nil {
		if err := b.cfg.Store.Answered(ctx, key, b.cfg.Now()); err != nil {
			return hosted.Result{}, false, err
		}
		again := chat.Private("%s", p.T("bot.again", "Summary", lang.Text(a.Summary), "Result", lang.Text(resultLines(a.Result))))
		again.Again = true
		return hosted.Result{Reply: again}, true, nil
	} else if !errors.Is(err, storage.ErrNotFound) {
		return hosted.Result{}, false, err
	}
	// A lost answer is one of a request made before this process
	// started: once looked for, in vain or told, none can turn up later
	// (a later request is newer, and this process's or another's since).
	sought := channel + "\x00" + u.ID
	if _, ok := b.sought.Get(sought); ok {
		return hosted.Result{}, false, nil
	}
	a, err := b.cfg.Store.LastRequest(ctx, channel, u.ID)
	if errors.Is(err, storage.ErrNotFound) {
		b.sought.Add(sought, struct{}{})
		return hosted.Result{}, false, nil
	}
	if err != nil {
		return hosted.Result{}, false, err
	}
	if !a.Answered.IsZero() || a.Created.After(b.started) || b.cfg.Now().Sub(a.Created) > lostAnswer {
		b.sought.Add(sought, struct{}{})
		return hosted.Result{}, false, nil
	}
	if err := b.cfg.Store.Answered(ctx, a.Key, b.cfg.Now()); err != nil {
		return hosted.Result{}, false, err
	}
	b.sought.Add(sought, struct{}{})
	return hosted.Result{Reply: chat.Private("%s", p.T("bot.lost-answer", "Summary", lang.Text(a.Summary), "Result", lang.Text(resultLines(a.Result))))}, true, nil
}

// resultLines introduces what a request did, if it said.
func resultLines(s string) string {
	if s == "" {
		return "."
	}
	return ":\n" + s
}

// LastApplied says what the last request applied in a channel was, and
// what it did if its author was never told (the console was closed or
// killed before it could answer); the answer counts as given now. ok is
// false if nothing was recorded.
func (b *Bot) LastApplied(ctx context.Context, channel string, t lang.Tag) (text string, ok bool, err error) {
	a, err := b.cfg.Store.LastRequest(ctx, channel, "")
	if errors.Is(err, storage.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	who := a.User
	if m, err := b.matches.ByID(ctx, a.Match); err == nil {
		if i := m.Meta.Index(a.User); i >= 0 {
			who = m.Meta.Seats[i].Name
		}
	}
	p := lang.For(t)
	text = p.T("bot.last-applied", "Who", lang.Text(who), "Summary", lang.Text(a.Summary), "When", lang.Text(chat.Timestamp(a.Created)))
	if a.Answered.IsZero() {
		text += p.T("bot.last-applied.unseen") + resultLines(a.Result)
		if err := b.cfg.Store.Answered(ctx, a.Key, b.cfg.Now()); err != nil {
			return "", false, err
		}
	}
	return text, true, nil
}

// asides are what an answer may add whatever its command does: that its
// author is back (their absence ends: people.WelcomeBack), that the bot
// cannot post in the channel (outbox.ChannelNote). What they need (two
// settings) is read by the command's save, in its transaction
// (storage.Change.Reads), or, if it saves nothing, in one read after.
type asides struct {
	// welcomes: the command says its author is back (not /risk me
	// notify, which may be what makes them away; not a click).
	welcomes bool
	reads    *storage.Reads
}

// aside returns the asides of what user does in channel, to be read;
// welcomes says whether it tells them they are back.
func aside(channel, user string, welcomes bool) *asides {
	as := &asides{welcomes: welcomes}
	keys := []storage.Setting{outbox.AlertKey(channel)}
	if as.welcomes {
		keys = append(keys, people.Key(user))
	}
	as.reads = &storage.Reads{Keys: keys}
	return as
}

// read returns what the asides read: the channel's alert and the user's
// choices (if the command welcomes them back), read now if the command's
// save did not.
func (as *asides) read(ctx context.Context, st Store) (outbox.ChannelAlert, people.Prefs, error) {
	r := as.reads
	var err error
	if !r.Read {
		r.Found, err = st.SettingsOf(ctx, r.Keys...)
	}
	alert := outbox.Alert(r.Keys[0].ID, r.Value(r.Keys[0].Scope, r.Keys[0].ID), err)
	if !as.welcomes || err != nil {
		return alert, people.Prefs{}, err
	}
	prefs, err := people.Decode(r.Keys[1].ID, r.Value(r.Keys[1].Scope, r.Keys[1].ID))
	return alert, prefs, err
}

// finish delivers a handler's outcome. lacks are the permissions the bot
// lacks in the channel, as the request said (nil if it did not); as are
// the asides read beside the command or click (aside).
func (b *Bot) finish(ctx context.Context, channel string, user chat.User, what string, lacks []string, locale string, res hosted.Result, err error, r chat.Replier, as *asides) error {
	if err != nil {
		// A refusal is worded in its author's language.
		p := lang.For(lang.FromLocale(locale))
		var ue *chat.Refusal
		switch {
		case errors.As(err, &ue):
			res = hosted.Result{Reply: chat.Private("%s", ue.In(p))}
			res.Reply.Buttons = ue.Buttons
		case errors.Is(err, storage.ErrConflict):
			res = hosted.Result{Reply: chat.Private("%s", hosted.ErrMovedOn.(*chat.Refusal).In(p))}
		default:
			b.cfg.Log.Error("command failed", "channel", channel, "user", user.ID, "command", what, "err", err)
			res = hosted.Result{Reply: chat.Private("%s", p.T("bot.failed"))}
		}
		res.Reply.Refused = true
	}
	alert, prefs, perr := as.read(ctx, b.cfg.Store)
	if as.welcomes && (perr != nil || prefs.Returning(locale)) {
		// Read again, and written, only when there is something to
		// change: most commands change nothing.
		res.Reply.Text += b.people.WelcomeBack(ctx, user.ID, locale, lang.For(lang.FromLocale(locale)))
	}
	res.Reply.Text = chat.Clip(res.Reply.Text + b.outbox.ChannelNote(ctx, channel, alert, lacks, lang.FromLocale(locale)))
	if rerr := r.Reply(ctx, res.Reply); rerr != nil {
		return fmt.Errorf("bot: reply to %s: %w", what, rerr)
	}
	if res.Answers != "" {
		if err := b.cfg.Store.Answered(ctx, res.Answers, b.cfg.Now()); err != nil {
			// Not fatal: the author may be told once more that it was done.
			b.cfg.Log.Error("mark a request answered", "channel", channel, "key", res.Answers, "err", err)
		}
	}
	b.outbox.Deliver(ctx, channel, res.Posts)
	if res.Bots {
		b.clock.Later(channel)
	}
	return nil
}

// orList offers choices as a sentence does: "A, B or C".
func orList(choices []string) any {
	if len(choices) < 2 {
		return lang.Text(strings.Join(choices, ""))
	}
	return lang.M("hosted.or-list", "Head", lang.Text(strings.Join(choices[:len(choices)-1], ", ")), "Last", lang.Text(choices[len(choices)-1]))
}
