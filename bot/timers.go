package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/play"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// RunTimers resumes the computer players due to play (Resume), then
// checks the turn clocks every interval until ctx ends. Timers live in
// storage, so deadlines that passed while the bot was down fire on the
// first check.
func (b *Bot) RunTimers(ctx context.Context, every time.Duration) {
	if err := b.Resume(ctx); err != nil && !errors.Is(err, context.Canceled) {
		b.cfg.Log.Error("resume computer players", "err", err)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := b.Tick(ctx); err != nil && !errors.Is(err, context.Canceled) {
			b.cfg.Log.Error("timers", "err", err)
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
func (b *Bot) Tick(ctx context.Context) error {
	var errs []error
	if err := b.outbox.Redeliver(ctx); err != nil {
		errs = append(errs, fmt.Errorf("outbox: %w", err))
	}
	if _, err := b.cfg.Store.ForgetRequests(ctx, b.cfg.Now().Add(-keepRequests)); err != nil {
		errs = append(errs, err)
	}
	if err := b.expireLobbies(ctx); err != nil {
		errs = append(errs, fmt.Errorf("lobbies: %w", err))
	}
	b.lookElsewhere()
	// The due timers are claimed a batch at a time, so that processes
	// sharing the database share them out, and a claim's lease covers the
	// work on its batch.
	// Timers whose handling failed stay claimed until the loop is over,
	// then are released for the next tick: not tried again at once.
	var failed []int64
	defer func() {
		for _, id := range failed {
			if err := b.cfg.Store.ReleaseDue(context.WithoutCancel(ctx), id, b.cfg.Instance); err != nil {
				b.cfg.Log.Error("release a timer", "match", id, "err", err)
			}
		}
	}()
	for range maxDueBatches {
		due, err := b.cfg.Store.ClaimDue(ctx, b.cfg.Scope, b.claim(), dueBatch)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		f, e := b.dueTimers(ctx, due)
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
func (b *Bot) dueTimers(ctx context.Context, due []storage.Timer) (failed []int64, errs []error) {
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
		if !b.serves(t.Channel) {
			continue
		}
		b.cfg.Meter.TimerLag(t.Kind.String(), b.cfg.Now().Sub(t.At))
		err := b.timer(ctx, t)
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
func (b *Bot) Resume(ctx context.Context) error {
	open, err := b.cfg.Store.OpenMatches(ctx, b.cfg.Scope)
	if err != nil {
		return fmt.Errorf("bot: resume: %w", err)
	}
	var errs []error
	for _, o := range open {
		if o.Status != storage.Active || !b.serves(o.Channel) {
			continue
		}
		m, err := b.matches.ByID(ctx, o.ID)
		if err != nil {
			var ue *chat.Refusal
			if !errors.As(err, &ue) {
				errs = append(errs, fmt.Errorf("match %d: %w", o.ID, err))
			}
			continue
		}
		if m.Status == storage.Active && m.BotsToPlay() {
			b.cfg.Log.Info("resuming computer players", "channel", m.Channel, "match", m.ID)
			b.runBotsLater(m.Channel)
		}
	}
	return errors.Join(errs...)
}

func (b *Bot) timer(ctx context.Context, t storage.Timer) error {
	unlock := b.locks.Lock(t.Channel)
	m, err := b.matches.ByID(ctx, t.Match)
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
		p, err = b.remind(ctx, m)
		posts = []news.Batch{p}
	case storage.Deadline:
		if m.BotsToPlay() && (m.Game.State.Phase != state.PhaseSetup || !m.HumansToPlace()) {
			bots = true
			break
		}
		posts, bots, err = b.expire(ctx, m)
	}
	unlock()
	if err != nil {
		return err
	}
	for _, p := range posts {
		b.outbox.Deliver(ctx, t.Channel, p)
	}
	if bots {
		b.runBotsLater(t.Channel)
	}
	return nil
}

// remind pings whoever the match waits for.
func (b *Bot) remind(ctx context.Context, m *hosted.Match) (news.Batch, error) {
	timers := m.Timers
	timers.Remind = time.Time{}
	var n *news.News
	if len(m.WaitingFor()) > 0 {
		n = &news.News{Remind: true}
	}
	if err := b.matches.SaveNews(ctx, m, storage.Change{Timers: &timers}, n); err != nil {
		return news.Batch{}, err
	}
	return b.outbox.Batch(m, n), nil
}

// expire plays the turns (or placements) of people out of time.
func (b *Bot) expire(ctx context.Context, m *hosted.Match) ([]news.Batch, bool, error) {
	s := m.Game.State
	var seats []int
	for _, i := range hosted.ToAct(s) {
		if s.Phase != state.PhaseSetup || !m.IsBotSeat(i) {
			seats = append(seats, i)
		}
	}
	var posts []news.Batch
	for _, seat := range seats {
		sm := m.Seat(seat)
		p, err := b.people.Of(ctx, sm.ID)
		if err != nil {
			b.cfg.Log.Error("read standing orders", "user", sm.ID, "err", err)
		}
		if p.AwayAt(b.cfg.Now()) && !sm.Autopilot && s.Phase != state.PhaseSetup {
			// Away: no missed turn; the orders play it.
			note := fmt.Sprintf("🏖️ %s is away until %s: their standing orders play the turn (%s).", b.look.Voice(m).Who(s, seat), chat.Timestamp(time.Unix(p.Away, 0)), p.Orders.Text())
			out, err := b.playOrders(ctx, m, seat, p.Orders, note)
			if err != nil {
				return nil, false, err
			}
			posts = append(posts, b.outbox.Batch(m, out.News))
			continue
		}
		sm.Missed++
		note := fmt.Sprintf("⌛ %s ran out of time", b.look.Voice(m).Who(m.Game.State, seat))
		if sm.Missed >= hosted.MaxMissed {
			sm.Autopilot = true
			note += fmt.Sprintf(" for the %d%s time in a row: a bot plays the seat until the host gives it back (/risk join player:%s)", sm.Missed, ordinal(sm.Missed), sm.Name)
		}
		var out play.Outcome
		switch {
		case m.Meta.Settings.OnTimeout == "skip" && !sm.Autopilot:
			out, err = b.play.Apply(ctx, m, seat, note+"; the turn is skipped.", skipCommands(m.Game.State, seat)...)
		case p.Orders.Given() && !sm.Autopilot:
			out, err = b.playOrders(ctx, m, seat, p.Orders, note+"; their standing orders play it ("+p.Orders.Text()+").")
		default:
			out, err = b.playFor(ctx, m, seat, "cautious", note+"; a careful bot plays for them.")
		}
		if err != nil {
			return nil, false, err
		}
		posts = append(posts, b.outbox.Batch(m, out.News))
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

func ordinal(n int) string {
	switch n {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}
