package people

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/storage"
)

func TestAwakeTime(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		p     Prefs
		start time.Time
		d     time.Duration
		want  time.Time
	}{
		{"no quiet hours", Prefs{}, day(1, 23, 0), 24 * time.Hour, day(2, 23, 0)},
		{"starting in them", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 23, 0), 24 * time.Hour, day(3, 16, 0)},
		{"starting before them", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 20, 30), 2 * time.Hour, day(2, 7, 30)},
		{"ending as they start", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 20, 0), 2 * time.Hour, day(1, 22, 0)},
		{"within a day", Prefs{QuietFrom: 1, QuietTo: 5}, day(1, 0, 0), 3 * time.Hour, day(1, 7, 0)},
		{"in another zone", Prefs{QuietFrom: 22, QuietTo: 7, Offset: 120}, day(1, 20, 0), time.Hour, day(2, 6, 0)}, // 22:00 to 07:00 local is 20:00 to 05:00 UTC
		{"half-hour zone", Prefs{QuietFrom: 0, QuietTo: 6, Offset: 330}, day(1, 18, 0), time.Hour, day(2, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Awake(tt.start, tt.d); !got.Equal(tt.want) {
				t.Errorf("awake(%v, %v) = %v, want %v", tt.start, tt.d, got, tt.want)
			}
		})
	}
}

// settings is a Store in memory: the two methods People uses, and nothing
// else of the database.
type settings map[string]json.RawMessage

func (s settings) Setting(_ context.Context, scope, id string) (json.RawMessage, error) {
	v, ok := s[scope+"/"+id]
	if !ok {
		return nil, storage.ErrNotFound
	}
	return v, nil
}

func (s settings) SetSetting(_ context.Context, scope, id string, value json.RawMessage, _ time.Time) error {
	if value == nil {
		delete(s, scope+"/"+id)
		return nil
	}
	s[scope+"/"+id] = value
	return nil
}

// notify runs /risk notify for Ann with the options given as name:value.
func notify(t *testing.T, pe *People, opts ...string) (chat.Message, error) {
	t.Helper()
	spec, _ := command.Find(command.Specs(nil), "me notify")
	raw := map[string]string{}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, ":")
		raw[k] = v
	}
	a, err := command.Parse(spec, raw)
	if err != nil {
		t.Fatal(err)
	}
	return pe.Notify(context.Background(), chat.Request{User: chat.User{ID: "test:ann", Name: "Ann"}, Options: raw}, a)
}

// A player's choices are kept for all their matches, changed one at a
// time, refused when mistyped (nothing kept), and forgotten when back to
// the defaults.
func TestNotify(t *testing.T) {
	store := settings{}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	pe := New(store, func() time.Time { return now }, slog.New(slog.DiscardHandler))
	tests := []struct {
		opts    []string
		want    string // in the answer
		refused bool
	}{
		{nil, "Direct message when it is your turn: off. Reminders: on. Quiet hours: none.", false},
		{[]string{"dm:on", "quiet:22-7", "utc-offset:+5:30"}, "22:00 to 07:00 (UTC+5:30)", false},
		{[]string{"reminders:off"}, "Reminders: off", false},
		{[]string{"quiet:25-3"}, "quiet takes two different hours", true},
		{[]string{"utc-offset:Paris"}, "utc-offset takes hours from UTC", true},
		{[]string{"away:3d", "defend:Europe", "attack:off"}, "Standing orders (when your time runs out): defend Europe, no attacks", false},
		{[]string{"away:90"}, "away takes 1 to 60 days", true},
	}
	for _, tt := range tests {
		before := maps.Clone(store)
		m, err := notify(t, pe, tt.opts...)
		if tt.refused {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("notify %v: %q, %v; want a refusal with %q", tt.opts, m.Text, err, tt.want)
			}
			if !maps.EqualFunc(before, store, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
				t.Errorf("notify %v: refused, yet changed the choices", tt.opts)
			}
			continue
		}
		if err != nil || !m.Private || !strings.Contains(m.Text, tt.want) {
			t.Errorf("notify %v: %q (private %v), %v; want %q", tt.opts, m.Text, m.Private, err, tt.want)
		}
	}
	p, err := pe.Of(context.Background(), "test:ann")
	if err != nil || !p.DM || !p.NoReminders || p.Offset != 330 || !p.AwayAt(now) || p.Orders.Defend != "Europe" {
		t.Fatalf("kept %+v, %v", p, err)
	}
	// Away, a turn's clock runs out at once: the orders play it.
	if c := pe.Clock(context.Background(), "test:ann", 24*time.Hour); !c.Deadline.Equal(now) {
		t.Errorf("clock while away: %+v, want the deadline now", c)
	}
	// Any command says they are back; the orders stay.
	if w := pe.WelcomeBack(context.Background(), "test:ann", "", lang.For(lang.English)); !strings.Contains(w, "Welcome back") {
		t.Errorf("welcome back: %q", w)
	}
	if w := pe.WelcomeBack(context.Background(), "test:ann", "", lang.For(lang.English)); w != "" {
		t.Errorf("welcomed back twice: %q", w)
	}
	if p, _ := pe.Of(context.Background(), "test:ann"); p.AwayAt(now) || p.Orders.Defend != "Europe" {
		t.Errorf("back: %+v", p)
	}
	// Back to the defaults, nothing is kept.
	if _, err := notify(t, pe, "dm:off", "reminders:on", "quiet:off", "utc-offset:0", "defend:off", "attack:on"); err != nil {
		t.Fatal(err)
	}
	if len(store) != 0 {
		t.Errorf("the defaults are kept: %s", store["player/test:ann"])
	}
}

// TestDirectMessageLanguage: a player's direct messages speak the
// language they chose, else the one their chat client last said, else the
// match's; a command remembers the client's language, writing only when
// it changed.
func TestDirectMessageLanguage(t *testing.T) {
	st := settings{}
	pe := New(st, time.Now, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	prefs := func() Prefs {
		p, err := pe.Of(ctx, "test:ann")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := prefs().Language(lang.French); got != lang.French {
		t.Errorf("nothing known: %q, want the match's", got)
	}
	pe.WelcomeBack(ctx, "test:ann", "fr", lang.For(lang.French))
	if got := prefs().Language(lang.English); got != lang.French {
		t.Errorf("after a command from a French client: %q, want fr", got)
	}
	if _, err := notify(t, pe, "language:en"); err != nil {
		t.Fatal(err)
	}
	if got := prefs().Language(lang.French); got != lang.English {
		t.Errorf("chosen English: %q", got)
	}
	if _, err := notify(t, pe, "language:auto"); err != nil {
		t.Fatal(err)
	}
	if got := prefs().Language(lang.English); got != lang.French {
		t.Errorf("auto again: %q, want the client's fr", got)
	}
}
