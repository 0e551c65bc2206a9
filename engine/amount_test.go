package engine

import (
	"reflect"
	"testing"
)

// TestSetAmountKeepsFields: SetAmount changes only the count. Every field
// of each command is filled by reflection, so a field added to a command
// and forgotten by SetAmount's copy fails here; every command with an
// Armies or Keep field has a count.
func TestSetAmountKeepsFields(t *testing.T) {
	names := []string{"place", "autoplace", "trade", "attack", "blitz", "occupy", "fortify", "discard",
		"end", "surrender", "undo", "capital", "reinforce", "capture", "port", "plan", "launch", "use",
		"move", "assault", "rollback"}
	counted := 0
	for _, name := range names {
		p, ok := newCommand(name)
		if !ok {
			t.Fatalf("no command %q", name)
		}
		v := reflect.ValueOf(p).Elem()
		for i := range v.NumField() {
			switch f := v.Field(i); f.Kind() {
			case reflect.Int:
				f.SetInt(int64(10 + i))
			case reflect.Bool:
				f.SetBool(true)
			}
		}
		c := deref(p)
		_, hasArmies := v.Type().FieldByName("Armies")
		_, hasKeep := v.Type().FieldByName("Keep")
		rest, had, ok := SetAmount(c, 0)
		if ok != (hasArmies || hasKeep) {
			t.Errorf("%s: got ok %v, want %v", name, ok, hasArmies || hasKeep)
		}
		if !ok {
			if rest != c || had != 0 {
				t.Errorf("%s: got %#v, %d, want the command as it is and 0", name, rest, had)
			}
			continue
		}
		counted++
		if rest == c {
			t.Errorf("%s: got %#v with its count still set", name, rest)
		}
		if back, zero, _ := SetAmount(rest, had); back != c || zero != 0 {
			t.Errorf("%s: got %#v (had %d) back, want %#v (had 0)", name, back, zero, c)
		}
	}
	if counted != 5 {
		t.Errorf("got %d commands with a count, want 5", counted)
	}
}
