package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// The host (or an admin) may take a match back to the start of an earlier
// turn: /risk host rollback turn:N asks them to confirm, saying what would
// be lost, with a button that expires and holds only while the match
// stands where it was asked; the rollback is then a command of the log
// (engine.Rollback), its record told to the channel with a note that
// pings every person playing, and the turn gone back to posted afresh.

// RollbackConfirm is how long the question of /risk host rollback is good
// for.
const RollbackConfirm = 5 * time.Minute

// Rollback answers /risk host rollback turn:N: the question whether to
// take the match back to the start of turn N, for its host or an admin.
func (p *Play) Rollback(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := p.cfg.Matches.Latest(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Rec = c.Rec
	m.Reader = hosted.ReaderOf(c.Req.Locale)
	if err := mayRollBack(m, c.Req.User, c.Req.Admin); err != nil {
		return hosted.Result{}, err
	}
	turn := c.Args.Num["turn"]
	g, err := p.replayed(ctx, m)
	if err != nil {
		return hosted.Result{}, err
	}
	restored, undone, err := g.RollbackPreview(turn)
	if err != nil {
		return hosted.Result{}, rollbackRefusal(err)
	}
	expires := p.cfg.Now().Add(RollbackConfirm)
	text := p.cfg.Look.To(m).Asks().RollbackQuestion(m, restored, turn, undone, expires)
	lp := reader(m)
	back := lang.M("play.rollback.go-back.turn", "Turn", turn)
	if voice.IsSimultaneous(m.Game.State) {
		back = lang.M("play.rollback.go-back.round", "Turn", turn)
	}
	return hosted.Result{Reply: chat.Message{Private: true, Text: text, Buttons: [][]chat.Button{{
		{ID: m.ButtonID(button.Rollback, turn, int(expires.Unix())), Label: lp.Msg(back), Style: chat.Danger},
		// The answer of /risk host abandon's "Keep it": the match goes on.
		{ID: button.ID(m.ID, 0, button.Keep), Label: lp.T("play.button.play-on"), Style: chat.Secondary},
	}}}}, nil
}

// clickRollback answers the button of /risk host rollback's question on
// match m, under its channel's lock: the rollback, if the question has
// not expired and the match still stands where it was asked.
func (p *Play) clickRollback(ctx context.Context, c chat.Click, bt button.Press, m *hosted.Match) (hosted.Result, error) {
	if len(bt.Args) != 2 || p.cfg.Now().Unix() > int64(bt.Args[1]) {
		return hosted.Result{}, chat.RefuseMsg("play.rollback.expired")
	}
	turn := bt.Args[0]
	if bt.Version != m.Version {
		return hosted.Result{}, chat.RefuseMsg("play.rollback.moved-on", "Turn", turn)
	}
	if err := mayRollBack(m, c.User, c.Admin); err != nil {
		return hosted.Result{}, err
	}
	g, err := p.replayed(ctx, m)
	if err != nil {
		return hosted.Result{}, err
	}
	before := g.State
	restored, undone, err := g.RollbackPreview(turn)
	if err != nil {
		return hosted.Result{}, rollbackRefusal(err)
	}
	who, role := command.CleanName(c.User.Name), lang.M("play.rollback.an-admin")
	if i := m.Meta.Index(c.User.ID); i >= 0 {
		who = m.Meta.Seats[i].Name
	}
	if m.Meta.Host == c.User.ID {
		role = lang.M("play.rollback.the-host")
	}
	// The note is the channel's: its role is in the match's language.
	note := p.cfg.Look.Voice(m).Asks().RollbackNote(before, restored, who, lang.For(m.Meta.Settings.Language()).Msg(role), turn, undone)
	// What each player held when their last turn ended is from turns
	// taken back: their next digest starts from the turn gone back to.
	for i := range restored.Seats {
		if j := m.Meta.Index(restored.Seats[i].ID); j >= 0 && m.Meta.Seats[j].Held != nil {
			m.Meta.Seats[j].Held = hosted.HeldBy(restored, i)
		}
	}
	m.Game = g
	out, err := p.Apply(ctx, m, engine.Host, note, engine.Rollback{Turn: turn})
	if err != nil {
		return hosted.Result{}, err
	}
	p.cfg.Log.Info("match rolled back", "channel", m.Channel, "match", m.ID, "turn", turn, "undone", undone, "by", c.User.ID, "role", role.String())
	done := lang.M("play.rollback.done.turn", "Turn", turn)
	if voice.IsSimultaneous(m.Game.State) {
		done = lang.M("play.rollback.done.round", "Turn", turn)
	}
	return hosted.Result{Reply: chat.Private("%s", reader(m).Msg(done)),
		Posts: p.cfg.Outbox.Batch(m, out.News), Bots: m.BotsToPlay()}, nil
}

// mayRollBack refuses user a rollback of match m unless it is under way
// and they are its host or an admin.
func mayRollBack(m *hosted.Match, user chat.User, admin bool) error {
	if _, err := m.Started(); err != nil {
		return err
	}
	if !admin && m.Meta.Host != user.ID {
		host := lang.M("play.rollback.the-host")
		if i := m.Meta.Index(m.Meta.Host); i >= 0 {
			host = lang.M("play.rollback.host-named", "Player", lang.Text(m.Meta.Seats[i].Name))
		}
		return chat.RefuseMsg("play.rollback.not-allowed", "Host", host)
	}
	switch m.Status {
	case storage.Active:
		return nil
	case storage.Finished:
		return chat.RefuseMsg("play.rollback.finished")
	}
	return chat.RefuseMsg("play.rollback.ended")
}

// replayed is match m's game replayed from its whole log: a game loaded
// from a snapshot does not know the start of the turns before it, which
// a rollback goes back to.
func (p *Play) replayed(ctx context.Context, m *hosted.Match) (*engine.Game, error) {
	x, err := p.cfg.Store.Export(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	g, err := engine.Replay(x.Record.Setup, x.Record.Log)
	if err != nil {
		return nil, fmt.Errorf("bot: replay match %d to roll it back: %w", m.ID, err)
	}
	if g.Version != m.Game.Version {
		return nil, hosted.ErrMovedOn
	}
	return g, nil
}

// rollbackRefusal words the engine's refusal of a rollback.
func rollbackRefusal(err error) error {
	if _, ok := engine.IsRule(err); ok {
		return ruleRefusal(err)
	}
	if errors.Is(err, engine.ErrNoHistory) {
		// A game replayed from its whole log knows every turn's start.
		return fmt.Errorf("bot: roll back: %w", err)
	}
	return err
}
