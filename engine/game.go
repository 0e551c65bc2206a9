package engine

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// Entry is one accepted command of a match's log, with the random outcomes
// it drew (dice faces, card picks), in order. In a log told to an audience
// (Record.Tell) the outcomes it may not see are Withheld, and Seen holds
// what the entry shows it of hidden things.
type Entry struct {
	Seat int
	Cmd  Command
	Rand []int32
	Seen *Seen
}

type entryJSON struct {
	Seat int             `json:"seat"`
	Cmd  json.RawMessage `json:"cmd"`
	Rand []int32         `json:"rand,omitempty"`
	Seen *Seen           `json:"seen,omitempty"`
}

// MarshalJSON encodes the entry: {"seat":0,"cmd":{"type":...},"rand":[...]}.
func (e Entry) MarshalJSON() ([]byte, error) {
	cmd, err := MarshalCommand(e.Cmd)
	if err != nil {
		return nil, err
	}
	return json.Marshal(entryJSON{e.Seat, cmd, e.Rand, e.Seen})
}

// UnmarshalJSON decodes an entry, in one pass over its bytes: loading a
// match decodes its log's tail, so this is on the hot path. Unlike
// UnmarshalCommand it does not refuse unknown fields (a log is written by
// this program and versioned by its setup).
func (e *Entry) UnmarshalJSON(b []byte) error {
	var v struct {
		Seat int         `json:"seat"`
		Cmd  wireCommand `json:"cmd"`
		Rand []int32     `json:"rand"`
		Seen *Seen       `json:"seen"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("engine: decode log entry: %w", err)
	}
	cmd, err := v.Cmd.command()
	if err != nil {
		return err
	}
	*e = Entry{Seat: v.Seat, Cmd: cmd, Rand: v.Rand, Seen: v.Seen}
	return nil
}

// Game is a hosted match: its setup, its current state, and what undo
// needs. The log itself lives with the caller (storage); Apply returns each
// entry to append.
type Game struct {
	Setup Setup
	State *state.State
	// Version counts the log entries applied.
	Version int
	undo    undoPoint
	// starts are the starts of the turns of the line of play, by turn
	// number, that a rollback returns to (rollback.go); played counts
	// the commands of the line (those no rollback took back). A game
	// knows the starts of the turns that began since NewGame, or since
	// it was decoded from a snapshot; a clone knows none.
	starts []turnStart
	played int
}

// undoPoint is the last state that cannot be undone (a roll, a draw, a new
// turn) and the undoable entries applied since, still in effect.
type undoPoint struct {
	base  *state.State
	steps []Entry
	// cut is what made base a point of no return, for an undo to say.
	cut cut
}

// cut is the command after which nothing can be taken back: who gave it,
// and why it cannot be (zero when not known: a game started or loaded
// from a snapshot of an earlier version).
type cut struct {
	Seat int    `json:"seat"`
	Why  string `json:"why"`
}

// Why a command cut the undo chain.
const (
	cutAutoPlace = "autoplace" // the automatic placement drew at random
	cutDice      = "dice"      // dice were rolled
	cutReveal    = "reveal"    // an item was revealed
	cutTurn      = "turn"      // a new turn (or the end of the setup)
	cutOther     = "other"     // a command that is never taken back
)

// cutBy says why command c of seat, which made events ev and drew drawn
// random numbers, cannot be taken back; turned: it began a new turn.
func cutBy(seat int, c Command, ev []Event, drawn int, turned bool) cut {
	why := cutOther
	switch _, auto := c.(AutoPlace); {
	case auto:
		why = cutAutoPlace
	case turned:
		why = cutTurn
	case revealing(ev):
		why = cutReveal
	case drawn > 0:
		why = cutDice
	}
	return cut{Seat: seat, Why: why}
}

// nothingToUndo is the refusal of seat's undo when no action of its is
// left to take back, with the true reason.
func (g *Game) nothingToUndo(seat int) *Error {
	c := g.undo.cut
	switch c.Why {
	case cutAutoPlace:
		if c.Seat != seat && c.Seat >= 0 && c.Seat < len(g.State.Seats) {
			return fail(ErrNothingToUndo, "engine.undo.auto-placed-by", "Player", player(g.State, c.Seat))
		}
		return fail(ErrNothingToUndo, "engine.undo.auto-placed")
	case cutDice:
		return fail(ErrNothingToUndo, "engine.undo.dice")
	case cutReveal:
		return fail(ErrNothingToUndo, "engine.undo.revealed")
	case cutTurn:
		return fail(ErrNothingToUndo, "engine.undo.new-turn")
	}
	return fail(ErrNothingToUndo, "engine.undo.nothing")
}

// NewGame starts a match. The deal it draws is recorded in g.Setup.Deal.
func NewGame(setup Setup) (*Game, error) {
	s, err := New(setup)
	if err != nil {
		return nil, err
	}
	if setup.Deal == nil {
		setup.Deal = dealOf(setup, s)
	}
	g := &Game{Setup: setup, State: s}
	g.checkpoint()
	return g, nil
}

// dealOf reads the deal back from a new state.
func dealOf(setup Setup, s *state.State) *Deal {
	d := &Deal{Order: make([]int, len(s.Seats))}
	for i, seat := range s.Seats {
		for j, p := range setup.Seats {
			if p.ID == seat.ID {
				d.Order[i] = j
			}
		}
	}
	for _, seat := range s.Seats {
		if c := seat.Mission.Card(); c >= 0 {
			d.Missions = append(d.Missions, c)
		}
	}
	for _, tr := range s.Terr {
		if s.Options.Rules == state.Capitals {
			d.Troops = append(d.Troops, tr.Armies)
		} else {
			d.Owners = append(d.Owners, tr.Owner)
		}
	}
	return d
}

// Clone returns a copy of the game that plays on without changing g, nor
// g it: its own state and undo steps. The setup and the undo point's base
// state, never changed once made, are shared. The clone does not know
// the starts of the turns that began before it (a state a turn, which a
// cache of games would keep for nothing): only a rollback needs them, and
// a game replayed from the whole log (Replay) has them.
func (g *Game) Clone() *Game {
	c := *g
	c.State = g.State.Clone()
	c.undo.steps = slices.Clip(slices.Clone(g.undo.steps))
	c.starts = nil
	return &c
}

func (g *Game) checkpoint() {
	g.undo = undoPoint{base: g.State.Clone()}
}

// Apply plays command c for seat. On success it returns the log entry to
// store and the events; on error the game is unchanged.
func (g *Game) Apply(seat int, c Command) (Entry, []Event, error) {
	d := dice{rng: &g.State.RNG, record: true}
	ev, err := g.apply(seat, c, &d)
	if err != nil {
		return Entry{}, nil, err
	}
	return Entry{Seat: seat, Cmd: c, Rand: d.rec}, ev, nil
}

// Replay applies a stored log entry, using the random outcomes it recorded.
// After an error the game is in an undefined state and must be dropped.
func (g *Game) Replay(e Entry) ([]Event, error) {
	ev, _, err := g.replay(e, false)
	return ev, err
}

// replay applies a stored log entry with its recorded outcomes; with check
// it also returns those the generator does not give.
func (g *Game) replay(e Entry, check bool) ([]Event, []diff, error) {
	d := dice{rng: &g.State.RNG, strict: true, replay: e.Rand, check: check}
	ev, err := g.apply(e.Seat, e.Cmd, &d)
	if err == nil {
		err = d.done()
	}
	if err != nil {
		name := "nil"
		if e.Cmd != nil {
			name = e.Cmd.Name()
		}
		return nil, nil, fmt.Errorf("engine: replay entry %d (seat %d, %s): %w", g.Version+1, e.Seat, name, err)
	}
	return ev, d.diffs, nil
}

func (g *Game) apply(seat int, c Command, d *dice) ([]Event, error) {
	if rb, ok := c.(Rollback); ok {
		ev, err := g.rollback(seat, rb)
		if err != nil {
			return nil, err
		}
		g.Version++
		return ev, nil
	}
	if _, ok := c.(Undo); ok && g.State.Phase != state.PhaseOrders {
		// (A simultaneous round's orders are taken back by the rules
		// themselves: undoOrder.)
		ev, err := g.undoLast(seat)
		if err != nil {
			return nil, err
		}
		g.Version++
		g.played++
		return ev, nil
	}
	turn, phase := g.State.Turn, g.State.Phase
	ev, err := apply(g.State, seat, c, d)
	if err != nil {
		return nil, err
	}
	g.Version++
	g.played++
	turned := g.State.Turn != turn || (phase == state.PhaseSetup) != (g.State.Phase == state.PhaseSetup)
	if d.drawn == 0 && undoable(c) && !revealing(ev) && !turned {
		g.undo.steps = append(g.undo.steps, Entry{Seat: seat, Cmd: c})
	} else {
		g.checkpoint()
		g.undo.cut = cutBy(seat, c, ev, d.drawn, turned)
	}
	g.markStart(turn)
	return ev, nil
}

// undoable reports whether a command that drew no randomness may be taken
// back: placements, trades, occupations, fortifications and discards.
func undoable(c Command) bool {
	switch c.(type) {
	case Place, Trade, Occupy, Fortify, Discard:
		return true
	case Reinforce, Capture, BuildPort, Plan, UseItem, Move:
		return true
	}
	return false
}

// revealing reports whether events showed the player something it could
// not see before (an item's kind), so that undo may not take it back.
func revealing(ev []Event) bool {
	for _, e := range ev {
		if _, ok := e.(ItemCollected); ok {
			return true
		}
	}
	return false
}

// undoLast takes back seat's last undoable entry by replaying the others
// from the checkpoint. During the simultaneous setup the entries of several
// seats interleave; they do not depend on each other.
func (g *Game) undoLast(seat int) ([]Event, error) {
	s := g.State
	if s.Phase == state.PhaseOver {
		return nil, fail(ErrGameOver, "engine.over")
	}
	if seat < 0 || seat >= len(s.Seats) || !s.Seats[seat].Alive() {
		return nil, fail(ErrNotPlaying, "engine.seat.not-playing")
	}
	if s.Phase != state.PhaseSetup && seat != s.Current {
		return nil, fail(ErrNotYourTurn, "engine.turn.not-yours", "Player", player(s, s.Current))
	}
	steps := g.undo.steps
	last := -1
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Seat == seat {
			last = i
			break
		}
	}
	if last < 0 {
		return nil, g.nothingToUndo(seat)
	}
	next := g.undo.base.Clone()
	for i, e := range steps {
		if i == last {
			continue
		}
		d := dice{rng: &next.RNG, strict: true}
		if _, err := apply(next, e.Seat, e.Cmd, &d); err != nil || d.done() != nil {
			return nil, fail(ErrNothingToUndo, "engine.undo.too-late")
		}
	}
	g.State = next
	g.undo.steps = append(steps[:last:last], steps[last+1:]...)
	return []Event{Undone{Seat: seat, Command: steps[last].Cmd}}, nil
}

// CanUndo reports whether seat has an action it could undo now.
func (g *Game) CanUndo(seat int) bool {
	if s := g.State; s.Phase == state.PhaseOrders {
		if seat < 0 || seat >= len(s.Seats) || s.Seats[seat].Ready {
			return false
		}
		return slices.ContainsFunc(s.Orders, func(o state.Order) bool { return o.Seat == seat && !o.Bonus })
	}
	for _, e := range g.undo.steps {
		if e.Seat == seat {
			return true
		}
	}
	return false
}

// Replay rebuilds a match from its setup and its whole log.
func Replay(setup Setup, log []Entry) (*Game, error) {
	g, err := NewGame(setup)
	if err != nil {
		return nil, err
	}
	for _, e := range log {
		if _, err := g.Replay(e); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// gameFormat is the version of the JSON snapshot of a Game.
const gameFormat = 1

type gameJSON struct {
	Format  int          `json:"format"`
	Setup   Setup        `json:"setup"`
	Version int          `json:"version"`
	State   *state.State `json:"state"`
	Base    *state.State `json:"undo_base"`
	Steps   []Entry      `json:"undo_steps,omitempty"`
	Cut     cut          `json:"undo_cut,omitzero"`
}

// MarshalJSON encodes a snapshot of the game: enough to go on from here,
// undo included, without replaying the log.
func (g *Game) MarshalJSON() ([]byte, error) {
	return json.Marshal(gameJSON{gameFormat, g.Setup, g.Version, g.State, g.undo.base, g.undo.steps, g.undo.cut})
}

// DecodeGame reads a snapshot written by Game.MarshalJSON and checks it.
func DecodeGame(b []byte) (*Game, error) {
	var v gameJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("engine: decode game: %w", err)
	}
	if v.Format != gameFormat {
		return nil, fmt.Errorf("engine: game format %d not supported (this version reads %d)", v.Format, gameFormat)
	}
	if v.State == nil || v.Base == nil {
		return nil, fmt.Errorf("engine: decode game: state missing")
	}
	for _, s := range []*state.State{v.State, v.Base} {
		if err := attachMap(s); err != nil {
			return nil, err
		}
	}
	return &Game{Setup: v.Setup, State: v.State, Version: v.Version, undo: undoPoint{base: v.Base, steps: v.Steps, cut: v.Cut}}, nil
}

// DecodeState reads a state encoded as JSON, finds its map and checks it.
func DecodeState(b []byte) (*state.State, error) {
	s := new(state.State)
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("engine: decode state: %w", err)
	}
	if err := attachMap(s); err != nil {
		return nil, err
	}
	return s, nil
}

func attachMap(s *state.State) error {
	m, err := LoadMap(s.Options.Map)
	if err != nil {
		return fmt.Errorf("engine: decode state: %w", err)
	}
	s.Map = m
	if err := s.Check(); err != nil {
		return fmt.Errorf("engine: decoded state is inconsistent: %w", err)
	}
	return nil
}
