package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
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
	Audience *int          `json:"audience"`
	Commands int           `json:"commands"`
	Setup    *engine.Setup `json:"setup"`
	Entries  []struct {
		Index int             `json:"index"`
		Seat  int             `json:"seat"`
		Cmd   json.RawMessage `json:"cmd"`
		Rand  []int32         `json:"rand"`
		Seen  *engine.Seen    `json:"seen"`
	} `json:"entries"`
	More bool `json:"more"`
}

// follower rebuilds a match from its log as the API tells it to its
// client (the public, or a seat with its token), with an engine.Replica,
// as docs/api.md says a program does.
type follower struct {
	c        *client
	id       int64
	audience int
	rep      *engine.Replica
}

// version is the number of commands the follower has replayed.
func (f *follower) version() int {
	if f.rep == nil {
		return 0
	}
	return f.rep.Game().Version
}

// catchUp replays the log as told, up to n commands at most. It returns
// false, replaying nothing, once the match is over: its whole log is
// served then, to replay with the engine from the setup's seed.
func (f *follower) catchUp(t testing.TB, n int) bool {
	t.Helper()
	for f.version() < n {
		var cs apiCommands
		if st := f.c.get(fmt.Sprintf("/api/matches/%d/commands?after=%d", f.id, f.version()), &cs); st != http.StatusOK {
			t.Fatalf("GET the commands: %d", st)
		}
		if cs.Status != "active" {
			return false
		}
		if cs.Setup == nil || cs.Audience == nil {
			t.Fatalf("no setup or audience: %+v", cs)
		}
		if cs.Setup.Seed != 0 {
			t.Fatal("the seed of a match being played is served")
		}
		if f.rep == nil {
			var err error
			if f.rep, err = engine.NewReplica(*cs.Setup, *cs.Audience); err != nil {
				t.Fatal(err)
			}
			f.audience = *cs.Audience
		}
		for _, en := range cs.Entries {
			if f.version() >= n {
				break
			}
			if en.Index != f.version()+1 {
				t.Fatalf("entry %d after %d commands", en.Index, f.version())
			}
			cmd, err := engine.UnmarshalCommand(en.Cmd)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.rep.Replay(engine.Entry{Seat: en.Seat, Cmd: cmd, Rand: en.Rand, Seen: en.Seen}); err != nil {
				t.Fatal(err)
			}
		}
		if !cs.More {
			break // the rest is secret for now (a round, the initial placement)
		}
	}
	return true
}

