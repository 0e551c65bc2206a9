package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// Replica rebuilds a match from what one audience receives of it: a setup
// and a log told to it (Record.Tell). It plays a possible match: the truth
// wherever the audience sees it, and a guess consistent with it elsewhere
// (the other hands, the deck, the kinds of items lying on the map or kept
// by others, the others' missions). Its view for the audience, Game's
// state's View(audience), is the truth's after every entry, byte for byte;
// the rest of its state, and the events about hidden things (the card
// another seat drew), are guesses, changed as entries show more. A match
// over is replayed from its whole record instead, which reveals all.
type Replica struct {
	audience int
	game     *Game
	// seen and handed: what the entry being replayed shows, and how many
	// of its drawn cards have been handed out.
	seen   *Seen
	handed int
}

// NewReplica starts a replica of a match, for audience (Public or a seat),
// from the setup told to it: seed withheld, deal recorded, the missions
// of others Withheld.
func NewReplica(setup Setup, audience int) (*Replica, error) {
	if setup.Deal == nil {
		return nil, errors.New("engine: replica: the setup lacks its deal")
	}
	// Deal the withheld missions as cards nobody holds, then hide them:
	// a hidden mission is never fulfilled (MissionDone), as in a view.
	deal := *setup.Deal
	var hidden []int
	if len(deal.Missions) > 0 {
		deal.Missions = slices.Clone(deal.Missions)
		for i, c := range deal.Missions {
			if c == Withheld {
				hidden = append(hidden, i)
			}
		}
		for _, i := range hidden {
			for c := range state.MissionCards {
				if !slices.Contains(deal.Missions, c) {
					deal.Missions[i] = c
					break
				}
			}
		}
	}
	full := setup
	full.Deal = &deal
	g, err := NewGame(full)
	if err != nil {
		return nil, fmt.Errorf("engine: replica: %w", err)
	}
	if audience < Public || audience >= len(g.State.Seats) {
		return nil, fmt.Errorf("engine: replica: no seat %d in a match of %d", audience, len(g.State.Seats))
	}
	for _, i := range hidden {
		if i == audience {
			return nil, fmt.Errorf("engine: replica: the setup withholds %s's own mission", AudienceName(audience))
		}
		g.State.Seats[i].Mission = state.MissionHidden
	}
	g.Setup = setup
	g.checkpoint()
	return &Replica{audience: audience, game: g}, nil
}

// Game is the possible match the replica plays (see Replica): only its
// view for the audience is the truth's. It must not be played on.
func (r *Replica) Game() *Game { return r.game }

// View is the match as the audience sees it now.
func (r *Replica) View() *state.State { return r.game.State.View(r.audience) }

// Replay applies the next entry of the told log. After an error the
// replica is in an undefined state and must be dropped.
func (r *Replica) Replay(e Entry) ([]Event, error) {
	g := r.game
	if err := r.prepare(e); err != nil {
		return nil, fmt.Errorf("engine: replica: entry %d: %w", g.Version+1, err)
	}
	r.seen, r.handed = e.Seen, 0
	defer func() { r.seen = nil }()
	d := dice{rng: &g.State.RNG, strict: true, replay: e.Rand, guess: true, replica: r}
	ev, err := g.apply(e.Seat, e.Cmd, &d)
	if err == nil {
		err = d.done()
	}
	if err == nil && e.Seen != nil && r.handed != len(e.Seen.Drawn) {
		err = fmt.Errorf("the entry shows %d cards drawn, %d were", len(e.Seen.Drawn), r.handed)
	}
	if err != nil {
		name := "nil"
		if e.Cmd != nil {
			name = e.Cmd.Name()
		}
		return nil, fmt.Errorf("engine: replica: entry %d (seat %d, %s): %w", g.Version+1, e.Seat, name, err)
	}
	return ev, nil
}

