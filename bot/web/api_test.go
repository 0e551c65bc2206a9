package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// client is a program using the match API, and nothing else.
type client struct {
	t     testing.TB
	base  string
	token string
}

// get fetches path and decodes its JSON into v; it returns the status.
func (c *client) get(path string, v any) int {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.base+path, nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.do(req, v)
}

// post posts body to path and decodes the answer into v.
func (c *client) post(path, body string, v any) int {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.do(req, v)
}

func (c *client) do(req *http.Request, v any) int {
	c.t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			c.t.Fatalf("%s %s: %d %s: %v", req.Method, req.URL, res.StatusCode, b, err)
		}
	}
	return res.StatusCode
}

// apiMatch is GET /api/matches/{id} as a client reads it.
type apiMatch struct {
	ID       int64           `json:"id"`
	Status   string          `json:"status"`
	Commands int             `json:"commands"`
	Viewer   int             `json:"viewer"`
	State    json.RawMessage `json:"state"`
}

type apiCommands struct {
	Status   string        `json:"status"`
	Commands int           `json:"commands"`
	Setup    *engine.Setup `json:"setup"`
	Entries  []struct {
		Index int             `json:"index"`
		Seat  int             `json:"seat"`
		Cmd   json.RawMessage `json:"cmd"`
		Rand  []int32         `json:"rand"`
	} `json:"entries"`
	More bool `json:"more"`
}

// startMatch opens a match in channel with Ann and two computer players,
// started, and returns its id.
func startMatch(t testing.TB, e *testEnv, channel string, rules ...string) int64 {
	t.Helper()
	newLine := "/risk new"
	if len(rules) > 0 {
		newLine += " rules:" + rules[0]
	}
	for _, l := range []string{newLine, "/risk addbot level:easy", "/risk addbot level:easy", "/risk start"} {
		e.do(t, channel, "Ann", l)
	}
	l, err := e.db.Active(context.Background(), Prefix+channel)
	if err != nil {
		t.Fatal(err)
	}
	return l.ID
}

// TestReplica follows a whole match with computer players through the API
// only, playing Ann's seat with a computer player of its own from her view
// (her token), and rebuilding the match with the engine from the log and
// its recorded dice: the replica's public view must be the server's at
// every step, and the seed stays secret until the match is over.
func TestReplica(t *testing.T) {
	// Capitals on a small generated map: a whole match in fewer commands.
	for _, rules := range []string{"classic", "capitals map:small"} {
		t.Run(strings.Fields(rules)[0], func(t *testing.T) { testReplica(t, rules) })
	}
}

func testReplica(t *testing.T, rules string) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "replica", rules)
	tok, err := e.srv.Token(context.Background(), id, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	public := &client{t: t, base: e.ts.URL}
	ann := &client{t: t, base: e.ts.URL, token: tok}
	player, err := bot.StandardPlayer("easy", 7)
	if err != nil {
		t.Fatal(err)
	}
	var replica *engine.Game
	compared, played := 0, 0
	// Under the race detector (CI), a capitals match is followed for its
	// first commands only: a whole one takes half a minute there.
	limit := -1
	if raceEnabled && rules != "classic" {
		limit = 250
	}
	for step := 0; ; step++ {
		if step > 3000 {
			t.Fatalf("the match did not end: %d commands, turn %d, phase %v, seat %d to play", replica.Version, replica.State.Turn, replica.State.Phase, replica.State.Current)
		}
		var m apiMatch
		if st := public.get(fmt.Sprintf("/api/matches/%d", id), &m); st != http.StatusOK {
			t.Fatalf("GET the match: %d", st)
		}
		// Catch up with the log to the moment of that view.
		for replica == nil || replica.Version < m.Commands {
			after := 0
			if replica != nil {
				after = replica.Version
			}
			var cs apiCommands
			if st := public.get(fmt.Sprintf("/api/matches/%d/commands?after=%d", id, after), &cs); st != http.StatusOK {
				t.Fatalf("GET the commands: %d", st)
			}
			if cs.Setup == nil {
				t.Fatal("no setup")
			}
			if cs.Status == "active" && cs.Setup.Seed != 0 {
				t.Fatal("the seed of a match being played is served")
			}
			if replica == nil {
				if replica, err = engine.NewGame(*cs.Setup); err != nil {
					t.Fatal(err)
				}
			}
			for _, en := range cs.Entries {
				if replica.Version >= m.Commands {
					break
				}
				if en.Index != replica.Version+1 {
					t.Fatalf("entry %d after %d commands", en.Index, replica.Version)
				}
				cmd, err := engine.UnmarshalCommand(en.Cmd)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := replica.Replay(engine.Entry{Seat: en.Seat, Cmd: cmd, Rand: en.Rand}); err != nil {
					t.Fatal(err)
				}
			}
		}
		want, _ := json.Marshal(replica.State.View(-1))
		if got := compact(t, m.State); !bytes.Equal(got, want) {
			t.Fatalf("after %d commands the replica differs from the server:\nserver  %s\nreplica %s", m.Commands, got, want)
		}
		compared++
		if limit >= 0 && replica.Version >= limit {
			t.Logf("followed %d commands (race detector: the rest is left)", replica.Version)
			return
		}
		s := replica.State
		if m.Status != "active" {
			if s.Phase != state.PhaseOver {
				t.Fatalf("the match is %s but the replica's is in phase %v", m.Status, s.Phase)
			}
			break
		}
		seat := s.SeatByID(userID("Ann"))
		together := s.Phase == state.PhaseSetup && s.Options.Rules == state.Classic // everyone places at once
		annActs := s.Phase != state.PhaseOver && ((together && s.Seats[seat].Reserve > 0) || (!together && s.Current == seat && s.Seats[seat].Alive()))
		if !annActs {
			e.bot.Wait() // the computer players' turn: wait for them, as a client would poll
			continue
		}
		var mine apiMatch
		if st := ann.get(fmt.Sprintf("/api/matches/%d", id), &mine); st != http.StatusOK || mine.Viewer != seat {
			t.Fatalf("GET Ann's view: %d, viewer %d", st, mine.Viewer)
		}
		view, err := engine.DecodeState(mine.State)
		if err != nil {
			t.Fatal(err)
		}
		if view.Seats[seat].Hand.Len() != s.Seats[seat].Hand.Len() {
			t.Fatalf("Ann's view shows %d cards, she holds %d", view.Seats[seat].Hand.Len(), s.Seats[seat].Hand.Len())
		}
		cmd, err := player.Act(context.Background(), view, seat)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := engine.MarshalCommand(cmd)
		var out struct {
			Commands int    `json:"commands"`
			Error    string `json:"error"`
		}
		switch st := ann.post(fmt.Sprintf("/api/matches/%d/commands", id), fmt.Sprintf(`{"version":%d,"command":%s}`, mine.Commands, raw), &out); st {
		case http.StatusOK:
			played++
		case http.StatusConflict:
			// The computer players moved first: look again.
		default:
			t.Fatalf("POST %s: %d %s", raw, st, out.Error)
		}
		e.bot.Wait()
	}
	// Over: the seed is shown, and the whole record replays from it.
	var cs apiCommands
	public.get(fmt.Sprintf("/api/matches/%d/commands", id), &cs)
	if cs.Setup.Seed == 0 {
		t.Error("the seed of a finished match is not shown")
	}
	t.Logf("followed %d commands, compared %d times, Ann played %d through the API", replica.Version, compared, played)
	if played == 0 {
		t.Error("Ann played nothing through the API")
	}
}

// compact re-encodes JSON compactly, as json.Marshal writes it.
func compact(t testing.TB, raw json.RawMessage) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
