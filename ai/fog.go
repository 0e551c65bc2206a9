package ai

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// GuessFog returns a whole board guessed from view, a view with fog of war
// (state.State.Fogged): the computer players reason over it rather than
// over a board with holes, and so never see what their seat does not.
//
// Each seat's territories out of sight (the view keeps how many, and their
// armies) are placed nearest to those of its territories in sight, spreading
// out from them turn by turn across the fog; the seats seen nowhere take
// what is left, in one block each. Most of a seat's armies stand in one
// stack, on its capital if it is out of sight, the rest mostly on its
// borders. Fogged territories nobody is given are neutral, with one army
// (a classic neutral) or the rule set's most troops. Capitals are where
// they were chosen (that is public). The guess uses the view alone:
// what a player remembers of earlier turns is not kept, so that a computer
// player decides the same before and after a restart.
func GuessFog(view *state.State, seat int) *state.State {
	return guessFog(view.Clone(), nil)
}

// guessFog fills in the fog of s, a view, in place, and returns it. With
// rng nil it is GuessFog's one guess; with a generator it draws one of
// many plausible boards around that guess (hard's samples,
// determinizeInto and determinizeCapitals): in classic, a continent whose
// territories in sight are all one seat's goes to that seat whole half the
// time; the fog at the edge of sight goes to a seat in sight around it in
// proportion to its neighbours there, the seats take turns spreading in an order drawn each round, a
// seat's stack is drawn by weight, and the armies' shares are jittered. A
// search over one guess plays every sample on the same mistakes and
// takes them for the truth; over many, it weighs what the view leaves
// open.
func guessFog(s *state.State, rng *rand.Rand) *state.State {
	n := len(s.Terr)
	capitals := s.Options.Rules == state.Capitals
	left := make([]int, len(s.Seats))
	for i := range s.Seats {
		left[i] = s.Seats[i].HiddenTerritories
	}
	guessed := make([]int, n) // the seat given each fogged territory, or -2 while none
	open := 0
	for t := range s.Terr {
		guessed[t] = state.Neutral
		if s.Terr[t].Fog {
			guessed[t] = -2
			open++
		}
	}
	// Capitals stay where they were chosen, in plain sight or not.
	for i := range s.Seats {
		if c := s.Capital(i); c >= 0 && s.Terr[c].Fog && s.Seats[i].Alive() && left[i] > 0 {
			guessed[c] = i
			left[i]--
			open--
		}
	}
	// A sample gives a continent whose territories in sight are all one
	// seat's to that seat whole, half the time: the players go for
	// continents and keep them, and the spreading below found only 57% of
	// the continents held whole across a seat's fog in matches of four
	// normal players (docs/ai.md, "Fog of war"). The guess itself, which
	// every level's commands are made on, keeps to the spreading.
	if rng != nil && !capitals {
		completeContinents(s, guessed, left, rng)
		open = 0
		for _, o := range guessed {
			if o == -2 {
				open++
			}
		}
	}
	// Spread out from the territories in sight, one step a round for every
	// seat, each claiming the fogged neighbours of its region while it has
	// territories to place.
	frontier := make([][]int, len(s.Seats))
	for t := range s.Terr {
		if o := s.Terr[t].Owner; o >= 0 && !s.Terr[t].Fog {
			frontier[o] = append(frontier[o], t)
		} else if o := guessed[t]; o >= 0 && s.Terr[t].Fog {
			frontier[o] = append(frontier[o], t)
		}
	}
	claim := func(i, t int) {
		guessed[t] = i
		left[i]--
		open--
	}
	// The fog at the edge of sight first: each fogged territory goes to
	// the seat with the most territories in sight around it, which is
	// likeliest to hold it (and whose defence counts it, in capitals).
	for t := range s.Terr {
		if guessed[t] != -2 {
			continue
		}
		best, most, all := -1, 0, 0
		for i := range s.Seats {
			n := 0
			for _, nb := range s.Map.Territories[t].Adj {
				if !s.Terr[nb].Fog && s.Terr[nb].Owner == i {
					n++
				}
			}
			if left[i] == 0 || n == 0 {
				continue
			}
			all += n
			switch {
			case rng != nil:
				// Reservoir draw in proportion to n.
				if rng.IntN(all) < n {
					best = i
				}
			case n > most:
				best, most = i, n
			}
		}
		if best >= 0 {
			claim(best, t)
			frontier[best] = append(frontier[best], t)
		}
	}
	for grew := true; grew && open > 0; {
		grew = false
		first := 0
		if rng != nil {
			first = rng.IntN(len(s.Seats))
		}
		for k := range s.Seats {
			i := (first + k) % len(s.Seats)
			var next []int
			for _, t := range frontier[i] {
				for _, nb := range s.Map.Territories[t].Adj {
					if left[i] > 0 && guessed[nb] == -2 {
						claim(i, nb)
						next = append(next, nb)
					}
				}
			}
			frontier[i] = next
			grew = grew || len(next) > 0
		}
	}
	// Seats seen nowhere, or hemmed in: a block each from the first free
	// territory.
	for i := range s.Seats {
		for left[i] > 0 && open > 0 {
			t := 0
			for guessed[t] != -2 {
				t++
			}
			claim(i, t)
			for q := []int{t}; len(q) > 0 && left[i] > 0; q = q[1:] {
				for _, nb := range s.Map.Territories[q[0]].Adj {
					if left[i] > 0 && guessed[nb] == -2 {
						claim(i, nb)
						q = append(q, nb)
					}
				}
			}
		}
	}
	// A player keeps its armies in one stack: out of the others' sight,
	// four normal players kept 87% of a seat's armies above the least on
	// its biggest territory in classic, 70% in capitals. So most of a
	// seat's unseen armies (stackShare) go to one territory: its capital
	// if it lies in the fog (in capitals, 44% of the unseen troops were
	// on one), else the one where its armies are likeliest to stand, by
	// weight (the guess: the first of the heaviest; a sample: drawn by
	// weight). The rest are shared by weight: 6 on a fogged territory next
	// to the board in sight, 7 on one that borders another side's (as
	// guessed), 1 inside its lands (in capitals 5, 5 and 1), as the
	// armies above the least stood there (classic: 0.66, 0.74 and 0.11 a
	// territory; capitals 14.2, 12.2 and 2.7). The capitals players never
	// rely on the guess's defences (fogMargins).
	wNear, wBorder := 6, 7
	if capitals {
		wNear, wBorder = 5, 5
	}
	owner := func(t int) int {
		if s.Terr[t].Fog {
			return guessed[t]
		}
		return s.Terr[t].Owner
	}
	weight := make([]int, n)
	per := make([]int, len(s.Seats))
	stack := make([]int, len(s.Seats)) // the territory of each seat's stack, or -1
	for i := range s.Seats {
		stack[i] = -1
		if c := s.Capital(i); capitals && c >= 0 && s.Terr[c].Fog && guessed[c] == i {
			stack[i] = c
		}
	}
	heaviest := make([]int, len(s.Seats))
	for t := range s.Terr {
		o := guessed[t]
		if o < 0 || !s.Terr[t].Fog {
			continue
		}
		weight[t] = 1
		for _, nb := range s.Map.Territories[t].Adj {
			if !s.Terr[nb].Fog {
				weight[t] = wNear
				break
			}
			if owner(nb) != o {
				weight[t] = wBorder
			}
		}
		if rng != nil {
			weight[t] = max(1, weight[t]/2+rng.IntN(weight[t]+1))
		}
		per[o] += weight[t]
		if capitals && stack[o] >= 0 && s.Capital(o) == stack[o] {
			continue // the capital holds the stack
		}
		switch {
		case rng != nil:
			if rng.IntN(per[o]) < weight[t] {
				stack[o] = t
			}
		case weight[t] > heaviest[o]:
			stack[o], heaviest[o] = t, weight[t]
		}
	}
	// A hero out of sight is on the stack in a sample. The view shows an
	// unlocked hero out of sight as it shows a dead one (none), but a hero
	// dies only with its territory, halving its owner's troops, and the
	// players move it with their stack: without it, every sample played
	// each unseen hero as dead, its 20% of its owner's troops missing from
	// the defence and the attacks of the stack. The guess, which every
	// level's commands are made on, keeps to the view.
	if capitals && rng != nil {
		for i := range s.Seats {
			if c := &s.Seats[i].Capitals; c.HeroWon && c.Hero == 0 && stack[i] >= 0 && s.Seats[i].Alive() {
				c.Hero = int16(stack[i] + 1)
			}
		}
	}
	given := make([]int, len(s.Seats))   // armies given so far
	counted := make([]int, len(s.Seats)) // weight given so far
	least, neutral := 1, 1               // a classic territory holds an army at least
	stackShare := 4                      // fifths of the armies above the least
	if capitals {
		least, neutral, stackShare = 0, s.Options.NeutralMax, 3
	}
	spare := make([]int, len(s.Seats))   // the armies above the least
	onStack := make([]int, len(s.Seats)) // of which on the stack
	for i := range s.Seats {
		spare[i] = s.Seats[i].HiddenArmies - least*s.Seats[i].HiddenTerritories
		if stack[i] >= 0 {
			onStack[i] = spare[i] * stackShare / 5
			spare[i] -= onStack[i]
		}
	}
	for t := range s.Terr {
		if !s.Terr[t].Fog {
			continue
		}
		o := guessed[t]
		if o < 0 {
			s.Terr[t] = state.Terr{Owner: state.Neutral, Armies: neutral}
			continue
		}
		// Cumulative shares, so that the armies add up exactly.
		counted[o] += weight[t]
		a := spare[o]*counted[o]/per[o] - given[o]
		given[o] += a
		if stack[o] == t {
			a += onStack[o]
		}
		s.Terr[t] = state.Terr{Owner: o, Armies: least + a}
	}
	for i := range s.Seats {
		s.Seats[i].HiddenTerritories, s.Seats[i].HiddenArmies = 0, 0
	}
	// The guess is a whole board: the players' own views of it (their
	// search's) must not fog it again.
	s.Options.Fog = false
	return s
}

