// Package ai provides the computer players of riskbot; package
// ai/tournament plays them against each other and measures them.
//
// Every player implements Player: it is handed the view of the match that
// its seat may see (state.State.View: no other hands, no deck order, no
// generator) and returns one engine.Command, exactly as a person would type
// it. A player keeps no state that matters between calls, so the host may
// restart at any time; players may cache, but never for correctness.
//
// The levels, weakest first:
//
//   - random: a uniformly random legal move (seed 004's RandomAI).
//   - easy: seed 000's minimal AI: attack whatever lies next to it whenever
//     the rules allow, reinforce a border, never fortify.
//   - normal: heuristics (exact conquest odds, continents, threats, cards)
//     and, once a turn, a short look ahead to choose the turn's plan.
//   - hard: a Monte-Carlo tree search over turn plans, then each decision of
//     the turn refined by rollouts, on determinized copies of the match,
//     with normal's heuristics as rollout policy and an evaluation learned
//     from self-play, under a time and iteration budget.
//   - exec:COMMAND: an outside program speaking the JSON-lines protocol of
//     docs/bot-protocol.md.
//
// Every level plays both rule sets; the capitals players are in the
// capitals*.go files (docs/ai.md, "Capitals").
//
// All the randomness a player uses comes from its own generator, seeded
// from Options.Seed, so a tournament is reproducible.
package ai

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Player decides one command at a time for a seat, from that seat's view.
//
// Act returns a command that is legal in view for seat; when its own logic
// fails (an outside bot timed out, crashed or answered nonsense) it returns
// the safe default instead (see Fallback). It returns an error only when the seat has
// nothing to decide: the match is over, the seat is out, or it is another
// seat's turn.
type Player interface {
	Act(ctx context.Context, view *state.State, seat int) (engine.Command, error)
}

// Options configure a player. The zero value is valid.
type Options struct {
	// Seed seeds the player's own generator (random choices, sampling of
	// hidden cards and dice in search). Same seed, same decisions.
	Seed uint64
	// Style runs from -1 (defensive: hold borders, attack only at good
	// odds) to +1 (aggressive: attack at lower odds, reinforce the front);
	// 0 is balanced. It is seed 003's offence/defence bias. Used by normal
	// and hard.
	Style float64
	// Budget is the most hard may think per turn (DefaultBudget if 0): a
	// ceiling on its own numbers of iterations, or on Iterations.
	Budget time.Duration
	// Iterations, if positive, caps hard's search iterations per turn, and
	// sets the samples of each decision's refinement to a tenth of it
	// (four tenths where refineMost allows 256). With an iteration cap and
	// a generous Budget, hard is deterministic. If 0, hard runs its own
	// numbers (planIterations and refineMost in classic, capIterations in
	// capitals).
	Iterations int
	// Timeout is the time an exec: bot has for each decision
	// (DefaultTimeout if 0).
	Timeout time.Duration
	// Startup is the time added to Timeout for the first decision of each
	// run of an exec: bot's program, which pays for the program's start
	// (DefaultStartup if 0).
	Startup time.Duration
	// Dir is the working directory of an exec: bot (the current one if
	// empty).
	Dir string
}

// DefaultBudget is the most hard thinks per turn: a ceiling, which a quiet
// machine does not reach.
const DefaultBudget = 2 * time.Second

// DefaultTimeout is the time an outside bot has for one decision.
const DefaultTimeout = 5 * time.Second

// DefaultStartup is the start-up allowance of an outside bot: its first
// decision after being started has DefaultTimeout plus this much.
const DefaultStartup = 10 * time.Second

// DefaultLevel is the level /risk addbot uses when none is given.
const DefaultLevel = "normal"

// ReferenceLevel is the rule-based yardstick normal is measured against
// (reference.go). New knows it, Levels does not list it: it is for
// tournaments, not a level offered to players.
const ReferenceLevel = "reference"

// ExecPrefix starts the level of an outside bot: "exec:./mybot --fast".
const ExecPrefix = "exec:"

// Levels lists the built-in levels, weakest first, for the choices of
// /risk addbot level:. DefaultLevel is among them. Outside bots
// (ExecPrefix) are not listed: hosts enable them on purpose.
func Levels() []string { return []string{"random", "easy", "normal", "hard"} }

// ErrUnknownLevel is returned by New for a level it does not know.
var ErrUnknownLevel = errors.New("ai: unknown level")

