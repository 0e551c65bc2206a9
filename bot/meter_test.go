package bot

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is a Meter that writes down what it is told.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(s string) { r.mu.Lock(); r.events = append(r.events, s); r.mu.Unlock() }

func (r *recorder) Command(name, result string) { r.add("command " + name + " " + result) }
func (r *recorder) TimerLag(kind string, d time.Duration) {
	r.add(fmt.Sprintf("lag %s %v", kind, d.Round(time.Minute)))
}
func (r *recorder) Think(level string, _ time.Duration) { r.add("think " + level) }

func (r *recorder) has(e string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.events, e)
}

// The bot tells its Meter each command's result, each computer turn's
// thinking, and how late each timer was handled.
func TestMeter(t *testing.T) {
	h := newHarness(t)
	rec := &recorder{}
	h.configure = func(c *Config) { c.Meter = rec }
	h.restart()
	const ch = "test:meter"
	h.started(ch, []string{"Ann", "Bob"}, "easy")
	h.do(ch, "Zed", "attack", "from:alaska", "to:kamchatka")
	h.do(ch, "Ann", "nosuch")
	h.advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.bot.Wait()
	for _, want := range []string{
		"command new ok", "command join ok", "command host addbot ok", "command start ok",
		"command attack refused", "command unknown refused",
		"think easy", "think cautious", "lag deadline 1h0m0s",
	} {
		if !rec.has(want) {
			t.Errorf("the meter was not told %q; it was told %q", want, rec.events)
		}
	}
}
