package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// won stores a match of server in channel that seat "winner" won: the
// others surrendered after the placement. Its result is not recorded.
func (e *env) won(server, channel, winner string, seats ...string) *hosted.Match {
	e.t.Helper()
	m := e.open(server, channel, time.Hour, seats...)
	for i := range m.Game.State.Seats {
		e.play(m, i, engine.AutoPlace{})
	}
	for _, name := range seats {
		if name != winner {
			e.play(m, m.Game.State.SeatByID(seat(name).ID), engine.Surrender{})
		}
	}
	if m.Game.State.Phase != state.PhaseOver {
		e.t.Fatalf("%s: the match is not over after the surrenders", channel)
	}
	m.Meta.Finished = e.now
	if err := e.ms.Save(context.Background(), m, storage.Change{Status: storage.Finished}); err != nil {
		e.t.Fatal(err)
	}
	return m
}

// A match won is recorded for its server's leaderboard (its channel's
// outside any server), computers by level, with its luck kept for the
// victory post; /risk me stats shows the leaderboard, the asker's record
// or a player's, and the luck of the channel's match.
func TestStats(t *testing.T) {
	e := newEnv(t, "test:")
	const ch = "test:fair"
	m := e.won("", ch, "bot:1 easy", "Ann", "bot:1 easy")
	e.sv.RecordWin(context.Background(), m)
	if !strings.Contains(m.Luck, "Luck: every roll of the dice against its exact odds") {
		t.Errorf("the luck kept for the victory post: %q", m.Luck)
	}
	board, err := e.store.Leaderboard(context.Background(), ch, state.Classic, 10)
	if err != nil || len(board) != 2 || board[0].Player != "bot:easy" || board[0].Won != 1 || board[1].Player != "test:ann" || board[1].Won != 0 {
		t.Fatalf("the channel's leaderboard: %+v, %v; want the easy computer first, then Ann", board, err)
	}
	// Recording it again changes nothing.
	e.sv.RecordWin(context.Background(), m)
	if again, _ := e.store.Leaderboard(context.Background(), ch, state.Classic, 10); len(again) != 2 || again[0].Played != 1 {
		t.Errorf("a result recorded twice: %+v", again)
	}

	for _, tt := range []struct {
		name, who string
		opts      map[string]string
		refused   bool
		want      []string
	}{
		{"a stranger", "Zed", nil, false, []string{"Leaderboard — classic rules", "1. 🤖 easy (computer) — ", "(1 won of 1)", "2. Ann — ",
			"You: no match won or lost here yet", "Luck in this channel's match", "Ann: no battles"}},
		{"a player", "Ann", nil, false, []string{"You (Ann): classic: 0 won of 1, rating ", "(#2)"}},
		{"a computer level", "Zed", map[string]string{"player": "bot:easy"}, false, []string{"classic: 1 won of 1, rating ", "(#1)"}},
		{"a name typed with @", "Zed", map[string]string{"player": "@ann"}, false, []string{"Ann: classic: 0 won of 1"}},
		{"a mention of nobody here", "Zed", map[string]string{"player": "<@999>"}, false, []string{"<@999>: no match won or lost here yet"}},
		{"another rule set", "Zed", map[string]string{"rules": "capitals"}, false, []string{"Leaderboard — capitals rules", "No match of these rules has been won here yet"}},
		{"markup", "Zed", map[string]string{"player": "<b>x</b>"}, true, []string{"a player's name has no “<” or “>”"}},
		{"Markdown", "Zed", map[string]string{"player": "**Bob**"}, true, []string{"a player's name has no “*”"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e.t = t
			got, refused := e.do(chat.Request{Channel: ch, User: chat.User{ID: "test:" + strings.ToLower(tt.who), Name: tt.who}, Command: "me stats", Options: tt.opts})
			if refused != tt.refused {
				t.Errorf("refused %v, want %v: %q", refused, tt.refused, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want %q in it", got, w)
				}
			}
		})
	}
}

// TestStatsOfAMention: a player given as a chat's mention is the person
// of that number on the asker's platform.
func TestStatsOfAMention(t *testing.T) {
	e := newEnv(t, "test:")
	e.sv.RecordWin(context.Background(), e.won("", "test:m", "42", "42", "Ann"))
	got, _ := e.do(chat.Request{Channel: "test:m", User: chat.User{ID: "test:ann"}, Command: "me stats", Options: map[string]string{"player": "<@!42>"}})
	if !strings.Contains(got, "42: classic: 1 won of 1") {
		t.Errorf("got %q, want the record of test:42", got)
	}
}

// TestResultOf: a result's server is the match's, its channel's outside
// any; it ended when the bot said so, which a copy to another database
// keeps; computers carry their levels.
func TestResultOf(t *testing.T) {
	e := newEnv(t, "test:")
	closed := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name, server string
		finished     time.Time
		wantServer   string
		wantEnded    time.Time
	}{
		{"in a server", "test:s", t0, "test:s", t0},
		{"outside any", "", t0, "test:r", t0},
		{"copied, without the bot's end", "test:s", time.Time{}, "test:s", closed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e.t = t
			m := e.won(tt.server, "test:r", "Ann", "Ann", "bot:1 hard")
			x, err := e.store.Export(context.Background(), m.ID)
			if err != nil {
				t.Fatal(err)
			}
			meta := m.Meta
			meta.Finished = tt.finished
			x.Meta = meta.Encode()
			row := m.Match
			row.Closed = closed
			r, err := ResultOf(row, x)
			if err != nil {
				t.Fatal(err)
			}
			want := []storage.ResultSeat{{Player: "test:ann", Name: "Ann", Place: 1}, {Player: "bot:1", Level: "hard", Name: "Bot 1", Place: 2}}
			if r.Server != tt.wantServer || !r.Ended.Equal(tt.wantEnded) || r.Match != m.ID || r.Rules != state.Classic || len(r.Seats) != 2 || r.Seats[0] != want[0] || r.Seats[1] != want[1] {
				t.Errorf("got %+v, want server %s, ended %v, seats %+v", r, tt.wantServer, tt.wantEnded, want)
			}
		})
	}
	if _, err := ResultOf(storage.Match{ID: 9}, &storage.Export{Meta: []byte(`[]`)}); err == nil {
		t.Error("data that does not decode gave a result")
	}
}

// TestRecordWinFailures: a win whose export or record fails is logged,
// and the match stays won: no luck is kept if there is no record.
func TestRecordWinFailures(t *testing.T) {
	e := newEnv(t, "test:")
	m := e.won("", "test:f", "Ann", "Ann", "Bob")
	e.store.Fail(func(method string) error {
		if method == "Export" {
			return errors.New("disk on fire")
		}
		return nil
	})
	e.sv.RecordWin(context.Background(), m)
	if m.Luck != "" {
		t.Errorf("luck kept without a record: %q", m.Luck)
	}
	e.store.Fail(func(method string) error {
		if method == "RecordResult" {
			return errors.New("disk on fire")
		}
		return nil
	})
	e.sv.RecordWin(context.Background(), m)
	e.store.Fail(nil)
	if m.Luck == "" {
		t.Error("the luck was not kept when only the leaderboard failed")
	}
	if board, _ := e.store.Leaderboard(context.Background(), "test:f", state.Classic, 0); len(board) != 0 {
		t.Errorf("a failed record left %+v", board)
	}
}