// same fails unless the follower, caught up with the server's state
// (raw, after n commands), shows it byte for byte; it reports whether it
// had caught up.
func (f *follower) same(t testing.TB, raw json.RawMessage, n int) bool {
	t.Helper()
	if f.version() != n {
		return false
	}
	want, _ := json.Marshal(f.rep.View())
	if got := compact(t, raw); !bytes.Equal(got, want) {
		t.Fatalf("after %d commands %s's replica differs from the server:\nserver  %s\nreplica %s", n, engine.AudienceName(f.audience), got, want)
	}
	return true
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
// (her token), and rebuilding the match with the engine from the log as
// the API tells it (engine.Replica): the public's replica must show the
// public state at every step it is told, Ann's replica (from the log her
// token gets) her own view, hand included; the seed stays secret until the
// match is over, and then the whole log replays from it.
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
	spectator := &follower{c: public, id: id}
	hers := &follower{c: ann, id: id}
	compared, mine, played := 0, 0, 0
	// Under the race detector (CI), a capitals match is followed for its
	// first commands only: a whole one takes half a minute there.
	limit := -1
	if racetest.Enabled && rules != "classic" {
		limit = 250
	}
	var m apiMatch
	for step := 0; ; step++ {
		if step > 3000 {
			t.Fatalf("the match did not end: %d commands", m.Commands)
		}
		if st := public.get(fmt.Sprintf("/api/matches/%d", id), &m); st != http.StatusOK {
			t.Fatalf("GET the match: %d", st)
		}
		if m.Status != "active" || !spectator.catchUp(t, m.Commands) {
			break
		}
		if spectator.same(t, m.State, m.Commands) {
			compared++
		}
		if limit >= 0 && m.Commands >= limit {
			t.Logf("followed %d commands (race detector: the rest is left)", m.Commands)
			return
		}
		var view apiMatch
		if st := ann.get(fmt.Sprintf("/api/matches/%d", id), &view); st != http.StatusOK {
			t.Fatalf("GET Ann's view: %d", st)
		}
		if view.Status != "active" || !hers.catchUp(t, view.Commands) {
			break
		}
		if hers.same(t, view.State, view.Commands) {
			mine++
		}
		s, err := engine.DecodeState(view.State)
		if err != nil {
			t.Fatal(err)
		}
		seat := view.Viewer
		together := s.Phase == state.PhaseSetup && s.Options.Rules == state.Classic // everyone places at once
		annActs := s.Phase != state.PhaseOver && ((together && s.Seats[seat].Reserve > 0) || (!together && s.Current == seat && s.Seats[seat].Alive()))
		if !annActs {
			e.bot.Wait() // the computer players' turn: wait for them, as a client would poll
			continue
		}
		cmd, err := player.Act(context.Background(), s, seat)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := engine.MarshalCommand(cmd)
		var out struct {
			Commands int    `json:"commands"`
			Error    string `json:"error"`
		}
		switch st := ann.post(fmt.Sprintf("/api/matches/%d/commands", id), fmt.Sprintf(`{"version":%d,"command":%s}`, view.Commands, raw), &out); st {
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
	if cs.Setup.Seed == 0 || cs.Audience != nil {
		t.Errorf("the finished match's log: seed %d, audience %v; want the seed, the whole log", cs.Setup.Seed, cs.Audience)
	}
	var log []engine.Entry
	for _, en := range cs.Entries {
		cmd, err := engine.UnmarshalCommand(en.Cmd)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, engine.Entry{Seat: en.Seat, Cmd: cmd, Rand: en.Rand})
	}
	g, err := engine.Replay(*cs.Setup, log)
	if err != nil {
		t.Fatal(err)
	}
	public.get(fmt.Sprintf("/api/matches/%d", id), &m)
	if want, _ := json.Marshal(g.State.View(-1)); !bytes.Equal(compact(t, m.State), want) {
		t.Errorf("the finished match replays to\n%s\nnot the server's\n%s", want, m.State)
	}
	t.Logf("followed %d commands, compared the public's replica %d times, Ann's %d, Ann played %d through the API", m.Commands, compared, mine, played)
	if played == 0 || compared == 0 || mine == 0 {
		t.Error("Ann played nothing through the API, or no replica was compared")
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

// TestTheLogHidesEveryHand is issue 42's attack: anyone could read every
// player's hidden cards while a match was played, from the card draws in
// the public log. Now the public log withholds every card drawn, and a
// seat's log tells it its own cards, none of the others'.
func TestTheLogHidesEveryHand(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "cards")
	ctx := context.Background()
	tok, err := e.srv.Token(ctx, id, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	public := &client{t: t, base: e.ts.URL}
	ann := &client{t: t, base: e.ts.URL, token: tok}
	player, err := bot.StandardPlayer("easy", 3)
	if err != nil {
		t.Fatal(err)
	}
	// Ann plays through the API until every seat has drawn a card.
	for step := 0; ; step++ {
		l, err := e.db.Active(ctx, Prefix+"cards")
		if err != nil {
			t.Fatal(err)
		}
		s := l.Game.State
		drew := 0
		for i := range s.Seats {
			if s.HandSize(i) > 0 {
				drew++
			}
		}
		if drew == len(s.Seats) || step > 400 {
			break
		}
		seat := s.SeatByID(userID("Ann"))
		if s.Phase == state.PhaseOver || !s.Seats[seat].Alive() {
			t.Fatal("the match is over before every seat held a card")
		}
		if (s.Phase == state.PhaseSetup && s.Seats[seat].Reserve == 0) || (s.Phase != state.PhaseSetup && s.Current != seat) {
			e.bot.Wait()
			continue
		}
		cmd, err := player.Act(ctx, s.View(seat), seat)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := engine.MarshalCommand(cmd)
		ann.post(fmt.Sprintf("/api/matches/%d/commands", id), fmt.Sprintf(`{"version":%d,"command":%s}`, l.Game.Version, raw), nil)
		e.bot.Wait()
	}
	x, err := e.db.Export(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(x.Record.Setup)
	if err != nil {
		t.Fatal(err)
	}
	annSeat := g.State.SeatByID(userID("Ann"))
	var pub, hers apiCommands
	public.get(fmt.Sprintf("/api/matches/%d/commands", id), &pub)
	ann.get(fmt.Sprintf("/api/matches/%d/commands", id), &hers)
	if len(pub.Entries) != len(x.Record.Log) || len(hers.Entries) != len(x.Record.Log) {
		t.Fatalf("the logs have %d and %d entries, want %d", len(pub.Entries), len(hers.Entries), len(x.Record.Log))
	}
	draws, own := 0, 0
	for i, en := range x.Record.Log {
		ev, err := g.Replay(en)
		if err != nil {
			t.Fatal(err)
		}
		var cards []state.Card
		for _, e := range ev {
			if d, ok := e.(engine.CardDrawn); ok && d.Seat == annSeat {
				cards = append(cards, d.Card)
			}
		}
		for _, e := range ev {
			d, ok := e.(engine.CardDrawn)
			if !ok {
				continue
			}
			draws++
			// A classic turn's end draws only the card.
			if p, h := pub.Entries[i].Rand, hers.Entries[i].Rand; !slices.Equal(p, []int32{engine.Withheld}) || !slices.Equal(h, []int32{engine.Withheld}) {
				t.Errorf("entry %d draws seat %d a card: the public log shows %v, Ann's %v; want it withheld", i+1, d.Seat, p, h)
			}
			if pub.Entries[i].Seen != nil {
				t.Errorf("entry %d: the public log shows %+v", i+1, pub.Entries[i].Seen)
			}
			var got []state.Card
			if sn := hers.Entries[i].Seen; sn != nil {
				got = sn.Drawn
			}
			if !slices.Equal(got, cards) {
				t.Errorf("entry %d: Ann's log shows the cards %v drawn, want hers, %v", i+1, got, cards)
			}
			if d.Seat == annSeat {
				own++
			}
		}
	}
	if draws == 0 || own == 0 {
		t.Fatalf("%d cards drawn, %d by Ann: nothing was tried", draws, own)
	}
	// Replayed as the engine replays a whole log, the public log stops at
	// the first card drawn.
	var log []engine.Entry
	for _, en := range pub.Entries {
		cmd, _ := engine.UnmarshalCommand(en.Cmd)
		log = append(log, engine.Entry{Seat: en.Seat, Cmd: cmd, Rand: en.Rand})
	}
	if _, err := engine.Replay(*pub.Setup, log); err == nil || !strings.Contains(err.Error(), "withheld") {
		t.Errorf("the public log replays with the engine as a whole log: %v", err)
	}
	if pub.Audience == nil || *pub.Audience != engine.Public || hers.Audience == nil || *hers.Audience != annSeat {
		t.Errorf("the logs are told to %v and %v, want the public and seat %d", pub.Audience, hers.Audience, annSeat)
	}
	t.Logf("%d commands, %d cards drawn, %d by Ann", len(x.Record.Log), draws, own)
}
