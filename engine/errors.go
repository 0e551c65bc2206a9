package engine

import (
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
)

// Code classifies a rule violation. Each code is also an error, so callers
// can test for a class with errors.Is(err, engine.ErrNotYourTurn).
type Code int

// The rule violation classes.
const (
	ErrBadCommand       Code = iota + 1 // malformed or unknown command
	ErrNotPlaying                       // the seat is not (or no longer) in the match
	ErrNotYourTurn                      // another seat is to play
	ErrWrongPhase                       // the command does not fit the phase
	ErrGameOver                         // the match has ended
	ErrNoSuchTerritory                  // a territory id out of range
	ErrNotYourTerritory                 // the seat does not own a territory it must own
	ErrOwnTerritory                     // attacking one's own territory
	ErrNotAdjacent                      // no border between the territories
	ErrNotConnected                     // no path through owned territories
	ErrTooManyDice                      // more dice than the rules allow
	ErrNotEnoughArmies                  // too few armies for the move
	ErrBadArmies                        // an army count outside the allowed range
	ErrMustTrade                        // a set must be traded first
	ErrBadCards                         // the cards are not held or not a set
	ErrMustDiscard                      // a card must be discarded before drawing
	ErrAlreadyFortified                 // the turn's fortification is used up
	ErrNothingToUndo                    // no undoable action
	ErrUnsupported                      // not available with these rules
	ErrTooWeak                          // an attack total not greater than the defence (capitals)
	ErrNoItem                           // no item to use (capitals)
	ErrNotNeutral                       // the territory must be neutral (capitals)
	ErrCommitted                        // the seat's orders for the round are in (simultaneous turns)
	ErrTeammate                         // attacking a teammate (teams)
	ErrNotHost                          // a host's command from a player (rollback)
)

var codeText = map[Code]string{
	ErrBadCommand:       "bad command",
	ErrNotPlaying:       "not playing",
	ErrNotYourTurn:      "not your turn",
	ErrWrongPhase:       "wrong phase",
	ErrGameOver:         "match over",
	ErrNoSuchTerritory:  "no such territory",
	ErrNotYourTerritory: "not your territory",
	ErrOwnTerritory:     "own territory",
	ErrNotAdjacent:      "not adjacent",
	ErrNotConnected:     "not connected",
	ErrTooManyDice:      "too many dice",
	ErrNotEnoughArmies:  "not enough armies",
	ErrBadArmies:        "bad army count",
	ErrMustTrade:        "must trade",
	ErrBadCards:         "bad cards",
	ErrMustDiscard:      "must discard",
	ErrAlreadyFortified: "already fortified",
	ErrNothingToUndo:    "nothing to undo",
	ErrUnsupported:      "unsupported",
	ErrTooWeak:          "too weak",
	ErrNoItem:           "no item",
	ErrNotNeutral:       "not neutral",
	ErrCommitted:        "orders committed",
	ErrTeammate:         "teammate",
	ErrNotHost:          "not the host",
}

func (c Code) Error() string {
	if t, ok := codeText[c]; ok {
		return "engine: " + t
	}
	return fmt.Sprintf("engine: error %d", int(c))
}

// Error is a rule violation: a command the rules refuse. Msg is what the
// player reads ("Alaska does not border Brazil"), a key of the catalogue
// (assets/lang) with its arguments, worded in the reader's language by
// lang.Printer.Error; Error is its English.
type Error struct {
	Code Code
	Msg  lang.Msg
}

// Error is the refusal in English.
func (e *Error) Error() string { return e.Msg.String() }

// Message is the refusal as a message of the catalogue (lang.Worded).
func (e *Error) Message() lang.Msg { return e.Msg }

// Unwrap returns the code, for errors.Is.
func (e *Error) Unwrap() error { return e.Code }

// fail is a refusal of class c: the catalogue's sentence key (engine.AREA.WHAT)
// with its arguments, name, value pairs ("From", place(s, t), "Count", n).
// Nothing is worded until the refusal is shown.
func fail(c Code, key string, args ...any) *Error {
	return &Error{Code: c, Msg: lang.M(key, args...)}
}

// IsRule reports whether err is a rule violation (as opposed to a failure of
// the program), and returns it.
func IsRule(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
