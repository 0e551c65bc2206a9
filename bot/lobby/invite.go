package lobby

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/storage"
)

// Invite answers /risk host invite player:@someone: the host holds a seat
// of the lobby for a person, who is pinged with Accept and Decline
// buttons; the seat is theirs until they answer or hosted.InviteTTL
// passes.
func (l *Lobby) Invite(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.lobby(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := hostOnly(m, c.Req.User, lang.M("lobby.what.invite")); err != nil {
		return hosted.Result{}, err
	}
	id := hosted.UserID(c.Args.Str["player"], c.Req.User.ID)
	switch {
	case id == "":
		return hosted.Result{}, chat.RefuseMsg("lobby.invite.whom")
	case id == c.Req.User.ID:
		return hosted.Result{}, chat.RefuseMsg("lobby.invite.yourself")
	case m.Meta.Index(id) >= 0:
		return hosted.Result{}, chat.RefuseMsg("lobby.invite.seated", "Player", lang.Text(chat.Mention(id)))
	}
	now := l.cfg.Now()
	m.Meta.DropExpired(now)
	if i := m.Meta.Invited(id); i >= 0 {
		return hosted.Result{}, chat.RefuseMsg("lobby.invite.already", "Player", lang.Text(chat.Mention(id)), "Until", lang.Text(chat.Timestamp(m.Meta.Invites[i].Until)))
	}
	if err := full(m.Meta); err != nil {
		return hosted.Result{}, err
	}
	m.Meta.Invites = append(m.Meta.Invites, hosted.Invite{ID: id, Until: now.Add(hosted.InviteTTL)})
	host := public(m).Msg(hostName(m.Meta))
	text := m.Says(to(m).T("lobby.invite.invited-you", "Player", lang.Text(chat.Mention(id)), "Until", lang.Text(chat.Timestamp(now.Add(hosted.InviteTTL)))))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: news.Batch{Posts: []news.Post{
		voice.Speaking(public(m).Tag()).Lobby().Post(m.ID, m.Meta, public(m).T("lobby.invite.invited", "Host", lang.Text(host), "Player", lang.Text(chat.Mention(id)))),
		voice.Speaking(public(m).Tag()).Lobby().Invite(m.ID, m.Meta, []string{id}, host),
	}}}, nil
}

// invitation finds the invitation of u in the lobby of m, or says why
// there is none: answered, expired, or never theirs.
func (l *Lobby) invitation(m *hosted.Match, u chat.User) error {
	if m.Meta.Index(u.ID) >= 0 {
		return chat.RefuseMsg("lobby.invite.you-seated")
	}
	i := m.Meta.Invited(u.ID)
	if i < 0 {
		var join lang.Msg
		if m.Meta.Free() > 0 {
			join = lang.M("lobby.invite.can-join")
		}
		return chat.RefuseMsg("lobby.invite.not-yours", "Then", join)
	}
	if until := m.Meta.Invites[i].Until; !l.cfg.Now().Before(until) {
		return chat.RefuseMsg("lobby.invite.expired", "When", lang.Text(chat.Timestamp(until)))
	}
	return nil
}

// accept seats u, invited to the lobby of m.
func (l *Lobby) accept(ctx context.Context, m *hosted.Match, u chat.User) (hosted.Result, error) {
	if err := l.invitation(m, u); err != nil {
		return hosted.Result{}, err
	}
	return l.join(ctx, m, u, 0)
}

// decline gives back the seat held for u in the lobby of m.
func (l *Lobby) decline(ctx context.Context, m *hosted.Match, u chat.User) (hosted.Result, error) {
	if err := l.invitation(m, u); err != nil {
		return hosted.Result{}, err
	}
	m.Meta.Uninvite(u.ID)
	m.Meta.DropExpired(l.cfg.Now())
	text := m.Says(to(m).T("lobby.invite.declined-you"))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.invite.declined", "Player", lang.Text(personName(u))))}, nil
}

// personName names a person by a mention that notifies nobody (the
// lobby's message pings no one).
func personName(u chat.User) string { return chat.MentionOf(u.ID, u.Name) }

