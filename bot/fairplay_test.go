package bot

import (
	"bytes"
	"context"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A match announces its commitment to the seed when it starts; when won,
// the victory reveals the seed and each player's luck, the result counts
// for the server's leaderboard, and /risk history replays the whole match,
// tells its luck and checks its dice. Before the end, the seed stays
// secret.
func TestFairDiceLuckAndResults(t *testing.T) {
	h := newHarness(t)
	const ch = "test:fair"
	h.do(ch, "Ann", "new")
	h.do(ch, "Ann", "addbot", "level:easy")
	h.do(ch, "Ann", "addbot", "level:normal")
	h.do(ch, "Ann", "leave")
	start := h.do(ch, "Ann", "start")
	m := h.load(ch)
	commitment := m.Game.Commitment()
	wantPublic(t, start, "🔒 Dice commitment: `"+commitment+"`")
	posts := h.takePosts()
	m = h.load(ch)
	if m.Status != storage.Finished || m.Game.State.Phase != state.PhaseOver {
		t.Fatalf("bots stopped at turn %d", m.Game.State.Turn)
	}
	won := posts[len(posts)-1].msg
	wantPublic(t, won, "wins after", "Luck against the exact odds", "rolls (expected", "The seed was ", commitment[:16])

	// The result counts for the channel (no server here), bots by level.
	board, err := h.db.Leaderboard(context.Background(), ch, state.Classic, 10)
	if err != nil || len(board) != 2 {
		t.Fatalf("leaderboard %+v, %v", board, err)
	}
	if board[0].Won != 1 || board[0].Played != 1 || !strings.HasPrefix(board[0].Player, "bot:") || board[1].Won != 0 {
		t.Errorf("leaderboard %+v", board)
	}

	// The leaderboard, and a computer level's stats.
	stats := h.do(ch, "Zed", "stats")
	wantPrivate(t, stats, "Leaderboard — classic rules", "1. 🤖 ", "(1 won of 1)", "You: no match won or lost here yet", "Luck in this channel's match", "rolls (expected")
	wantPrivate(t, h.do(ch, "Zed", "stats", "player:"+board[0].Player), "classic: 1 won of 1, rating ", "(#1)")
	wantPrivate(t, h.do(ch, "Zed", "stats", "rules:capitals"), "No match of these rules has been won here yet")

	wantPrivate(t, h.do(ch, "Zed", "history", "show:verify"), "verified: every random outcome follows from the committed seed")
	wantPrivate(t, h.do(ch, "Zed", "history", "show:luck"), "rolls (expected")
	wantPrivate(t, h.do(ch, "Zed", "history", "show:luck", "turn:2"), "turn is for show:turn")
	for _, show := range []string{"replay", "strip"} {
		r := h.do(ch, "Zed", "history", "show:"+show)
		wantPrivate(t, r, "The whole match")
		if r.Image == nil {
			t.Fatalf("show:%s without an image", show)
		}
		data, err := r.Image.PNG(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if show == "replay" {
			g, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil || len(g.Image) < 2 || !strings.HasSuffix(r.Image.Name, ".gif") {
				t.Errorf("replay %s: %v", r.Image.Name, err)
			} else if len(g.Image) != m.Game.State.Turn+1 {
				t.Logf("replay of %d frames for %d turns", len(g.Image), m.Game.State.Turn)
			}
		} else if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("strip: %v", err)
		}
	}
}

// While a match goes on, its seed is not told: /risk history show:verify
// says the commitment is all there is.
func TestSeedSecretWhileLive(t *testing.T) {
	h := newHarness(t)
	const ch = "test:secret"
	startedAndPlaced(t, h, ch)
	m := h.load(ch)
	r := h.do(ch, "Ann", "history", "show:verify")
	wantPrivate(t, r, "revealed when the match ends", m.Game.Commitment())
	if strings.Contains(all(r), "seed was") {
		t.Errorf("a live match's seed told: %q", all(r))
	}
}
