package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Mistakes in a capitals match get short private answers and change
// nothing.
func TestCapitalsMistakes(t *testing.T) {
	h := newHarness(t)
	const ch = "test:capmistakes"
	h.do(ch, "Ann", "new", "rules:capitals", "map:small")
	h.do(ch, "Bob", "join")
	h.do(ch, "Ann", "start")
	s := h.load(ch).Game.State
	chooser := s.Seats[s.Current].Name
	other := s.Seats[1-s.Current].Name
	wantPrivate(t, h.do(ch, other, "place", "territory:"+s.Map.Territories[0].Name), "is choosing a capital")
	wantPrivate(t, h.do(ch, chooser, "place"), "Choose your capital")
	wantPrivate(t, h.do(ch, chooser, "place", "territory:Zzzzz"), "is not a territory")
	wantPrivate(t, h.do(ch, chooser, "place", "territory:"+s.Map.Territories[0].Name, "armies:3"), "leave out armies")
	wantPrivate(t, h.do(ch, chooser, "trade"), "no cards")
	wantPrivate(t, h.do(ch, chooser, "occupy", "armies:3"), "stays at 0 troops")
	wantPrivate(t, h.do(ch, chooser, "cards"), "You hold no item")
	wantPrivate(t, h.do(ch, chooser, "cards", "use:yes"), "no item to use")
	wantPrivate(t, h.do(ch, chooser, "launch"), "Choose your capital first")
	wantPrivate(t, h.do(ch, chooser, "end", "discard:1"), "no cards to discard")
	if after := h.load(ch); after.Version != h.load(ch).Version || after.Game.State.Phase != state.PhaseSetup {
		t.Fatal("a mistake changed the match")
	}
	// Choose both capitals, the first one found that the rules allow.
	for h.load(ch).Game.State.Phase == state.PhaseSetup {
		s := h.load(ch).Game.State
		legal := engine.Legal(s, s.Current)
		c := legal[0].(engine.Capital)
		wantPrivate(t, h.do(ch, s.Seats[s.Current].Name, "place", "territory:"+s.Map.TerritoryName(c.Territory)), "chose")
	}
	s = h.load(ch).Game.State
	me := s.Seats[s.Current].Name
	capital := s.Map.TerritoryName(s.Capital(s.Current))
	wantPrivate(t, h.do(ch, me, "place", "territory:"+capital, "armies:1"), "all your reinforcements (3 troops) go to one territory")
	wantPrivate(t, h.do(ch, me, "attack", "from:"+capital, "to:"+capital), "First send your reinforcements (3 troops)")
	wantDone(t, h.do(ch, me, "place", "territory:"+capital), "sent 3 troops to "+capital)
	wantPrivate(t, h.do(ch, me, "attack", "from:"+capital, "to:"+capital, "dice:2"), "rolls no dice")
	wantPrivate(t, h.do(ch, me, "fortify", "from:"+capital, "to:"+capital, "armies:2"), "by quarters")
	wantPrivate(t, h.do(ch, me, "launch"), "No attack is planned")
	wantPrivate(t, h.do(ch, me, "port", "territory:"+s.Map.TerritoryName(s.Capital(1-s.Current))), "not you")
}

