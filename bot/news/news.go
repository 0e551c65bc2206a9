// Package news is what happens in a match as the chat is told of it, as
// data: the record of each turn, the news a change queues in the outbox
// (in the change's own transaction), and the posts that carry it to the
// channel. The voice writes them, the match flow queues them, the outbox
// delivers them.
package news

import (
	"slices"
	"strconv"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
)

// TurnRecord is a finished turn: who played and what happened.
type TurnRecord struct {
	Turn  int       `json:"turn"`
	Seat  int       `json:"seat"`
	Lines []string  `json:"lines"`
	Stats TurnStats `json:"stats,omitzero"`
	// Back is the turn a rollback took the match back to from this one,
	// if one ended it (0 if none): the turns from Back to this one are
	// then played again.
	Back int `json:"back,omitempty"`
}

// Current returns the index in turns (a match's records, in order) of
// the record of turn number turn in the match's line of play, or -1: the
// first of that number since the last rollback that took the match back
// to it or before (a turn that started again has two records or more).
func Current(turns []TurnRecord, turn int) int {
	at := -1
	for i, t := range turns {
		switch {
		case t.Back > 0 && t.Back <= turn:
			at = -1 // taken back: it is played again
		case t.Back == 0 && t.Turn == turn && at < 0:
			at = i
		}
	}
	return at
}

// TurnStats are the numbers of a turn that its post shows apart from the
// lines: what it brought, what it took, whom it put out.
type TurnStats struct {
	Income     int   `json:"income,omitempty"`     // armies (troops) received
	Traded     int   `json:"traded,omitempty"`     // armies from cards traded
	Conquests  int   `json:"conquests,omitempty"`  // territories taken
	Eliminated []int `json:"eliminated,omitempty"` // seats put out of the match
}

// Count adds what events of the turn of seat did to its stats. Only the
// territories seat took count as its conquests: in a capitals match an
// item may appear on another player's fortress during seat's turn, and
// with the fat bonus that player seizes territories then.
func (st *TurnStats) Count(seat int, events []engine.Event) {
	for _, e := range events {
		switch e := e.(type) {
		case engine.TurnStarted:
			st.Income += e.Armies
		case engine.Traded:
			st.Traded += e.Armies
		case engine.Conquered:
			st.conquest(seat, e.Seat)
		case engine.Captured:
			st.conquest(seat, e.Seat)
		case engine.Seized:
			st.conquest(seat, e.Seat)
		case engine.Eliminated:
			st.Eliminated = append(st.Eliminated, e.Seat)
		}
	}
}

// conquest counts a territory taken by taker in the turn of seat.
func (st *TurnStats) conquest(seat, taker int) {
	if taker == seat {
		st.Conquests++
	}
}

// Chronicle is the turn in progress as the chat tells it: its lines, the
// lines each command added (so that an undone command's lines leave the
// public record), and its numbers. It lives in the match data between
// commands, and in a scratch value when a match's log is told again.
type Chronicle struct {
	Lines []string
	Steps []int
	Stats TurnStats
}

// Clone is a copy of the chronicle that shares nothing with it: telling
// into one leaves the other as it was.
func (ch Chronicle) Clone() Chronicle {
	return Chronicle{Lines: slices.Clone(ch.Lines), Steps: slices.Clone(ch.Steps),
		Stats: TurnStats{Income: ch.Stats.Income, Traded: ch.Stats.Traded, Conquests: ch.Stats.Conquests, Eliminated: slices.Clone(ch.Stats.Eliminated)}}
}

// Notice tells which messages notify a player of their turn.
type Notice int

// The notices.
const (
	Plain        Notice = iota // no ping
	TurnPing                   // it is someone's turn
	ReminderPing               // their time is running out
)

// News is what one change has to tell the channel, as the outbox keeps it.
type News struct {
	// Note comes first: why the bot acted for a person (a missed deadline).
	Note string `json:"note,omitempty"`
	// Remind pings whoever the match waits for.
	Remind bool `json:"remind,omitempty"`
	// Turns are the turns that ended, each posted with its summary; the
	// last one with the map, then the ping of the player now to act.
	Turns []TurnRecord `json:"turns,omitempty"`
	// Over posts the victory.
	Over bool `json:"over,omitempty"`
	// Everyone posts Note on its own, pinging every person playing, with
	// the map: the news of a change to everyone's game (a rollback).
	Everyone bool `json:"everyone,omitempty"`
}

// Batch is the messages of one change, delivered together.
type Batch struct {
	Match, Version int64 // the change that queued them; 0 if none
	Posts          []Post
	// Archive: the change ended a match played in a thread of its own,
	// archived once the news is posted.
	Archive bool
	// Threads are other threads the match opened (its teams'), archived
	// once the news of its end is posted.
	Threads []string `json:"-"`
}

// Keyed gives the messages of the news of a change their keys
// (Message.Key). The messages written late keep those written fresh, in
// order, less the map and the ping at the end, so their places agree.
func Keyed(msgs []Post, match, version int64) []Post {
	for i := range msgs {
		msgs[i].Key = "n" + strconv.FormatInt(match, 36) + "." + strconv.FormatInt(version, 36) + "." + strconv.Itoa(i)
	}
	return msgs
}

// PostRef names the living message of a turn of a match.
func PostRef(match int64, turn, seat int) string {
	return strconv.FormatInt(match, 10) + ":" + strconv.Itoa(turn) + ":" + strconv.Itoa(seat)
}

// LobbyRef names the living message of a match's lobby.
func LobbyRef(match int64) string {
	return strconv.FormatInt(match, 10) + ":lobby"
}

// Post is a message to post in a channel, with what the core needs to
// know of it as it goes out.
type Post struct {
	chat.Message
	// Notice marks the pings of a turn, adjusted to their players'
	// choices when they are posted.
	Notice Notice
	// Said is a ping's text in the other languages ("fr": …), for the
	// direct messages of players who read another than the channel's.
	Said map[string]string `json:",omitempty"`
	// Ref names the living message this one posts or edits (PostRef),
	// and mode how; empty for a message posted once.
	Ref  string
	Mode Mode
}

// Mode is how a message with a Ref is sent.
type Mode int

const (
	// PostOrEdit: edit the message if it was posted, else post it.
	PostOrEdit Mode = iota + 1
	// EditOnly: edit the message if it was posted, else nothing (it will
	// be posted complete).
	EditOnly
	// Complete: edit or post, and forget the ref: the message is final.
	Complete
	// Repost: edit the message if it was posted, else post it; and post
	// it anew if the chat refuses the edit (the message was deleted).
	// For a message that must stay in sight, as a lobby: the new one is
	// edited from then on.
	Repost
	// Retire: edit the message if it was posted, else nothing, and forget
	// the ref: the message says its last (the lobby, once the match has
	// started or closed), and a new message would only repeat what is
	// posted with it.
	Retire
)
