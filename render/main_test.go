package render

import (
	"flag"
	"os"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
)

// TestMain runs, under the race detector and unless -run names tests,
// only the tests of renders from many goroutines at once (named
// Concurrent). The renderer draws in its caller's goroutine, so the
// detector has nothing to find in the others, pixel work some eight times
// slower under it (267 s of CI's race run); CI runs them without it
// (go test -short ./render), and go test ./... runs them all.
func TestMain(m *testing.M) {
	flag.Parse()
	if run := flag.Lookup("test.run"); racetest.Enabled && run != nil && run.Value.String() == "" {
		if err := run.Value.Set("Concurrent"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
