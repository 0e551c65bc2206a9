package lobby

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/storage"
)

// New answers /risk new: it opens a match in the channel, or in a thread
// of its own, hosted by its author.
func (l *Lobby) New(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	thread, err := l.wantThread(c)
	if err != nil {
		return hosted.Result{}, err
	}
	if !thread {
		if err := l.channelFree(ctx, c.Req.Channel); err != nil {
			return hosted.Result{}, err
		}
	}
	if err := canHost(c.Req.BotLacks); err != nil {
		return hosted.Result{}, err
	}
	rules, err := l.cfg.Servers.Rules(ctx, c.Req.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := l.cfg.Servers.MayOpen(ctx, c.Req, rules); err != nil {
		return hosted.Result{}, err
	}
	set, err := l.cfg.Servers.Defaults(rules)
	if err != nil {
		// A default the bot no longer offers: the bot's own then.
		l.cfg.Log.Warn("a server default no longer applies", "server", c.Req.Server, "err", err)
		set = hosted.DefaultSettings()
	}
	if set.Lang == "" {
		// No server default: the server's own language, as Discord has it.
		set.Lang = string(lang.FromLocale(c.Req.GuildLocale))
	}
	args, err := l.resolveMap(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	set, err = set.Apply(args, l.cfg.Look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	meta := hosted.Meta{Host: c.Req.User.ID, Settings: set, Server: c.Req.Server}
	meta.Seats = []hosted.Seat{{ID: c.Req.User.ID, Name: uniqueName(meta, c.Req.User.Name)}}
	// The answer speaks its author's language, the lobby the match's.
	p, pub := reader(c, set), lang.For(set.Language())
	host := lang.Text(meta.Seats[0].Name)
	channel := c.Req.Channel
	if thread {
		t, err := l.cfg.Poster.(chat.Threader).OpenThread(ctx, c.Req.Channel, pub.T("lobby.new.thread-name", "Name", host))
		if err != nil {
			if _, asked := c.Args.Str["thread"]; asked {
				return hosted.Result{}, fmt.Errorf("bot: open a thread for a match in %s: %w", c.Req.Channel, err)
			}
			// Threads were only the default: play in the channel.
			l.cfg.Log.Warn("open a thread for a match: playing in the channel", "channel", c.Req.Channel, "err", err)
			if err := l.channelFree(ctx, c.Req.Channel); err != nil {
				return hosted.Result{}, err
			}
			thread = false
		} else {
			channel, meta.Thread, meta.Parent = t, true, c.Req.Channel
		}
	}
	m, err := l.cfg.Store.Create(ctx, channel, meta.Encode(), l.cfg.Now())
	if errors.Is(err, storage.ErrChannelBusy) {
		return hosted.Result{}, chat.RefuseMsg("lobby.new.busy")
	}
	if err != nil {
		return hosted.Result{}, err
	}
	// The lobby is one message, posted now and edited by every change
	// until the match starts; its host is told how it goes privately.
	opened := lang.M("lobby.new.opened", "Name", host)
	howTo := lang.M("lobby.new.how-to")
	if !thread {
		return hosted.Result{
			Reply: chat.Private("%s", p.T("lobby.new.open", "HowTo", howTo)),
			Posts: news.Batch{Posts: []news.Post{voice.Speaking(pub.Tag()).Lobby().Post(m.ID, meta, pub.Msg(opened))}},
		}, nil
	}
	// The match lives in its thread: the lobby is posted there, and the
	// channel keeps one line of it.
	if err := l.cfg.Outbox.Post(ctx, channel, voice.Speaking(pub.Tag()).Lobby().Post(m.ID, meta, pub.T("lobby.new.opened-here", "Opened", opened))); err != nil {
		l.cfg.Log.Warn("post the lobby in its thread", "thread", channel, "err", err)
	}
	return hosted.Result{
		Reply: chat.Private("%s", p.T("lobby.new.open-thread", "Thread", lang.Text(chat.ChannelLink(channel)), "HowTo", howTo)),
		Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: pub.T("lobby.new.opened-there", "Opened", opened,
			"Settings", lang.Text(chat.Capitalize(voice.Speaking(pub.Tag()).Status().Settings(set))), "Thread", lang.Text(chat.ChannelLink(channel)))}}}},
	}, nil
}

// wantThread decides whether a new match gets a thread of its own: if the
// host asked for one (refused where the bot cannot open it), or by
// default where the bot can.
func (l *Lobby) wantThread(c *hosted.Call) (bool, error) {
	_, can := l.cfg.Poster.(chat.Threader)
	lacks := c.Req.ThreadLacks
	switch v, asked := c.Args.Str["thread"]; {
	case asked && v == "off":
		return false, nil
	case asked && (!can || lacks == nil):
		return false, chat.RefuseMsg("lobby.thread.cannot")
	case asked && len(lacks) > 0:
		return false, chat.RefuseMsg("lobby.thread.lacks", "Lacks", and(lacks))
	}
	return can && lacks != nil && len(lacks) == 0, nil
}
