package voice

import (
	"slices"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Position is where a match stood before a command.
type Position struct {
	turn, seat int
	setup      bool
}

// PositionOf returns where s stands.
func PositionOf(s *state.State) Position {
	if s.Phase == state.PhaseOrders {
		return Position{turn: s.Turn, seat: -1} // a round is everyone's
	}
	return Position{turn: s.Turn, seat: s.Current, setup: s.Phase == state.PhaseSetup}
}

// Tell describes the events of one change, made from position at, and
// files the lines: into the turns that the change ended (returned, in
// order) and the turn still in progress (ch). It returns every line, for
// the reply to the command (in a match with fog of war, what v's audience
// sees, while the turns record what everyone sees). An undo takes the lines of the command it
// undid out of the turn's record: what was taken back did not happen.
func (tl Teller) Tell(s *state.State, at Position, events []engine.Event, ch *news.Chronicle) (lines []string, closed []news.TurnRecord) {
	return tl.tell(s, at, events, ch, true)
}

// tell is Tell; public says whether the turns record what everyone sees
// (the channel's record) or, like the lines, what v's audience sees (a
// player's own history, with fog of war).
func (tl Teller) tell(s *state.State, at Position, events []engine.Event, ch *news.Chronicle, public bool) (lines []string, closed []news.TurnRecord) {
	var part []engine.Event
	var stepLines int
	curTurn, curSeat := at.turn, at.seat
	// The record is the channel's: with fog of war it tells what every
	// player sees, while the lines returned are v's audience's.
	pub, apart := tl.v, public && tl.v.Hides(s) && tl.v.to.seat >= 0
	if apart {
		pub = tl.v.Fogged()
	}
	flush := func() []string {
		ls := tl.Describe(s, part)
		lines = append(lines, ls...)
		if apart {
			ls = pub.Teller().Describe(s, part)
		}
		ch.Stats.Count(curSeat, part)
		part = nil
		return ls
	}
	if at.setup {
		curTurn = 0
	}
	closeTurn := func(ls []string) {
		if all := append(ch.Lines, ls...); len(all) > 0 {
			closed = append(closed, news.TurnRecord{Turn: curTurn, Seat: curSeat, Lines: all, Stats: ch.Stats})
		}
		*ch = news.Chronicle{}
		stepLines = 0
	}
	for _, e := range events {
		if private(s, e) {
			// An order is told to its author only, until its round
			// resolves.
			lines = append(lines, tl.Describe(s, []engine.Event{e})...)
			continue
		}
		switch e := e.(type) {
		case engine.RoundResolved:
			// The round's trades show as it resolves, told before its
			// placements, which spend the armies they brought; with fog
			// of war, to each trader only (seenOnly).
			part = append(part, e)
			for _, t := range e.Trades {
				part = append(part, t)
			}
			continue
		case engine.RoundStarted:
			// A round's record holds its resolution; the next round's
			// reinforcements start the next record (one post a round).
			if ls := flush(); curTurn > 0 {
				closeTurn(ls)
			} else {
				ch.Lines = append(ch.Lines, ls...)
				stepLines += len(ls)
			}
			curTurn, curSeat = e.Round, -1
		case engine.TurnStarted:
			if IsSimultaneous(s) {
				break // each seat's reinforcements of a round, in its record
			}
			if ls := flush(); curTurn > 0 {
				closeTurn(ls)
			} else {
				ch.Lines = append(ch.Lines, ls...)
				stepLines += len(ls)
			}
			curTurn, curSeat = e.Turn, e.Seat
		case engine.Undone:
			// An undo is a command of its own: the lines of the command it
			// undid leave the record, and the undo is told to its author
			// only.
			lines = append(lines, tl.Describe(s, []engine.Event{e})...)
			if n := len(ch.Steps); n > 0 {
				ch.Lines = ch.Lines[:max(0, len(ch.Lines)-ch.Steps[n-1])]
				ch.Steps = ch.Steps[:n-1]
			}
			continue
		case engine.RolledBack:
			// The turn in progress ends here, its record closed with the
			// rollback; the turn gone back to starts a record again.
			part = append(part, e)
			n := len(closed)
			closeTurn(flush())
			if len(closed) > n {
				closed[n].Back = e.Turn
			}
			curTurn, curSeat = e.Turn, e.Seat
			ch.Lines = []string{pub.Teller().again(s, e)}
			ch.Stats.Income = e.Armies
			stepLines = 1
			continue
		case engine.CapitalChosen:
			// Capitals are chosen in turn: each choice is its own post.
			part = append(part, e)
			curSeat = e.Seat
			closeTurn(flush())
			continue
		case engine.SetupDone:
			if hosted.IsCapitals(s) {
				break
			}
			ls := flush()
			part = []engine.Event{e}
			closeTurn(append(ls, flush()...))
			continue
		}
		part = append(part, e)
	}
	ls := flush()
	ch.Lines = append(ch.Lines, ls...)
	if n := stepLines + len(ls); n > 0 {
		ch.Steps = append(ch.Steps, n)
	}
	if s.Phase == state.PhaseOver {
		closed = append(closed, news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: ch.Lines, Stats: ch.Stats})
		*ch = news.Chronicle{}
	}
	return lines, closed
}

