package engine

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The islands: a small grid map for the capitals rule tests.
//
//	row 0  ........................................
//	row 1  .000111222..............................   Alba  Brin  Cora
//	row 2  .000444222..............................   Alba  Eyre  Cora   (Eyre is inland)
//	row 3  .333444555..............................   Dale  Eyre  Fenn*
//	row 4  .333666555..............................   Dale  Gale  Fenn*
//	row 5  ........................................
//	row 6  ..777...888...........999...........AAA.   Hook  Isle  Keep*  Jute
//	row 7  ..777...888...........999...........AAA.
//	row 8  ........................................
//
// (* a fortress.) Isle, Keep and Jute are islands 11 water cells apart:
// Isle and Jute are too far from each other for a port (more than 16).
var islandRows = func() []string {
	pad := func(s string) string { return s + strings.Repeat(".", 40-len(s)) }
	island := "..777...888" + strings.Repeat(".", 11) + "999" + strings.Repeat(".", 11) + "AAA."
	return []string{
		pad(""), pad(".000111222"), pad(".000444222"), pad(".333444555"), pad(".333666555"),
		pad(""), island, island, pad(""),
	}
}()

var islandTerritories = []state.TerritorySpec{
	{Name: "Alba", Terrain: state.Plain},
	{Name: "Brin", Terrain: state.Forest},
	{Name: "Cora", Terrain: state.Mountain},
	{Name: "Dale", Terrain: state.Desert},
	{Name: "Eyre", Terrain: state.Plain},
	{Name: "Fenn", Terrain: state.Coastal, Fortress: true},
	{Name: "Gale", Terrain: state.Forest},
	{Name: "Hook", Terrain: state.Coastal},
	{Name: "Isle", Terrain: state.Mountain},
	{Name: "Keep", Terrain: state.Desert, Fortress: true},
	{Name: "Jute", Terrain: state.Plain},
}

