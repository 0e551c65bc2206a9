package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// An undo with nothing to take back says why, in the player's terms: what
// made the moment one of no return. Found by a tester (issue 43): after
// the automatic placement, undo blamed dice rolls and card draws.
func TestUndoSaysWhyNothingCanBeTakenBack(t *testing.T) {
	const ann, bob = 0, 1
	reinforce := annAttacks + "\nphase: reinforce\nreserve Ann: 3"
	tests := []struct {
		name string
		text string
		// snapshot: the game is saved and loaded again before the undo,
		// as a store does every so often.
		snapshot bool
		steps    []Command
		// by plays the steps (default Ann).
		by      int
		want    string
		wantNot string
	}{
		{name: "after the automatic placement", text: reinforce, steps: []Command{AutoPlace{}},
			want: "the automatic placement drew its territories at random", wantNot: "dice"},
		{name: "after the automatic placement, the game loaded again", text: reinforce, snapshot: true, steps: []Command{AutoPlace{}},
			want: "the automatic placement drew its territories at random", wantNot: "dice"},
		{name: "after placing, then the automatic placement", text: reinforce, steps: []Command{Place{T("Alaska"), 1}, AutoPlace{}},
			want: "the automatic placement drew its territories at random", wantNot: "dice"},
		{name: "after an attack", text: annAttacks, steps: []Command{Attack{T("Alaska"), T("Kamchatka"), 3}},
			want: "the dice were rolled", wantNot: "card"},
		{name: "after a blitz", text: annAttacks, steps: []Command{Blitz{From: T("Alaska"), To: T("Kamchatka"), Keep: 1}},
			want: "the dice were rolled", wantNot: "card"},
		{name: "at the start of a turn", text: strings.Replace(annAttacks, "current: Ann", "current: Bob", 1), by: bob, steps: []Command{EndTurn{}},
			want: "nothing done this turn yet", wantNot: "dice"},
		{name: "at the start of a turn, the game loaded again", text: strings.Replace(annAttacks, "current: Ann", "current: Bob", 1), by: bob, snapshot: true, steps: []Command{EndTurn{}},
			want: "nothing done this turn yet", wantNot: "dice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Game{State: board(t, tt.text)}
			g.checkpoint()
			for _, c := range tt.steps {
				if _, _, err := g.Apply(tt.by, c); err != nil {
					t.Fatalf("%#v: %v", c, err)
				}
			}
			if tt.snapshot {
				b, err := json.Marshal(g)
				if err != nil {
					t.Fatal(err)
				}
				if g, err = DecodeGame(b); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := g.Apply(ann, Undo{})
			e, ok := IsRule(err)
			if !ok || e.Code != ErrNothingToUndo {
				t.Fatalf("undo: %v, want nothing to undo", err)
			}
			if !strings.Contains(e.Error(), tt.want) || (tt.wantNot != "" && strings.Contains(e.Error(), tt.wantNot)) {
				t.Errorf("got %q, want it to say %q (and not %q)", e.Error(), tt.want, tt.wantNot)
			}
		})
	}
	// In the initial placement, another player's automatic placement cuts
	// everyone's undo: it says whose.
	g, err := NewGame(Setup{Options: state.DefaultOptions(), Seats: []SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	a, b := g.State.SeatByID("a"), g.State.SeatByID("b") // the deal orders the seats
	for t2 := range g.State.Terr {
		if g.State.Terr[t2].Owner == a {
			if _, _, err := g.Apply(a, Place{t2, 1}); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if _, _, err := g.Apply(b, AutoPlace{}); err != nil {
		t.Fatal(err)
	}
	_, _, err = g.Apply(a, Undo{})
	if e, ok := IsRule(err); !ok || !strings.Contains(e.Error(), "Bob's automatic placement") {
		t.Errorf("Ann's undo after Bob placed automatically: got %v, want it to name Bob's automatic placement", err)
	}
}