// New returns a player of the given level.
func New(level string, opts Options) (Player, error) {
	if !(opts.Style >= -1 && opts.Style <= 1) { // NaN too
		return nil, fmt.Errorf("ai: style %v out of range [-1, 1]", opts.Style)
	}
	switch level {
	case "random":
		return &guarded{p: newRandom(opts)}, nil
	case "easy":
		return &guarded{p: newEasy(opts)}, nil
	case "normal":
		return &guarded{p: newNormal(opts)}, nil
	case "hard":
		return &guarded{p: newHard(opts)}, nil
	case ReferenceLevel:
		return &guarded{p: reference{}}, nil
	}
	if cmd, ok := strings.CutPrefix(level, ExecPrefix); ok {
		x, err := newExec(cmd, opts)
		if err != nil {
			return nil, err
		}
		return &guarded{p: x}, nil
	}
	return nil, fmt.Errorf("%w %q (want %s, or %sCOMMAND)", ErrUnknownLevel, level, strings.Join(Levels(), ", "), ExecPrefix)
}

// Cautious returns the player that plays a person's turn when their time
// runs out: normal with a defensive style. It never attacks at poor odds and
// keeps the seat's borders manned.
func Cautious(seed uint64) Player {
	// Normal's own style-driven heuristics, without the look ahead: the
	// defensive style governs every placement.
	n := newNormal(Options{Seed: seed, Style: -0.7})
	n.p.ref, n.l.samples = false, 0
	return &guarded{p: n}
}

