package bot

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/state"
)

// endTurn has the current player of a match after the setup place
// and end their turn, and returns who played and who is next.
func endTurn(t *testing.T, h *harness, ch string) (who, next string) {
	t.Helper()
	s := h.load(ch).Game.State
	if s.Phase == state.PhaseSetup || s.Phase == state.PhaseOver {
		t.Fatalf("phase %s", s.Phase)
	}
	who = s.Seats[s.Current].Name
	next = s.Seats[(s.Current+1)%len(s.Seats)].Name
	wantDone(t, h.do(ch, who, "autoplace"))
	wantDone(t, h.do(ch, who, "end"), "ended turn")
	return who, next
}

// startedAndPlaced is a match of Ann and Bob past the initial placement.
func startedAndPlaced(t *testing.T, h *harness, ch string) {
	t.Helper()
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	if len(h.takePosts()) == 0 || len(h.queued()) != 0 {
		t.Fatal("the end of the placement was not posted, or stayed queued")
	}
}

// The news of a saved turn (its summary, the map, the next player's ping)
// outlives posts that fail, as they would if the process died between the
// save and the post: it stays queued and is posted once, after a restart.
func TestTurnNewsSurvivesAnInterruptedPost(t *testing.T) {
	h := newHarness(t)
	const ch = "test:outbox"
	startedAndPlaced(t, h, ch)
	h.advance(time.Minute) // the bot started a while ago

	// Delivered news leaves nothing queued.
	endTurn(t, h, ch)
	if len(h.takePosts()) == 0 || len(h.queued()) != 0 {
		t.Fatal("a delivered turn was not posted, or stayed queued")
	}

	h.setDown(errDown)
	_, next := endTurn(t, h, ch)
	if len(h.takePosts()) != 0 || len(h.queued()) != 1 {
		t.Fatalf("with the chat down: %d queued, want 1", len(h.queued()))
	}
	h.setDown(nil)
	// This process queued it a moment ago: not yet taken for lost.
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := h.takePosts(); len(p) != 0 {
		t.Fatalf("posted %d messages while the first delivery may be under way", len(p))
	}

	h.restart()
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	posts := h.takePosts()
	var summary, image, ping bool
	for _, p := range posts {
		summary = summary || strings.Contains(all(p.msg), "**Turn ")
		image = image || p.msg.Image != nil
		if len(p.msg.Mentions) == 1 && p.msg.Mentions[0] == user(next).ID && strings.Contains(all(p.msg), "it is your turn") {
			ping = true
		}
	}
	if !summary || !image || !ping || !strings.Contains(all(posts[0].msg), "Posted late") {
		t.Fatalf("after the restart: summary %v, map %v, ping of %s %v; posts %+v", summary, image, next, ping, posts)
	}
	if len(h.queued()) != 0 {
		t.Fatal("the news stayed queued after it was posted")
	}
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := h.takePosts(); len(p) != 0 {
		t.Fatalf("posted again: %+v", p)
	}
}

