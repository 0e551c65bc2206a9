package voice

import (
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// TestBuiltKeysExist: the keys the voice builds from an enum's stable name
// (an item's effect, a phase's name) are in every language's catalogue,
// for every value the enum names, and a value without a name is still
// worded.
func TestBuiltKeysExist(t *testing.T) {
	var keys []string
	for i := range state.NumItems {
		if it := state.Item(i); it.Known() {
			keys = append(keys, "voice.item.what."+it.String())
		}
	}
	for i := range 256 {
		if ph := state.Phase(i); phaseNamed(ph) {
			keys = append(keys, "voice.status.phase."+ph.String())
		}
	}
	if len(keys) < 8+9 {
		t.Fatalf("got %d keys, want one per item and phase (17 or more)", len(keys))
	}
	for _, tag := range lang.Tags() {
		cat, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if _, ok := cat[k]; !ok {
				t.Errorf("%s: key %q is not in the catalogue", tag, k)
			}
		}
	}
	en := Speaking(lang.English)
	for _, c := range []struct{ name, got, want string }{
		{"an item", en.Replies().ItemWhat(state.ItemLoseLand), "one of your territories turns neutral"},
		{"no item", en.Replies().ItemWhat(state.NoItem), "nothing known"},
		{"a phase", en.p.Msg(en.Status().phase(state.PhaseFortify)), "fortify"},
		{"an unnamed phase", en.p.Msg(en.Status().phase(state.Phase(200))), "200"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// phaseNamed reports whether ph is a phase with a stable name.
func phaseNamed(ph state.Phase) bool {
	_, err := ph.MarshalText()
	return err == nil
}
