package voice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Placements of one seat in a row make one line, each territory once.
func TestDescribeMergesPlacements(t *testing.T) {
	m, v := placedMatch(t)
	s := m.Game.State
	name := s.Map.TerritoryName
	placed := func(seat, terr, n int) engine.Event {
		return engine.Placed{Seat: seat, Territory: terr, Armies: n}
	}
	tests := []struct {
		name   string
		events []engine.Event
		want   []string
	}{
		{"one", []engine.Event{placed(0, 1, 3)},
			[]string{fmt.Sprintf("placed 3 on %s", name(1))}},
		{"same territory", []engine.Event{placed(0, 1, 5), placed(0, 2, 3), placed(0, 2, 2), placed(0, 1, 1)},
			[]string{fmt.Sprintf("placed 6 on %s, 5 on %s", name(1), name(2))}},
		{"two seats", []engine.Event{placed(0, 1, 2), placed(1, 3, 4), placed(1, 3, 1)},
			[]string{fmt.Sprintf("placed 2 on %s", name(1)), fmt.Sprintf("placed 5 on %s", name(3))}},
		{"many", []engine.Event{placed(0, 1, 1), placed(0, 2, 1), placed(0, 3, 1), placed(0, 4, 1), placed(0, 5, 2), placed(0, 5, 1)},
			[]string{"placed 7 armies on 5 territories"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := v.Teller().Describe(s, tt.events)
			if len(got) != len(tt.want) {
				t.Fatalf("lines %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasSuffix(got[i], w) {
					t.Errorf("line %d: %q, want it to end %q", i, got[i], w)
				}
			}
		})
	}
}

// The ping of a person's turn opens with what happened to them since
// their last turn: territories lost and to whom, a continent no longer
// held, threats on their borders, who leads; at most five lines, the
// losses first.
func TestDigestSinceYourLastTurn(t *testing.T) {
	m, v := placedMatch(t)
	s := m.Game.State
	ann := s.SeatByID("test:ann")
	bob := 1 - ann
	if got := v.Digests().For(m, ann); got != nil {
		t.Fatalf("a digest before the first turn: %q", got)
	}
	// Ann held Australia whole at the end of her last turn; Bob has taken
	// two of it since, and masses next to her.
	au := -1
	for c, cont := range s.Map.Continents {
		if cont.Name == "Australia" {
			au = c
		}
	}
	var held []int
	for t := range s.Terr {
		if s.Terr[t].Owner == ann {
			held = append(held, t)
		}
	}
	for _, t := range s.Map.Continents[au].Territories {
		s.Terr[t].Owner = ann
		held = append(held, t)
	}
	lost := s.Map.Continents[au].Territories[:2]
	for _, t := range lost {
		s.Terr[t].Owner = bob
		s.Terr[t].Armies = 30
	}
	m.Meta.Seats[m.Meta.Index("test:ann")].Held = held
	got := v.Digests().For(m, ann)
	text := strings.Join(got, "\n")
	if len(got) == 0 || len(got) > 5 || !strings.HasPrefix(got[0], "**Since your last turn:** 🔻 You lost ") {
		t.Fatalf("digest %q", got)
	}
	for _, want := range []string{s.Map.TerritoryName(lost[0]), s.Map.TerritoryName(lost[1]), "to 🟦 Bob", "You no longer hold all of Australia (+2)", "⚠️ 30 armies of 🟦 Bob on "} {
		if !strings.Contains(text, want) {
			t.Errorf("digest lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "You lost") > strings.Index(text, "⚠️") {
		t.Errorf("a threat ranks above a loss:\n%s", text)
	}
	// A seat that lost nothing gets no loss line.
	m.Meta.Seats[m.Meta.Index("test:ann")].Held = hosted.HeldBy(s, ann)
	if text := strings.Join(v.Digests().For(m, ann), "\n"); strings.Contains(text, "lost") {
		t.Errorf("a loss without one: %s", text)
	}
	if s.Phase == state.PhaseSetup {
		t.Fatal("setup")
	}
}

// placedMatch is a hosted match of Ann and Bob past its initial placement,
// as loaded from a store, with the voice of the standard colours (Ann's
// red, Bob's cyan); its map is never drawn.
func placedMatch(t *testing.T) (*hosted.Match, Voice) {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range g.State.Seats {
		if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	m := &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 1, Channel: "test:voice", Status: storage.Active}, Game: g}}
	for _, s := range seats {
		m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: s.ID, Name: s.Name})
	}
	colors := make([]string, 2)
	colors[g.State.SeatByID("test:ann")], colors[g.State.SeatByID("test:bob")] = "red", "cyan"
	return m, New(colors, nil, func(*hosted.Match, int) *chat.Image { return nil })
}

// What a player saw is cut to its latest lines within maxSaw, the cut
// counted in words that agree with the number.
func TestWithDigestLinesKeepsTheLatest(t *testing.T) {
	m, v := placedMatch(t)
	seat := m.Game.State.SeatByID("test:ann")
	line := strings.Repeat("x", maxSaw/2-1) // two fit, with their newlines
	tests := []struct {
		name string
		saw  int
		cut  string // the line that says what was left out, "" for none
	}{
		{"all fit", 2, ""},
		{"one left out", 3, "… 1 earlier line (/risk show history)"},
		{"two left out", 4, "… 2 earlier lines (/risk show history)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saw := make([]string, tt.saw)
			for i := range saw {
				saw[i] = fmt.Sprintf("%d%s", i, line[1:])
			}
			got := v.Digests().WithLines(m, seat, saw)
			at := -1
			for i, l := range got {
				if l == "**What you saw since your last turn:**" {
					at = i
				}
			}
			if at < 0 {
				t.Fatalf("no heading in %q", got)
			}
			rest := got[at+1:]
			if tt.cut != "" {
				if len(rest) == 0 || rest[0] != tt.cut {
					t.Fatalf("first line after the heading %q, want %q", rest[:1], tt.cut)
				}
				rest = rest[1:]
			}
			if len(rest) != 2 || rest[1] != saw[len(saw)-1] || rest[0] != saw[len(saw)-2] {
				t.Errorf("kept %d lines, want the latest 2", len(rest))
			}
		})
	}
}

// The turn's living post words its ping again at every edit: once the
// player has placed, it no longer says "you have 0 armies to place".
func TestLivePostAfterPlacing(t *testing.T) {
	m, v := placedMatch(t)
	s := m.Game.State
	seat := s.Current
	before, ok := v.Turns().Live(m)
	if !ok {
		t.Fatal("no living post at the turn's start")
	}
	if want := fmt.Sprintf("you have **%d armies** to place", s.Seats[seat].Reserve); !strings.Contains(before.Text, want) {
		t.Errorf("at the turn's start: %q, want %q in it", before.Text, want)
	}
	if _, _, err := m.Game.Apply(seat, engine.AutoPlace{}); err != nil {
		t.Fatal(err)
	}
	after, ok := v.Turns().Live(m)
	if !ok {
		t.Fatal("no living post after placing")
	}
	if strings.Contains(after.Text, "to place") || !strings.Contains(after.Text, "it is your turn") {
		t.Errorf("after placing every army: %q, want the turn without armies to place", after.Text)
	}
}
