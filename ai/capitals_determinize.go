package ai

import (
	"math/rand/v2"

	"github.com/riskbot/riskbot/state"
)

// determinizeCapitals turns seat's view of a capitals match into a full
// state the engine can play: every item whose kind the seat cannot see is
// given a kind drawn as plausibly as the view allows, and the generator
// is seeded from rng. It never reads the real kinds (a view has none):
//
//   - an item lying on the map that does not look like the fat bonus is
//     drawn as the engine draws a new item, the fat bonus excepted:
//     bonuses 85/95, maluses 10/95, uniform inside each category;
//   - an item in another seat's inventory can only be a kept one, and the
//     four kept kinds are equally likely (uniform inside the bonuses).
func determinizeCapitals(view *state.State, seat int, rng *rand.Rand) *state.State {
	if !view.Hidden {
		view = view.View(seat)
	}
	s := view.Clone()
	if s.Fogged() {
		// A view with fog of war (hard's, decideCapitalsFog): each sample
		// draws the board the fog hides too.
		guessFog(s, rng)
	}
	for i := range s.Seats {
		if s.Seats[i].Capitals.Item == state.ItemHidden {
			s.Seats[i].Capitals.Item = keptKinds[rng.IntN(len(keptKinds))]
		}
	}
	for t := range s.Terr {
		if s.Terr[t].Item == state.ItemHidden {
			s.Terr[t].Item = groundItem(rng)
		}
	}
	s.Hidden = false
	s.Viewer = seat
	s.RNG = state.RNG{Seed: rng.Uint64()}
	return s
}

var (
	keptKinds  = []state.Item{state.ItemDistant, state.ItemFullPower, state.ItemAttackPort, state.ItemTwoTurns}
	bonusKinds = []state.Item{state.ItemDistant, state.ItemFullPower, state.ItemAttackPort, state.ItemTwoTurns, state.ItemTroopBonus}
	malusKinds = []state.Item{state.ItemTroopMalus, state.ItemLoseLand}
)

// groundItem draws the kind of an item that lies on the map and does not
// look like the fat bonus (RULES.md: 85% bonus, 10% malus, 5% fat).
func groundItem(rng *rand.Rand) state.Item {
	if rng.IntN(95) < 85 {
		return bonusKinds[rng.IntN(len(bonusKinds))]
	}
	return malusKinds[rng.IntN(len(malusKinds))]
}
