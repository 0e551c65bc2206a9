package clock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A turn's clock: at three quarters of the time the player is reminded;
// at the deadline a careful bot plays for them, the missed turn counted;
// after three missed turns in a row a bot takes the seat over, and the
// channel is told.
func TestDeadlinesRemindersAndAutopilot(t *testing.T) {
	e := newEnv(t)
	const ch = "test:clock"
	e.started(ch, []string{"Ann", "Bob"}, "easy")
	e.do(ch, "Ann", "autoplace")
	e.chat.Take()
	// Bob has not placed: at three quarters of the 24 h he is reminded.
	e.Advance(18*time.Hour + time.Minute)
	e.tick()
	posts := e.chat.Take()
	if len(posts) != 1 || len(posts[0].Msg.Mentions) != 1 || posts[0].Msg.Mentions[0] != user("Bob").ID || !strings.Contains(all(posts[0].Msg), "still have armies to place") {
		t.Fatalf("reminder posts = %+v", posts)
	}
	if m := e.load(ch); !m.Timers.Remind.IsZero() {
		t.Errorf("the reminder is still set: %v", m.Timers.Remind)
	}
	// Once is enough.
	e.Advance(time.Hour)
	e.tick()
	if p := e.chat.Take(); len(p) != 0 {
		t.Errorf("reminded again: %+v", p)
	}
	// At the deadline a careful bot places for him.
	e.Advance(5 * time.Hour)
	e.tick()
	m := e.load(ch)
	if m.Game.State.Phase == state.PhaseSetup {
		t.Fatal("the deadline did not end the placement")
	}
	if sm := seat(m, "Bob"); sm.Missed != 1 {
		t.Errorf("Bob missed %d, want 1", sm.Missed)
	}
	if !said(e.chat.Take(), "Bob ran out of time; a careful bot plays for them.") {
		t.Error("nobody was told Bob ran out of time")
	}
	// Let every deadline pass: after three missed turns in a row, a bot
	// takes Bob's seat.
	var notice bool
	for i := 0; i < 12 && !seat(m, "Bob").Autopilot; i++ {
		e.Advance(25 * time.Hour)
		e.tick()
		notice = notice || said(e.chat.Take(), "ran out of time for the 3rd time in a row: a bot plays the seat until the host gives it back (/risk join player:Bob)")
		m = e.load(ch)
	}
	if !seat(m, "Bob").Autopilot || !notice {
		t.Fatalf("Bob on autopilot %v after his deadlines (turn %d), the channel told %v", seat(m, "Bob").Autopilot, m.Game.State.Turn, notice)
	}
	if !e.meter.has("lag deadline 1h0m0s") || !e.meter.has("lag remind 1m0s") || !e.meter.has("think cautious") || !e.meter.has("think easy") {
		t.Errorf("the meter was told %q", e.meter.events)
	}
}

// Timers are stored: a deadline that passes while the process is down
// fires after a restart.
func TestDeadlineFiresAfterRestart(t *testing.T) {
	e := newEnv(t)
	const ch = "test:restart"
	e.started(ch, []string{"Ann", "Bob"})
	e.do(ch, "Ann", "autoplace")
	e.open()
	e.Advance(25 * time.Hour)
	e.tick()
	if m := e.load(ch); m.Game.State.Phase == state.PhaseSetup {
		t.Fatal("the overdue deadline did not fire after the restart")
	}
}

// A match set to skip a turn out of time skips it: the least the rules
// ask, and no attack.
func TestSkipOnTimeout(t *testing.T) {
	e := newEnv(t)
	const ch = "test:skip"
	e.do(ch, "Ann", "new", "on-timeout:skip")
	e.do(ch, "Bob", "join")
	e.do(ch, "Ann", "start")
	e.do(ch, "Ann", "autoplace")
	e.do(ch, "Bob", "autoplace")
	e.chat.Take()
	turn := e.load(ch).Game.State.Turn
	e.Advance(25 * time.Hour)
	e.tick()
	posts := e.chat.Take()
	if got := e.load(ch).Game.State.Turn; got != turn+1 {
		t.Fatalf("turn %d after the deadline, want %d", got, turn+1)
	}
	if !said(posts, "the turn is skipped") {
		t.Error("no notice of the skipped turn")
	}
	if said(posts, "⚔️") {
		t.Error("a skipped turn attacked")
	}
	if asked := e.levelsAsked(); len(asked) != 0 {
		t.Errorf("computer players made for a skipped turn: %v", asked)
	}
}

