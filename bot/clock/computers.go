package clock

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// maxBotCommands bounds one bot turn, in case a player never ends it.
const maxBotCommands = 2000

// Later plays the bot seats of a channel in the background. One
// runner per channel: a request while one runs makes it look again before it
// stops.
func (k *Clock) Later(channel string) {
	k.mu.Lock()
	if k.running[channel] {
		k.again[channel] = true
		k.mu.Unlock()
		return
	}
	k.running[channel] = true
	k.mu.Unlock()
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		for {
			more := k.playBots(channel)
			k.mu.Lock()
			if (!k.again[channel] && !more) || k.bg.Err() != nil {
				delete(k.running, channel)
				delete(k.again, channel)
				k.mu.Unlock()
				return
			}
			delete(k.again, channel)
			k.mu.Unlock()
		}
	}()
}

// playBots plays the computer turns of a channel under the channel's
// lease, which one process at a time holds: another process playing them
// already, this one leaves them (should it die, the match's deadline,
// which a computer's turn sets to now, has any process take over when its
// lease ends). It reports whether computers became due to play after it
// let the lease go: a change in another process that found the lease
// taken left them to this one.
func (k *Clock) playBots(channel string) (more bool) {
	name := "bots:" + channel
	ok, err := k.cfg.Store.Lease(k.bg, name, k.cfg.Claim())
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			k.cfg.Log.Error("take the lease on computer turns", "channel", channel, "err", err)
		}
		return false
	}
	if !ok {
		k.cfg.Log.Debug("another process plays the computer turns", "channel", channel)
		k.mu.Lock()
		k.elsewhere[channel] = true
		k.mu.Unlock()
		return false
	}
	err = k.runBots(k.bg, channel, name)
	if uerr := k.cfg.Store.Unlease(context.WithoutCancel(k.bg), name, k.cfg.Instance); uerr != nil {
		k.cfg.Log.Error("let go of the lease on computer turns", "channel", channel, "err", uerr)
	}
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			k.cfg.Log.Error("bot turn failed", "channel", channel, "err", err)
		}
		return false // the match's deadline brings them back
	}
	m, err := k.cfg.Matches.Load(k.bg, channel)
	return err == nil && m.Status == storage.Active && m.BotsToPlay()
}

// lookElsewhere sets the computer turns that other processes were playing
// to be looked at again: if such a process died, its lease has ended by
// now or will soon (Tick calls it).
func (k *Clock) lookElsewhere() {
	k.mu.Lock()
	chs := slices.Collect(maps.Keys(k.elsewhere))
	clear(k.elsewhere)
	k.mu.Unlock()
	for _, ch := range chs {
		k.Later(ch)
	}
}

// errLeaseLost: another process took the lease on a channel's computer
// turns (this one was too slow to renew it).
var errLeaseLost = errors.New("bot: the lease on the computer turns went to another process")

// runBots plays every computer seat that is to act, one turn at a time,
// posting each turn's summary and map, until a person is to play or the
// match ends. A computer thinks without holding the channel's lock (people
// may look at the map meanwhile); its turn is then applied and saved in one
// change, at the version it thought about, so a crash replays it and a
// change in between (a surrender) makes it think again.
func (k *Clock) runBots(ctx context.Context, channel, lease string) error {
	for i := range 10000 {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i > 0 {
			// Each turn renews the lease, which outlasts a turn.
			ok, err := k.cfg.Store.Lease(ctx, lease, k.cfg.Claim())
			if err != nil {
				return err
			}
			if !ok {
				return errLeaseLost
			}
		}
		m, err := k.cfg.Matches.Load(ctx, channel)
		if err != nil {
			var ue *chat.Refusal
			if errors.As(err, &ue) {
				return nil // the match is gone
			}
			return err
		}
		if m.Status != storage.Active || !m.BotsToPlay() {
			return nil
		}
		if err := k.playBotTurn(ctx, m); err != nil {
			return err
		}
	}
	return fmt.Errorf("bot: bots of %s kept playing without end", channel)
}

// playBotTurn has the computer to act in m play its turn (or its initial
// placement), saves it and posts it, holding one of the bot's thinking
// slots throughout. If the match moved on meanwhile, nothing is saved: the
// caller looks again.
func (k *Clock) playBotTurn(ctx context.Context, m *hosted.Match) error {
	select {
	case k.thinking <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-k.thinking }()
	seat := m.BotSeat()
	level := m.Seat(seat).Level
	if m.Seat(seat).Autopilot || level == "" {
		level = "cautious"
	}
	cmds, err := k.decide(ctx, m, seat, level)
	if err != nil {
		return err
	}
	// A whole turn, not a placement at the start nor orders of a round.
	turn := m.Game.State.Phase != state.PhaseSetup && m.Game.State.Phase != state.PhaseOrders
	unlock := k.cfg.Locks.Lock(m.Channel)
	out, err := k.cfg.Play.Apply(ctx, m, seat, "", cmds...)
	unlock()
	if errors.Is(err, storage.ErrConflict) {
		return nil
	}
	if err != nil {
		return err
	}
	// The turn is saved: say so even if the bot is shutting down.
	k.cfg.Outbox.Deliver(ctx, m.Channel, k.cfg.Outbox.Batch(m, out.News))
	if turn && !m.Seat(seat).Autopilot {
		k.sayPlan(ctx, m, seat)
	}
	if out.News == nil && m.Game.State.Phase == state.PhaseOrders {
		// A computer is ready, the round goes on: its message says so.
		if live, ok := k.cfg.Look.Voice(m).Turns().Live(m); ok {
			live.Mode = news.EditOnly
			k.cfg.Outbox.Deliver(ctx, m.Channel, news.Batch{Posts: []news.Post{live}})
		}
	}
	return nil
}