// The clock of a capitals match: the person choosing a capital is pinged
// and reminded; at the deadline a careful bot chooses for them (or, with
// on-timeout:skip, the safe default does), and the same for a turn.
func TestCapitalsDeadlines(t *testing.T) {
	for _, timeout := range []string{"bot", "skip"} {
		t.Run(timeout, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:capclock"
			h.do(ch, "Ann", "new", "rules:capitals", "map:small", "on-timeout:"+timeout)
			h.do(ch, "Bob", "join")
			h.do(ch, "Ann", "start")
			h.bot.Wait()
			h.takePosts()
			s := h.load(ch).Game.State
			first := s.Seats[s.Current].Name
			h.advance(19 * time.Hour)
			if err := h.bot.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			var reminded bool
			for _, p := range h.takePosts() {
				reminded = reminded || strings.Contains(all(p.msg), "your turn to choose a capital")
			}
			if !reminded {
				t.Error("no reminder to choose a capital")
			}
			h.advance(6 * time.Hour)
			if err := h.bot.Tick(context.Background()); err != nil {
				t.Fatal(err)
			}
			h.bot.Wait()
			s = h.load(ch).Game.State
			for i := range s.Seats {
				if s.Seats[i].Name == first && s.Capital(i) < 0 {
					t.Fatalf("%s has no capital after the deadline", first)
				}
			}
			var told bool
			for _, p := range h.takePosts() {
				told = told || strings.Contains(all(p.msg), first+" ran out of time")
			}
			if !told {
				t.Error("nobody was told of the missed deadline")
			}
			// The second chooser runs out too; then the first turn's player.
			for range 2 {
				h.advance(25 * time.Hour)
				if err := h.bot.Tick(context.Background()); err != nil {
					t.Fatal(err)
				}
				h.bot.Wait()
			}
			if s := h.load(ch).Game.State; s.Phase == state.PhaseSetup || s.Turn < 2 {
				t.Fatalf("after three deadlines: %s, turn %d", s.Phase, s.Turn)
			}
		})
	}
}

// capitalsTurn opens a capitals match of Ann and Bob in channel ch, has
// both choose a capital (the first the rules allow), and returns the name
// of the player whose first turn it is.
func capitalsTurn(t *testing.T, h *harness, ch string) string {
	t.Helper()
	h.do(ch, "Ann", "new", "rules:capitals", "map:small")
	h.do(ch, "Bob", "join")
	h.do(ch, "Ann", "start")
	for h.load(ch).Game.State.Phase == state.PhaseSetup {
		s := h.load(ch).Game.State
		c := engine.Legal(s, s.Current)[0].(engine.Capital)
		wantDone(t, h.do(ch, s.Seats[s.Current].Name, "place", "territory:"+s.Map.TerritoryName(c.Territory)), "chose")
	}
	s := h.load(ch).Game.State
	return s.Seats[s.Current].Name
}

// The first hour, item 3: /risk end in a capitals match threw the turn's
// unsent reinforcements away without a word (classic refuses: "Place
// your 3 remaining armies first"). The rules let them lapse, so it is
// refused with the reason and a button that ends the turn all the same.
func TestCapitalsEndWithReinforcementsUnsent(t *testing.T) {
	h := newHarness(t)
	const ch = "test:capend"
	me := capitalsTurn(t, h, ch)
	before := h.load(ch)
	reserve := before.Game.State.Seats[before.Game.State.Current].Reserve
	if reserve == 0 || before.Game.State.Phase != state.PhaseReinforce {
		t.Fatalf("turn 1 starts with %d troops to send in the %s phase", reserve, before.Game.State.Phase)
	}
	reply := h.do(ch, me, "end")
	if !reply.Refused {
		t.Fatalf("/risk end with %d troops unsent was done: %q", reserve, reply.Text)
	}
	wantPrivate(t, reply, "have not sent", "loses them")
	if after := h.load(ch); after.Version != before.Version {
		t.Fatalf("the refused end changed the match: version %d, was %d", after.Version, before.Version)
	}
	anyway, ok := buttonLabelled(reply, "End anyway")
	if !ok {
		t.Fatalf("no button to end anyway: %+v", reply.Buttons)
	}
	if want := fmt.Sprintf("End anyway, losing %d troops", reserve); anyway.Label != want {
		t.Errorf("button %q, want %q", anyway.Label, want)
	}
	wantDone(t, h.click(ch, me, anyway.ID), "ended turn 1", fmt.Sprintf("%d troops not sent were lost", reserve))
	if s := h.load(ch).Game.State; s.Turn != 2 {
		t.Fatalf("after ending anyway it is turn %d, want 2", s.Turn)
	}
	// The button did its work once: the state moved on, so it is refused.
	wantPrivate(t, h.click(ch, me, anyway.ID), "no longer applies")
	// Once they are sent, /risk end passes at once.
	s := h.load(ch).Game.State
	other := s.Seats[s.Current].Name
	wantDone(t, h.do(ch, other, "place", "territory:"+s.Map.TerritoryName(s.Capital(s.Current))), "sent")
	wantDone(t, h.do(ch, other, "end"), "ended turn 2")
}

