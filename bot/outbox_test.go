package bot

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

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

// crashDirEnv tells the test binary run by TestCrashBetweenSaveAndPost to
// be the process that dies: it ends a turn in the match of that folder and
// is killed as the turn's news is about to be posted.
const crashDirEnv = "RISK_BOT_CRASH_DIR"

// A real crash: a process saves a turn and is killed (SIGKILL) before it
// posts anything. The bot started next posts the turn's summary and pings
// the next player.
func TestCrashBetweenSaveAndPost(t *testing.T) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		h := unopened(t)
		h.dir = dir
		h.advance(time.Hour)
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
