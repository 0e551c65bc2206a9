package main

import (
	"strings"
	"testing"
)

func TestLuck(t *testing.T) {
	file, _ := exportedMatch(t)
	code, out, errs := runRisk(t, "", "luck", file)
	if code != 0 || !strings.HasPrefix(out, "Luck: every roll of the dice against its exact odds\n") || strings.Count(out, "\n") != 4 {
		t.Fatalf("exit %d, %q %s", code, out, errs)
	}
	for _, name := range []string{"Ann: ", "Bob: ", "Chloé: "} {
		if !strings.Contains(out, "\n"+name) {
			t.Errorf("no line for %s in\n%s", name, out)
		}
	}
	for _, tt := range []struct {
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"", []string{"luck"}, 2, "want one FILE"},
		{"nope", []string{"luck", "-"}, 1, "-: "},
		{`{"format":1,"options":{"rules":"classic","map":"classic"},"seats":[{"id":"a"}],"seed":1,"log":[]}`, []string{"luck", "-"}, 1, "2 to 6 players"},
	} {
		code, _, errs := runRisk(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tt.args, code, errs, tt.code, tt.msg)
		}
	}
}
