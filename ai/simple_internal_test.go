package ai

import (
	"reflect"
	"testing"

	"github.com/riskbot/riskbot/engine"
)

// TestSetAmountKeepsTheRest checks that setAmount changes a command's count
// and nothing else: each case copies its command's fields by name, so a
// field added to the command later must be added there too.
func TestSetAmountKeepsTheRest(t *testing.T) {
	for _, c := range []engine.Command{engine.Place{}, engine.Occupy{}, engine.Fortify{}, engine.Blitz{}, engine.Assault{}} {
		// Every field a different value, so that a field dropped or
		// swapped shows.
		v := reflect.New(reflect.TypeOf(c)).Elem()
		for i := range v.NumField() {
			v.Field(i).SetInt(int64(10 + i))
		}
		c = v.Interface().(engine.Command)
		got, had, ok := setAmount(c, 99)
		if !ok {
			t.Fatalf("setAmount(%#v): ok false, want true", c)
		}
		g := reflect.ValueOf(got)
		changed := 0
		for i := range v.NumField() {
			if g.Field(i).Int() == v.Field(i).Int() {
				continue
			}
			changed++
			if g.Field(i).Int() != 99 || v.Field(i).Int() != int64(had) {
				t.Errorf("setAmount(%#v, 99) = %#v, %d: field %s changed from %d to %d, want the count from %d to 99",
					c, got, had, v.Type().Field(i).Name, v.Field(i).Int(), g.Field(i).Int(), had)
			}
		}
		if changed != 1 {
			t.Errorf("setAmount(%#v, 99) = %#v: %d fields changed, want 1", c, got, changed)
		}
		if back, _, _ := setAmount(got, had); back != c {
			t.Errorf("setAmount(setAmount(%#v, 99), %d) = %#v, want it back", c, had, back)
		}
	}
	if got, had, ok := setAmount(engine.EndTurn{}, 5); ok || had != 0 || got != (engine.EndTurn{}) {
		t.Errorf("setAmount(EndTurn{}, 5) = %#v, %d, %v, want it unchanged, 0, false", got, had, ok)
	}
}
