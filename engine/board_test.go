package engine

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// This file gives rule tests a readable text form of a classic board:
//
//	players: Ann Bob Cat
//	phase: attack            (setup, reinforce, attack, occupy, fortify)
//	current: Ann
//	options: fortify=adjacent cards=fixed victory=domination
//	Alaska: Ann 5            (owner and armies; "neutral 3" for neutral)
//	rest: Cat 1              (every territory not listed)
//	reserve Ann: 5
//	hand Ann: 0 1 43         (card numbers)
//	discard: 5 6
//	trades: 3
//	flags: conquered cardbonus fortified
//	occupy: Alaska Kamchatka 3 4
//	status Bob: eliminated
//	mission Ann: asia+africa (state.Mission's names)
//	team Ann: 1              (with options: teams=2 or teams=3)
//	Asia: Ann 2              (a continent: each of its territories; later lines win)
//
// Territories not listed and without a "rest" line go round-robin to the
// players with 1 army each.

func board(t testing.TB, text string) *state.State {
	t.Helper()
	m, err := LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	s := &state.State{Map: m, Options: state.DefaultOptions(), Winner: -1, Terr: make([]state.Terr, m.Len()), Phase: state.PhaseAttack, Turn: 1}
	seat := func(name string) int {
		for i, p := range s.Seats {
			if strings.EqualFold(p.Name, name) {
				return i
			}
		}
		if strings.EqualFold(name, "neutral") {
			return state.Neutral
		}
		t.Fatalf("board: unknown player %q", name)
		return 0
	}
	terr := func(name string) int {
		id, err := m.Lookup(name)
		if err != nil {
			t.Fatalf("board: %v", err)
		}
		return id
	}
	cards := func(f []string) state.CardSet {
		var cs state.CardSet
		for _, x := range f {
			n, err := strconv.Atoi(x)
			if err != nil {
				t.Fatalf("board: card %q", x)
			}
			cs = cs.Add(state.Card(n))
		}
		return cs
	}
	num := func(x string) int {
		n, err := strconv.Atoi(x)
		if err != nil {
			t.Fatalf("board: number %q", x)
		}
		return n
	}
	set := make([]bool, m.Len())
	rest := []string(nil)
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("board: bad line %q", line)
		}
		f := strings.Fields(val)
		k := strings.Fields(key)
		switch {
		case k[0] == "players":
			s.Seats = nil
			for i, n := range f {
				s.Seats = append(s.Seats, state.Seat{ID: strconv.Itoa(i), Name: n})
			}
		case k[0] == "phase":
			if err := s.Phase.UnmarshalText([]byte(f[0])); err != nil {
				t.Fatal(err)
			}
		case k[0] == "current":
			s.Current = seat(f[0])
		case k[0] == "winner":
			s.Winner = seat(f[0])
		case k[0] == "options":
			for _, o := range f {
				name, v, _ := strings.Cut(o, "=")
				var err error
				switch name {
				case "fortify":
					s.Options.Fortify, err = state.ParseFortify(v)
				case "cards":
					s.Options.Cards, err = state.ParseCardMode(v)
				case "victory":
					s.Options.Victory, err = state.ParseVictory(v)
				case "turns":
					s.Options.Turns, err = state.ParseTurnMode(v)
				case "rounds":
					s.Options.Rounds, err = strconv.Atoi(v)
				case "teams":
					s.Options.Teams, err = strconv.Atoi(v)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		case k[0] == "rest":
			rest = f
		case k[0] == "reserve":
			s.Seats[seat(k[1])].Reserve = num(f[0])
		case k[0] == "hand":
			s.Seats[seat(k[1])].Hand = cards(f)
		case k[0] == "status":
			if err := s.Seats[seat(k[1])].Status.UnmarshalText([]byte(f[0])); err != nil {
				t.Fatal(err)
			}
		case k[0] == "team":
			s.Seats[seat(k[1])].Team = num(f[0])
		case k[0] == "mission":
			if err := s.Seats[seat(k[1])].Mission.UnmarshalText([]byte(f[0])); err != nil {
				t.Fatal(err)
			}
		case continentByName(m, key) >= 0:
			for _, id := range m.Continents[continentByName(m, key)].Territories {
				s.Terr[id] = state.Terr{Owner: seat(f[0]), Armies: num(f[1])}
				set[id] = true
			}
		case k[0] == "discard":
			s.Discard = cards(f)
		case k[0] == "trades":
			s.Trades = num(f[0])
		case k[0] == "round":
			s.Round = num(f[0])
		case k[0] == "turn":
			s.Turn = num(f[0])
		case k[0] == "flags":
			for _, x := range f {
				switch x {
				case "conquered":
					s.Conquered = true
				case "cardbonus":
					s.CardBonus = true
				case "fortified":
					s.Fortified = 1
				default:
					t.Fatalf("board: flag %q", x)
				}
			}
		case k[0] == "occupy":
			// occupy: FROM TO MIN MAX with territory names of one word or
			// quoted with underscores.
			s.Occupy = state.Occupy{From: terr(strings.ReplaceAll(f[0], "_", " ")), To: terr(strings.ReplaceAll(f[1], "_", " ")), Min: num(f[2]), Max: num(f[3])}
		default:
			id := terr(key)
			s.Terr[id] = state.Terr{Owner: seat(f[0]), Armies: num(f[1])}
			set[id] = true
		}
	}
	i := 0
	for id := range s.Terr {
		if set[id] {
			continue
		}
		if rest != nil {
			s.Terr[id] = state.Terr{Owner: seat(rest[0]), Armies: num(rest[1])}
		} else {
			s.Terr[id] = state.Terr{Owner: i % len(s.Seats), Armies: 1}
			i++
		}
	}
	held := s.Discard
	for _, p := range s.Seats {
		held = held.Union(p.Hand)
	}
	for c := range m.NumCards() {
		if !held.Has(state.Card(c)) {
			s.Deck = s.Deck.Add(state.Card(c))
		}
	}
	if err := s.Check(); err != nil {
		t.Fatalf("board is inconsistent: %v", err)
	}
	return s
}