// Rematch answers the Rematch button of a finished match m: a new lobby in
// its channel with the same settings and seats, its computer players
// seated again and its people invited back, hosted by whoever pressed it
// (one of those people). Its seed is drawn when it starts, as for any
// match. A second press finds the channel taken by the first's lobby.
func (l *Lobby) Rematch(ctx context.Context, c chat.Click, m *hosted.Match) (hosted.Result, error) {
	if m.Status == storage.Lobby || m.Status == storage.Active {
		return hosted.Result{}, chat.RefuseMsg("lobby.rematch.not-over")
	}
	i := m.Meta.Index(c.User.ID)
	if i < 0 || m.Meta.Seats[i].IsBot() {
		return hosted.Result{}, chat.RefuseMsg("lobby.rematch.players-only")
	}
	if m.Meta.Thread {
		return hosted.Result{}, chat.RefuseMsg("lobby.rematch.thread", "Channel", lang.Text(chat.ChannelLink(m.Meta.Parent)))
	}
	if open, err := l.cfg.Store.Active(ctx, m.Channel); err == nil {
		if meta, err := hosted.DecodeMeta(open.Meta); err == nil && meta.Rematch == m.ID {
			if open.Status != storage.Lobby {
				return hosted.Result{}, chat.RefuseMsg("lobby.rematch.under-way")
			}
			return hosted.Result{}, chat.RefuseMsg("lobby.rematch.open")
		}
	}
	if err := l.channelFree(ctx, m.Channel); err != nil {
		return hosted.Result{}, err
	}
	if err := canHost(c.BotLacks); err != nil {
		return hosted.Result{}, err
	}
	rules, err := l.cfg.Servers.Rules(ctx, m.Meta.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	req := chat.Request{Channel: m.Channel, User: c.User, Server: m.Meta.Server, Admin: c.Admin}
	if err := l.cfg.Servers.MayOpen(ctx, req, rules); err != nil {
		return hosted.Result{}, err
	}
	now := l.cfg.Now()
	me := m.Meta.Seats[i]
	meta := hosted.Meta{Host: c.User.ID, Settings: m.Meta.Settings, Server: m.Meta.Server, Bots: m.Meta.Bots, Rematch: m.ID}
	var invited []string
	for _, s := range m.Meta.Seats {
		switch {
		case s.ID == me.ID:
			meta.Seats = append(meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name})
		case strings.HasPrefix(s.ID, "bot:"):
			meta.Seats = append(meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name, Level: s.Level})
		case !s.IsBot():
			meta.Invites = append(meta.Invites, hosted.Invite{ID: s.ID, Until: now.Add(hosted.InviteTTL)})
			invited = append(invited, s.ID)
		}
		// A person removed by the host (a bot played their seat since)
		// is not invited back.
	}
	created, err := l.cfg.Store.Create(ctx, m.Channel, meta.Encode(), now)
	if errors.Is(err, storage.ErrChannelBusy) {
		// Another process opened a match here since the check.
		return hosted.Result{}, chat.RefuseMsg("lobby.rematch.busy")
	}
	if err != nil {
		return hosted.Result{}, fmt.Errorf("bot: open the rematch of match %d: %w", m.ID, err)
	}
	// The lobby speaks the match's language, the answer its author's.
	pub := lang.For(meta.Settings.Language())
	opened := pub.T("lobby.rematch.opened", "Name", lang.Text(me.Name))
	posts := []news.Post{voice.Speaking(pub.Tag()).Lobby().Post(created.ID, meta, opened)}
	if len(invited) > 0 {
		posts = append(posts, voice.Speaking(pub.Tag()).Lobby().Invite(created.ID, meta, invited, me.Name))
	}
	return hosted.Result{
		Reply: chat.Private("%s", to(m).T("lobby.rematch.open-you", "Until", lang.Text(chat.Timestamp(now.Add(hosted.InviteTTL))))),
		Posts: news.Batch{Posts: posts},
	}, nil
}
