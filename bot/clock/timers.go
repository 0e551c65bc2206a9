package clock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// RunTimers resumes the computer players due to play (Resume), then
// checks the turn clocks every interval until ctx ends. Timers live in
// storage, so deadlines that passed while the bot was down fire on the
// first check.
func (k *Clock) RunTimers(ctx context.Context, every time.Duration) {
	if err := k.Resume(ctx); err != nil && !errors.Is(err, context.Canceled) {
		k.cfg.Log.Error("resume computer players", "err", err)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := k.Tick(ctx); err != nil && !errors.Is(err, context.Canceled) {
			k.cfg.Log.Error("timers", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick posts the news nobody delivered (Redeliver), closes the lobbies
// idle for Config.LobbyTTL, then handles the reminders and deadlines that
// are due: a reminder pings the player; a
// deadline has a careful bot play the turn (or skips it), and after three
// missed turns in a row a bot takes the seat over. Due bot turns (after a
// restart) are played too.
func (k *Clock) Tick(ctx context.Context) error {
	var errs []error
	if err := k.cfg.Outbox.Redeliver(ctx); err != nil {
		errs = append(errs, fmt.Errorf("outbox: %w", err))
	}
	if _, err := k.cfg.Store.ForgetRequests(ctx, k.cfg.Now().Add(-keepRequests)); err != nil {
		errs = append(errs, err)
	}
	if err := k.expireLobbies(ctx); err != nil {
		errs = append(errs, fmt.Errorf("lobbies: %w", err))
	}
	k.lookElsewhere()
	// The due timers are claimed a batch at a time, so that processes
	// sharing the database share them out, and a claim's lease covers the
	// work on its batch.
	// Timers whose handling failed stay claimed until the loop is over,
	// then are released for the next tick: not tried again at once.
	var failed []int64
	defer func() {
		for _, id := range failed {
			if err := k.cfg.Store.ReleaseDue(context.WithoutCancel(ctx), id, k.cfg.Instance); err != nil {
				k.cfg.Log.Error("release a timer", "match", id, "err", err)
			}
		}
	}()
	for range maxDueBatches {
		due, err := k.cfg.Store.ClaimDue(ctx, k.cfg.Scope, k.cfg.Claim(), dueBatch)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		f, e := k.dueTimers(ctx, due)
		failed, errs = append(failed, f...), append(errs, e...)
		if len(due) == 0 || ctx.Err() != nil {
			break
		}
	}
	return errors.Join(errs...)
}

// dueBatch bounds the matches whose timers one claim takes, and
// maxDueBatches the claims of one tick.
const (
	dueBatch      = 20
	maxDueBatches = 500
)

// dueTimers handles timers claimed by this process, and returns the
// matches whose timers failed.
func (k *Clock) dueTimers(ctx context.Context, due []storage.Timer) (failed []int64, errs []error) {
	// A deadline makes the reminder of the same turn moot.
	deadline := map[int64]bool{}
	for _, t := range due {
		if t.Kind == storage.Deadline {
			deadline[t.Match] = true
		}
	}
	for _, t := range due {
		if (t.Kind == storage.Remind && deadline[t.Match]) || slices.Contains(failed, t.Match) {
			continue
		}
		if !k.cfg.Serves(t.Channel) {
			continue
		}
		k.cfg.Meter.TimerLag(t.Kind.String(), k.cfg.Now().Sub(t.At))
		err := k.timer(ctx, t)
		if errors.Is(err, storage.ErrConflict) {
			continue // the match moved on meanwhile, in another process
		}
		if err != nil {
			failed = append(failed, t.Match)
			errs = append(errs, fmt.Errorf("match %d: %w", t.Match, err))
		}
	}
	return failed, errs
}

// keepRequests is how long the requests that changed a match are kept
// (to apply a repeat once, to tell a lost answer, to say in the console
// what was done last): repeats come within minutes.
const keepRequests = 7 * 24 * time.Hour

// Resume sets the computer players of every match in the bot's scope that
// is waiting for one of them playing, in the background (Wait waits for
// them). A process calls it when it starts: one that stopped (or was
// killed) while computers played, or between the last person's initial
// placement and the computers', left them waiting, and a deadline may be a
// day away or, in the console, never checked.
func (k *Clock) Resume(ctx context.Context) error {
	open, err := k.cfg.Store.OpenChannels(ctx, k.cfg.Scope)
	if err != nil {
		return fmt.Errorf("bot: resume: %w", err)
	}
	var errs []error
	for _, o := range open {
		if o.Status != storage.Active || !k.cfg.Serves(o.Channel) {
			continue
		}
		m, err := k.cfg.Matches.ByID(ctx, o.ID)
		if err != nil {
			var ue *chat.Refusal
			if !errors.As(err, &ue) {
				errs = append(errs, fmt.Errorf("match %d: %w", o.ID, err))
			}
			continue
		}
		if m.Status == storage.Active && m.BotsToPlay() {
			k.cfg.Log.Info("resuming computer players", "channel", m.Channel, "match", m.ID)
			k.Later(m.Channel)
		}
	}
	return errors.Join(errs...)
}

func (k *Clock) timer(ctx context.Context, t storage.Timer) error {
	unlock := k.cfg.Locks.Lock(t.Channel)
	m, err := k.cfg.Matches.ByID(ctx, t.Match)
	if err != nil {
		unlock()
		var ue *chat.Refusal
		if errors.As(err, &ue) {
			return nil
		}
		return err
	}
	if m.Status != storage.Active || m.Version != t.Version {
		unlock()
		return nil // the match moved on since the timer was read
	}
	var posts []news.Batch
	bots := false
	switch t.Kind {
	case storage.Remind:
		var p news.Batch
		p, err = k.remind(ctx, m)
		posts = []news.Batch{p}
	case storage.Deadline:
		if m.BotsToPlay() && (m.Game.State.Phase != state.PhaseSetup || !m.HumansToPlace()) {
			bots = true
			break
		}
		posts, bots, err = k.expire(ctx, m)
	}
	unlock()
	if err != nil {
		return err
	}
	for _, p := range posts {
		k.cfg.Outbox.Deliver(ctx, t.Channel, p)
	}
	if bots {
		k.Later(t.Channel)
	}
	return nil
}

// remind pings whoever the match waits for.
func (k *Clock) remind(ctx context.Context, m *hosted.Match) (news.Batch, error) {
	timers := m.Timers
	timers.Remind = time.Time{}
	var n *news.News
	if len(m.WaitingFor()) > 0 {
		n = &news.News{Remind: true}
	}
	if err := k.cfg.Matches.SaveNews(ctx, m, storage.Change{Timers: &timers}, n); err != nil {
		return news.Batch{}, err
	}
	return k.cfg.Outbox.Batch(m, n), nil
}

// expire plays the turns (or placements) of people out of time.
func (k *Clock) expire(ctx context.Context, m *hosted.Match) ([]news.Batch, bool, error) {
	s := m.Game.State
	var seats []int
	for _, i := range hosted.ToAct(s) {
		if s.Phase != state.PhaseSetup || !m.IsBotSeat(i) {
			seats = append(seats, i)
		}
	}
	var posts []news.Batch
	// The notes are the channel's: in the match's language.
	lp := lang.For(m.Meta.Settings.Language())
	for _, seat := range seats {
		sm := m.Seat(seat)
		p, err := k.cfg.People.Of(ctx, sm.ID)
		if err != nil {
			k.cfg.Log.Error("read standing orders", "user", sm.ID, "err", err)
		}
		if p.AwayAt(k.cfg.Now()) && !sm.Autopilot && s.Phase != state.PhaseSetup {
			// Away: no missed turn; the orders play it.
			note := lp.T("clock.away", "Player", lang.Text(k.cfg.Look.Voice(m).Who(s, seat)), "Until", lang.Text(chat.Timestamp(time.Unix(p.Away, 0))), "Orders", lang.Text(p.Orders.Text()))
			out, err := k.playOrders(ctx, m, seat, p.Orders, note)
			if err != nil {
				return nil, false, err
			}
			posts = append(posts, k.cfg.Outbox.Batch(m, out.News))
			continue
		}
		sm.Missed++
		who := lang.Text(k.cfg.Look.Voice(m).Who(m.Game.State, seat))
		timeout := lang.M("clock.timeout", "Player", who)
		if sm.Missed >= hosted.MaxMissed {
			sm.Autopilot = true
			timeout = lang.M("clock.timeout.autopilot", "Player", who, "Nth", ordinal(sm.Missed), "Name", lang.Text(sm.Name))
		}
		var out play.Outcome
		switch {
		case m.Meta.Settings.OnTimeout == "skip" && !sm.Autopilot:
			out, err = k.cfg.Play.Apply(ctx, m, seat, lp.T("clock.timeout.skipped", "Timeout", timeout), skipCommands(m.Game.State, seat)...)
		case p.Orders.Given() && !sm.Autopilot:
			out, err = k.playOrders(ctx, m, seat, p.Orders, lp.T("clock.timeout.orders", "Timeout", timeout, "Orders", lang.Text(p.Orders.Text())))
		default:
			out, err = k.playFor(ctx, m, seat, "cautious", lp.T("clock.timeout.careful-bot", "Timeout", timeout))
		}
		if err != nil {
			return nil, false, err
		}
		posts = append(posts, k.cfg.Outbox.Batch(m, out.News))
	}
	// The bots may still have to play (or, in the setup, to place).
	return posts, m.BotsToPlay(), nil
}

// skipCommands pass a turn with as little as the rules require (the safe
// default of package ai: the forced trade, automatic placement, the fewest
// armies into a conquest, then the end).
func skipCommands(s *state.State, seat int) []engine.Command {
	sim := s.Clone()
	var cmds []engine.Command
	for range 50 {
		if partDone(sim, seat, s.Phase == state.PhaseSetup, s.Turn) {
			break
		}
		c := ai.Fallback(sim, seat)
		if _, err := engine.Apply(sim, seat, c); err != nil {
			break
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// ordinal is n as an ordinal number ("3rd").
func ordinal(n int) lang.Msg {
	switch n {
	case 1:
		return lang.M("clock.nth.1", "N", n)
	case 2:
		return lang.M("clock.nth.2", "N", n)
	case 3:
		return lang.M("clock.nth.3", "N", n)
	}
	return lang.M("clock.nth", "N", n)
}

// expireLobbies closes the lobbies of the bot's scope unchanged for
// LobbyTTL, saying so in their channels.
func (k *Clock) expireLobbies(ctx context.Context) error {
	// A server may keep its lobbies a day at the least: look at those idle
	// that long, and hold each to its server's rule.
	least := 24 * time.Hour
	if k.cfg.LobbyTTL > 0 {
		least = min(least, k.cfg.LobbyTTL)
	}
	idle, err := k.cfg.Store.IdleLobbies(ctx, k.cfg.Scope, k.cfg.Now().Add(-least))
	if err != nil {
		return err
	}
	var errs []error
	rules := map[string]server.Rules{}
	for _, row := range idle {
		if !k.cfg.Serves(row.Channel) {
			continue
		}
		meta, _ := hosted.DecodeMeta(row.Meta)
		r, ok := rules[meta.Server]
		if !ok {
			if r, err = k.cfg.Servers.Rules(ctx, meta.Server); err != nil {
				errs = append(errs, err)
				continue
			}
			rules[meta.Server] = r
		}
		ttl := k.cfg.Servers.LobbyTTL(r)
		if ttl < 0 || row.Updated.After(k.cfg.Now().Add(-ttl)) {
			continue
		}
		unlock := k.cfg.Locks.Lock(row.Channel)
		note := lang.For(meta.Settings.Language()).T("clock.lobby-expired", "Idle", lang.Text(server.DurationText(ttl)))
		posts, err := k.cfg.Lobby.End(ctx, row, note, "the lobby expired")
		unlock()
		if err != nil {
			if !errors.Is(err, hosted.ErrMovedOn) {
				errs = append(errs, fmt.Errorf("match %d: %w", row.ID, err))
			}
			continue
		}
		k.cfg.Outbox.Deliver(ctx, row.Channel, posts)
	}
	return errors.Join(errs...)
}
