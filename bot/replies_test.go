package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// attackPair finds a territory of seat with at least min armies next to an
// enemy's.
func attackPair(s *state.State, seat, min int) (from, to int) {
	from, to = -1, -1
	for f := range s.Terr {
		if s.Terr[f].Owner != seat || s.Terr[f].Armies < min {
			continue
		}
		for _, n := range s.Map.Territories[f].Adj {
			if s.Terr[n].Owner != seat {
				return f, n
			}
		}
	}
	return -1, -1
}

// checkOccupy checks the answers of a move-in under way: an occupy out of
// range gets the range and the command, /risk status (of anyone) says
// where and how many; then it moves the least in.
func checkOccupy(t *testing.T, h *harness, ch, who string, s *state.State) {
	t.Helper()
	o := s.Occupy
	lo, hi := strconv.Itoa(o.Min), strconv.Itoa(o.Max)
	wantPrivate(t, h.do(ch, who, "occupy", "armies:"+strconv.Itoa(o.Max+1)), "Move "+lo+" to "+hi+" armies into "+s.Map.TerritoryName(o.To), "/risk occupy armies:")
	wantPrivate(t, h.do(ch, "Zed", "status"), "to move "+lo+" to "+hi+" armies from "+s.Map.TerritoryName(o.From))
	wantDone(t, h.do(ch, who, "occupy", "armies:"+lo))
}

// Replies tell the whole story: where an automatic placement went, why a
// blitz stopped, what an occupy takes, where the match stands, what the
// cards are worth, the odds of an attack between two territories, and
// which options did nothing.
func TestRepliesTellTheWholeStory(t *testing.T) {
	h := newHarness(t)
	const ch = "test:story"
	h.started(ch, []string{"Ann", "Bob"})
	// The initial automatic placement says where every army went.
	placed := h.do(ch, "Ann", "place")
	wantPrivate(t, placed, "Where: ")
	if n := strings.Count(placed.Text, " on "); n < 5 {
		t.Errorf("the placement names %d territories: %q", n, placed.Text)
	}
	h.do(ch, "Bob", "place")
	s := h.load(ch).Game.State
	who := s.Seats[s.Current].Name
	wantDone(t, h.do(ch, who, "place"))

	// Odds between two territories, from their armies.
	s = h.load(ch).Game.State
	from, to := attackPair(s, s.Current, 2)
	if from < 0 {
		t.Skip("no attack in this deal")
	}
	fromName, toName := s.Map.Territories[from].Name, s.Map.Territories[to].Name
	odds := h.do(ch, "Bob", "odds", "from:"+fromName, "to:"+toName)
	wantPrivate(t, odds, fromName+" ("+strconv.Itoa(s.Terr[from].Armies)+") attacking "+toName, "to win")
	wantPrivate(t, h.do(ch, "Bob", "odds", "from:"+fromName), "Give a territory for to")
	wantPrivate(t, h.do(ch, "Bob", "odds", "from:"+fromName, "to:"+toName, "attackers:5"), "not both")
	wantPrivate(t, h.do(ch, "Bob", "odds"), "Give the territories")

	// Cards: named by territory, with what a set is worth.
	wantPrivate(t, h.do(ch, who, "cards"), "no cards")

	// A blitz that keeps armies back says why it stopped, or warns when
	// the move-in went below what was to be kept; dice does nothing then.
	blitzes, occupies, stops := 0, 0, 0
	for tries := 0; tries < 20; tries++ {
		s = h.load(ch).Game.State
		if s.Phase != state.PhaseAttack {
			break
		}
		from, to = attackPair(s, s.Current, 4)
		if from < 0 {
			break
		}
		keep := s.Terr[from].Armies - 2
		r := h.do(ch, who, "attack", "from:"+s.Map.Territories[from].Name, "to:"+s.Map.Territories[to].Name, "until:"+strconv.Itoa(keep), "dice:2")
		wantDone(t, r, "dice does nothing with until")
		blitzes++
		after := h.load(ch).Game.State
		switch {
		case after.Phase == state.PhaseOccupy:
			// until:N keeps its promise, the move-in's minimum included.
			if after.Terr[from].Armies < keep {
				t.Errorf("until:%d left %d on %s", keep, after.Terr[from].Armies, after.Map.TerritoryName(from))
			}
			// The occupy: out of range is refused with the range and
			// the command; status says where and how many.
			checkOccupy(t, h, ch, who, after)
			occupies++
		case after.Terr[to].Owner != after.Current:
			if after.Terr[from].Armies <= keep {
				wantText(t, r, "Stopped: "+after.Map.TerritoryName(from)+" is down to", "as asked", after.Map.TerritoryName(to)+" still holds")
				stops++
			}
		}
	}
	// Turn after turn, put everything on one border and attack to the end,
	// until a conquest leaves a choice of armies to move in.
	for turns := 0; turns < 12 && occupies == 0; turns++ {
		s = h.load(ch).Game.State
		p := s.Seats[s.Current].Name
		if s.Phase == state.PhaseReinforce {
			if s.Seats[s.Current].Hand.Len() >= 5 {
				h.do(ch, p, "trade")
			}
			s = h.load(ch).Game.State
			if from, _ = attackPair(s, s.Current, 1); from >= 0 {
				h.do(ch, p, "place", "territory:"+s.Map.Territories[from].Name)
			}
		}
		for tries := 0; tries < 5 && occupies == 0; tries++ {
			s = h.load(ch).Game.State
			if s.Phase != state.PhaseAttack {
				break
			}
			if from, to = attackPair(s, s.Current, 4); from < 0 {
				break
			}
			h.do(ch, p, "attack", "from:"+s.Map.Territories[from].Name, "to:"+s.Map.Territories[to].Name, "until:win")
			if after := h.load(ch).Game.State; after.Phase == state.PhaseOccupy {
				checkOccupy(t, h, ch, p, after)
				occupies++
			}
		}
		if s := h.load(ch).Game.State; s.Phase != state.PhaseOver {
			h.do(ch, p, "end")
		}
	}
	t.Logf("%d blitzes: %d occupied, %d stopped", blitzes, occupies, stops)
	if occupies == 0 {
		t.Error("no conquest to occupy was reached")
	}
	if blitzes == 0 {
		t.Fatal("no blitz was tried")
	}
	// A discard with nothing to discard says so.
	s = h.load(ch).Game.State
	if p := s.Seats[s.Current].Name; s.Seats[s.Current].Hand.Len() < 5 && s.Phase != state.PhaseOver {
		if s.Phase == state.PhaseReinforce {
			h.do(ch, p, "place")
		}
		wantDone(t, h.do(ch, p, "end", "discard:wild"), "did nothing")
	}
}