// completeContinents gives, in guessed (the seat given each fogged
// territory of s, -2 while none), each continent that has fog in it and
// whose territories in sight are all one seat's, with probability one
// half, whole to that seat, when it has that many territories out of sight
// left to place (left, which it lowers), the continents with the least fog
// first.
func completeContinents(s *state.State, guessed, left []int, rng *rand.Rand) {
	type whole struct{ c, fog, holder int }
	var conts []whole
	for c, ct := range s.Map.Continents {
		h, fog := -1, 0
		for _, t := range ct.Territories {
			switch o := s.Terr[t].Owner; {
			case guessed[t] == -2:
				fog++
			case s.Terr[t].Fog:
				// given already (a capital)
				h = -3
			case h == -1:
				h = o
			case h != o:
				h = -3
			}
		}
		if h >= 0 && fog > 0 && rng.IntN(2) == 0 {
			conts = append(conts, whole{c, fog, h})
		}
	}
	slices.SortStableFunc(conts, func(a, b whole) int { return cmp.Compare(a.fog, b.fog) })
	for _, w := range conts {
		c, o := w.c, w.holder
		if left[o] < w.fog {
			continue
		}
		for _, t := range s.Map.Continents[c].Territories {
			if guessed[t] == -2 {
				guessed[t] = o
				left[o]--
			}
		}
	}
}