// News the match has outgrown (the next player already moved) is posted
// without the map or the ping, which are no longer true; news that cannot
// be posted for a day is dropped, so it is not tried forever.
func TestLateNewsKeepsWhatIsTrue(t *testing.T) {
	h := newHarness(t)
	const ch = "test:late"
	startedAndPlaced(t, h, ch)
	h.setDown(errDown)
	endTurn(t, h, ch)
	endTurn(t, h, ch)
	if n := len(h.queued()); n != 2 {
		t.Fatalf("%d queued, want 2", n)
	}
	h.setDown(nil)
	h.advance(DefaultLease + time.Minute)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	posts := h.takePosts()
	var stale, fresh int
	for _, p := range posts {
		if strings.Contains(all(p.msg), "it is your turn") {
			fresh++
		}
		if strings.Contains(all(p.msg), "**Turn ") && p.msg.Image == nil && len(p.msg.Mentions) == 0 {
			stale++
		}
	}
	if stale != 1 || fresh != 1 || len(h.queued()) != 0 {
		t.Fatalf("stale summaries %d (want 1), pings %d (want 1), %d still queued; posts %+v", stale, fresh, len(h.queued()), posts)
	}

	h.setDown(errDown)
	endTurn(t, h, ch)
	h.advance(DefaultLease + time.Minute)
	if err := h.bot.outbox.Redeliver(context.Background()); err == nil || len(h.queued()) != 1 {
		t.Fatalf("a failed delivery: %v, %d queued; want an error and the news kept", err, len(h.queued()))
	}
	h.advance(outbox.GiveUpAfter)
	if err := h.bot.outbox.Redeliver(context.Background()); err != nil || len(h.queued()) != 0 {
		t.Fatalf("after a day of failures: %v, %d queued; want it dropped", err, len(h.queued()))
	}

	// A channel that will never take the news (deleted, the bot removed)
	// does not keep it queued.
	h.setDown(fmt.Errorf("gone: %w", chat.ErrUndeliverable))
	endTurn(t, h, ch)
	if n := len(h.queued()); n != 0 {
		t.Fatalf("%d queued for a channel that is gone", n)
	}
}

// crashDirEnv tells the test binary run by TestCrashBetweenSaveAndPost to
// be the process that dies: it ends a turn in the match of that folder and
// is killed as the turn's news is about to be posted.
const crashDirEnv = "RISK_BOT_CRASH_DIR"

// A real crash: a process saves a turn and is killed (SIGKILL) before it
// posts anything. The bot started next posts the turn's summary and pings
// the next player.
func TestCrashBetweenSaveAndPost(t *testing.T) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		h := &harness{t: t, dir: dir, now: time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC), seed: 1}
		h.open()
		h.onPost = func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		endTurn(t, h, "test:crash")
		t.Fatal("the news was not posted")
	}
	h := newHarness(t)
	const ch = "test:crash"
	startedAndPlaced(t, h, ch)
	s := h.load(ch).Game.State
	next := s.Seats[(s.Current+1)%len(s.Seats)].Name
	turn := s.Turn
	h.close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashBetweenSaveAndPost$")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+h.dir)
	out, err := cmd.CombinedOutput()
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, out)
	}

	h.advance(time.Hour) // the restart
	h.open()
	if got := h.load(ch).Game.State.Turn; got != turn+1 {
		t.Fatalf("after the crash the match is at turn %d, want %d: the turn was not saved", got, turn+1)
	}
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ping bool
	for _, p := range h.takePosts() {
		ping = ping || len(p.msg.Mentions) == 1 && p.msg.Mentions[0] == user(next).ID && strings.Contains(all(p.msg), "it is your turn")
	}
	if !ping || len(h.queued()) != 0 {
		t.Fatalf("after the restart: ping of %s %v, %d still queued", next, ping, len(h.queued()))
	}
}

// News of a match whose log no longer replays cannot be written again: it
// is dropped (and logged), not tried every minute.
func TestNewsOfADamagedMatchIsDropped(t *testing.T) {
	h := newHarness(t)
	const ch = "test:damaged"
	startedAndPlaced(t, h, ch)
	h.setDown(errDown)
	endTurn(t, h, ch)
	if len(h.queued()) != 1 {
		t.Fatal("nothing queued")
	}
	id := h.load(ch).ID
	h.close()
	db, err := sql.Open("sqlite3", filepath.Join(h.dir, "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DROP TRIGGER log_append_only_update`,
		fmt.Sprintf(`UPDATE log SET entry = json_set(entry, '$.seat', 99) WHERE match_id = %d AND seq = (SELECT commands FROM matches WHERE id = %d)`, id, id),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	h.open()
	h.setDown(nil)
	if err := h.bot.outbox.Redeliver(context.Background()); err != nil {
		t.Fatalf("redeliver: %v", err)
	}
	if n := len(h.queued()); n != 0 {
		t.Fatalf("%d still queued", n)
	}
}