// sayPlan has a computer player on a team say, in its team's thread, one
// line about its plan after its turn (issue 47), in the match's language.
// The line is chatter, not the match: it is posted once, not kept to post
// again should the process stop first.
func (k *Clock) sayPlan(ctx context.Context, m *hosted.Match, seat int) {
	s := m.Game.State
	team := s.Sides().Team(seat)
	if team == 0 || team > len(m.Meta.TeamThreads) || m.Meta.TeamThreads[team-1] == "" || !s.Seats[seat].Alive() || s.Phase == state.PhaseOver {
		return
	}
	line := k.cfg.Look.Voice(m).Lobby().TeamPlan(s.View(seat), seat)
	if err := k.cfg.Outbox.Post(ctx, m.Meta.TeamThreads[team-1], news.Post{Message: chat.Message{Text: line}}); err != nil {
		k.cfg.Log.Warn("say a computer's plan in its team's thread", "thread", m.Meta.TeamThreads[team-1], "err", err)
	}
}

// playFor has a computer player of the level act for seat and saves its
// commands with the note to post first, under the caller's lock.
func (k *Clock) playFor(ctx context.Context, m *hosted.Match, seat int, level, note string) (play.Outcome, error) {
	cmds, err := k.decide(ctx, m, seat, level)
	if err != nil {
		return play.Outcome{}, err
	}
	return k.cfg.Play.Apply(ctx, m, seat, note, cmds...)
}

// decide lets a computer player of the level choose the commands of seat
// until its part is done: its initial placement, or its turn. It plays on a
// copy of the state, which rolls the same dice the match will since the
// generator is part of the state; the match itself is not changed.
func (k *Clock) decide(ctx context.Context, m *hosted.Match, seat int, level string) ([]engine.Command, error) {
	p, err := k.cfg.NewPlayer(level, k.botSeed(m, seat))
	if err != nil {
		return nil, err
	}
	return k.decideWith(ctx, m, seat, level, p)
}

// playOrders has seat's standing orders play its turn, and saves it with
// the note to post first, under the caller's lock.
func (k *Clock) playOrders(ctx context.Context, m *hosted.Match, seat int, o people.Orders, note string) (play.Outcome, error) {
	p, err := k.cfg.NewPlayer(o.Level(), k.botSeed(m, seat))
	if err != nil {
		return play.Outcome{}, err
	}
	cmds, err := k.decideWith(ctx, m, seat, o.Level(), orderedPlayer{Player: p, orders: o})
	if err != nil {
		return play.Outcome{}, err
	}
	return k.cfg.Play.Apply(ctx, m, seat, note, cmds...)
}

// decideWith is decide with the player given.
func (k *Clock) decideWith(ctx context.Context, m *hosted.Match, seat int, level string, p Player) ([]engine.Command, error) {
	var err error
	start := time.Now() // the machine's clock, not Config.Now: a duration
	defer func() { k.cfg.Meter.Think(level, time.Since(start)) }()
	sim := m.Game.State.Clone()
	wasSetup, turn := sim.Phase == state.PhaseSetup, sim.Turn
	done := func() bool { return partDone(sim, seat, wasSetup, turn) }
	var cmds []engine.Command
	for !done() {
		var c engine.Command
		if len(cmds) < maxBotCommands {
			c, err = p.Act(ctx, sim.View(seat), seat)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		if err != nil || c == nil {
			c = ai.Fallback(sim, seat)
		}
		if _, err := engine.Apply(sim, seat, c); err != nil {
			// The player broke a rule: play the safe default instead.
			k.cfg.Log.Warn("computer player broke a rule", "level", level, "command", fmt.Sprintf("%#v", c), "err", err)
			c = ai.Fallback(sim, seat)
			if _, err := engine.Apply(sim, seat, c); err != nil {
				return nil, fmt.Errorf("bot: safe default %#v refused: %w", c, err)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// partDone reports whether seat's part, begun in turn (or in the setup),
// is over in s: the match waits for somebody else, or a new turn or the
// first turn began.
func partDone(s *state.State, seat int, wasSetup bool, turn int) bool {
	return s.Phase == state.PhaseOver || (wasSetup && s.Phase != state.PhaseSetup) || s.Turn != turn ||
		!slices.Contains(hosted.ToAct(s), seat)
}

// botSeed derives a computer player's seed from the match, so that its play
// is reproducible from the stored match.
func (k *Clock) botSeed(m *hosted.Match, seat int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%d/%d", m.Game.Setup.Seed, m.Version, m.Game.State.Turn, seat)
	return h.Sum64()
}