// unseen is, for a board guessed from a capitals view with fog of war,
// how much more each territory's defence total may be in truth than on
// the guess (fogMargins), in state.PowerUnits: the players add it to a
// defence before they plan an attack on it, so that the strictly-greater
// rule holds whatever the fog hides, and the engine never refuses one of
// their plans. It is nil without fog, and reads as 0 everywhere.
type unseen []int

// blind is the margin of a territory out of sight: its owner is not
// known (it may be neutral), so it is never attacked. A defence plus blind
// still fits an int.
const blind = math.MaxInt / 4

// defence is t's defence total on s (the guess, or a board played on from
// it this turn) raised by what the fog may hide around t.
func (u unseen) defence(s *state.State, t int) int {
	d := s.DefenceTotal(t)
	if u != nil {
		d += u[t]
	}
	return d
}

// ahead is t's defence as the seat weighs a way to reach it later (a
// port): defence where t is in sight; out of sight the guess's, since the
// way there will bring t into sight before any attack on it.
func (u unseen) ahead(s *state.State, t int) int {
	if u != nil && u[t] >= blind {
		return s.DefenceTotal(t)
	}
	return u.defence(s, t)
}

// fogMargins returns the margins of guess, a board guessed from view
// (GuessFog) for seat. A territory in sight, of another side, may have
// around it out of sight, in the worst case, all of its owner's troops
// that the view does not place (the view tells how many, not where: one
// territory may hold them all), counted whole if one of the unseen
// territories borders it and half if one only reaches it by sea (a port
// the fog hides), and its owner's hero, which counts 20% of all the
// owner's troops, when the hero may stand unseen there. The margin is that
// worst case less what the guess puts around t. A territory out of sight
// gets blind. Without this, plans made on the guess met defences stronger
// than guessed: 2 to 3 plans a game refused in matches of normal
// players (docs/ai.md, "Capitals with fog").
func fogMargins(view, guess *state.State, seat int) unseen {
	if !view.Fogged() || view.Options.Rules != state.Capitals {
		return nil
	}
	u := make(unseen, len(view.Terr))
	for t := range view.Terr {
		if view.Terr[t].Fog {
			u[t] = blind
			continue
		}
		o := view.Terr[t].Owner
		if o < 0 || view.Sides().Same(o, seat) || view.Seats[o].HiddenTerritories == 0 {
			continue
		}
		// The most any one unseen territory may add, in halves of its
		// troops: 2 if it borders t, 1 more if its port reaches t.
		most := 0
		tm := &view.Map.Territories[t]
		for _, n := range tm.Adj {
			if view.Terr[n].Fog {
				most = 2
				break
			}
		}
		for _, n := range tm.Sea {
			if !view.Terr[n].Fog {
				continue
			}
			w := 1
			if view.Map.Adjacent(t, n) {
				w = 3
			}
			most = max(most, w)
		}
		if most == 0 {
			continue
		}
		worst := view.DefenceTotal(t) + view.Seats[o].HiddenArmies*state.PowerUnit*most/2
		if view.Hero(o) < 0 && view.Seats[o].Capitals.HeroWon {
			// A hero unlocked and not in sight may stand next to t.
			worst += view.Armies(o) * state.PowerUnit / 5
		}
		u[t] = max(0, worst-guess.DefenceTotal(t))
	}
	return u
}