// Odds before committing: the targets suggested for an attack from a
// territory, and the blitz button after a roll, show the exact odds of
// taking it attacking to the end.
func TestOddsBeforeCommitting(t *testing.T) {
	h := newHarness(t)
	const ch = "test:odds"
	startedAndPlaced(t, h, ch)
	s := h.load(ch).Game.State
	who := s.Seats[s.Current].Name
	h.do(ch, who, "place")
	s = h.load(ch).Game.State
	from, to := attackPair(s, s.Current, 3)
	if from < 0 {
		t.Skip("no attack in this deal")
	}
	fromName := s.Map.Territories[from].Name
	req := chat.Request{Channel: ch, User: user(who), Command: "attack", Options: map[string]string{"from": fromName, "to": ""}}
	choices := h.bot.Autocomplete(context.Background(), req, "to")
	if len(choices) == 0 {
		t.Fatal("no targets suggested")
	}
	for _, c := range choices {
		id, _ := s.Map.Lookup(c.Value)
		o, _ := engine.AttackOdds(s.Terr[from].Armies, s.Terr[id].Armies)
		if want := voice.Speaking(lang.English).Replies().Odds(o); !strings.Contains(c.Name, want) {
			t.Errorf("suggestion %q lacks %q", c.Name, want)
		}
	}
	r := h.do(ch, who, "attack", "from:"+fromName, "to:"+s.Map.Territories[to].Name, "dice:1")
	after := h.load(ch).Game.State
	if after.Phase == state.PhaseAttack && after.Terr[to].Owner != after.Current && after.Terr[from].Armies >= 2 {
		o, _ := engine.AttackOdds(after.Terr[from].Armies, after.Terr[to].Armies)
		found := false
		for _, row := range r.Buttons {
			for _, b := range row {
				found = found || strings.HasPrefix(b.Label, "Blitz") && strings.Contains(b.Label, fmt.Sprintf("%.0f%%", 100*o.Win))
			}
		}
		if !found {
			t.Errorf("no blitz button with the odds: %+v", r.Buttons)
		}
		wantText(t, r, voice.Speaking(lang.English).Replies().Odds(o))
	}
}
