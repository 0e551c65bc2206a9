package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

func TestIslandsSize(t *testing.T) {
	for _, tt := range []struct {
		name string
		want genmap.Size
		ok   bool
	}{
		{"islands-small", genmap.Small, true},
		{"islands-normal", genmap.Normal, true},
		{"islands-large", genmap.Large, true},
		{"Islands-Large", genmap.Large, true},
		{"islands-", 0, false},
		{"islands", 0, false},
		{"islands-huge", 0, false},
		{"large", 0, false},
		{"classic", 0, false},
		{"", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := IslandsSize(tt.name)
			if got != tt.want || ok != tt.ok {
				t.Errorf("IslandsSize(%q) = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestMatchMapNames checks what a match's map option becomes, by rules.
func TestMatchMapNames(t *testing.T) {
	const seed = 77
	gen := func(z genmap.Size) string { return genmap.Name(MapSeed(seed), z) }
	for _, tt := range []struct {
		rules state.Rules
		name  string
		want  string
	}{
		{state.Classic, "classic", "classic"},
		{state.Classic, "islands-small", LanesName(gen(genmap.Small))},
		{state.Classic, "islands-large", LanesName(gen(genmap.Large))},
		{state.Classic, "large", "large"}, // a capitals name: LoadMap refuses it
		{state.Classic, LanesName(gen(genmap.Normal)), LanesName(gen(genmap.Normal))},
		{state.Capitals, "", gen(genmap.Normal)},
		{state.Capitals, "small", gen(genmap.Small)},
		{state.Capitals, "islands-large", gen(genmap.Large)},
		{state.Capitals, gen(genmap.Large), gen(genmap.Large)},
	} {
		t.Run(tt.rules.String()+"/"+tt.name, func(t *testing.T) {
			if got := matchMap(state.Options{Rules: tt.rules, Map: tt.name}, seed); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLanesMap checks the classic board made from generated maps: every
// sea link a border, no sea links left, no fortresses, the rest the
// generated map's; one name per map, loaded from its name alone.
func TestLanesMap(t *testing.T) {
	for _, z := range genmap.Sizes() {
		// Seeds 1 (small), 7 (normal) and 12 (large) give two islands or
		// more: only lanes join them.
		for _, seed := range []uint64{1, 7, 12, 3} {
			gen := genmap.Name(seed, z)
			name := LanesName(gen)
			g, err := LoadMap(gen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := LoadMap(name)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := LoadMap(name); again != m {
				t.Errorf("%s: loaded twice, two maps: want one, memoized", name)
			}
			if m.Name != name || m.Title != g.Title || m.Grid != g.Grid || m.Len() != g.Len() || len(m.Continents) != len(g.Continents) {
				t.Fatalf("%s: got %s %q grid %p, %d territories, %d continents; want %s %q grid %p, %d, %d",
					name, m.Name, m.Title, m.Grid, m.Len(), len(m.Continents), name, g.Title, g.Grid, g.Len(), len(g.Continents))
			}
			for i, c := range m.Continents {
				if c.Name != g.Continents[i].Name || c.Bonus != g.Continents[i].Bonus || !slices.Equal(c.Territories, g.Continents[i].Territories) {
					t.Errorf("%s: continent %d is %+v, want %+v", name, i, c, g.Continents[i])
				}
			}
			lanes := 0
			for i, tm := range m.Territories {
				gt := g.Territories[i]
				want := slices.Sorted(slices.Values(slices.Concat(gt.Adj, gt.Sea)))
				if tm.Name != gt.Name || tm.Terrain != gt.Terrain || tm.Continent != gt.Continent || !slices.Equal(tm.Adj, want) {
					t.Errorf("%s: territory %d is %s %v in %d borders %v; want %s %v in %d borders %v",
						name, i, tm.Name, tm.Terrain, tm.Continent, tm.Adj, gt.Name, gt.Terrain, gt.Continent, want)
				}
				if len(tm.Sea) > 0 || tm.Fortress || tm.Coast {
					t.Errorf("%s: %s has sea links %v, fortress %v, coast %v: want none (classic rules)", name, tm.Name, tm.Sea, tm.Fortress, tm.Coast)
				}
				for _, b := range tm.Adj {
					if m.SeaLinked(i, b) || !m.Adjacent(i, b) {
						t.Errorf("%s: %s–%s: want a border, not a sea link", name, tm.Name, m.Territories[b].Name)
					}
				}
				lanes += len(gt.Sea)
			}
			if lanes == 0 {
				t.Errorf("%s: no sea links to make lanes of", gen)
			}
			if seed == []uint64{1, 7, 12}[z] && landParts(g) < 2 {
				t.Errorf("%s: one island by its borders, want two or more (the case lanes must join)", gen)
			}
			if n := landParts(m); n != 1 {
				t.Errorf("%s: %d parts by its borders, want 1", name, n)
			}
		}
	}
}

// landParts counts the parts of m joined by borders alone.
func landParts(m *state.Map) int {
	seen := make([]bool, m.Len())
	parts := 0
	for s := range seen {
		if seen[s] {
			continue
		}
		parts++
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range m.Territories[t].Adj {
				if !seen[n] {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
	}
	return parts
}

func TestLanesNamesAreExact(t *testing.T) {
	good := LanesName(genmap.Name(5, genmap.Normal))
	for _, name := range []string{
		good + "-lanes",
		strings.ToUpper(good),
		strings.Replace(good, "-lanes", "-Lanes", 1),
		strings.Replace(good, "normal", "huge", 1),
		strings.Replace(good, "0000000000000005", "5", 1),
		"islands-normal-lanes",
		"-lanes",
	} {
		if _, ok := parseLanesName(name); ok {
			t.Errorf("parseLanesName(%q) accepted it: want one name per map", name)
		}
		if _, err := LoadMap(name); err == nil {
			t.Errorf("LoadMap(%q) = a map, want an error", name)
		}
	}
	if gen, ok := parseLanesName(good); !ok || LanesName(gen) != good {
		t.Errorf("parseLanesName(%q) = %q, %v", good, gen, ok)
	}
}

// TestClassicOnIslandsRefusesMissions: the missions name the classic
// world's continents, which generated islands do not have.
func TestClassicOnIslandsRefusesMissions(t *testing.T) {
	o := state.DefaultOptions()
	o.Map, o.Victory = "islands-normal", state.Missions
	_, err := New(Setup{Options: o, Seats: []SeatInfo{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Seed: 3})
	if err == nil || !strings.Contains(err.Error(), "classic continents") || !strings.Contains(err.Error(), "The Lands of Eria has no North America") {
		t.Errorf("got %v, want a refusal naming the map by its title and the classic continents", err)
	}
}

// islandsSetup is randomSetup on generated islands of each size in turn,
// a quarter of them in simultaneous rounds (with a round limit: random
// orders can pile up armies for thousands of rounds); secret missions,
// which need the classic continents, become two thirds.
func islandsSetup(seed uint64) Setup {
	s := randomSetup(seed)
	s.Options.Map = IslandsNames()[seed%3]
	if s.Options.Victory == state.Missions {
		s.Options.Victory = state.TwoThirds
	}
	if seed%4 == 3 {
		s.Options.Turns = state.Simultaneous
		if s.Options.Rounds == 0 {
			s.Options.Rounds = 60
		}
	}
	return s
}

// islandsMove plays islandsSetup's games.
func islandsMove(g *Game, r *rand.Rand) (int, Command) {
	if g.State.Options.Turns == state.Simultaneous {
		return randomSimultaneousMove(g, r)
	}
	return randomMove(g, r)
}

var islandsGames = randomGames{"islands", islandsSetup, islandsMove, 10, randomSimultaneousCommand, nil}

// TestClassicOnIslandsPlaysToTheEnd plays random classic games on
// generated islands of every size, with fog, teams, simultaneous rounds,
// either card scheme and round limits, checking the invariants after each
// command: they end, and each replays bit for bit from its JSON record,
// from the record as the public sees it, and from the sealed record.
func TestClassicOnIslandsPlaysToTheEnd(t *testing.T) {
	racetest.SkipManyGames(t)
	n, finished := 24, map[string]int{}
	if testing.Short() {
		n = 12
	}
	crossed := 0
	for seed := range uint64(n) {
		g, log := islandsGames.play(t, seed, 6000)
		s := g.State
		size := IslandsNames()[seed%3]
		if want := ClassicMatchMap(size, seed); s.Map.Name != want || s.Options.Map != want {
			t.Fatalf("seed %d: plays on %s (option %s), want %s", seed, s.Map.Name, s.Options.Map, want)
		}
		if s.Phase != state.PhaseOver {
			t.Errorf("seed %d (%s, %+v): not over after %d commands", seed, size, s.Options, len(log))
			continue
		}
		finished[size]++
		if start, err := New(g.Setup); err != nil || start.Deck.Len() != s.Map.Len()+2 {
			t.Errorf("seed %d: the deck starts with %d cards (%v), want %d: a card a territory and 2 wilds", seed, start.Deck.Len(), err, s.Map.Len()+2)
		}
		wantRecordReplays(t, seed, g, log)
		crossed += lanesCrossed(g, log)
		sealed, err := Record{Setup: g.Setup, Log: log}.Seal()
		if err != nil {
			t.Fatal(err)
		}
		if sealed.Setup.Options.Map != s.Map.Name {
			t.Errorf("seed %d: the sealed record names map %q, want %q", seed, sealed.Setup.Options.Map, s.Map.Name)
		}
		back, err := sealed.Game(-1)
		if err != nil {
			t.Fatalf("seed %d: replay of the sealed record: %v", seed, err)
		}
		if back.State.Winner != s.Winner || back.State.Turn != s.Turn {
			t.Errorf("seed %d: the sealed record ends with winner %d turn %d, want %d %d", seed, back.State.Winner, back.State.Turn, s.Winner, s.Turn)
		}
	}
	t.Logf("%d games, finished by size %v, %d attacks across a sea lane", n, finished, crossed)
	for _, size := range IslandsNames() {
		if finished[size] == 0 {
			t.Errorf("no game on %s finished", size)
		}
	}
	if crossed == 0 {
		t.Error("no attack crossed a sea lane")
	}
}

// lanesCrossed counts the attacks of log across a sea lane: between
// territories that border only by sea on the generated map.
func lanesCrossed(g *Game, log []Entry) int {
	gen, _ := parseLanesName(g.State.Map.Name)
	m, err := LoadMap(gen)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range log {
		var from, to int
		switch c := e.Cmd.(type) {
		case Attack:
			from, to = c.From, c.To
		case Blitz:
			from, to = c.From, c.To
		case Assault:
			from, to = c.From, c.To
		default:
			continue
		}
		if m.SeaLinked(from, to) {
			n++
		}
	}
	return n
}