// Standing orders: a player away has their turns played at once by their
// orders, not counted as missed, and the channel is told; orders alone
// play a turn whose time ran out, by the level their caution says.
func TestStandingOrders(t *testing.T) {
	e := newEnv(t)
	const ch = "test:orders"
	m := e.placed(ch)
	s := m.Game.State
	who, other := s.Seats[s.Current].Name, s.Seats[1-s.Current].Name
	ctx := context.Background()
	orders := people.Orders{NoAttack: true, Defend: "Australia", Caution: "bold"}
	if err := e.pp.Set(ctx, user(other).ID, people.Prefs{Away: t0.Add(72 * time.Hour).Unix(), Orders: orders}); err != nil {
		t.Fatal(err)
	}
	// Their turn comes: the orders play it at once (at the next tick).
	e.do(ch, who, "place")
	e.do(ch, who, "end")
	e.tick()
	after := e.load(ch)
	if s := after.Game.State; s.Seats[s.Current].Name != who {
		t.Fatalf("turn %d is %s's: the orders did not play %s's turn", s.Turn, s.Seats[s.Current].Name, other)
	}
	posts := e.chat.Take()
	if !said(posts, other+" is away until {{time:") || !said(posts, "their standing orders play the turn (defend Australia, no attacks, bold)") {
		t.Errorf("the channel was not told the orders played: %q", all(posts[0].Msg))
	}
	if seat(after, other).Missed != 0 {
		t.Error("a turn played by orders while away counted as missed")
	}
	// Back, their orders still play a turn whose time runs out.
	if err := e.pp.Set(ctx, user(other).ID, people.Prefs{Orders: orders}); err != nil {
		t.Fatal(err)
	}
	e.do(ch, who, "place")
	e.do(ch, who, "end")
	e.Advance(25 * time.Hour)
	e.tick()
	if !said(e.chat.Take(), "ran out of time; their standing orders play it (defend Australia, no attacks, bold)") {
		t.Error("no word of the orders playing a timed-out turn")
	}
	if seat(e.load(ch), other).Missed != 1 {
		t.Error("a turn out of time played by the orders did not count as missed")
	}
	if asked := e.levelsAsked(); len(asked) != 2 || asked[0] != orders.Level() || asked[1] != orders.Level() {
		t.Errorf("computer players made: %v, want the orders' %s twice", asked, orders.Level())
	}
}

// Lobbies that never start close after the bot's time without a change
// (or their server's, lobby-days), saying so; a lobby in use, and a
// started match, stay.
func TestIdleLobbiesExpire(t *testing.T) {
	e := newEnv(t)
	e.do("test:idle", "Ann", "new")
	e.do("test:busy", "Bob", "new")
	e.started("test:started", []string{"Cat"}, "easy")
	// A server whose lobbies wait 2 days.
	if err := e.store.SetSetting(context.Background(), "server", "test:s", []byte(`{"lobby_days":2}`), e.Now()); err != nil {
		t.Fatal(err)
	}
	res, err := e.lobby.New(context.Background(), call(e, "test:short", "Dan", "test:s"))
	if err != nil {
		t.Fatal(err)
	}
	e.outbox.Deliver(context.Background(), "test:short", res.Posts)
	e.Advance(48 * time.Hour)
	e.do("test:busy", "Dan", "join")
	e.Advance(time.Hour)
	e.tick()
	e.Advance(24 * time.Hour)
	e.tick()
	for ch, want := range map[string]storage.Status{"test:idle": storage.Abandoned, "test:busy": storage.Lobby, "test:started": storage.Active, "test:short": storage.Abandoned} {
		rows, err := e.store.History(context.Background(), ch)
		if err != nil || len(rows) == 0 || rows[0].Status != want {
			t.Errorf("%s: %+v, %v; want %s", ch, rows, err, want)
		}
	}
	for ch, want := range map[string]string{"test:idle": "This lobby is closed", "test:short": "This lobby is closed", "test:busy": "Dan joined"} {
		if lobby := e.chat.In(ch); len(lobby) == 0 || lobby[0].Msg.Embed == nil || !strings.Contains(all(lobby[0].Msg), want) {
			t.Errorf("the lobby of %s does not say %q", ch, want)
		}
	}
	for ch, want := range map[string]string{"test:idle": "its lobby closed after 3 days", "test:short": "its lobby closed after 2 days"} {
		var notes []string
		for _, s := range e.chat.In(ch) {
			if s.Msg.Embed == nil {
				notes = append(notes, s.Msg.Text)
			}
		}
		if len(notes) != 1 || !strings.Contains(notes[0], want) {
			t.Errorf("notes in %s: %q, want %q", ch, notes, want)
		}
	}
}

