package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/storage"
)

// TestDeliver: a batch is posted in order and taken out of the outbox; a
// post that fails stops the batch, which stays queued for Redeliver,
// unless the channel will never take it; a channel that refuses the bot
// is noted, and its match's host told directly, once.
func TestDeliver(t *testing.T) {
	refused := &chat.RefusedError{Reason: "Missing Permissions", Needs: []string{"Send Messages", "Embed Links"}, Err: errors.New("403")}
	for _, tt := range []struct {
		name string
		// fail is the chat's error for the channel's posts from the
		// nth (from 1) on; 0 posts all.
		fail   error
		from   int
		posted int // messages of the batch posted (of 3: the record, the map, the ping)
		queued bool
		noted  bool
	}{
		{name: "all posted", posted: 3},
		{name: "the chat down at the first", fail: down, from: 1, posted: 0, queued: true},
		{name: "the chat down at the second", fail: down, from: 2, posted: 1, queued: true},
		{name: "the channel gone", fail: fmt.Errorf("gone: %w", chat.ErrUndeliverable), from: 1, posted: 0},
		{name: "the channel refuses the bot", fail: refused, from: 2, posted: 1, noted: true},
		{name: "the channel refuses the bot at once", fail: refused, from: 1, posted: 0, noted: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			const ch = "test:deliver"
			m := e.started(ch, "")
			bt, _, next := e.endTurn(m)
			if len(bt.Posts) != 2 || len(e.store.Queued()) != 1 {
				t.Fatalf("%d messages, %d queued; want the turn's record and the next one's ping, queued once", len(bt.Posts), len(e.store.Queued()))
			}
			n := 0
			e.chat.Refuse(func(channel string) error {
				if channel != ch {
					return nil
				}
				n++
				if tt.fail != nil && n >= tt.from {
					return tt.fail
				}
				return nil
			})
			e.ob.Deliver(context.Background(), ch, bt)
			e.chat.Refuse(nil)
			if _, ok := tt.fail.(*chat.RefusedError); ok && n != tt.from {
				t.Errorf("%d posts tried, want %d: the rest would be refused too", n, tt.from)
			}
			sent := e.chat.In(ch)
			if len(sent) != min(tt.posted, 2) {
				t.Errorf("%d posted, want %d: %q", len(sent), min(tt.posted, 2), texts(sent))
			}
			if _, pinged := pingOf(sent, next); pinged != (tt.posted >= 2) {
				t.Errorf("%s pinged %v, want %v", next, pinged, tt.posted >= 2)
			}
			if q := len(e.store.Queued()); (q == 1) != tt.queued {
				t.Errorf("%d queued after the delivery, want queued %v", q, tt.queued)
			}
			dms := e.chat.In("dm:" + user("Ann"))
			note := e.note(ch, nil, "en")
			if tt.noted {
				if len(dms) != 1 || !strings.Contains(dms[0].Msg.Text, "I could not post in {{channel:test:deliver}}, where you host a Risk match (the chat said: Missing Permissions)") ||
					!strings.Contains(dms[0].Msg.Text, "give me Send Messages and Embed Links") {
					t.Errorf("the host was told %q", texts(dms))
				}
				if !strings.Contains(note, "This channel refused my last post") || !strings.Contains(note, "Missing Permissions") {
					t.Errorf("the channel's note: %q", note)
				}
				// Refused again: the host was told already.
				bt, _, _ := e.endTurn(m)
				e.chat.Refuse(func(channel string) error {
					if channel == ch {
						return refused
					}
					return nil
				})
				e.ob.Deliver(context.Background(), ch, bt)
				if dms := e.chat.In("dm:" + user("Ann")); len(dms) != 1 {
					t.Errorf("the host was told %d times, want once", len(dms))
				}
			} else if len(dms) != 0 || note != "" {
				t.Errorf("nothing refused, yet the host was told %q and the channel's note is %q", texts(dms), note)
			}
		})
	}
}

// TestDeliverOutsideTheOutbox: a batch that no change queued (an answer's
// posts) is posted and marks nothing; a match ended in its own thread has
// its thread and its teams' archived once its news is posted.
func TestDeliverOutsideTheOutbox(t *testing.T) {
	e := newEnv(t)
	var asked []string
	e.store.Fail(func(method string) error { asked = append(asked, method); return nil })
	e.ob.Deliver(context.Background(), "test:c", news.Batch{Posts: []news.Post{{Message: chat.Message{Text: "one"}}, {Message: chat.Message{Text: "two"}}},
		Archive: true, Threads: []string{"test:team1"}})
	if got := texts(e.chat.In("test:c")); strings.Join(got, ",") != "one,two" {
		t.Errorf("posted %q, want one, two", got)
	}
	if _, archived := e.chat.Threads(); strings.Join(archived, ",") != "test:c,test:team1" {
		t.Errorf("archived %q, want the match's thread and its team's", archived)
	}
	if slices.Contains(asked, "Delivered") {
		t.Errorf("a batch no change queued was marked delivered (the store was asked %q)", asked)
	}
}

