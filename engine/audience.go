package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// The log is served to an audience like any view (DESIGN.md, "The log is an
// output too"): while a match is played, nobody receives a random outcome
// that shows what they may not see. This file says, once, what each
// audience may receive of each entry (Record.Tell); replica.go rebuilds a
// match from it (Replica).
//
// The audiences are the public (Public: spectators, the channel, the API
// without a token) and each seat. Teammates share their sight with fog of
// war (state.Sight), not their hands, and a match with fog tells its log to
// nobody while it is played: a team is its seats.
//
// What is hidden, and how each audience receives it:
//
//   - A card drawn (classic, and each card of a simultaneous round): the
//     draw is withheld from everyone, the drawer included, who is told the
//     card instead (Seen.Drawn). The draw is an index into the deck; the
//     drawer knows the card, and with it the index would tell how many
//     cards below it the others hold.
//   - Cards changing hands: a seat that eliminates another is told the
//     cards it takes (Seen.Hands); a surrender throws the hand on the
//     discard pile, face up, and everyone is told it. A trade or a discard
//     names its cards: that is public by the rules.
//   - An item's kind (capitals): its draws are withheld unless it is the
//     fat bonus (which looks different on the map) or it is collected in
//     the same entry by the audience, or by anyone if it acts at once. A
//     kind collected later is told to its collector, or to everyone if it
//     acts at once (Seen.Items); a kept item's kind is told to everyone
//     when it is used (Seen.Used). Where an item appears, its luck and the
//     territory a lost-territory malus takes are public: everyone sees them.
//   - Secret missions: the setup tells each seat its own (the others are
//     Withheld); the public none.
//   - Simultaneous secrets: the initial placement of a classic match, and
//     a simultaneous round's orders, are told when they resolve: the log
//     stops where they began.
//   - Fog of war: the log is told to nobody until the end.
//
// Dice, luck factors, the round's seat order and automatic placements are
// public once their command is: everyone sees what they did.

// Withheld stands, among the random outcomes of an entry told to an
// audience, for one it may not see; in a told setup's missions, for
// another seat's mission.
const Withheld = -1

// Public is the audience of everyone: spectators, the channel, the match
// API without a token. Every other audience is a seat, by its index in
// turn order.
const Public = -1

// Seen is what a log entry shows one audience of hidden things, beyond its
// command and the random outcomes the audience may see: what a replica of
// the match for that audience needs (Replica).
type Seen struct {
	// Drawn are the cards the audience drew in the entry, in order. The
	// draws themselves are withheld: see Withheld.
	Drawn Cards `json:"drawn,omitempty"`
	// Hands are hands as they were when the entry began that it shows the
	// audience: those it took from seats it eliminated (and the cards
	// those had taken in the same entry), or one thrown on the discard
	// pile by a surrender.
	Hands []SeenHand `json:"hands,omitempty"`
	// Items are the kinds of items collected in the entry that had been
	// lying on the map since an earlier one.
	Items []SeenItem `json:"items,omitempty"`
	// Used are the kinds of the kept items used in the entry.
	Used []SeenUse `json:"used,omitempty"`
}

// Cards are cards in order, as a JSON list of their numbers (a []Card,
// as bytes, would be base64).
type Cards []state.Card

// MarshalJSON encodes the cards as numbers.
func (cs Cards) MarshalJSON() ([]byte, error) {
	n := make([]int, len(cs))
	for i, c := range cs {
		n[i] = int(c)
	}
	return json.Marshal(n)
}

// UnmarshalJSON decodes a list of card numbers.
func (cs *Cards) UnmarshalJSON(b []byte) error {
	var n []int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*cs = make(Cards, len(n))
	for i, c := range n {
		if c < 0 || c > 255 {
			return fmt.Errorf("engine: no card %d", c)
		}
		(*cs)[i] = state.Card(c)
	}
	return nil
}

// SeenHand is a seat's hand of cards, shown to an audience.
type SeenHand struct {
	Seat  int           `json:"seat"`
	Cards state.CardSet `json:"cards"`
}

// SeenItem is the kind of the item on a territory, shown to an audience.
type SeenItem struct {
	Territory int        `json:"territory"`
	Kind      state.Item `json:"kind"`
}

// SeenUse is the kind of the item a seat kept, shown to an audience.
type SeenUse struct {
	Seat int        `json:"seat"`
	Kind state.Item `json:"kind"`
}

func (s *Seen) empty() bool {
	return len(s.Drawn) == 0 && len(s.Hands) == 0 && len(s.Items) == 0 && len(s.Used) == 0
}

// secretDraw is a random value drawn for a hidden thing: a card (for
// seat: card) or an item's kind (on territory).
type secretDraw struct {
	pos       int // among the entry's values
	card      bool
	seat      int
	drawn     state.Card
	deck      state.CardSet // drawn from
	territory int
}

