// Package button names the actions of the bot's buttons and reads and
// writes their IDs.
//
// A button's ID carries everything its click needs, so it keeps working
// after a restart: "r|MATCH|VERSION|ACTION|ARGS...". A click on a button
// posted at an older version of its match is refused politely, except for
// the actions whose handler says otherwise (the lobby's, good at any time
// in the lobby, whose message shows it as it is; autoplace, good for the
// placement it was posted for; reading ones).
package button

import (
	"fmt"
	"strconv"
	"strings"
)

// Action is what a button does when it is pressed.
type Action string

// The actions. Each has exactly one handler (the bot's table of clicks,
// TestEveryActionHasOneHandler) and is carried by some post
// (TestEveryActionCanBeShown).
const (
	// The lobby's.
	Join     Action = "join"
	AddBot   Action = "addbot"
	Start    Action = "start"
	Accept   Action = "accept"  // an invitation taken
	Decline  Action = "decline" // an invitation refused
	Kick     Action = "kick"    // an idle seat removed (seat, expiry)
	KeepSeat Action = "keepseat"
	Rematch  Action = "rematch"
	Abandon  Action = "abandon" // /risk host abandon confirmed (expiry)
	Keep     Action = "keep"    // /risk host abandon taken back

	// Reading, good at any version.
	History Action = "history" // a page of the match's history (page)
	View    Action = "view"    // the standings, privately
	Mission Action = "mission" // the clicker's mission, privately
	Map     Action = "map"     // the match played on its map: Discord's Activity

	// A match's play.
	Rollback  Action = "rollback"  // the host's undo of the turn (turn)
	Autoplace Action = "autoplace" // the placement done for the seat (turn)
	Ready     Action = "ready"     // a simultaneous round's orders committed (round)
	GoOn      Action = "goon"
	Surrender Action = "surrender" // (seat, expiry)
	Attack    Action = "attack"    // (from, to): with the most dice
	Blitz     Action = "blitz"     // (from, to)
	Occupy    Action = "occupy"    // (armies)
	End       Action = "end"
	EndAnyway Action = "endanyway" // the turn ended though armies could still move
	Launch    Action = "launch"
	Use       Action = "use"  // the seat's item
	Move      Action = "move" // (from, to, quarters, hero, warned)
	Stop      Action = "stop"
)

// All lists every action.
func All() []Action {
	return []Action{Join, AddBot, Start, Accept, Decline, Kick, KeepSeat, Rematch, Abandon, Keep,
		History, View, Mission, Map,
		Rollback, Autoplace, Ready, GoOn, Surrender, Attack, Blitz, Occupy, End, EndAnyway, Launch, Use, Move, Stop}
}

// Prefix starts the ID of every button of the bot's.
const Prefix = "r"

// maxID is Discord's limit on a button's custom ID.
const maxID = 100

// ID is the ID of a button of match at version that does action with args.
// A version of 0 says the button is good at any version.
func ID(match, version int64, action Action, args ...int) string {
	b := make([]byte, 0, 32)
	b = append(b, Prefix...)
	b = append(b, '|')
	b = strconv.AppendInt(b, match, 10)
	b = append(b, '|')
	b = strconv.AppendInt(b, version, 10)
	b = append(b, '|')
	b = append(b, action...)
	for _, a := range args {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(a), 10)
	}
	return string(b)
}

// Press is a button's ID, read: the match and version it was posted at,
// its action and its arguments.
type Press struct {
	Match   int64
	Version int64
	Action  Action
	Args    []int
}

// Arg is the press's argument i, or -1 if it has none.
func (p Press) Arg(i int) int {
	if i < len(p.Args) {
		return p.Args[i]
	}
	return -1
}

// Parse reads a button's ID. An action it does not know is read all the
// same (the table of clicks refuses it): a button posted by a newer
// version of the bot must get a polite answer, not "not ours".
func Parse(id string) (Press, error) {
	parts := strings.Split(id, "|")
	if len(parts) < 4 || parts[0] != Prefix || len(id) > maxID {
		return Press{}, fmt.Errorf("button: not a button of ours: %q", id)
	}
	var p Press
	var err error
	if p.Match, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return p, fmt.Errorf("button: bad button %q", id)
	}
	if p.Version, err = strconv.ParseInt(parts[2], 10, 64); err != nil {
		return p, fmt.Errorf("button: bad button %q", id)
	}
	p.Action = Action(parts[3])
	for _, s := range parts[4:] {
		n, err := strconv.Atoi(s)
		if err != nil {
			return p, fmt.Errorf("button: bad button %q", id)
		}
		p.Args = append(p.Args, n)
	}
	return p, nil
}