// The first hour, item 3: a move could leave a capital with 0 troops and
// nobody said so until the next turn's threat line. The rules allow it,
// so the move asks first: refused with the reason, and a button that
// moves anyway, exactly that move, as long as the match has not moved on.
func TestCapitalsMoveThatEmptiesTheCapitalAsks(t *testing.T) {
	tests := []struct {
		name  string
		ratio string // "" offers the shares as buttons
		asks  bool
		// then, after the question: "click" moves anyway; "undo" changes
		// the match first, so the button no longer applies.
		then string
	}{
		{name: "all asks, and the button moves", ratio: "all", asks: true, then: "click"},
		{name: "all asks, and the button expires with the moment", ratio: "all", asks: true, then: "undo"},
		{name: "3/4 leaves troops behind and moves at once", ratio: "3/4"},
		{name: "the shares' buttons say which empties it", ratio: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:capmove"
			me := capitalsTurn(t, h, ch)
			s := h.load(ch).Game.State
			seat := s.Current
			capital := s.Capital(seat)
			wantDone(t, h.do(ch, me, "place", "territory:"+s.Map.TerritoryName(capital)), "sent")
			to := -1
			for _, c := range engine.Legal(h.load(ch).Game.State, seat) {
				if c, ok := c.(engine.Capture); ok && c.From == capital {
					to = c.To
					break
				}
			}
			if to < 0 {
				t.Fatal("the capital has no neutral neighbour to capture")
			}
			n := s.Map.TerritoryName
			wantDone(t, h.do(ch, me, "attack", "from:"+n(capital), "to:"+n(to)), "captured")
			before := h.load(ch)
			troops := before.Game.State.Terr[capital].Armies
			opts := map[string]string{"from": n(capital), "to": n(to)}
			if tt.ratio != "" {
				opts["ratio"] = tt.ratio
			}
			reply := h.doOpts(ch, me, "fortify", opts)
			if tt.ratio == "" {
				all, ok := buttonLabelled(reply, fmt.Sprintf("all (%d)", troops))
				if !ok || !strings.Contains(all.Label, "capital left empty") {
					t.Errorf("the share of all is %+v, want it to say the capital is left empty", all)
				}
				wantText(t, reply, "is your capital")
				if half, _ := buttonLabelled(reply, "1/2"); strings.Contains(half.Label, "empty") {
					t.Errorf("the share of half says %q", half.Label)
				}
				return
			}
			if !tt.asks {
				wantDone(t, reply, "moved")
				if got := h.load(ch).Game.State.Terr[capital].Armies; got == 0 {
					t.Fatal("the capital was emptied")
				}
				return
			}
			if !reply.Refused {
				t.Fatalf("a move emptying the capital was done at once: %q", reply.Text)
			}
			wantPrivate(t, reply, "your capital", "0 troops", "out of the match")
			if after := h.load(ch); after.Version != before.Version {
				t.Fatalf("the question changed the match: version %d, was %d", after.Version, before.Version)
			}
			anyway, ok := buttonLabelled(reply, "Move anyway")
			if !ok {
				t.Fatalf("no button to move anyway: %+v", reply.Buttons)
			}
			if _, ok := buttonLabelled(reply, "Move 3/4"); !ok {
				t.Errorf("no button for a share that keeps troops home: %+v", reply.Buttons)
			}
			switch tt.then {
			case "click":
				wantDone(t, h.click(ch, me, anyway.ID), fmt.Sprintf("moved %d troops", troops))
				if got := h.load(ch).Game.State.Terr[capital].Armies; got != 0 {
					t.Fatalf("moved anyway, the capital holds %d, want 0", got)
				}
			case "undo":
				wantDone(t, h.do(ch, me, "undo"), "took back")
				wantPrivate(t, h.click(ch, me, anyway.ID), "no longer applies")
				if got := h.load(ch).Game.State.Terr[capital].Armies; got != troops {
					t.Fatalf("an outdated button moved: the capital holds %d, want %d", got, troops)
				}
			}
		})
	}
}

