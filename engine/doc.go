// Package engine implements the rules of Risk on the data of package state.
//
// A player action is a Command value. Apply validates it against the state
// and, if it is legal, changes the state and returns Events describing what
// happened; if it is not, it returns an *Error with a message for the player
// and leaves the state exactly as it was. All randomness is drawn from the
// generator held in the state, so a match is a pure function of its Setup
// and its command log. Game wraps a state with what a hosted match needs on
// top: undo within a turn and log entries that record the random outcomes
// each command consumed, so that Replay reproduces the match bit for bit.
// While a match is played its log is told to each audience as it may see
// it (Record.Tell), and a Replica rebuilds from that what the audience sees.
package engine
