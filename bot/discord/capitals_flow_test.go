package discord

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A capitals match through the adapter and the real core, storage,
// renderer and computer players, against the fake Discord: two people and
// a bot. The people's moves are chosen by computer players and typed or
// clicked as a person would, every capitals action at least once: the
// capital (place), reinforcements (place), a capture and a planned attack
// (attack, with the suggestions checked), the launch (its button), a port,
// an item (its button in /risk cards), the move (fortify's share buttons),
// pass (end), and in the end a surrender confirmed by its button.
func TestCapitalsFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match")
	}
	g := newGame(t)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("rules", "capitals"), o("map", "small")))), "Your match is open")
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "join"))), "You joined")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy")))), "takes a seat")
	if lobby, ok := g.lastPost("Lobby — 3/6 seats"); !ok {
		t.Error("no lobby in the channel")
	} else {
		wantText(t, lobby, "Capitals rules on small generated islands", "2. Bob")
	}
	start := g.fake.Replies(g.do(slash(t, ann, channel, "start")))[0]
	wantPublic(t, start, "The match has started", "Capitals are chosen in this order")
	wantMap(t, start)
	g.bot.Wait()

	minds := map[string]ai.Player{}
	for i, p := range people {
		mind, err := ai.New("normal", ai.Options{Seed: uint64(i + 7)})
		if err != nil {
			t.Fatal(err)
		}
		minds[p.name] = mind
	}
	done := map[string]int{}
	for step := 0; step < 600; step++ {
		g.bot.Wait()
		m := g.match()
		s := m.Game.State
		if m.Status != storage.Active || s.Phase == state.PhaseOver || (s.Turn > 12 && allDone(done)) {
			break
		}
		p := personOf(t, s.Seats[s.Current].ID)
		c, err := minds[p.name].Act(g.ctx, s.View(s.Current), s.Current)
		if err != nil {
			t.Fatal(err)
		}
		c = preferUnseen(s, s.Current, c, done)
		done[c.Name()]++
		g.capitalsAct(p, s, c)
	}
	if !allDone(done) {
		t.Errorf("not every action was played: %v", done)
	}
	m := g.match()
	if m.Status == storage.Active {
		s := m.Game.State
		p := people[0]
		if !s.Seats[s.SeatByID(p.userID())].Alive() {
			p = people[1]
		}
		ask := g.answer(g.do(slash(t, p, channel, "surrender")))
		wantPrivate(t, ask, "Give up the match?", "<t:")
		yes, ok := buttonByLabel(ask, "Give up")
		if !ok {
			t.Fatalf("no Give up button: %+v", ask.Buttons)
		}
		wantPrivate(t, g.answer(g.do(click(t, p, channel, yes.CustomID))), "surrendered")
		g.bot.Wait()
		if _, ok := g.lastPost(p.name + " surrendered"); !ok {
			t.Error("the channel was not told of the surrender")
		}
	}
	for _, line := range strings.Split(g.logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "cut to Discord's limits") || strings.Contains(line, "broke a rule") {
			t.Errorf("log: %s", line)
		}
	}
	t.Logf("actions: %v", done)
}

// flowActions are the capitals actions the flow must play.
var flowActions = []string{"capital", "reinforce", "capture", "plan", "launch", "port", "use", "move", "end"}

func allDone(done map[string]int) bool {
	for _, a := range flowActions {
		if done[a] == 0 {
			return false
		}
	}
	return true
}

// preferUnseen plays a port or an item the first time one is possible,
// so that the flow shows them, whatever the computer would do.
func preferUnseen(s *state.State, seat int, c engine.Command, done map[string]int) engine.Command {
	for _, l := range engine.Legal(s, seat) {
		switch l.(type) {
		case engine.UseItem:
			if done["use"] == 0 {
				return l
			}
		case engine.BuildPort:
			if done["port"] == 0 && s.Cap.NPlan == 0 && s.Phase == state.PhaseAction {
				return l
			}
		}
	}
	return c
}

// capitalsAct plays c for p as a person would, through the fake Discord.
func (g *game) capitalsAct(p person, s *state.State, c engine.Command) {
	t := g.t
	t.Helper()
	n := s.Map.TerritoryName
	switch c := c.(type) {
	case engine.Capital:
		sugg := g.complete(p, "place", "territory", "")
		if len(sugg) == 0 || !strings.Contains(sugg[0].Name, "troop") {
			t.Fatalf("capital suggestions %v", sugg)
		}
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "place", o("territory", n(c.Territory))))), "chose "+n(c.Territory))
	case engine.Reinforce:
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "place", o("territory", n(c.Territory))))), "sent", n(c.Territory))
	case engine.Capture:
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "attack", o("from", n(c.From)), o("to", n(c.To))))), "captured "+n(c.To))
	case engine.Plan:
		tos := g.complete(p, "attack", "to", "", o("from", n(c.From)))
		found := false
		for _, ch := range tos {
			if ch.Value == n(c.To) {
				found = strings.Contains(ch.Name, "defence") && strings.Contains(ch.Name, "your total")
			}
		}
		if !found {
			t.Errorf("the suggestions to attack from %s do not offer %s with its totals: %v", n(c.From), n(c.To), tos)
		}
		res := g.answer(g.do(slash(t, p, channel, "attack", o("from", n(c.From)), o("to", n(c.To)))))
		wantPrivate(t, res, "planned attack", "Planned (", "against")
		if _, ok := buttonByLabel(res, "Launch"); !ok {
			t.Errorf("no Launch button on the plan: %+v", res.Buttons)
		}
	case engine.Launch:
		// The launch button of the last plan reply is current.
		res := g.answer(g.do(slash(t, p, channel, "launch")))
		wantPrivate(t, res, "struck")
	case engine.BuildPort:
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "port", o("territory", n(c.Territory))))), "built a port on "+n(c.Territory))
	case engine.UseItem:
		cards := g.answer(g.do(slash(t, p, channel, "cards")))
		wantPrivate(t, cards, "Your item (only you see it)")
		use, ok := buttonByLabel(cards, "Use it now")
		if !ok {
			t.Fatalf("no Use button: %+v", cards.Buttons)
		}
		wantPrivate(t, g.answer(g.do(click(t, p, channel, use.CustomID))), "used an item", "In effect for the rest of your turn")
	case engine.Move:
		ask := g.answer(g.do(slash(t, p, channel, "fortify", o("from", n(c.From)), o("to", n(c.To)))))
		wantPrivate(t, ask, "how much?")
		label := []string{"", "1/4", "1/2", "3/4", "all"}[c.Quarters]
		var pick string
		for _, row := range ask.Buttons {
			for _, b := range row {
				if strings.HasPrefix(b.Label, label+" (") && strings.Contains(b.Label, "+ hero") == c.Hero {
					pick = b.CustomID
				}
			}
		}
		if pick == "" {
			t.Fatalf("no %s button (hero %v): %+v", label, c.Hero, ask.Buttons)
		}
		wantPrivate(t, g.answer(g.do(click(t, p, channel, pick))), "moved")
	case engine.EndTurn:
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "end"))), "ended turn")
	default:
		t.Fatalf("the mind played %#v", c)
	}
}