// The clock looks after its own channels only: a process of another
// platform (or of one channel) sharing the store leaves the others'
// deadlines, news and computers alone.
func TestScopeLeavesOtherChannelsAlone(t *testing.T) {
	e := newEnv(t)
	e.scope = ""
	e.open()
	for _, ch := range []string{"discord:1", "console:main", "console:main2"} {
		e.started(ch, []string{"Ann", "Bob"})
	}
	e.chat.Take()
	e.scope = "console:main"
	e.open()
	e.Advance(25 * time.Hour)
	e.tick()
	for ch, fired := range map[string]bool{"discord:1": false, "console:main": true, "console:main2": false} {
		if got := e.load(ch).Game.State.Phase != state.PhaseSetup; got != fired {
			t.Errorf("%s: deadline handled %v, want %v", ch, got, fired)
		}
	}
	for _, s := range e.chat.Sent() {
		if s.Channel != "console:main" {
			t.Errorf("posted to %s: %.60q", s.Channel, all(s.Msg))
		}
	}
}

// A due timer claimed by another process is its own until its lease
// ends; a timer whose handling fails is released for the next tick, and
// the failure reported; requests older than a week are forgotten.
func TestTimerClaims(t *testing.T) {
	e := newEnv(t)
	const ch = "test:claims"
	m := e.placed(ch)
	// A request applied now, to be forgotten in a week.
	if _, err := e.store.Save(context.Background(), m.ID, m.Version, storage.Change{Meta: m.Meta.Encode(), Request: &storage.Request{Key: "k"}}, e.Now()); err != nil {
		t.Fatal(err)
	}
	e.Advance(25 * time.Hour)
	other := storage.Claim{Holder: "other", Started: t0, Now: e.Now(), Until: e.Now().Add(lease)}
	if due, err := e.store.ClaimDue(context.Background(), "", other, 10); err != nil || len(due) == 0 {
		t.Fatalf("the other process claimed %v, %v", due, err)
	}
	turn := e.load(ch).Game.State.Turn
	e.tick()
	if got := e.load(ch).Game.State.Turn; got != turn {
		t.Fatal("a deadline another process holds was handled")
	}
	// Its lease over, the deadline is this process's; the store fails.
	e.Advance(lease)
	e.store.Fail(func(m string) error {
		if m == "Export" || m == "Save" {
			return errors.New("disk on fire")
		}
		return nil
	})
	if err := e.clock.Tick(context.Background()); err == nil {
		t.Error("a failed deadline was not reported")
	}
	e.store.Fail(nil)
	e.tick()
	if got := e.load(ch).Game.State.Turn; got != turn+1 {
		t.Errorf("turn %d after the failure and a tick, want %d: the deadline was not released", got, turn+1)
	}
	if !e.store.Applied("k") {
		t.Fatal("a request a day old was forgotten")
	}
	e.Advance(7 * 24 * time.Hour)
	e.tick()
	if e.store.Applied("k") {
		t.Error("a request over a week old was kept")
	}
}

// A deadline makes the reminder of the same turn moot: both due at one
// tick, the player is not reminded of a turn already played for them.
func TestDeadlineWithoutItsReminder(t *testing.T) {
	e := newEnv(t)
	const ch = "test:moot"
	e.placed(ch)
	e.Advance(25 * time.Hour)
	e.tick()
	posts := e.chat.Take()
	if !said(posts, "ran out of time") || said(posts, "⏰") {
		t.Errorf("posts at a tick past both timers: %q; want the deadline's, no reminder", all(posts[0].Msg))
	}
}

// A process that claims every channel's timers (an empty scope) still
// handles only those it serves.
func TestServesOnlyItsOwn(t *testing.T) {
	e := newEnv(t)
	e.scope = ""
	e.open()
	e.placed("test:mine")
	e.placed("other:theirs")
	e.configure = func(c *Config) { c.Serves = func(ch string) bool { return strings.HasPrefix(ch, "test:") } }
	e.open()
	e.Advance(25 * time.Hour)
	e.tick()
	if e.load("test:mine").Game.State.Turn == e.load("other:theirs").Game.State.Turn {
		t.Error("the deadlines of a channel it does not serve were handled, or its own not")
	}
	for _, s := range e.chat.Sent() {
		if s.Channel != "test:mine" {
			t.Errorf("posted to %s", s.Channel)
		}
	}
}
