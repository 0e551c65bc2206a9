package voice

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// capitalsMatch is a hosted capitals match of Ann and Bob, both capitals
// chosen (the first the rules allow), at the start of turn 1.
func capitalsMatch(t *testing.T) (*hosted.Match, Voice) {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}
	o := state.CapitalsOptions()
	o.Map = "small"
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for g.State.Phase == state.PhaseSetup {
		if _, _, err := g.Apply(g.State.Current, engine.Legal(g.State, g.State.Current)[0]); err != nil {
			t.Fatal(err)
		}
	}
	m := &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 1, Channel: "test:voice", Status: storage.Active}, Game: g}}
	for _, s := range seats {
		m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name})
	}
	return m, New([]string{"red", "cyan"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
}

// The first hour, item 6: the capitals jargon went unexplained where a
// player meets it: the status's (and the map's) "locked" hero, and the
// fat bonus, named on the map and in the turn's lines.
func TestCapitalsJargonIsExplained(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(s *state.State)
		said    func(m *hosted.Match, v Voice) string
		want    string // "" wants no explanation of a locked hero
	}{
		{
			name: "a locked hero in the status",
			said: func(m *hosted.Match, v Voice) string { return strings.Join(v.Status().Capitals(m), "\n") },
			want: "locked*: it appears on its player's capital once they hold territories of 4 different terrains",
		},
		{
			name: "no hero locked, nothing to explain",
			prepare: func(s *state.State) {
				for i := range s.Seats {
					s.Seats[i].Capitals.HeroWon = true
					s.Seats[i].Capitals.Hero = int16(s.Capital(i) + 1)
				}
			},
			said: func(m *hosted.Match, v Voice) string { return strings.Join(v.Status().Capitals(m), "\n") },
		},
		{
			name: "the fat bonus waiting, in the status",
			prepare: func(s *state.State) {
				for t := range s.Terr {
					if s.Terr[t].Owner == state.Neutral {
						s.Terr[t].Item = state.ItemFat
						break
					}
				}
			},
			said: func(m *hosted.Match, v Voice) string { return strings.Join(v.Status().Capitals(m), "\n") },
			want: "the fat bonus (whoever takes it seizes the biggest territory",
		},
		{
			name: "the fat bonus appearing, in the turn's lines",
			said: func(m *hosted.Match, v Voice) string {
				return strings.Join(v.Teller().Describe(m.Game.State, []engine.Event{engine.ItemSpawned{Territory: 0, Kind: state.ItemFat}}), "\n")
			},
			want: "seizes the biggest territory (not a capital) of each of the two other players with the most troops",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, v := capitalsMatch(t)
			if tt.prepare != nil {
				tt.prepare(m.Game.State)
			}
			got := tt.said(m, v)
			switch {
			case tt.want == "" && strings.Contains(got, "locked*"):
				t.Errorf("explains a locked hero nobody has:\n%s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("lacks %q:\n%s", tt.want, got)
			case strings.Contains(got, "fat bonus") && !strings.Contains(got, "seizes the biggest territory"):
				t.Errorf("names the fat bonus without saying what it does:\n%s", got)
			}
		})
	}
}

// The first hour, item 9: a turn's "Conquests" counted the territories
// another player seized with the fat bonus during it (an item may appear
// on their fortress in anyone's turn): 12 of 4,927 capitals turns. Only
// what the turn's player took counts, the fat bonus they collected
// included.
func TestConquestsAreTheTurnsPlayers(t *testing.T) {
	m, v := capitalsMatch(t)
	s := m.Game.State
	me, other := s.Current, 1-s.Current
	captured := engine.Captured{Seat: me, From: s.Capital(me), To: s.Map.Territories[s.Capital(me)].Adj[0], Troops: 3}
	tests := []struct {
		name   string
		events []engine.Event
		want   int
	}{
		{"a capture", []engine.Event{captured}, 1},
		{"another player's fat bonus", []engine.Event{captured, engine.Seized{Seat: other, Victim: me, Territory: 1, Troops: 4}}, 1},
		{"the player's own fat bonus", []engine.Event{captured, engine.Seized{Seat: me, Victim: other, Territory: 1, Troops: 4}}, 2},
		{"a conquest", []engine.Event{engine.Conquered{Seat: me, Defender: other, From: 2, To: 3}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ch news.Chronicle
			v.Teller().Tell(s, PositionOf(s), tt.events, &ch)
			if ch.Stats.Conquests != tt.want {
				t.Errorf("conquests %d, want %d", ch.Stats.Conquests, tt.want)
			}
		})
	}
	// Across the start of a turn: the seizure in the next player's turn is
	// not theirs either.
	var ch news.Chronicle
	_, closed := v.Teller().Tell(s, PositionOf(s), []engine.Event{captured,
		engine.TurnStarted{Seat: other, Turn: s.Turn + 1, Armies: 3},
		engine.Seized{Seat: me, Victim: other, Territory: 1, Troops: 4}}, &ch)
	if len(closed) != 1 || closed[0].Stats.Conquests != 1 || ch.Stats.Conquests != 0 {
		t.Errorf("closed %+v, then %d conquests in the next turn; want 1, then 0", closed, ch.Stats.Conquests)
	}
}

// The first hour, item 9: luck was shown rounded half up ("×1.17" for
// 1.165) while totals are rounded down and the damage comes from the
// exact factor. Luck is drawn in thousandths, and shown exactly.
func TestLuckIsShownExactly(t *testing.T) {
	m, v := capitalsMatch(t)
	s := m.Game.State
	tests := []struct {
		luck int
		want string
	}{
		{1165, "×1.165"},
		{1164, "×1.164"},
		{800, "×0.800"},
		{1005, "×1.005"},
		{1200, "×1.200"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FormatLuck(tt.luck); got != tt.want {
				t.Errorf("FormatLuck(%d) = %q, want %q", tt.luck, got, tt.want)
			}
			me := s.Current
			// 10 against 5, times the luck, rounded down: the damage
			// follows from the numbers shown.
			line := strings.Join(v.Teller().Describe(s, []engine.Event{engine.Struck{Seat: me, Defender: 1 - me, From: s.Capital(me), To: s.Capital(1 - me),
				Order: 1, Attack: 10 * state.PowerUnit, Defence: 5 * state.PowerUnit, Luck: tt.luck, Damage: 5 * tt.luck / 1000, Left: 1}}), "\n")
			if want := "10 against 5, luck " + tt.want + ": " + chat.Plural(5*tt.luck/1000, "troop", "troops") + " killed"; !strings.Contains(line, want) {
				t.Errorf("%q lacks %q", line, want)
			}
		})
	}
}

// What an end of turn drops is said in good grammar: "The 2 attacks
// planned was not launched" read wrong.
func TestEndOfTurnNotes(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Speaking(lang.English).Asks().DroppedNote(0), ""},
		{Speaking(lang.English).Asks().DroppedNote(1), " The 1 attack planned was not launched."},
		{Speaking(lang.English).Asks().DroppedNote(2), " The 2 attacks planned were not launched."},
		{Speaking(lang.English).Asks().LapseNote(0), ""},
		{Speaking(lang.English).Asks().LapseNote(1), " The 1 troop not sent was lost."},
		{Speaking(lang.English).Asks().LapseNote(9), " The 9 troops not sent were lost."},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}