// TestRedeliver: the news a change queued and nobody posted is posted by
// whichever process claims it, once: not while the process that queued it
// may still be posting it (its lease), at once by that process
// restarted. Written late, it says so, in the match's language, and keeps
// only what is still true.
func TestRedeliver(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const ch = "test:late"
	m := e.started(ch, "fr")
	e.Advance(time.Minute) // the process started a while ago
	e.downFor(down)
	_, _, next := e.endTurn(m) // saved, not posted: as if the process died
	e.downFor(nil)
	if err := e.ob.Redeliver(ctx); err != nil || len(e.chat.Sent()) != 0 {
		t.Fatalf("redelivered %d posts (%v) while the first delivery may be under way", len(e.chat.Sent()), err)
	}
	e.Advance(lease / 2)
	e.restart()
	if err := e.ob.Redeliver(ctx); err != nil {
		t.Fatal(err)
	}
	sent := e.chat.In(ch)
	if len(sent) != 2 || !strings.HasPrefix(sent[0].Msg.Text, fr.T("outbox.posted-late")) {
		t.Fatalf("after a restart: %q; want the record and the ping, the first saying in French it is late", texts(sent))
	}
	if _, ok := pingOf(sent, next); !ok || sent[0].Msg.Image == nil || len(e.store.Queued()) != 0 {
		t.Errorf("ping of %s %v, map %v, %d queued; want the ping, the map, nothing queued", next, ok, sent[0].Msg.Image != nil, len(e.store.Queued()))
	}
	// Once posted, never again.
	e.Advance(lease)
	if err := e.ob.Redeliver(ctx); err != nil || len(e.chat.Sent()) != 2 {
		t.Errorf("posted again: %d posts, %v", len(e.chat.Sent()), err)
	}
}

// TestLateNewsKeepsWhatIsTrue: news the match has outgrown (the next
// player already moved) is posted without the map or the ping, which are
// no longer true; the latest news keeps them.
func TestLateNewsKeepsWhatIsTrue(t *testing.T) {
	e := newEnv(t)
	const ch = "test:late"
	m := e.started(ch, "")
	e.downFor(down)
	first := m.Game.State.Turn
	e.endTurn(m)
	_, _, next := e.endTurn(m)
	e.downFor(nil)
	if n := len(e.store.Queued()); n != 2 {
		t.Fatalf("%d queued, want 2", n)
	}
	e.Advance(lease + 1)
	if err := e.ob.Redeliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := e.chat.In(ch)
	record := func(turn int) (chat.Message, bool) {
		for _, s := range sent {
			if strings.Contains(all(s.Msg), fmt.Sprintf("**Turn %d — ", turn)) && strings.Contains(all(s.Msg), "placed their armies") {
				return s.Msg, true
			}
		}
		return chat.Message{}, false
	}
	stale, ok1 := record(first)
	fresh, ok2 := record(first + 1)
	if !ok1 || !ok2 || stale.Image != nil || fresh.Image == nil {
		t.Errorf("records: stale %v with map %v, fresh %v with map %v; want the map with the fresh one only: %q", ok1, stale.Image != nil, ok2, fresh.Image != nil, texts(sent))
	}
	pings := 0
	for _, s := range sent {
		if strings.Contains(all(s.Msg), "it is your turn") {
			pings++
		}
	}
	if _, ok := pingOf(sent, next); !ok || pings != 1 || len(e.store.Queued()) != 0 {
		t.Errorf("%d pings (%s's: %v), %d queued; want %s's alone, nothing queued: %q", pings, next, ok, len(e.store.Queued()), next, texts(sent))
	}
}