// prepare makes the possible match agree, before entry e, with what e
// shows: the hands it shows, the cards its command names, the kinds of
// the items it collects or uses.
func (r *Replica) prepare(e Entry) error {
	g := r.game
	if e.Seen != nil {
		for _, h := range e.Seen.Hands {
			if err := r.holds(h.Seat, h.Cards, true); err != nil {
				return err
			}
		}
		for _, it := range e.Seen.Items {
			if it.Territory < 0 || it.Territory >= len(g.State.Terr) || !it.Kind.Known() {
				return fmt.Errorf("the item %v on territory %d is not one", it.Kind, it.Territory)
			}
			for _, s := range r.states() {
				if s.Terr[it.Territory].Item != state.NoItem {
					s.Terr[it.Territory].Item = it.Kind
				}
			}
			if g.State.Terr[it.Territory].Item == state.NoItem {
				return fmt.Errorf("no item lies on territory %d", it.Territory)
			}
		}
		for _, u := range e.Seen.Used {
			if u.Seat < 0 || u.Seat >= len(g.State.Seats) || !u.Kind.Kept() {
				return fmt.Errorf("seat %d keeps no item %v", u.Seat, u.Kind)
			}
			for _, s := range r.states() {
				if s.Seats[u.Seat].Capitals.Item.Kept() {
					s.Seats[u.Seat].Capitals.Item = u.Kind
				}
			}
		}
	}
	var named state.CardSet
	switch c := e.Cmd.(type) {
	case Trade:
		for _, card := range c.Cards {
			if int(card) < g.State.Map.NumCards() {
				named = named.Add(card)
			}
		}
	case Discard:
		if int(c.Card) < g.State.Map.NumCards() {
			named = named.Add(c.Card)
		}
	}
	if !named.Empty() && e.Seat >= 0 && e.Seat < len(g.State.Seats) {
		return r.holds(e.Seat, named, false)
	}
	return nil
}

// states are the states of the possible match that hidden things are
// guessed in: the state now, and the one undo goes back to.
func (r *Replica) states() []*state.State {
	g := r.game
	if g.undo.base == nil || g.undo.base == g.State {
		return []*state.State{g.State}
	}
	return []*state.State{g.State, g.undo.base}
}

// holds makes seat's hand hold cards (be them, if exact), exchanging the
// cards guessed in it for them where they were guessed to be: in the deck
// or another hand hidden from the audience.
func (r *Replica) holds(seat int, cards state.CardSet, exact bool) error {
	s := r.game.State
	if seat < 0 || seat >= len(s.Seats) {
		return fmt.Errorf("no seat %d", seat)
	}
	hand := s.Seats[seat].Hand
	if exact && hand.Len() != cards.Len() {
		return fmt.Errorf("seat %d holds %d cards, not %d", seat, hand.Len(), cards.Len())
	}
	if seat == r.audience || hand.Intersect(cards) == cards {
		return nil // the audience knows its own hand: the command checks it
	}
	spare := state.CardSet{}
	for _, c := range hand.Cards() {
		if !cards.Has(c) {
			spare = spare.Add(c)
		}
	}
	for _, c := range cards.Cards() {
		if hand.Has(c) {
			continue
		}
		if !r.hidden(s, c) {
			return fmt.Errorf("card %d, which seat %d holds, is in sight of %s", c, seat, AudienceName(r.audience))
		}
		if spare.Empty() {
			return fmt.Errorf("seat %d holds %d cards, too few", seat, hand.Len())
		}
		x := spare.Nth(0)
		spare = spare.Remove(x)
		for _, st := range r.states() {
			swapCards(st, c, x)
		}
	}
	return nil
}

// hidden reports whether card c is where the audience cannot see it in
// s: in the deck, or in another seat's hand.
func (r *Replica) hidden(s *state.State, c state.Card) bool {
	if s.Deck.Has(c) {
		return true
	}
	for i := range s.Seats {
		if i != r.audience && s.Seats[i].Hand.Has(c) {
			return true
		}
	}
	return false
}

// draw is the card seat draws where the draw was withheld and guess was
// drawn in its place: the guess, unless the audience is the drawer and
// was told the card.
func (r *Replica) draw(s *state.State, seat int, guess state.Card) (state.Card, error) {
	if seat != r.audience {
		return guess, nil
	}
	if r.seen == nil || r.handed >= len(r.seen.Drawn) {
		return guess, fmt.Errorf("%s drew a card the entry does not show", AudienceName(r.audience))
	}
	c := r.seen.Drawn[r.handed]
	r.handed++
	if int(c) >= s.Map.NumCards() {
		return guess, fmt.Errorf("there is no card %d", c)
	}
	if s.Deck.Has(c) {
		return c, nil
	}
	if !r.hidden(s, c) {
		return guess, fmt.Errorf("card %d, drawn, is in sight of %s", c, AudienceName(r.audience))
	}
	// The draw makes a checkpoint: the undo state need not follow.
	swapCards(s, c, guess)
	return c, nil
}

// swapCards exchanges cards a and b wherever s holds them (the deck, the
// discard pile, the hands).
func swapCards(s *state.State, a, b state.Card) {
	swap := func(set *state.CardSet) {
		if ha, hb := set.Has(a), set.Has(b); ha != hb {
			if ha {
				*set = set.Remove(a).Add(b)
			} else {
				*set = set.Remove(b).Add(a)
			}
		}
	}
	swap(&s.Deck)
	swap(&s.Discard)
	for i := range s.Seats {
		swap(&s.Seats[i].Hand)
	}
}
