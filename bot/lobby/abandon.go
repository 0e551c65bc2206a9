package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/storage"
)

// An admin (Request.Admin) or the host may end a match without a winner:
// /risk host abandon asks them to confirm with a button that expires. Lobbies
// that never start are closed after Config.LobbyTTL. Ended matches are kept
// (Abandoned), for /risk show history, /risk show status and risk export; a damaged
// match, one the bot cannot load, can be ended too, so that it never
// keeps its channel from hosting another.

// AbandonConfirm is how long the confirmation of /risk host abandon is good for.
const AbandonConfirm = 5 * time.Minute

// Abandon answers /risk host abandon: the question whether to end the match
// without a winner, for its host or an admin.
func (l *Lobby) Abandon(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	row, err := l.cfg.Matches.OpenRow(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	meta, merr := hosted.DecodeMeta(row.Meta)
	if !c.Req.Admin && (merr != nil || meta.Host != c.Req.User.ID) {
		host := lang.M("lobby.the-host")
		if merr == nil {
			host = theHost(meta)
		}
		return hosted.Result{}, chat.RefuseMsg("lobby.abandon.who", "Host", host)
	}
	expires := l.cfg.Now().Add(AbandonConfirm)
	what := lang.M("lobby.abandon.this-match")
	if merr == nil {
		what = lang.M("lobby.abandon.this-match-is", "Status", hosted.StatusMsg(row.Status), "Seats", lang.M("lobby.n.seats", "Count", len(meta.Seats)))
	}
	p := reader(c, meta.Settings)
	text := p.T("lobby.abandon.confirm", "What", what, "Expires", lang.Text(chat.Timestamp(expires)))
	return hosted.Result{Reply: chat.Message{Private: true, Text: text, Buttons: [][]chat.Button{{
		{ID: button.ID(row.ID, row.Version, button.Abandon, int(expires.Unix())), Label: p.T("lobby.abandon.button-end"), Style: chat.Danger},
		{ID: button.ID(row.ID, 0, button.Keep), Label: p.T("lobby.abandon.button-keep"), Style: chat.Secondary},
	}}}}, nil
}

// ClickAbandon answers the buttons of /risk host abandon's confirmation, under
// the channel's lock. The match may be damaged: it is not loaded.
func (l *Lobby) ClickAbandon(ctx context.Context, c chat.Click, bt button.Press) (hosted.Result, error) {
	if bt.Action == button.Keep {
		return hosted.Result{Reply: chat.Private("%s", lang.For(lang.FromLocale(c.Locale)).T("lobby.abandon.kept"))}, nil
	}
	if len(bt.Args) != 1 || l.cfg.Now().Unix() > int64(bt.Args[0]) {
		return hosted.Result{}, chat.RefuseMsg("lobby.abandon.expired")
	}
	row, err := l.cfg.Matches.OpenRow(ctx, c.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	if row.ID != bt.Match {
		return hosted.Result{}, chat.RefuseMsg("lobby.abandon.over")
	}
	meta, merr := hosted.DecodeMeta(row.Meta)
	role := lang.M("lobby.abandon.an-admin")
	switch {
	case merr == nil && meta.Host == c.User.ID:
		role = lang.M("lobby.the-host")
	case !c.Admin:
		return hosted.Result{}, chat.RefuseMsg("lobby.abandon.host-or-admin")
	}
	who := command.CleanName(c.User.Name)
	if i := meta.Index(c.User.ID); merr == nil && i >= 0 {
		who = meta.Seats[i].Name
	}
	// The note is posted in the channel, in the match's language (English
	// for one that cannot be read); the record keeps how it ended in
	// English, as every record does.
	pub := lang.For(lang.English)
	if merr == nil {
		pub = lang.For(meta.Settings.Language())
	}
	note := pub.T("lobby.abandon.ended", "Who", lang.Text(who), "Role", role)
	posts, err := l.End(ctx, row, note, fmt.Sprintf("by %s (%s)", who, role.String()))
	if err != nil {
		return hosted.Result{}, err
	}
	p := lang.For(lang.FromLocale(c.Locale))
	if t := hosted.ReaderOf(c.Locale); t == "" && merr == nil {
		p = pub
	}
	return hosted.Result{Reply: chat.Private("%s", p.T("lobby.abandon.done")), Posts: posts}, nil
}

// End ends an open match without a winner, at the version it was read
// (a conflict is a refusal), queueing the note to post, and returns the
// batch to deliver. Its data is updated if it can be read; a damaged
// match is ended all the same.
func (l *Lobby) End(ctx context.Context, row storage.Match, note, ended string) (news.Batch, error) {
	change := storage.Change{Status: storage.Abandoned}
	thread := false
	var teams []string // the team threads, archived with the match
	var lobby []news.Post
	if meta, err := hosted.DecodeMeta(row.Meta); err == nil {
		meta.Finished = l.cfg.Now()
		meta.Ended = ended
		change.Meta = meta.Encode()
		thread = meta.Thread
		for _, t := range meta.TeamThreads {
			if t != "" {
				teams = append(teams, t)
			}
		}
		if row.Status == storage.Lobby {
			// Its Join button would only be refused now.
			lobby = append(lobby, voice.Speaking(meta.Settings.Language()).Lobby().Closed(row.ID, meta, lang.For(meta.Settings.Language()).T("lobby.abandon.lobby-closed")))
		}
	}
	body, err := json.Marshal(news.News{Note: note})
	if err != nil {
		return news.Batch{}, fmt.Errorf("bot: end match %d: %w", row.ID, err)
	}
	change.Posts = []json.RawMessage{body}
	cl := l.cfg.Claim() // this process delivers the note
	change.Claim = &cl
	v, err := l.cfg.Store.Save(ctx, row.ID, row.Version, change, l.cfg.Now())
	if errors.Is(err, storage.ErrConflict) {
		return news.Batch{}, hosted.ErrMovedOn
	}
	if err != nil {
		return news.Batch{}, fmt.Errorf("bot: end match %d: %w", row.ID, err)
	}
	l.cfg.Log.Info("match ended without a winner", "channel", row.Channel, "match", row.ID, "how", ended)
	return news.Batch{Match: row.ID, Version: v, Posts: append([]news.Post{{Message: chat.Message{Text: note}}}, lobby...), Archive: thread, Threads: teams}, nil
}