// Retell tells a match's whole log again, turn by turn, as it was told
// when it was played: the finished turns, and the one in progress (nil
// if the match is over). With fog of war, it tells what v's audience saw.
func (tl Teller) Retell(rec engine.Record) ([]news.TurnRecord, *news.TurnRecord, error) {
	r, err := tl.Retelling(rec.Setup)
	if err != nil {
		return nil, nil, err
	}
	if err := r.Add(rec.Log...); err != nil {
		return nil, nil, err
	}
	turns, live := r.Turns()
	return turns, live, nil
}

// Retelling is a match's log told again (Retell) as far as it was read,
// to be told on as the match goes on: what a player saw since their last
// turn, or a page of the history, asked again after each change, costs
// the entries added since, not the whole log again. It is not safe for
// concurrent use; what Turns returns is never changed by what is added
// after.
type Retelling struct {
	tl    Teller
	g     *engine.Game
	turns []news.TurnRecord
	ch    news.Chronicle
	err   error // an entry that did not replay: the retelling is over
}

// Retelling starts retelling the match that setup starts.
func (tl Teller) Retelling(setup engine.Setup) (*Retelling, error) {
	g, err := engine.NewGame(setup)
	if err != nil {
		return nil, err
	}
	return &Retelling{tl: tl, g: g}, nil
}

// By reports whether tl tells what r's teller told (the same audience,
// language and colours): whether r may be told on for tl.
func (r *Retelling) By(tl Teller) bool {
	a, b := r.tl.v, tl.v
	return a.to == b.to && a.p.Tag() == b.p.Tag() && slices.Equal(a.colors, b.colors) && slices.Equal(a.rgb, b.rgb)
}

// Len is how many entries of the log r has read.
func (r *Retelling) Len() int { return r.g.Version }

// Add tells log entries that follow those read. An entry that does not
// replay ends the retelling: this Add and every later one fail.
func (r *Retelling) Add(log ...engine.Entry) error {
	if r.err != nil {
		return r.err
	}
	for _, e := range log {
		at := PositionOf(r.g.State)
		events, err := r.g.Replay(e)
		if err != nil {
			r.err = err
			return err
		}
		_, closed := r.tl.tell(r.g.State, at, events, &r.ch, false)
		r.turns = append(r.turns, closed...)
	}
	return nil
}

// Turns are the turns told so far, as Retell returns them: the finished
// turns, and the one in progress (nil if the match is over).
func (r *Retelling) Turns() ([]news.TurnRecord, *news.TurnRecord) {
	turns := r.turns[:len(r.turns):len(r.turns)]
	s := r.g.State
	if s.Phase == state.PhaseOver {
		return turns, nil
	}
	ch := r.ch.Clone()
	live := news.TurnRecord{Turn: s.Turn, Seat: s.Current, Lines: ch.Lines, Stats: ch.Stats}
	if s.Phase == state.PhaseSetup {
		live.Turn = 0
	}
	if s.Phase == state.PhaseOrders {
		live.Seat = -1 // a round is everyone's
	}
	return turns, &live
}