func islandMap(t testing.TB) *state.Map {
	t.Helper()
	g, err := state.GridSpec{Width: 40, Height: 9, Rows: islandRows}.Grid(len(islandTerritories))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range islandTerritories {
		names = append(names, tr.Name)
	}
	m, err := state.NewMap(state.MapSpec{Name: "islands", Territories: islandTerritories, Grid: g,
		Continents: []state.ContinentSpec{{Name: "All", Territories: names}}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// I returns the id of an island territory.
func I(name string) int {
	for i, t := range islandTerritories {
		if t.Name == name {
			return i
		}
	}
	panic("no island territory " + name)
}

// capBoard builds a capitals state on the islands from a text like the
// classic board's:
//
//	players: Ann Bob Cat
//	phase: action          (setup, reinforce, action, move; default action)
//	current: Ann
//	Alba: Ann 12 capital port hero   (owner or "neutral", troops, features)
//	Keep: neutral 3 item:fat age:2
//	reserve Ann: 6
//	item Ann: two-turns
//	won Ann                (the hero was unlocked, and is dead unless placed)
//	active: full-power     (items in effect this turn)
//	plan: Alba>Brin Cora>Fenn
//	fog: on                (fog of war)
//
// Territories not named are neutral with 1 troop. Seats with no capital
// named get none (valid only in setup).
func capBoard(t testing.TB, text string) *state.State {
	t.Helper()
	m := islandMap(t)
	s := &state.State{Map: m, Options: state.CapitalsOptions(), Phase: state.PhaseAction, Winner: -1,
		Terr: make([]state.Terr, m.Len()), RNG: state.RNG{Seed: 1}, Turn: 1}
	s.Options.Map = "islands"
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1}
	}
	seat := func(name string) int {
		for i, p := range s.Seats {
			if p.Name == name {
				return i
			}
		}
		t.Fatalf("unknown player %q", name)
		return -1
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch {
		case key == "players":
			for _, n := range strings.Fields(val) {
				s.Seats = append(s.Seats, state.Seat{ID: strings.ToLower(n), Name: n})
			}
		case key == "phase":
			if err := s.Phase.UnmarshalText([]byte(val)); err != nil {
				t.Fatal(err)
			}
		case key == "current":
			s.Current = seat(val)
		case key == "turn":
			s.Turn, _ = strconv.Atoi(val)
		case key == "fog":
			s.Options.Fog = val == "on"
		case key == "teams":
			s.Options.Teams, _ = strconv.Atoi(val)
		case strings.HasPrefix(key, "team "):
			s.Seats[seat(strings.TrimPrefix(key, "team "))].Team, _ = strconv.Atoi(val)
		case key == "active":
			for _, f := range strings.Fields(val) {
				var it state.Item
				if err := it.UnmarshalText([]byte(f)); err != nil {
					t.Fatal(err)
				}
				s.Cap.Active |= 1 << it
			}
		case key == "plan":
			for _, f := range strings.Fields(val) {
				a, b, _ := strings.Cut(f, ">")
				s.Cap.Plan[s.Cap.NPlan] = state.Planned{From: int16(I(a)), To: int16(I(b))}
				s.Cap.NPlan++
			}
		case strings.HasPrefix(key, "reserve "):
			s.Seats[seat(strings.TrimPrefix(key, "reserve "))].Reserve, _ = strconv.Atoi(val)
		case strings.HasPrefix(key, "item "):
			var it state.Item
			if err := it.UnmarshalText([]byte(val)); err != nil {
				t.Fatal(err)
			}
			s.Seats[seat(strings.TrimPrefix(key, "item "))].Capitals.Item = it
		case strings.HasPrefix(key, "won ") && !ok:
			s.Seats[seat(strings.TrimPrefix(key, "won "))].Capitals.HeroWon = true
		case strings.HasPrefix(key, "out "):
			st := &s.Seats[seat(strings.TrimPrefix(key, "out "))]
			st.Status = state.Eliminated
		case ok:
			id := I(key)
			f := strings.Fields(val)
			tr := &s.Terr[id]
			if f[0] != "neutral" {
				tr.Owner = seat(f[0])
			}
			tr.Armies, _ = strconv.Atoi(f[1])
			for _, feat := range f[2:] {
				switch {
				case feat == "capital":
					s.Seats[tr.Owner].Capitals.Capital = int16(id + 1)
				case feat == "hero":
					s.Seats[tr.Owner].Capitals.Hero = int16(id + 1)
					s.Seats[tr.Owner].Capitals.HeroWon = true
				case feat == "port":
					tr.Port = true
				case strings.HasPrefix(feat, "item:"):
					if err := tr.Item.UnmarshalText([]byte(strings.TrimPrefix(feat, "item:"))); err != nil {
						t.Fatal(err)
					}
					tr.ItemAge = 1
				case strings.HasPrefix(feat, "age:"):
					a, _ := strconv.Atoi(strings.TrimPrefix(feat, "age:"))
					tr.ItemAge = uint8(a)
				default:
					t.Fatalf("unknown feature %q", feat)
				}
			}
		default:
			t.Fatalf("bad board line %q", line)
		}
	}
	if s.Phase == state.PhaseSetup {
		s.Turn = 0
	}
	if err := s.Check(); err != nil {
		t.Fatalf("board is inconsistent: %v", err)
	}
	return s
}

// capExpect checks lines of the form "Alba: Ann 12" (owner and troops),
// "phase: move", "hero Ann: Alba" (or "-"), "item Ann: two-turns" against s.
func capExpect(t testing.TB, s *state.State, want string) {
	t.Helper()
	for _, line := range strings.Split(want, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		seatName := func(i int) string {
			if i == state.Neutral {
				return "neutral"
			}
			return s.Seats[i].Name
		}
		var got string
		switch {
		case key == "phase":
			got = s.Phase.String()
		case key == "current":
			got = seatName(s.Current)
		case key == "turn":
			got = strconv.Itoa(s.Turn)
		case key == "winner":
			got = seatName(s.Winner)
		case strings.HasPrefix(key, "hero "):
			got = "-"
			for i, p := range s.Seats {
				if p.Name == strings.TrimPrefix(key, "hero ") && s.Hero(i) >= 0 {
					got = s.Map.Territories[s.Hero(i)].Name
				}
			}
		case strings.HasPrefix(key, "item "):
			for _, p := range s.Seats {
				if p.Name == strings.TrimPrefix(key, "item ") {
					got = p.Capitals.Item.String()
				}
			}
		case strings.HasPrefix(key, "status "):
			for _, p := range s.Seats {
				if p.Name == strings.TrimPrefix(key, "status ") {
					got = p.Status.String()
				}
			}
		case strings.HasPrefix(key, "reserve "):
			for _, p := range s.Seats {
				if p.Name == strings.TrimPrefix(key, "reserve ") {
					got = strconv.Itoa(p.Reserve)
				}
			}
		default:
			tr := s.Terr[I(key)]
			got = fmt.Sprintf("%s %d", seatName(tr.Owner), tr.Armies)
			if tr.Port {
				got += " port"
			}
		}
		if got != val {
			t.Errorf("%s: got %q, want %q", key, got, val)
		}
	}
}