// expect checks the facts listed in text against s, in board's syntax
// (territory lines, phase, current, reserve, hand counts as "cards Ann: 3",
// trades, winner, status, deck, discard count as "discarded: 3").
func expect(t testing.TB, s *state.State, text string) {
	t.Helper()
	seat := func(name string) int {
		if strings.EqualFold(name, "neutral") {
			return state.Neutral
		}
		for i, p := range s.Seats {
			if strings.EqualFold(p.Name, name) {
				return i
			}
		}
		t.Fatalf("expect: unknown player %q", name)
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, _ := strings.Cut(line, ":")
		f := strings.Fields(val)
		k := strings.Fields(key)
		var got, want string
		switch k[0] {
		case "phase":
			got, want = s.Phase.String(), f[0]
		case "current":
			got, want = s.Seats[s.Current].Name, f[0]
		case "reserve":
			got, want = strconv.Itoa(s.Seats[seat(k[1])].Reserve), f[0]
		case "cards":
			got, want = strconv.Itoa(s.Seats[seat(k[1])].Hand.Len()), f[0]
		case "hand":
			got, want = fmt.Sprint(s.Seats[seat(k[1])].Hand.Cards()), "["+strings.Join(f, " ")+"]"
		case "status":
			got, want = s.Seats[seat(k[1])].Status.String(), f[0]
		case "mission":
			got, want = s.Seats[seat(k[1])].Mission.String(), f[0]
		case "trades":
			got, want = strconv.Itoa(s.Trades), f[0]
		case "turn":
			got, want = strconv.Itoa(s.Turn), f[0]
		case "round":
			got, want = strconv.Itoa(s.Round), f[0]
		case "winner":
			got, want = "none", f[0]
			if s.Winner >= 0 {
				got = s.Seats[s.Winner].Name
			}
		case "deck":
			got, want = strconv.Itoa(s.Deck.Len()), f[0]
		case "discarded":
			got, want = strconv.Itoa(s.Discard.Len()), f[0]
		case "occupy":
			o := s.Occupy
			got, want = fmt.Sprintf("%s %s %d %d", s.Map.Territories[o.From].Name, s.Map.Territories[o.To].Name, o.Min, o.Max), strings.TrimSpace(val)
		default:
			id, err := s.Map.Lookup(key)
			if err != nil {
				t.Fatalf("expect: %v", err)
			}
			tr := s.Terr[id]
			got = fmt.Sprintf("%s %d", seatName(s, tr.Owner), tr.Armies)
			want = fmt.Sprintf("%s %s", s.Seats[max(0, seat(f[0]))].Name, f[1])
			if seat(f[0]) == state.Neutral {
				want = "neutral " + f[1]
			}
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", key, got, want)
		}
	}
}

// applyRaw applies c with scripted random draws: raw holds the exact values
// the command must draw, in order (strict, as in a replay).
func applyRaw(s *state.State, seat int, c Command, raw ...int) ([]Event, error) {
	rec := make([]int32, len(raw))
	for i, v := range raw {
		rec[i] = int32(v)
	}
	d := dice{rng: &s.RNG, strict: true, replay: rec}
	ev, err := apply(s, seat, c, &d)
	if err == nil {
		err = d.done()
	}
	return ev, err
}

// applyDice applies c with scripted die faces (1 to 6) for the rolls and
// raw draws for anything else, failing if the script is not used up.
func applyDice(s *state.State, seat int, c Command, faces ...int) ([]Event, error) {
	raw := make([]int, len(faces))
	for i, f := range faces {
		raw[i] = f - 1
	}
	return applyRaw(s, seat, c, raw...)
}

func TestBoardHelper(t *testing.T) {
	s := board(t, `
		players: Ann Bob
		phase: reinforce
		current: Bob
		Alaska: Ann 5
		Kamchatka: Bob 3
		reserve Bob: 4
		hand Ann: 0 1
	`)
	expect(t, s, `
		phase: reinforce
		current: Bob
		Alaska: Ann 5
		Kamchatka: Bob 3
		reserve Bob: 4
		cards Ann: 2
		deck: 42
	`)
}
