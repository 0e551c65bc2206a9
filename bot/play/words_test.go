package play

import (
	"errors"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// placedGame is a classic two-player match with its armies placed, at the
// first player's turn.
func placedGame(t *testing.T) *state.State {
	t.Helper()
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seed: 1,
		Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range g.State.Seats {
		if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	return g.State
}

// worded is a refusal as its reader in language tag sees it.
func worded(t *testing.T, err error, tag lang.Tag) string {
	t.Helper()
	var r *chat.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("got %v (%T), want a refusal", err, err)
	}
	return r.In(lang.For(tag))
}

// Issue 45: play's refusals and suggestions are the catalogue's, worded in
// their reader's language; the English is what it always was.
func TestPlaySpeaksTheReadersLanguage(t *testing.T) {
	s := placedGame(t)
	seat := s.Current
	peru := s.Map.Index("Peru")
	s.Terr[peru].Owner, s.Terr[peru].Armies = seat, 3
	for _, n := range s.Map.Territories[peru].Adj {
		s.Terr[n].Owner = 1 - seat
	}
	// The choice named Peru among those of attack from:, as the locale reads.
	fromPeru := func(locale string) string {
		req := chat.Request{Command: "attack", Options: map[string]string{"from": ""}, Locale: locale}
		for _, c := range choices(s, seat, req, "from") {
			if c.Value == "Peru" {
				return c.Name
			}
		}
		return "(no choice for Peru)"
	}
	until := func(tag lang.Tag, i int) string {
		cs := untilChoices(lang.For(tag), s, "Peru", "")
		if i >= len(cs) {
			return "(no choice)"
		}
		return cs[i].Name
	}
	refusal := func(err error) func(lang.Tag) string {
		return func(tag lang.Tag) string { return worded(t, err, tag) }
	}
	_, threeCards := parseCards(s, seat, "1 2")
	_, nothingLeft := untilRolls(s, seat, peru, s.Map.Territories[peru].Adj[0], 3)
	_, early := engine.Apply(s.Clone(), seat, engine.Attack{From: peru, To: s.Map.Territories[peru].Adj[0], Dice: 1})
	for _, c := range []struct {
		name   string
		say    func(lang.Tag) string
		en, fr string
	}{
		{"a territory to attack from",
			func(tag lang.Tag) string { return fromPeru(string(tag)) },
			"Peru (3 armies)", "Pérou (3 armées)"},
		{"until: to the end", func(tag lang.Tag) string { return until(tag, 0) },
			"win (attack until it falls or 1 army is left)", "win (attaquer jusqu'à la prise, ou jusqu'à ce qu'il reste 1 armée)"},
		{"until: a number to keep", func(tag lang.Tag) string { return until(tag, 1) },
			"stop when 2 are left on Peru", "s'arrêter quand il en reste 2 sur le Pérou"},
		{"a stale button", refusal(autoplaceApplies(s, []int{3})),
			"That button was for turn 3 and no longer applies. Use /risk show status to see where things are.",
			"Ce bouton était pour le tour 3 et ne vaut plus. Utilise /risk show status pour voir où on en est."},
		{"two cards for a set", refusal(threeCards),
			"Name three cards by their territories, like `Alaska, Peru, wild`. Your hand: no cards.",
			"Nomme trois cartes par leurs territoires, comme `Alaska, Peru, wild`. Ta main : aucune carte."},
		{"until: more than there is", refusal(nothingLeft),
			"Peru has 3 armies: to keep 3 there, there is nothing to attack with.",
			"Le Pérou a 3 armées : pour en garder 3, il ne reste rien pour attaquer."},
		{"the rules' refusal", refusal(ruleRefusal(early)),
			"Place your 9 remaining armies before attacking.", "Il te reste 9 armées à placer avant d'attaquer."},
	} {
		for _, w := range []struct {
			tag  lang.Tag
			want string
		}{{lang.English, c.en}, {lang.French, c.fr}} {
			if got := c.say(w.tag); got != w.want {
				t.Errorf("%s in %s: got %q, want %q", c.name, w.tag, got, w.want)
			}
		}
	}
}
