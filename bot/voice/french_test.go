package voice

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

var markup = regexp.MustCompile(`\{\{(mention|time):[^}]*\}\}`)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// told is what a voice said, in English and in French: one pair a line,
// or a post rendered as text.
type told struct{ en, fr []string }

func (t *told) add(en, fr string) {
	t.en = append(t.en, en)
	t.fr = append(t.fr, fr)
}

func (t *told) addLines(en, fr []string) {
	t.en = append(t.en, en...)
	t.fr = append(t.fr, fr...)
}

// embedText renders an embed as a reader sees it.
func embedText(e *chat.Embed) string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s]\n%s", e.Title, e.Description)
	for _, f := range e.Fields {
		fmt.Fprintf(&b, "\n%s — %s", f.Name, f.Value)
	}
	if e.Footer != "" {
		fmt.Fprintf(&b, "\n— %s", e.Footer)
	}
	return b.String()
}

// postText renders a post as a reader sees it: its text, its card, its
// buttons.
func postText(p news.Post) string {
	parts := []string{p.Text}
	if p.Embed != nil {
		parts = append(parts, embedText(p.Embed))
	}
	for _, row := range p.Buttons {
		for _, b := range row {
			parts = append(parts, "("+b.Label+")")
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// play plays steps commands of m, chosen by a seeded draw among the legal
// ones (never a surrender), and tells each in English and in French as
// the channel hears it: the lines, and the card of each turn closed.
func play(t *testing.T, m *hosted.Match, v Voice, steps int) (out told, chEN, chFR news.Chronicle) {
	t.Helper()
	fr := v.In(lang.French)
	r := rand.New(rand.NewPCG(7, 7))
	g := m.Game
	for range steps {
		s := g.State
		if s.Phase == state.PhaseOver {
			break
		}
		var cmds []engine.Command
		for _, c := range engine.Legal(s, s.Current) {
			if _, ok := c.(engine.Surrender); !ok {
				cmds = append(cmds, c)
			}
		}
		if len(cmds) == 0 {
			break
		}
		at := PositionOf(s)
		_, events, err := g.Apply(s.Current, cmds[r.IntN(len(cmds))])
		if err != nil {
			t.Fatal(err)
		}
		en, closedEN := v.Teller().Tell(g.State, at, events, &chEN)
		frLines, closedFR := fr.Teller().Tell(g.State, at, events, &chFR)
		out.addLines(en, frLines)
		if len(closedEN) != len(closedFR) {
			t.Fatalf("English closed %d turns, French %d", len(closedEN), len(closedFR))
		}
		for i := range closedEN {
			out.add(embedText(v.Turns().Embed(g.State, closedEN[i], "")), embedText(fr.Turns().Embed(g.State, closedFR[i], "")))
		}
	}
	return out, chEN, chFR
}

// posts tells where m stands, in both languages: the living post of the
// turn told so far (en, fr), the reminder, the status, the settings, the
// dice.
func posts(m *hosted.Match, v Voice, en, fr news.Chronicle) told {
	var out told
	m.Meta.Turn, m.Meta.Stats = en.Lines, en.Stats
	p, ok := v.Turns().Live(m)
	m.Meta.Turn = fr.Lines
	if q, ok2 := v.In(lang.French).Turns().Live(m); ok || ok2 {
		out.add(postText(p), postText(q))
	}
	return append2(out, more(m, v))
}

func append2(a, b told) told {
	a.addLines(b.en, b.fr)
	return a
}

// more tells the rest of where m stands.
func more(m *hosted.Match, v Voice) told {
	fr := v.In(lang.French)
	var out told
	if r, ok := v.Turns().Reminder(m); ok {
		q, _ := fr.Turns().Reminder(m)
		out.add(postText(r), postText(q))
	}
	out.add(v.Status().Line(m), fr.Status().Line(m))
	out.add(v.Status().Settings(m.Meta.Settings), fr.Status().Settings(m.Meta.Settings))
	out.add(v.Turns().FairDice(m)+" — "+v.Turns().Reveal(m), fr.Turns().FairDice(m)+" — "+fr.Turns().Reveal(m))
	out.add(v.Turns().HistoryFooter(2, 7, true), fr.Turns().HistoryFooter(2, 7, true))
	out.add(v.Status().MapChoiceName(m.Meta.Settings.Options.Map), fr.Status().MapChoiceName(m.Meta.Settings.Options.Map))
	return out
}

// The voice speaks French whole: every line of a classic and a capitals
// match played a while, and the posts of where they stand, are worded by
// the catalogue (no placeholder, no key left as text) and differ from the
// English, which stays what it was. The French is kept in
// testdata/french.golden, for a French speaker to read (-update rewrites
// it).
func TestFrenchVoice(t *testing.T) {
	var golden bytes.Buffer
	for _, c := range []struct {
		name  string
		match func(*testing.T) (*hosted.Match, Voice)
		steps int
	}{
		{"classic", placedMatch, 40},
		{"capitals", capitalsMatch, 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, v := c.match(t)
			m.Meta.Settings.Options = m.Game.State.Options
			if hosted.IsCapitals(m.Game.State) {
				m.Meta.Settings.Options.Map = "small" // as the host chose it
			}
			m.Meta.Settings.TurnHours = 24
			s := m.Game.State
			for i := range m.Meta.Seats {
				// The digest of each player's turn: what they held at the
				// start.
				m.Meta.Seats[i].Held = hosted.HeldBy(s, s.SeatByID(m.Meta.Seats[i].ID))
			}
			m.Timers.Deadline = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
			out, en, frCh := play(t, m, v, c.steps)
			out = append2(out, posts(m, v, en, frCh))
			fr := v.In(lang.French)
			for seat := range s.Seats {
				out.addLines(v.Digests().For(m, seat), fr.Digests().For(m, seat))
			}
			if hosted.IsCapitals(s) {
				out.add(strings.Join(v.Status().Capitals(m), "\n"), strings.Join(fr.Status().Capitals(m), "\n"))
			}
			out.add(v.Status().Standings(m, []string{"-", "x"}).Embed.Title, fr.Status().Standings(m, []string{"-", "x"}).Embed.Title)
			e := &events{s: s}
			out.addLines(v.Teller().Describe(s, e.all(t)), fr.Teller().Describe(s, e.all(t)))
			for _, ended := range []string{"", "the lobby expired", "by Ann (the host)"} {
				out.add(v.Recap().closedLobby(ended), fr.Recap().closedLobby(ended))
			}
			setup := news.TurnRecord{Turn: 0, Seat: 1}
			out.add(v.Turns().Title(s, setup)+" · "+v.Turns().ShortTitle(setup), fr.Turns().Title(s, setup)+" · "+fr.Turns().ShortTitle(setup))
			// The end, as the match would have it.
			s.Phase, s.Winner = state.PhaseOver, 0
			out.add(postText(v.Turns().Victory(m)), postText(fr.Turns().Victory(m)))
			out.add(v.Status().Line(m), fr.Status().Line(m))
			if len(out.en) != len(out.fr) {
				t.Fatalf("English said %d things, French %d", len(out.en), len(out.fr))
			}
			if len(out.en) < 20 {
				t.Fatalf("only %d things said: the match was not played", len(out.en))
			}
			for i, f := range out.fr {
				// Chat markup ({{mention:…}}, {{time:…}}) is no placeholder.
				f := markup.ReplaceAllString(f, "")
				for _, bad := range []string{"{{", "<no value>", "voice.", "n.armies", "n.troops", "%!"} {
					if strings.Contains(f, bad) {
						t.Errorf("French %q has %q", f, bad)
					}
				}
				if out.fr[i] == out.en[i] {
					t.Errorf("French is the English: %q", f)
				}
			}
			fmt.Fprintf(&golden, "== %s\n%s\n", c.name, strings.Join(out.fr, "\n"))
		})
	}
	path := filepath.Join("testdata", "french.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./bot/voice -run TestFrenchVoice -update)", err)
	}
	if !bytes.Equal(golden.Bytes(), want) {
		t.Errorf("the French differs from %s (go test ./bot/voice -run TestFrenchVoice -update, and read it):\n%s", path, golden.String())
	}
}

// events are the events a match plays rarely, told of its first two
// seats: a trade, a round limit, an elimination, a surrender, the end.
type events struct{ s *state.State }

func (e *events) all(t *testing.T) []engine.Event {
	t.Helper()
	s := e.s
	first := -1
	for c := range s.Map.Continents {
		if len(s.Map.Continents[c].Territories) > 0 {
			first = c
			break
		}
	}
	in := state.Income{Total: 7, Territories: 4}
	if first >= 0 {
		in.Continents = []int{first}
	}
	out := []engine.Event{
		engine.TurnStarted{Turn: 9, Round: 9, Seat: 0, Armies: 7, Income: in},
		engine.Conquered{Seat: 0, Defender: 1, From: 0, To: 1, Armies: 3},
		engine.Occupied{Seat: 0, From: 0, To: 1, Armies: 3},
		engine.Fortified{Seat: 1, From: 2, To: 3, Armies: 2},
		engine.CardDrawn{Seat: 0},
		engine.Reshuffled{Cards: 12},
		engine.Eliminated{Seat: 1, By: 0, Cards: 2},
		engine.Surrendered{Seat: 1},
		engine.SetupDone{},
		engine.Won{Seat: 0},
	}
	if !hosted.IsCapitals(s) {
		out = append([]engine.Event{
			engine.Traded{Seat: 0, Cards: [3]state.Card{0, 1, state.Card(s.Map.Len())}, Armies: 8, Bonus: 2, BonusTerritory: 0},
			engine.Rolled{Seat: 0, Defender: 1, From: 0, To: 1, Attack: [3]int{6, 4, 1}, Defend: [2]int{5, 4}, NA: 3, ND: 2, AttackerLost: 1, DefenderLost: 1},
			engine.Discarded{Seat: 0, Card: 4},
		}, out...)
		return append(out, engine.RoundLimit{Round: 20})
	}
	return append([]engine.Event{
		engine.CapitalChosen{Seat: 1, Territory: 2, Troops: 10},
		engine.Captured{Seat: 0, From: 0, To: 5, Troops: 4},
		engine.AttackPlanned{Seat: 0, From: 0, To: 1, Order: 1, Attack: 1230, Defence: 400},
		engine.Struck{Seat: 0, Defender: 1, From: 0, To: 1, Order: 1, Attack: 1230, Defence: 400, Reach: state.BySea, Luck: 1165, Damage: 3, Left: 1},
		engine.CapitalTaken{Seat: 0, Defender: 1, Capital: 1, Territories: 5},
		engine.Moved{Seat: 0, From: 0, To: 1, Troops: 1, Hero: true},
		engine.HeroUnlocked{Seat: 0, Territory: 0},
		engine.HeroDied{Seat: 1, Territory: 2},
		engine.ItemSpawned{Territory: 3, Kind: state.ItemFat},
		engine.TroopsScaled{Seat: 1, Percent: -20, Change: -7},
		engine.TerritoryLost{Seat: 1, Territory: 4},
		engine.Seized{Seat: 0, Victim: 1, Territory: 4, Troops: 9},
		engine.RoundLimit{Round: 20},
	}, out...)
}