// bold returns u's margins for a bold plan (capPlan.bold): none where the
// territory is in sight (the guess's defence is the one planned against),
// blind out of sight as before.
func (u unseen) bold() unseen {
	if u == nil {
		return nil
	}
	b := make(unseen, len(u))
	for t, m := range u {
		if m >= blind {
			b[t] = blind
		}
	}
	return b
}

// boldDefences returns the defences a bold plan beats on guess, the board
// guessed from the view whose margins are u: the guess's, blind out of
// sight (nil without fog).
func boldDefences(guess *state.State, u unseen) []int {
	if u == nil {
		return nil
	}
	b := u.bold()
	def := make([]int, len(u))
	for t := range def {
		def[t] = b.defence(guess, t)
	}
	return def
}

// boldOn fills u (as long as def) with the margins on s, a sample of
// hard's search, that make each territory's defence the guess's (def,
// blind out of sight), so that a bold plan attacks on every sample as on
// the guess in play, and returns it. A margin may be negative: the sample
// may hold less there than the guess.
func boldOn(u unseen, s *state.State, def []int) unseen {
	for t, d := range def {
		if d >= blind {
			u[t] = blind
			continue
		}
		u[t] = d - s.DefenceTotal(t)
	}
	return u
}

// sightMargins is fogMargins for seat on s, a whole board played on in a
// playout of a match with fog of war: the margins seat would plan with
// were it deciding in that position from its own view, with s (which the
// playout's players read whole) as its guess. scratch holds the view.
func sightMargins(s *state.State, seat int, scratch *state.State) unseen {
	if s.Options.Rules != state.Capitals || s.Phase == state.PhaseSetup || s.Phase == state.PhaseOver {
		return nil
	}
	// A sample is a whole board (guessFog turns the option off, so that
	// nobody fogs it again); its view as the seat would have it needs the
	// option back for a moment.
	fog := s.Options.Fog
	s.Options.Fog = true
	v := s.ViewInto(scratch, seat)
	s.Options.Fog = fog
	return fogMargins(v, s, seat)
}