// TestRedeliverGivesUp: a delivery that fails is tried again at the next
// tick, by any process; news that cannot be posted for a day, or that
// cannot be written again (its match damaged, its body unreadable), or
// for a channel that will never take it, is dropped rather than tried for
// ever. Another platform's channels are left to their own process.
func TestRedeliverGivesUp(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		break_ func(e *env, m *news.Batch)
		err    bool // Redeliver reports an error
		queued bool // the news stays queued
	}{
		{"the chat down", func(e *env, _ *news.Batch) { e.downFor(down) }, true, true},
		{"the chat down for a day", func(e *env, _ *news.Batch) { e.downFor(down); e.Advance(GiveUpAfter) }, false, false},
		{"the channel gone", func(e *env, _ *news.Batch) { e.downFor(fmt.Errorf("gone: %w", chat.ErrUndeliverable)) }, false, false},
		{"the match damaged", func(e *env, bt *news.Batch) { e.store.Break(bt.Match) }, false, false},
		{"the news unreadable", func(e *env, bt *news.Batch) {
			// Only a body that does not decode is queued.
			if err := e.store.Delivered(context.Background(), bt.Match, bt.Version); err != nil {
				e.t.Fatal(err)
			}
			m, _ := e.ms.ByID(context.Background(), bt.Match)
			if _, err := e.store.Save(context.Background(), bt.Match, m.Version, storage.Change{Posts: []json.RawMessage{[]byte(`{"turns":7}`)}}, e.Now()); err != nil {
				e.t.Fatal(err)
			}
		}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			m := e.started("test:g", "")
			e.downFor(down)
			bt, _, _ := e.endTurn(m)
			e.downFor(nil)
			e.Advance(lease + 1)
			tt.break_(e, &bt)
			err := e.ob.Redeliver(ctx)
			if (err != nil) != tt.err {
				t.Errorf("Redeliver: %v, want an error %v", err, tt.err)
			}
			if q := len(e.store.Queued()); (q > 0) != tt.queued {
				t.Errorf("%d queued, want queued %v", q, tt.queued)
			}
			if tt.queued {
				// Released: tried again at once, and posted.
				e.downFor(nil)
				if err := e.ob.Redeliver(ctx); err != nil || len(e.store.Queued()) != 0 || len(e.chat.In("test:g")) == 0 {
					t.Errorf("tried again: %v, %d queued, %d posted", err, len(e.store.Queued()), len(e.chat.In("test:g")))
				}
			}
		})
	}
	t.Run("another platform's channel", func(t *testing.T) {
		// Claimed with the others (the scope is every channel), and left.
		e := newEnvWith(t, func(c *Config) { c.Scope = "" })
		m := e.started("web:room", "")
		e.downFor(down)
		e.endTurn(m)
		e.downFor(nil)
		e.Advance(lease + 1)
		if err := e.ob.Redeliver(ctx); err != nil || len(e.chat.Sent()) != 0 || len(e.store.Queued()) != 1 {
			t.Errorf("%v, %d posted, %d queued; want another platform's news left alone", err, len(e.chat.Sent()), len(e.store.Queued()))
		}
	})
}

// TestStoreFailures: the outbox survives a failing store: a batch posted
// whose marking fails stays queued (posted once more later, never lost);
// a failed claim is Redeliver's error; a note it cannot read is no note.
// Without a chat, nothing is posted and nothing fails.
func TestStoreFailures(t *testing.T) {
	ctx := context.Background()
	failing := func(method string) func(string) error {
		return func(m string) error {
			if m == method {
				return errors.New("disk on fire")
			}
			return nil
		}
	}
	e := newEnv(t)
	m := e.started("test:s", "")
	bt, _, _ := e.endTurn(m)
	e.store.Fail(failing("Delivered"))
	e.ob.Deliver(ctx, "test:s", bt)
	if len(e.chat.In("test:s")) != 2 || len(e.store.Queued()) != 1 {
		t.Errorf("%d posted, %d queued; want the batch posted and still queued", len(e.chat.In("test:s")), len(e.store.Queued()))
	}
	e.store.Fail(failing("ClaimPosts"))
	if err := e.ob.Redeliver(ctx); err == nil {
		t.Error("a failed claim gave no error")
	}
	e.store.Fail(failing("Setting"))
	if got := e.note("test:s", []string{"Send Messages"}, lang.English); got != "" {
		t.Errorf("a note that cannot be read: %q", got)
	}
	e.store.Fail(nil)

	silent := newEnvWith(t, func(c *Config) { c.Poster = nil })
	if err := silent.ob.Post(ctx, "test:s", news.Post{Message: chat.Message{Text: "x"}}); err != nil {
		t.Errorf("a post without a chat: %v", err)
	}
	if err := silent.ob.Restore(ctx, "test:s", []news.Post{{Message: chat.Message{Text: "x"}}}); err != nil {
		t.Errorf("a restore without a chat: %v", err)
	}
}

// TestRefusedTellsTheHostOnce: the host of a match whose channel refuses
// the bot is told directly, in the match's language, once per refusal;
// a message that could not reach them is tried at the next refusal; a
// computer host is told nothing.
func TestRefusedTellsTheHostOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	m := e.started("test:r", "fr")
	re := &chat.RefusedError{Reason: "Missing Access"}
	e.chat.Refuse(func(string) error { return down }) // the direct message fails too
	e.ob.refused(ctx, "test:r", m.ID, re)
	e.chat.Refuse(nil)
	e.ob.refused(ctx, "test:r", m.ID, re)
	e.ob.refused(ctx, "test:r", m.ID, re)
	dms := e.chat.In("dm:" + user("Ann"))
	if len(dms) != 1 || !strings.Contains(dms[0].Msg.Text, "Je n'ai pas pu poster dans {{channel:test:r}}") || !strings.Contains(dms[0].Msg.Text, "ses permissions") {
		t.Errorf("the host was told %q; want once, in French, after the failed try", texts(dms))
	}
	bots := e.started("test:bots", "")
	bots.Meta.Host = "bot:1"
	if err := e.ms.Save(ctx, bots, storage.Change{}); err != nil {
		t.Fatal(err)
	}
	e.ob.refused(ctx, "test:bots", bots.ID, re)
	if n := len(e.chat.Sent()); n != 1 {
		t.Errorf("%d messages, want no new one for a computer host", n)
	}
	if got := e.note("test:bots", nil, lang.English); !strings.Contains(got, "Missing Access") {
		t.Errorf("the channel of a computer's match is not noted: %q", got)
	}
}