// The first hour, item 6: map:tiny in a capitals lobby listed classic
// among the capitals maps. The map option lists the rule set's own maps.
func TestMapOptionListsTheRuleSetsMaps(t *testing.T) {
	h := newHarness(t)
	h.do("test:maps-capitals", "Ann", "new", "rules:capitals", "map:small")
	h.do("test:maps-classic", "Ann", "new")
	tests := []struct {
		name, channel, command string
		opts                   []string
		want, not              string
	}{
		{"settings in a capitals lobby", "test:maps-capitals", "settings", []string{"map:tiny"}, `no map "tiny" for capitals matches: map:small, normal or large`, "classic"},
		{"a new capitals match", "test:maps-new", "new", []string{"rules:capitals", "map:tiny"}, "map:small, normal or large", "classic"},
		{"classic in a capitals lobby", "test:maps-capitals", "settings", []string{"map:classic"}, "generated islands: map:small, normal or large", ""},
		{"settings in a classic lobby", "test:maps-classic", "settings", []string{"map:tiny"}, `no map "tiny" for classic matches: map:classic, islands-small, islands-normal or islands-large`, "or small"},
		{"a generated map's name in a classic lobby", "test:maps-classic", "settings", []string{"map:gen-normal-1"}, "for classic matches: map:classic", ""},
		{"a capitals size in a classic lobby", "test:maps-classic", "settings", []string{"map:large"}, "a classic match on generated islands is map:islands-large", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := h.do(tt.channel, "Ann", tt.command, tt.opts...)
			if !reply.Refused {
				t.Fatalf("done, want refused: %q", reply.Text)
			}
			wantText(t, reply, tt.want)
			if tt.not != "" && strings.Contains(reply.Text, tt.not) {
				t.Errorf("the answer names %q: %q", tt.not, reply.Text)
			}
		})
	}
	wantDone(t, h.do("test:maps-capitals", "Ann", "settings", "map:Large"), "large generated islands")
	// Classic rules play generated islands too, their sea links made lanes;
	// a capitals match takes the islands' names as its sizes.
	wantDone(t, h.do("test:maps-capitals", "Ann", "settings", "map:islands-small"), "small generated islands")
	wantDone(t, h.do("test:maps-classic", "Ann", "settings", "map:islands-large"), "islands-large")
}

// Issue 44: a classic match on generated islands starts on the seed's
// islands, its sea links made lanes, and plays to a turn of its own.
func TestClassicOnIslands(t *testing.T) {
	h := newHarness(t)
	const ch = "test:classic-islands"
	h.do(ch, "Ann", "new", "map:islands-normal")
	h.do(ch, "Ann", "addbot")
	h.do(ch, "Ann", "addbot")
	wantDone(t, h.do(ch, "Ann", "start"), "")
	m := h.load(ch)
	s := m.Game.State
	if !strings.HasSuffix(s.Map.Name, "-lanes") || s.Map.Grid == nil || s.Options.Rules != state.Classic {
		t.Fatalf("the match plays %s (grid %v) with %s rules, want classic on a generated map with lanes", s.Map.Name, s.Map.Grid != nil, s.Options.Rules)
	}
	for t2 := range s.Map.Territories {
		if len(s.Map.Territories[t2].Sea) > 0 {
			t.Fatalf("%s keeps sea links: a classic board has borders only", s.Map.TerritoryName(t2))
		}
	}
}