// card draws a card of the deck for seat. Drawing a uniformly random card
// of the deck is the same as drawing the top card of a shuffled deck, and
// needs no stored order.
func (d *dice) card(s *state.State, seat int) state.Card {
	c := s.Deck.Nth(d.intn(s.Deck.Len()))
	if d.withheld && d.replica != nil {
		var err error
		if c, err = d.replica.draw(s, seat, c); err != nil {
			d.setErr(err)
		}
	}
	if d.tell {
		d.secrets = append(d.secrets, secretDraw{pos: d.drawn - 1, card: true, seat: seat, drawn: c, deck: s.Deck})
	}
	return c
}

// item draws in [0, n) for the kind of the item appearing on territory t.
func (d *dice) item(n, t int) int {
	v := d.intn(n)
	if d.tell {
		d.secrets = append(d.secrets, secretDraw{pos: d.drawn - 1, seat: -1, territory: t})
	}
	return v
}

// Tell returns the record as audience (Public, or a seat) may receive it
// while the match is played: without the seed (sealed), each entry's
// random outcomes that show what the audience may not see Withheld, with
// what the entry shows it of hidden things (Entry.Seen), and the log cut
// where the secrets in progress began (a classic match's initial
// placement, a simultaneous round), or empty with fog of war. A Replica
// rebuilds from it what the audience sees (its view, state.View) after
// each entry. The whole record is for the end of the match, or for the
// operator.
func (r Record) Tell(audience int) (Record, error) {
	if r.Told {
		if r.Audience != audience {
			return Record{}, fmt.Errorf("engine: tell: the record is told to %s already, not %s", AudienceName(r.Audience), AudienceName(audience))
		}
		return r, nil
	}
	t, err := r.tell(audience)
	if err != nil {
		return Record{}, err
	}
	t.Record.Log = t.Record.Log[:t.horizon[len(r.Log)]]
	return t.Record, nil
}

// told is a record told to an audience (Tell), with every entry of its log
// and horizon[n], how many of them the audience receives of the first n
// (an entry told is the same whatever follows it).
type told struct {
	Record
	horizon []int
}

func (r Record) tell(audience int) (told, error) {
	t, err := r.Telling(audience)
	if err != nil {
		return told{}, err
	}
	return t.told, nil
}

// Telling is a record told to one audience as its log grows: what Tell
// returns for each longer log, at the cost of the entries added. An entry
// told is the same whatever follows it, so a follower of a long match
// (the match API's log, asked again at each change) is told each entry
// once rather than the whole log again at every ask.
//
// A Telling is not safe for concurrent use; what Record returns is never
// changed by what is added after.
type Telling struct {
	told     told
	g        *Game
	audience int
	start    int // where the secrets in progress began
	hands    []state.CardSet
	err      error // an entry that did not replay: the telling is over
}

// Telling starts telling r to audience (Public, or a seat): r's log is
// told, as Tell tells it; Add tells the entries that follow.
func (r Record) Telling(audience int) (*Telling, error) {
	if r.Told {
		return nil, fmt.Errorf("engine: tell: the record is told to %s already", AudienceName(r.Audience))
	}
	if r.Sealed && r.Setup.Deal == nil {
		return nil, errors.New("engine: tell: the record withholds its seed and lacks the deal drawn from it")
	}
	g, err := NewGame(r.Setup)
	if err != nil {
		return nil, fmt.Errorf("engine: tell: %w", err)
	}
	if audience < Public || audience >= len(g.State.Seats) {
		return nil, fmt.Errorf("engine: tell: no seat %d in a match of %d", audience, len(g.State.Seats))
	}
	t := &Telling{g: g, audience: audience, hands: make([]state.CardSet, len(g.State.Seats)),
		told: told{Record: Record{Setup: tellSetup(g.Setup, r.Sealed, audience), Commitment: r.Commitment, Sealed: true, Told: true, Audience: audience, Log: []Entry{}},
			horizon: make([]int, 1, len(r.Log)+1)}}
	if t.told.Commitment == "" && !r.Sealed {
		t.told.Commitment = Commitment(r.Setup.Seed)
	}
	if err := t.Add(r.Log...); err != nil {
		return nil, err
	}
	return t, nil
}

// Len is how many entries of the log the telling has read: the record's
// and those added.
func (t *Telling) Len() int { return len(t.told.horizon) - 1 }

// Record is what Tell returns for the log read so far.
func (t *Telling) Record() Record {
	r := t.told.Record
	h := t.told.horizon[t.Len()]
	r.Log = r.Log[:h:h]
	return r
}