// Close stops what a player runs outside the process (an exec: bot's
// program). Players that own nothing need no closing; Close is safe on any
// Player and may be called more than once.
func Close(p Player) error {
	if c, ok := p.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Faults returns how many of p's decisions were replaced by the safe
// default (Fallback) because its level failed to give a legal command: an
// outside bot that timed out, crashed or answered nonsense. It is 0 for a
// player of another package.
func Faults(p Player) int {
	if f, ok := p.(interface{ Faults() int }); ok {
		return f.Faults()
	}
	return 0
}

// ErrNothingToDo is returned by Act when the seat has no decision to make.
var ErrNothingToDo = errors.New("ai: nothing to decide")

// needsDecision reports why seat has nothing to decide in s, or nil.
func needsDecision(s *state.State, seat int) error {
	switch {
	case s == nil || s.Map == nil:
		return fmt.Errorf("%w: no match state", ErrNothingToDo)
	case seat < 0 || seat >= len(s.Seats):
		return fmt.Errorf("%w: seat %d is not in the match", ErrNothingToDo, seat)
	case s.Phase == state.PhaseOver:
		return fmt.Errorf("%w: the match is over", ErrNothingToDo)
	case !s.Seats[seat].Alive():
		return fmt.Errorf("%w: seat %d is out", ErrNothingToDo, seat)
	case s.Options.Rules != state.Classic && s.Options.Rules != state.Capitals:
		return fmt.Errorf("%w: the %s rules have no computer players", ErrNothingToDo, s.Options.Rules)
	case s.Phase == state.PhaseSetup && s.Options.Rules == state.Classic:
		// The classic setup is simultaneous: every seat with armies left
		// places; the capitals setup is in turn order (the case below).
		if s.Seats[seat].Reserve == 0 {
			return fmt.Errorf("%w: seat %d has placed all its armies", ErrNothingToDo, seat)
		}
	case s.Phase == state.PhaseOrders:
		// A simultaneous round: every seat orders until it commits.
		if s.Seats[seat].Ready {
			return fmt.Errorf("%w: seat %d has committed its orders", ErrNothingToDo, seat)
		}
	case s.Current != seat:
		return fmt.Errorf("%w: it is seat %d's turn, not seat %d's", ErrNothingToDo, s.Current, seat)
	}
	return nil
}

// decider is what each level implements; guarded wraps it with the checks
// every level shares.
type decider interface {
	decide(ctx context.Context, s *state.State, seat int) engine.Command
}

// capitalsDecider is what a level implements to play the capitals rule
// set its own way (capitals*.go); a level without it (random, exec:) plays
// both rule sets with decide. In fog, s is the board guessed from the
// seat's view (GuessFog) and fog what the fog may hide around each
// territory (fogMargins): the level plans an attack only when it is legal
// whatever the fog hides, the engine being the judge of the true board.
type capitalsDecider interface {
	decideCapitals(ctx context.Context, s *state.State, seat int, fog unseen) engine.Command
}

// fogDecider is what a level implements to weigh the fog itself in a
// classic match: view is the seat's view with fog, guess the board
// GuessFog makes of it, on which the level's commands are checked.
type fogDecider interface {
	decideFog(ctx context.Context, view, guess *state.State, seat int) engine.Command
}

// capitalsFogDecider is fogDecider's capitals counterpart, fog the
// margins of guess (fogMargins).
type capitalsFogDecider interface {
	decideCapitalsFog(ctx context.Context, view, guess *state.State, seat int, fog unseen) engine.Command
}

// guarded is the Player of every level: it refuses seats with nothing to
// decide, checks the level's command against the rules on a scratch copy of
// the view, and falls back to a safe default if it is not legal. Nothing a
// level does can make a seat stall or break the match.
type guarded struct {
	p      decider
	faults atomic.Int64
}

// Act implements Player.
func (g *guarded) Act(ctx context.Context, view *state.State, seat int) (engine.Command, error) {
	if err := needsDecision(view, seat); err != nil {
		return nil, err
	}
	if !view.IsView() {
		// Handed the whole state: every player, a program of its own too,
		// decides on its seat's view all the same, never on other players'
		// cards and missions or on what the fog hides.
		view = view.View(seat)
	}
	var (
		fog    unseen
		fogged *state.State // the view with fog, when view is a guess of it
	)
	if _, external := g.p.(*execBot); view.Options.Fog && !external {
		// A program of its own gets the view as it is, fog marks and all;
		// the levels here decide on a guess of the board.
		if view.Fogged() {
			guess := GuessFog(view, seat)
			fog = fogMargins(view, guess, seat)
			view, fogged = guess, view
		}
	}
	var c engine.Command
	fd, fogAware := g.p.(fogDecider)
	if fogAware && fogged != nil && view.Options.Rules == state.Classic && view.Phase != state.PhaseOrders {
		c = fd.decideFog(ctx, fogged, view, seat)
	} else if cfd, ok := g.p.(capitalsFogDecider); ok && fogged != nil && view.Options.Rules == state.Capitals {
		c = cfd.decideCapitalsFog(ctx, fogged, view, seat, fog)
	} else if cd, ok := g.p.(capitalsDecider); ok && view.Options.Rules == state.Capitals {
		c = cd.decideCapitals(ctx, view, seat, fog)
	} else if od, ok := g.p.(ordersDecider); ok && view.Phase == state.PhaseOrders {
		c = od.decideOrders(ctx, view, seat)
	} else {
		c = g.p.decide(ctx, view, seat)
	}
	if c == nil || !Legal(view, seat, c) {
		g.faults.Add(1)
		return Fallback(view, seat), nil
	}
	return c, nil
}

// Faults counts the decisions replaced by the safe default.
func (g *guarded) Faults() int { return int(g.faults.Load()) }

// Close closes the level if it owns a process.
func (g *guarded) Close() error {
	if c, ok := g.p.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Legal reports whether seat may play c in s, a view or a full state, by
// applying it to a scratch copy (Apply validates in full before changing
// anything). It never plays Surrender or Undo for a computer player.
func Legal(s *state.State, seat int, c engine.Command) bool {
	switch c.(type) {
	case engine.Surrender, engine.Undo, nil:
		return false
	}
	x := s.Clone()
	x.Hidden = false
	x.RNG = state.RNG{Seed: 1}
	_, err := engine.Apply(x, seat, c)
	return err == nil
}

// Fallback returns the safe default for seat in s: place everything
// automatically (trading first when the hand is full), move the fewest
// armies into a conquest, drop a card when one must be dropped, otherwise
// end the turn (in a simultaneous round: commit, with no attack or move). In a capitals match: choose the first free capital spot,
// send the reinforcements to the capital, then pass. It is what a seat
// plays when its player fails.
func Fallback(s *state.State, seat int) engine.Command {
	if s.Options.Rules == state.Capitals {
		return capitalsFallback(s, seat)
	}
	hand := s.Seats[seat].Hand
	switch s.Phase {
	case state.PhaseSetup:
		return engine.AutoPlace{}
	case state.PhaseOrders, state.PhaseReinforce:
		if hand.Len() >= 5 {
			if set, ok := engine.BestSet(s, seat); ok {
				return engine.Trade{Cards: set}
			}
		}
		if s.Seats[seat].Reserve > 0 {
			return engine.AutoPlace{}
		}
		// The reinforce phase trades any set left before it ends; the
		// orders phase leaves it for later.
		if s.Phase == state.PhaseReinforce {
			if set, ok := engine.BestSet(s, seat); ok {
				return engine.Trade{Cards: set}
			}
		}
	case state.PhaseOccupy:
		return engine.Occupy{Armies: s.Occupy.Min}
	case state.PhaseAttack, state.PhaseFortify:
		if s.Conquered && hand.Len() >= 5 {
			return engine.Discard{Card: discardChoice(s.Map, hand)}
		}
	}
	return engine.EndTurn{}
}
