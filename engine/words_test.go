package engine

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// TestEnumWordsExist: phase, status and cardKind build their keys from
// the enums' stable names (lang's TestKeysUsedExist lets those prefixes
// by): every value's key is in each language's catalogue, and each enum
// ends where the functions think it does.
func TestEnumWordsExist(t *testing.T) {
	var msgs []lang.Msg
	for p := state.PhaseSetup; p <= state.PhaseOrders; p++ {
		msgs = append(msgs, phase(p))
	}
	for st := state.Playing; st <= state.Surrendered; st++ {
		msgs = append(msgs, status(st))
	}
	for k := state.Infantry; k <= state.Wild; k++ {
		msgs = append(msgs, cardKind(k))
	}
	if got, want := len(msgs), 9+3+4; got != want {
		t.Fatalf("got %d values, want %d", got, want)
	}
	for _, tag := range lang.Tags() {
		raw, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if _, ok := raw[m.Key]; !ok {
				t.Errorf("%s.json lacks %q", tag, m.Key)
			}
		}
	}
	// A value past the last has no stable name: a phase, status or kind
	// added to state must move the bounds above and in words.go.
	for _, v := range []interface{ MarshalText() ([]byte, error) }{state.PhaseOrders + 1, state.Surrendered + 1} {
		if b, err := v.MarshalText(); err == nil {
			t.Errorf("got a name %q past the last value, want none (extend words.go)", b)
		}
	}
	if got := (state.Wild + 1).String(); !strings.HasPrefix(got, "kind(") {
		t.Errorf("got kind name %q past Wild, want none (extend words.go)", got)
	}
}

// TestEnumWords: the words of each enum value, and of values past the
// last, as the switches they replaced gave them.
func TestEnumWords(t *testing.T) {
	tests := []struct {
		got  lang.Msg
		want string
	}{
		{phase(state.PhaseSetup), "setup"},
		{phase(state.PhaseOccupy), "occupy"},
		{phase(state.PhaseOrders), "orders"},
		{phase(state.PhaseOrders + 1), "9"},
		{status(state.Playing), "playing"},
		{status(state.Surrendered), "surrendered"},
		{status(state.Surrendered + 1), "playing"},
		{cardKind(state.Infantry), "infantry"},
		{cardKind(state.Artillery), "artillery"},
		{cardKind(state.Wild + 1), "artillery"},
	}
	for _, tt := range tests {
		if got := tt.got.String(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.got.Key, got, tt.want)
		}
	}
	if got, want := lang.For(lang.French).Msg(phase(state.PhaseAttack)), "attaque"; got != want {
		t.Errorf("French attack phase: got %q, want %q", got, want)
	}
}
