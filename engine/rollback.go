package engine

import (
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/state"
)

// A rollback takes a match back to the start of an earlier turn (a round,
// with simultaneous turns) of its line of play: a host's remedy for a
// disaster (a misclicked turn, a computer player gone wild). It is a
// command like the others, appended to the log, so that the log stays the
// whole truth and replaying it reproduces the match, rollbacks included.
//
// The board, the seats, their hands and missions, the deck, the items: all
// come back as they were when the turn began, but for the generator, which
// goes on from where it is. The dice after a rollback are new ones from
// the match's seed, never those rolled before it, which everyone (the
// host first) has seen: nobody can foresee them, and Verify still finds
// every random outcome following from the committed seed.

// Host is the seat a match's host plays as: the log records a rollback
// with it, since no player's seat gave it.
const Host = -1

// Rollback takes the match back to the start of turn Turn (a round, with
// simultaneous turns) of its line of play, which may be the turn in
// progress (it starts again). Only the Host gives it, through a Game, and
// not once the match is over.
type Rollback struct {
	Turn int `json:"turn"`
}

// Name implements Command.
func (Rollback) Name() string { return "rollback" }

// RolledBack: the host took the match back to the start of Turn, from
// turn From; Undone commands of the line of play were taken back. Seat is
// the seat to play now (-1 in a simultaneous round: everyone), Armies its
// reserve, Round the round.
type RolledBack struct {
	Turn, From, Undone int
	Seat, Armies       int
	Round              int
}

func (RolledBack) event() {}

// ErrNoHistory is returned for a rollback to a turn whose start the game
// does not know: it was decoded from a snapshot taken after that turn
// began, or cloned. Replaying the match's whole log (Replay) gives a game
// that knows every turn's start.
var ErrNoHistory = errors.New("engine: the game does not know that turn's start (rebuild it from the whole log)")

// turnStart is the start of a turn of the line of play: the state then
// (never changed once kept), and how many commands of the line had been
// played.
type turnStart struct {
	state  *state.State
	played int
}

// markStart keeps the state as the start of its turn, if a turn began
// since turn: the undo point's base, which a new turn makes and nothing
// changes.
func (g *Game) markStart(turn int) {
	t := g.State.Turn
	if t == turn || t < 1 {
		return
	}
	if len(g.starts) > t {
		g.starts = g.starts[:t]
	}
	for len(g.starts) < t {
		g.starts = append(g.starts, turnStart{})
	}
	g.starts = append(g.starts, turnStart{state: g.undo.base, played: g.played})
}

// RollbackPreview returns what a rollback to the start of turn would make
// of the match, without changing it: the state it would restore (the
// generator as it is now) and how many commands of the line of play it
// would take back. It refuses what Apply would refuse: a rule violation,
// or ErrNoHistory.
func (g *Game) RollbackPreview(turn int) (*state.State, int, error) {
	s := g.State
	switch {
	case s.Phase == state.PhaseOver:
		return nil, 0, fail(ErrGameOver, "engine.rollback.over")
	case s.Turn < 1:
		return nil, 0, fail(ErrWrongPhase, "engine.rollback.not-begun")
	case turn < 1 || turn > s.Turn:
		return nil, 0, fail(ErrBadCommand, "engine.rollback.no-such-turn", "Turn", turn, "Last", s.Turn)
	}
	if turn >= len(g.starts) || g.starts[turn].state == nil {
		return nil, 0, fmt.Errorf("%w: turn %d", ErrNoHistory, turn)
	}
	start := g.starts[turn]
	undone := g.played - start.played
	if undone == 0 {
		return nil, 0, fail(ErrNothingToUndo, "engine.rollback.just-begun", "Turn", turn)
	}
	next := start.state.Clone()
	next.RNG = s.RNG // the dice go on: none seen comes again
	return next, undone, nil
}

// rollback applies a Rollback given by seat.
func (g *Game) rollback(seat int, c Rollback) ([]Event, error) {
	if seat != Host {
		return nil, fail(ErrNotHost, "engine.rollback.not-host")
	}
	from := g.State.Turn
	next, undone, err := g.RollbackPreview(c.Turn)
	if err != nil {
		return nil, err
	}
	g.State = next
	g.played = g.starts[c.Turn].played
	g.starts = g.starts[:c.Turn+1]
	g.checkpoint()
	g.undo.cut = cut{Seat: seat, Why: cutTurn} // the restored turn has nothing done yet
	e := RolledBack{Turn: c.Turn, From: from, Undone: undone, Seat: next.Current, Round: next.Round}
	if next.Phase == state.PhaseOrders {
		e.Seat = -1
	} else {
		e.Armies = next.Seats[next.Current].Reserve
	}
	return []Event{e}, nil
}