// Add tells log entries that follow those read. An entry that does not
// replay ends the telling: this Add and every later one fail.
func (t *Telling) Add(log ...Entry) error {
	if t.err != nil {
		return t.err
	}
	if t.g.Setup.Options.Fog {
		// Every command names territories, and draws dice, that some
		// do not see: the log waits for the end.
		for range log {
			t.told.horizon = append(t.told.horizon, 0)
		}
		return nil
	}
	g, hands := t.g, t.hands
	for _, e := range log {
		i := t.Len()
		for p := range hands {
			hands[p] = g.State.Seats[p].Hand
		}
		turn, phase := g.State.Turn, g.State.Phase
		d := dice{rng: &g.State.RNG, strict: true, replay: e.Rand, tell: true}
		ev, err := g.apply(e.Seat, e.Cmd, &d)
		if err == nil {
			err = d.done()
		}
		if err != nil {
			t.err = fmt.Errorf("engine: tell: entry %d: %w", i+1, err)
			return t.err
		}
		t.told.Log = append(t.told.Log, tellEntry(e, ev, d.secrets, hands, g.State.Options.Rules, t.audience))
		if g.State.Turn != turn || g.State.Phase != phase {
			t.start = i + 1
		}
		h := i + 1
		if s := g.State; s.Phase == state.PhaseOrders || (s.Phase == state.PhaseSetup && s.Options.Rules == state.Classic) {
			// Everyone acts at once and in secret: it shows when it
			// resolves.
			h = t.start
		}
		t.told.horizon = append(t.told.horizon, h)
	}
	return nil
}

// AudienceName names an audience for messages: "the public", "seat 2".
func AudienceName(a int) string {
	if a == Public {
		return "the public"
	}
	return fmt.Sprintf("seat %d", a)
}

// tellSetup is setup as audience receives it: without its seed, with its
// generated map's name (drawn one way from the seed), and with only the
// audience's own secret mission.
func tellSetup(setup Setup, sealed bool, audience int) Setup {
	if !sealed {
		setup.Options.Map = matchMap(setup.Options, setup.Seed)
	}
	setup.Seed = 0
	if setup.Deal != nil && len(setup.Deal.Missions) > 0 {
		deal := *setup.Deal
		deal.Missions = slices.Clone(deal.Missions)
		for i := range deal.Missions {
			if i != audience {
				deal.Missions[i] = Withheld
			}
		}
		setup.Deal = &deal
	}
	return setup
}

// tellEntry is entry e, which drew secrets and gave events ev from hands
// (the seats' hands as it began), as audience a receives it.
func tellEntry(e Entry, ev []Event, secrets []secretDraw, hands []state.CardSet, rules state.Rules, a int) Entry {
	out := Entry{Seat: e.Seat, Cmd: e.Cmd, Rand: e.Rand}
	withhold := func(pos int) {
		if out.Rand[pos] == Withheld {
			return
		}
		if &out.Rand[0] == &e.Rand[0] {
			out.Rand = slices.Clone(e.Rand)
		}
		out.Rand[pos] = Withheld
	}
	var seen Seen
	// The items that appeared in this entry, and who collected them.
	spawned := map[int]state.Item{}
	collector := map[int]int{}
	owner := make([]int, len(hands)) // where each hand went
	for p := range owner {
		owner[p] = p
	}
	for _, x := range ev {
		switch x := x.(type) {
		case ItemSpawned:
			spawned[x.Territory] = x.Kind
		case ItemCollected:
			if _, fresh := spawned[x.Territory]; fresh {
				collector[x.Territory] = x.Seat
			} else if !x.Kind.Kept() || x.Seat == a {
				seen.Items = append(seen.Items, SeenItem{Territory: x.Territory, Kind: x.Kind})
			}
		case ItemUsed:
			if x.Seat != a {
				seen.Used = append(seen.Used, SeenUse(x))
			}
		case Surrendered:
			if rules == state.Classic && x.Seat != a && !hands[x.Seat].Empty() {
				seen.Hands = append(seen.Hands, SeenHand{Seat: x.Seat, Cards: hands[x.Seat]})
			}
		case Eliminated:
			for p := range owner {
				if owner[p] == x.Seat {
					owner[p] = x.By
				}
			}
		}
	}
	for p, o := range owner {
		if o == a && p != a && !hands[p].Empty() {
			seen.Hands = append(seen.Hands, SeenHand{Seat: p, Cards: hands[p]})
		}
	}
	for _, sd := range secrets {
		if sd.card {
			withhold(sd.pos)
			if sd.seat == a {
				seen.Drawn = append(seen.Drawn, sd.drawn)
			}
			continue
		}
		kind := spawned[sd.territory]
		by, collected := collector[sd.territory]
		if kind == state.ItemFat || collected && (!kind.Kept() || by == a) {
			continue // on the map for all to see, or at once in a hand
		}
		withhold(sd.pos)
	}
	if !seen.empty() {
		out.Seen = &seen
	}
	return out
}
