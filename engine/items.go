package engine

import (
	"slices"

	"github.com/riskbot/riskbot/state"
)

// The item draw of RULES.md section 2: the chance in percent that an item
// appears at the start of a turn, the weights of its place, and the
// chances of its category.
const (
	itemChance     = 12
	fortressWeight = 2
	neutralWeight  = 1
	bonusChance    = 85 // then malus 10, fat 5
	malusChance    = 10
)

var (
	bonusKinds = []state.Item{state.ItemDistant, state.ItemFullPower, state.ItemAttackPort, state.ItemTwoTurns, state.ItemTroopBonus}
	malusKinds = []state.Item{state.ItemTroopMalus, state.ItemLoseLand}
)

// turnItems ages the items lying on the map, removing those whose time is
// up, then draws the turn's item: with probability 12% one appears on a
// neutral territory (weight 1) or a fortress (weight 2) that holds none. An
// owned fortress's owner collects it at once.
func turnItems(s *state.State, d *dice) []Event {
	var ev []Event
	for t := range s.Terr {
		tr := &s.Terr[t]
		if tr.Item == state.NoItem {
			continue
		}
		tr.ItemAge++
		if tr.ItemAge > state.ItemLife {
			tr.Item, tr.ItemAge = state.NoItem, 0
			ev = append(ev, ItemVanished{Territory: t})
		}
	}
	if d.intn(100) >= itemChance {
		return ev
	}
	total := 0
	for t := range s.Terr {
		total += itemWeight(s, t)
	}
	if total == 0 {
		return ev
	}
	pick := d.intn(total)
	t := 0
	for ; t < len(s.Terr); t++ {
		if pick -= itemWeight(s, t); pick < 0 {
			break
		}
	}
	var kind state.Item
	switch c := d.item(100, t); {
	case c < bonusChance:
		kind = bonusKinds[d.item(len(bonusKinds), t)]
	case c < bonusChance+malusChance:
		kind = malusKinds[d.item(len(malusKinds), t)]
	default:
		kind = state.ItemFat
	}
	s.Terr[t].Item, s.Terr[t].ItemAge = kind, 1
	ev = append(ev, ItemSpawned{Territory: t, Kind: kind})
	if o := s.Terr[t].Owner; o != state.Neutral {
		ev = append(ev, collect(s, o, t, d)...)
	}
	return ev
}

// itemWeight is territory t's weight in the draw of an item's place.
func itemWeight(s *state.State, t int) int {
	switch {
	case s.Terr[t].Item != state.NoItem:
		return 0
	case s.Map.Territories[t].Fortress:
		return fortressWeight
	case s.Terr[t].Owner == state.Neutral:
		return neutralWeight
	}
	return 0
}

// collect gives seat the item lying on t, if any: a kept item replaces the
// one in the inventory; the others act at once.
func collect(s *state.State, seat, t int, d *dice) []Event {
	kind := s.Terr[t].Item
	if kind == state.NoItem {
		return nil
	}
	s.Terr[t].Item, s.Terr[t].ItemAge = state.NoItem, 0
	ev := []Event{ItemCollected{Seat: seat, Territory: t, Kind: kind}}
	switch kind {
	case state.ItemTroopBonus:
		ev = append(ev, scaleTroops(s, seat, +10))
	case state.ItemTroopMalus:
		ev = append(ev, scaleTroops(s, seat, -10))
	case state.ItemLoseLand:
		ev = append(ev, loseLand(s, seat, d)...)
	case state.ItemFat:
		ev = append(ev, fatBonus(s, seat)...)
	default:
		s.Seats[seat].Capitals.Item = kind
	}
	return ev
}

// scaleTroops changes the troops on every territory of seat by percent: a
// bonus rounds up (every troop counts), a malus rounds down.
func scaleTroops(s *state.State, seat, percent int) Event {
	change := 0
	for t := range s.Terr {
		tr := &s.Terr[t]
		if tr.Owner != seat {
			continue
		}
		var c int
		if percent > 0 {
			c = (tr.Armies*percent + 99) / 100
		} else {
			c = -(tr.Armies * -percent / 100)
		}
		tr.Armies += c
		change += c
	}
	return TroopsScaled{Seat: seat, Percent: percent, Change: change}
}

// biggest returns seat's territories by troops, most first (lowest id
// first among equals).
func biggest(s *state.State, seat int) []int {
	var ts []int
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			ts = append(ts, t)
		}
	}
	slices.SortStableFunc(ts, func(a, b int) int { return s.Terr[b].Armies - s.Terr[a].Armies })
	return ts
}

// loseLand turns one of seat's territories, drawn at random, neutral with
// its troops; never its capital nor its biggest territory.
func loseLand(s *state.State, seat int, d *dice) []Event {
	ts := biggest(s, seat)
	if len(ts) > 0 {
		ts = ts[1:]
	}
	capital := s.Capital(seat)
	ts = slices.DeleteFunc(ts, func(t int) bool { return t == capital })
	if len(ts) == 0 {
		return nil
	}
	slices.Sort(ts) // the draw must not depend on the sort's tie order
	t := ts[d.intn(len(ts))]
	s.Terr[t].Owner = state.Neutral
	ev := []Event{TerritoryLost{Seat: seat, Territory: t}}
	if s.Hero(seat) == t {
		ev = append(ev, heroDies(s, seat, t)...)
	}
	return ev
}

// fatBonus gives seat the biggest territory of each of the two other seats
// with the most troops (their second biggest if the biggest is their
// capital), with its troops; a hero standing there dies.
func fatBonus(s *state.State, seat int) []Event {
	var others []int
	for i := range s.Seats {
		// Teammates never take from each other (docs/rules.md, "Teams").
		if i != seat && s.Seats[i].Alive() && !s.Sides().Teammates(i, seat) {
			others = append(others, i)
		}
	}
	slices.SortStableFunc(others, func(a, b int) int { return s.Armies(b) - s.Armies(a) })
	var ev []Event
	for _, v := range others[:min(2, len(others))] {
		for _, t := range biggest(s, v) {
			if t == s.Capital(v) {
				continue
			}
			s.Terr[t].Owner = seat
			ev = append(ev, Seized{Seat: seat, Victim: v, Territory: t, Troops: s.Terr[t].Armies})
			if s.Hero(v) == t {
				ev = append(ev, heroDies(s, v, t)...)
			}
			break
		}
	}
	return append(ev, unlockHero(s, seat)...)
}
