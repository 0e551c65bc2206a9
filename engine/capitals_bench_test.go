package engine

import (
	"testing"

	"github.com/riskbot/riskbot/state"
)

// midCapitals returns a 4-player capitals game on a normal map some turns
// into play, in the action phase of a seat that can plan an attack if one
// is found within the first turns.
func midCapitals(b *testing.B) *Game {
	return playRandomUntil(b, state.CapitalsOptions(), 16, randomCapitalsMove)
}

// BenchmarkCapitalsLaunch plans one attack and launches it (luck drawn,
// damage done, events), from a prepared action phase.
func BenchmarkCapitalsLaunch(b *testing.B) {
	s := capBoard(b, twoCapitals+"\nAlba: Ann 40 capital\nBrin: Bob 1")
	b.ReportAllocs()
	for b.Loop() {
		s.Phase = state.PhaseAction
		s.Terr[I("Brin")] = state.Terr{Owner: 1, Armies: 1}
		if _, err := Apply(s, 0, Plan{I("Alba"), I("Brin")}); err != nil {
			b.Fatal(err)
		}
		if _, err := Apply(s, 0, Launch{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCapitalsClone(b *testing.B) {
	s := midCapitals(b).State
	b.ReportAllocs()
	for b.Loop() {
		sink = s.Clone()
	}
}

func BenchmarkCapitalsLegal(b *testing.B) {
	s := midCapitals(b).State
	for s.Phase != state.PhaseAction {
		if _, err := Apply(s, s.Current, Legal(s, s.Current)[0]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Legal(s, s.Current)
	}
}

// BenchmarkCapitalsRandomGame plays a whole 4-player capitals game of
// random legal play on a normal map (generated once, as the host caches it),
// without recording a log.
func BenchmarkCapitalsRandomGame(b *testing.B) {
	o := state.CapitalsOptions()
	o.Map = MatchMap("normal", 1)
	benchRandomGames(b, o, randomCapitalsMove)
}