// The first hour, item 6: the mistakes of a capitals match were answered
// in classic words: a missing option's example was "/risk attack
// from:Alaska to:Kamchatka" and undo spoke of dice and cards. Each answer
// now speaks of the match's own map, in capitals words.
func TestCapitalsMistakesSpeakCapitals(t *testing.T) {
	h := newHarness(t)
	const ch, lobby = "test:capwords", "test:capwords-lobby"
	h.do(lobby, "Ann", "new", "rules:capitals", "map:small")
	me := capitalsTurn(t, h, ch)
	s := h.load(ch).Game.State
	capital := s.Map.TerritoryName(s.Capital(s.Current))
	tests := []struct {
		name, channel, who, command string
		opts                        []string
		want                        []string
	}{
		{name: "attack in a capitals lobby", channel: lobby, who: "Ann", command: "attack",
			want: []string{"has not started"}},
		{name: "attack without a target", channel: ch, who: me, command: "attack", opts: []string{"from:" + capital},
			want: []string{"needs to", "like /risk attack from:" + capital + " to:", "captured"}},
		{name: "attack without anything", channel: ch, who: me, command: "attack",
			want: []string{"needs from", "like /risk attack from:" + capital + " to:"}},
		{name: "fortify with one territory held", channel: ch, who: me, command: "fortify", opts: []string{"from:" + capital},
			want: []string{"needs to", "you hold only " + capital}},
		{name: "port without a territory", channel: ch, who: me, command: "port",
			want: []string{"needs territory", "by the water"}},
		{name: "odds without a battle", channel: ch, who: me, command: "odds",
			want: []string{"no dice", "/risk attack shows"}},
		{name: "undo with nothing to undo", channel: ch, who: me, command: "undo",
			want: []string{"Nothing to undo", "reinforcements", "launch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := h.do(tt.channel, tt.who, tt.command, tt.opts...)
			if !reply.Refused {
				t.Fatalf("done, want refused: %q", reply.Text)
			}
			wantText(t, reply, tt.want...)
			words := []string{"Alaska", "Kamchatka", "Alberta", "Kelnor", "dice", "card", "classic"}
			if tt.command == "odds" {
				words = words[:4] // it says there are no dice, and where the classic odds are
			}
			for _, classic := range words {
				if strings.Contains(strings.ToLower(reply.Text), strings.ToLower(classic)) {
					t.Errorf("a capitals answer speaks of %q: %q", classic, reply.Text)
				}
			}
		})
	}
	// With two territories held, fortify's example moves between them.
	wantDone(t, h.do(ch, me, "place", "territory:"+capital), "sent")
	var took string
	for _, c := range engine.Legal(h.load(ch).Game.State, s.Current) {
		if c, ok := c.(engine.Capture); ok {
			took = s.Map.TerritoryName(c.To)
			wantDone(t, h.do(ch, me, "attack", "from:"+s.Map.TerritoryName(c.From), "to:"+took), "captured")
			break
		}
	}
	wantPrivate(t, h.do(ch, me, "fortify", "from:"+capital), "like /risk fortify from:"+capital+" to:"+took)
}

// The first hour, item 9: /risk history's footer read "7 of 7 · in
// progress", leaving what the numbers count to be guessed.
func TestHistorySaysWhatItsNumbersAre(t *testing.T) {
	h := newHarness(t)
	const ch = "test:caphistory"
	me := capitalsTurn(t, h, ch)
	s := h.load(ch).Game.State
	wantDone(t, h.do(ch, me, "place", "territory:"+s.Map.TerritoryName(s.Capital(s.Current))), "sent")
	// Two capitals chosen, then turn 1 so far: three pages.
	latest := h.do(ch, me, "history")
	wantPrivate(t, latest, "Page 3 of 3 of the match's history", "this turn is still being played")
	first := h.do(ch, me, "history", "turn:0")
	wantPrivate(t, first, "Page 1 of 3 of the match's history")
	if strings.Contains(all(first), "still being played") {
		t.Errorf("a finished page says it is still being played: %q", all(first))
	}
}
