package lobby

import (
	"context"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/storage"
)

// Settings answers /risk host settings: the host's options, shown or changed
// (only the palette once the match has started).
func (l *Lobby) Settings(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := hostOnly(m, c.Req.User, lang.M("lobby.what.settings")); err != nil {
		return hosted.Result{}, err
	}
	if len(c.Req.Options) == 0 {
		return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.settings", "Settings", lang.Text(voice.Speaking(m.ReaderLang()).Status().Settings(m.Meta.Settings)), "Then", lang.Msg{}))}, nil
	}
	if m.Status != storage.Lobby {
		// The colours and the language only change what is drawn and
		// said: they may change any time.
		for name := range c.Req.Options {
			if name != "palette" && name != "language" {
				return hosted.Result{}, chat.RefuseMsg("lobby.settings.started")
			}
		}
	}
	args, err := l.resolveMap(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	set, err := m.Meta.Settings.Apply(args, l.cfg.Look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	var reset lang.Msg
	if set.Options.Teams != m.Meta.Settings.Options.Teams {
		// Picks made for another team size mean nothing now.
		for i := range m.Meta.Seats {
			if m.Meta.Seats[i].Team != 0 {
				m.Meta.Seats[i].Team = 0
				reset = lang.M("lobby.settings.teams-cleared")
			}
		}
	}
	m.Meta.Settings = set
	said := lang.M("lobby.settings", "Settings", lang.Text(voice.Speaking(m.ReaderLang()).Status().Settings(set)), "Then", reset)
	text := m.Says(to(m).Msg(said))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	if m.Status != storage.Lobby {
		// The colours or the language of a match under way: everyone
		// sees them change, in the match's (new) language.
		pub := public(m)
		note := pub.T("lobby.settings", "Settings", lang.Text(voice.Speaking(pub.Tag()).Status().Settings(set)), "Then", reset)
		return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.settings.done", "Text", said)), Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: note}}}}}, nil
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.settings.changed", "Host", hostName(m.Meta)))}, nil
}
