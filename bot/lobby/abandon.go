package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
		host := "the host"
		if merr == nil {
			if i := meta.Index(meta.Host); i >= 0 {
				host = meta.Seats[i].Name + " (the host)"
			}
		}
		return hosted.Result{}, chat.Refuse("Only %s or an admin (Manage Server, or Manage Channels here) can end a match without a winner.", host)
	}
	expires := l.cfg.Now().Add(AbandonConfirm)
	what := "this channel's match"
	if merr == nil {
		what = fmt.Sprintf("this channel's match (%s, %s)", row.Status, chat.Plural(len(meta.Seats), "seat", "seats"))
	}
	text := fmt.Sprintf("End %s without a winner? Nobody can play it any more; it is kept for /risk show history and `risk export`. This question expires %s.", what, chat.Timestamp(expires))
	return hosted.Result{Reply: chat.Message{Private: true, Text: text, Buttons: [][]chat.Button{{
		{ID: fmt.Sprintf("%s|%d|%d|abandon|%d", hosted.ButtonPrefix, row.ID, row.Version, expires.Unix()), Label: "End the match", Style: chat.Danger},
		{ID: fmt.Sprintf("%s|%d|0|keep", hosted.ButtonPrefix, row.ID), Label: "Keep it", Style: chat.Secondary},
	}}}}, nil
}

// ClickAbandon answers the buttons of /risk host abandon's confirmation, under
// the channel's lock. The match may be damaged: it is not loaded.
func (l *Lobby) ClickAbandon(ctx context.Context, c chat.Click, bt hosted.Press) (hosted.Result, error) {
	if bt.Action == "keep" {
		return hosted.Result{Reply: chat.Private("The match goes on.")}, nil
	}
	if len(bt.Args) != 1 || l.cfg.Now().Unix() > int64(bt.Args[0]) {
		return hosted.Result{}, chat.Refuse("That confirmation has expired: run /risk host abandon again if you still mean it.")
	}
	row, err := l.cfg.Matches.OpenRow(ctx, c.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	if row.ID != bt.Match {
		return hosted.Result{}, chat.Refuse("That match is over already.")
	}
	meta, merr := hosted.DecodeMeta(row.Meta)
	role := "an admin"
	switch {
	case merr == nil && meta.Host == c.User.ID:
		role = "the host"
	case !c.Admin:
		return hosted.Result{}, chat.Refuse("Only the host or an admin can end a match without a winner.")
	}
	who := command.CleanName(c.User.Name)
	if i := meta.Index(c.User.ID); merr == nil && i >= 0 {
		who = meta.Seats[i].Name
	}
	note := fmt.Sprintf("🛑 %s (%s) ended the match without a winner. It is kept: /risk show history and /risk show status show how it stood. Start another with /risk new.", who, role)
	posts, err := l.End(ctx, row, note, fmt.Sprintf("by %s (%s)", who, role))
	if err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("Done: the match is ended."), Posts: posts}, nil
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
			lobby = append(lobby, voice.LobbyClosed(row.ID, meta, "**This lobby is closed**: the match was ended before it started. Start another with /risk new."))
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
