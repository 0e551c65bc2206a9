package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// The property of DESIGN.md's "The log is an output too", written once and
// tried as an attacker would: for many random matches of every mode, and
// every audience (the public, each seat), everything the audience can fetch
// while the match is played (its view after every command, the setup and
// log told to it) must
//
//	(a) rebuild exactly its view, after every command it is told, and
//	(b) carry nothing more: a twin match that differs from the truth only
//	    in what the audience may not see (another's cards, the kind of an
//	    item, another's mission, the orders and placements not yet
//	    resolved) gives the very same fetches, byte for byte.
//
// The twins are made from the rules, not from Tell: a twin swaps two cards
// the audience never saw, changes a kept item's kind, deals another a
// different mission, or moves another's secret placements.

// teller is a rule for what an audience receives of a match while it is
// played: the told record (its whole log) and, for each length n of the
// log, how many entries it receives.
type teller func(rec Record, audience int) (told, error)

// tellNow is the rule: Record.Tell.
func tellNow(rec Record, audience int) (told, error) { return rec.tell(audience) }

// tellBefore is what the match API served before issue 42, to show that
// the property catches it: every entry with its random outcomes, the seed
// withheld (and the missions), the log cut at a simultaneous round's start,
// nothing with fog.
func tellBefore(rec Record, _ int) (told, error) {
	sealed, err := rec.Seal()
	if err != nil {
		return told{}, err
	}
	if d := sealed.Setup.Deal; d != nil && len(d.Missions) > 0 {
		deal := *d
		deal.Missions = nil
		sealed.Setup.Deal = &deal
	}
	out := told{Record: sealed, horizon: make([]int, len(rec.Log)+1)}
	if rec.Setup.Options.Fog {
		out.Log = nil
		return out, nil
	}
	g, err := NewGame(rec.Setup)
	if err != nil {
		return told{}, err
	}
	start := 0
	for i, e := range rec.Log {
		turn, phase := g.State.Turn, g.State.Phase
		if _, err := g.Replay(e); err != nil {
			return told{}, err
		}
		if g.State.Turn != turn || g.State.Phase != phase {
			start = i + 1
		}
		out.horizon[i+1] = i + 1
		if g.State.Phase == state.PhaseOrders {
			out.horizon[i+1] = start
		}
	}
	return out, nil
}

// truth is a random match as it was played, with what the checks need
// after each of its first k commands (index k).
type truth struct {
	setup Setup
	log   []Entry
	seats int
	// views[k][a+1] hashes the JSON of audience a's view.
	views  [][][32]byte
	over   []bool
	phase  []state.Phase
	start  []int // where the round (or setup) in progress began
	ready  [][]bool
	hands  []state.CardSet   // every hand together
	deck   []state.CardSet   // the deck
	named  []state.CardSet   // the cards commands named so far
	sights [][]state.CardSet // [a+1]: the cards a held or saw on the discard pile so far
	// Per entry: the draws of hidden things, and the events.
	secrets [][]secretDraw
	events  [][]Event
}

func viewHash(t testing.TB, s *state.State, a int) [32]byte {
	t.Helper()
	b, err := json.Marshal(s.View(a))
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func newTruth(t testing.TB, setup Setup, log []Entry) *truth {
	t.Helper()
	g, err := NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	n := len(g.State.Seats)
	tr := &truth{setup: g.Setup, log: log, seats: n}
	var named state.CardSet
	sights := make([]state.CardSet, n+1)
	start := 0
	note := func() {
		s := g.State
		views := make([][32]byte, n+1)
		var hands state.CardSet
		for a := -1; a < n; a++ {
			views[a+1] = viewHash(t, s, a)
			sights[a+1] = sights[a+1].Union(s.Discard)
			if a >= 0 {
				sights[a+1] = sights[a+1].Union(s.Seats[a].Hand)
				hands = hands.Union(s.Seats[a].Hand)
			}
		}
		ready := make([]bool, n)
		for i := range s.Seats {
			ready[i] = s.Seats[i].Ready || !s.Seats[i].Alive()
		}
		tr.views = append(tr.views, views)
		tr.over = append(tr.over, s.Phase == state.PhaseOver)
		tr.phase = append(tr.phase, s.Phase)
		tr.start = append(tr.start, start)
		tr.ready = append(tr.ready, ready)
		tr.hands = append(tr.hands, hands)
		tr.deck = append(tr.deck, s.Deck)
		tr.named = append(tr.named, named)
		tr.sights = append(tr.sights, slices.Clone(sights))
	}
	note()
	for i, e := range log {
		turn, phase := g.State.Turn, g.State.Phase
		d := dice{rng: &g.State.RNG, strict: true, replay: e.Rand, tell: true}
		ev, err := g.apply(e.Seat, e.Cmd, &d)
		if err == nil {
			err = d.done()
		}
		if err != nil {
			t.Fatalf("entry %d: %v", i+1, err)
		}
		switch c := e.Cmd.(type) {
		case Trade:
			for _, card := range c.Cards {
				named = named.Add(card)
			}
		case Discard:
			named = named.Add(c.Card)
		}
		if g.State.Turn != turn || g.State.Phase != phase {
			start = i + 1
		}
		tr.secrets = append(tr.secrets, d.secrets)
		tr.events = append(tr.events, ev)
		note()
	}
	return tr
}

// played is the longest prefix of the log the match was played at (not
// over).
func (tr *truth) played() int {
	n := len(tr.log)
	for n > 0 && tr.over[n] {
		n--
	}
	return n
}

// property checks (a) and (b) for audience a with rule tell, and returns
// what it found wrong, and how many twins it compared.
func (tr *truth) property(t testing.TB, tell teller, a int, r *rand.Rand) (problems []string, twins int) {
	t.Helper()
	rec := Record{Setup: tr.setup, Log: tr.log}
	all, err := tell(rec, a)
	if err != nil {
		t.Fatalf("%s: %v", AudienceName(a), err)
	}
	problems = append(problems, tr.rebuilds(t, all, a)...)
	n := tr.played()
	if n == 0 {
		return problems, 0
	}
	// A prefix's told log is the whole one's, cut: a follower asks again
	// and again as the match goes on.
	if k := 1 + r.IntN(n); true {
		part, err := tell(Record{Setup: tr.setup, Log: tr.log[:k]}, a)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(part.Log[:part.horizon[k]])
		want, _ := json.Marshal(all.Log[:all.horizon[k]])
		if !bytes.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("%s: told after %d commands, the log is not the whole one's cut:\n%.300s\n%.300s", AudienceName(a), k, got, want))
		}
	}
	check := func(kind string, setup Setup, log []Entry) {
		if p, ok := tr.twin(t, tell, a, setup, log); ok {
			twins++
			if p != "" {
				problems = append(problems, kind+": "+p)
			}
		}
	}
	if s, l, ok := tr.cardsTwin(a, n, r); ok {
		check("cards", s, l)
	}
	if s, l, ok := tr.itemTwin(a, n, r); ok {
		check("item", s, l)
	}
	if s, l, ok := tr.missionTwin(a, n, r); ok {
		check("mission", s, l)
	}
	for _, k := range tr.secretCuts(r) {
		for _, v := range []secretVariant{elsewhere, less, untraded} {
			// The initial placement shows what each has left to place
			// (who the match waits for): only a round's orders hide it.
			if v != elsewhere && tr.phase[k] != state.PhaseOrders {
				continue
			}
			for _, alt := range []Command{nil, Undo{}} {
				if s, l, ok := tr.secretTwin(t, a, k, v, alt); ok {
					if p, ok := tr.twin(t, tell, a, s, l); ok {
						twins++
						if p != "" {
							problems = append(problems, fmt.Sprintf("%v after %d, %s: %s", tr.phase[k], k, v, p))
						}
						break
					}
				}
			}
		}
	}
	return problems, twins
}

// rebuilds checks (a): a replica of the told log shows a's view after
// every command it is told while the match is played.
func (tr *truth) rebuilds(t testing.TB, all told, a int) []string {
	t.Helper()
	h := 0
	for k := range tr.log {
		if !tr.over[k+1] {
			h = max(h, all.horizon[k+1])
		}
	}
	g, step, err := all.Start()
	if err != nil {
		return []string{fmt.Sprintf("%s: the told setup does not start: %v", AudienceName(a), err)}
	}
	if viewHash(t, g.State, a) != tr.views[0][a+1] {
		return []string{fmt.Sprintf("%s: the start differs", AudienceName(a))}
	}
	for k := range h {
		if _, err := step(all.Log[k]); err != nil {
			return []string{fmt.Sprintf("%s: entry %d does not replay: %v", AudienceName(a), k+1, err)}
		}
		if !tr.over[k+1] && viewHash(t, g.State, a) != tr.views[k+1][a+1] {
			return []string{fmt.Sprintf("%s: after %d commands the rebuilt view differs from the server's", AudienceName(a), k+1)}
		}
	}
	return nil
}

// twin checks (b) with a twin match (setup, log): if it is one (it replays
// and is never over), every view of a and everything told to a must be the
// truth's.
func (tr *truth) twin(t testing.TB, tell teller, a int, setup Setup, log []Entry) (problem string, ok bool) {
	t.Helper()
	g, err := NewGame(setup)
	if err != nil {
		return "", false
	}
	var views [][32]byte
	views = append(views, viewHash(t, g.State, a))
	for _, e := range log {
		if _, err := g.Replay(e); err != nil || g.State.Phase == state.PhaseOver {
			return "", false
		}
		views = append(views, viewHash(t, g.State, a))
	}
	for k, v := range views {
		if v != tr.views[k][a+1] {
			return fmt.Sprintf("%s's view after %d commands differs in a twin that differs only in what it may not see", AudienceName(a), k), true
		}
	}
	want, err := tell(Record{Setup: tr.setup, Log: tr.log[:len(log)]}, a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tell(Record{Setup: setup, Log: log}, a)
	if err != nil {
		return fmt.Sprintf("the twin cannot be told: %v", err), true
	}
	fetch := func(x told) []byte {
		h := x.horizon[len(log)]
		for _, n := range x.horizon {
			h = max(h, n)
		}
		b, err := json.Marshal(struct {
			Setup   Setup
			Horizon []int
			Log     []Entry
		}{x.Setup, x.horizon, x.Log[:h]})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if g, w := fetch(got), fetch(want); !bytes.Equal(g, w) {
		i := 0
		for i < min(len(g), len(w)) && g[i] == w[i] {
			i++
		}
		from := max(0, i-150)
		return fmt.Sprintf("%s is told more than it may see: a twin that differs only in what it may not see is told differently, from\n  truth %s\n  twin  %s",
			AudienceName(a), w[from:min(len(w), i+150)], g[from:min(len(g), i+150)]), true
	}
	return "", true
}

// cardsTwin swaps two cards a never saw (never in its hand or on the
// discard pile, never named by a command) in the first n commands: every
// draw of one draws the other.
func (tr *truth) cardsTwin(a, n int, r *rand.Rand) (Setup, []Entry, bool) {
	if tr.setup.Options.Rules != state.Classic {
		return Setup{}, nil, false
	}
	m, err := LoadMap(tr.setup.Options.Map)
	if err != nil {
		return Setup{}, nil, false
	}
	free := state.FullDeck(m.NumCards())
	for _, c := range tr.sights[n][a+1].Union(tr.named[n]).Cards() {
		free = free.Remove(c)
	}
	held := tr.hands[n].Intersect(free)
	if held.Empty() || free.Len() < 2 {
		return Setup{}, nil, false
	}
	c1 := held.Nth(r.IntN(held.Len()))
	rest := free.Remove(c1)
	c2 := rest.Nth(r.IntN(rest.Len()))
	swap := func(c state.Card) state.Card {
		switch c {
		case c1:
			return c2
		case c2:
			return c1
		}
		return c
	}
	log := slices.Clone(tr.log[:n])
	for i := range log {
		for _, sd := range tr.secrets[i] {
			if !sd.card {
				continue
			}
			var deck state.CardSet
			for _, c := range sd.deck.Cards() {
				deck = deck.Add(swap(c))
			}
			if log[i].Rand != nil && &log[i].Rand[0] == &tr.log[i].Rand[0] {
				log[i].Rand = slices.Clone(log[i].Rand)
			}
			log[i].Rand[sd.pos] = int32(slices.Index(deck.Cards(), swap(sd.drawn)))
		}
	}
	return tr.setup, log, true
}

// itemTwin changes the kind of a kept item that a never learns in the
// first n commands: not collected by a, not used by whoever collects it.
func (tr *truth) itemTwin(a, n int, r *rand.Rand) (Setup, []Entry, bool) {
	if tr.setup.Options.Rules != state.Capitals {
		return Setup{}, nil, false
	}
	type pick struct{ entry, pos int }
	var picks []pick
	for j := range n {
		for _, e := range tr.events[j] {
			sp, ok := e.(ItemSpawned)
			if !ok || !sp.Kind.Kept() || !tr.unseenItem(a, n, j, sp.Territory) {
				continue
			}
			var pos []int
			for _, sd := range tr.secrets[j] {
				if !sd.card && sd.territory == sp.Territory {
					pos = append(pos, sd.pos)
				}
			}
			if len(pos) == 2 {
				picks = append(picks, pick{j, pos[1]})
			}
		}
	}
	if len(picks) == 0 {
		return Setup{}, nil, false
	}
	p := picks[r.IntN(len(picks))]
	log := slices.Clone(tr.log[:n])
	log[p.entry].Rand = slices.Clone(log[p.entry].Rand)
	log[p.entry].Rand[p.pos] = (log[p.entry].Rand[p.pos] + 1) % 4 // another kept kind
	return tr.setup, log, true
}

// unseenItem reports whether a never learns, in the first n commands, the
// kind of the item that appeared on t in entry j.
func (tr *truth) unseenItem(a, n, j, t int) bool {
	holder := -1
	for i := j; i < n; i++ {
		for _, e := range tr.events[i] {
			switch e := e.(type) {
			case ItemCollected:
				if e.Territory == t && holder < 0 {
					if e.Seat == a {
						return false
					}
					holder = e.Seat
				}
			case ItemUsed:
				if holder >= 0 && e.Seat == holder {
					return false
				}
			case ItemVanished:
				if e.Territory == t && holder < 0 && i > j {
					return true
				}
			}
		}
	}
	return true
}

// missionTwin deals another seat than a a mission nobody was dealt.
func (tr *truth) missionTwin(a, n int, r *rand.Rand) (Setup, []Entry, bool) {
	d := tr.setup.Deal
	if d == nil || len(d.Missions) == 0 {
		return Setup{}, nil, false
	}
	p := r.IntN(len(d.Missions))
	if p == a {
		p = (p + 1) % len(d.Missions)
	}
	var free []int
	for c := range state.MissionCards {
		if !slices.Contains(d.Missions, c) {
			free = append(free, c)
		}
	}
	deal := *d
	deal.Missions = slices.Clone(d.Missions)
	deal.Missions[p] = free[r.IntN(len(free))]
	setup := tr.setup
	setup.Deal = &deal
	return setup, tr.log[:n], true
}

// secretCuts are moments at which seats act at once and in secret: a
// classic match's initial placement, simultaneous rounds.
func (tr *truth) secretCuts(r *rand.Rand) []int {
	var cuts, trades []int
	for k := 1; k <= len(tr.log); k++ {
		if k > tr.start[k] && (tr.phase[k] == state.PhaseOrders || tr.phase[k] == state.PhaseSetup && tr.setup.Options.Rules == state.Classic) {
			cuts = append(cuts, k)
			if _, ok := tr.log[k-1].Cmd.(Trade); ok {
				trades = append(trades, k) // just after a trade: the twin without it
			}
		}
	}
	r.Shuffle(len(cuts), func(i, j int) { cuts[i], cuts[j] = cuts[j], cuts[i] })
	cuts = cuts[:min(2, len(cuts))]
	if len(trades) > 0 {
		cuts = append(cuts, trades[r.IntN(len(trades))])
	}
	return cuts
}

// secretVariant is how a twin changes another seat's secret orders.
type secretVariant int

const (
	elsewhere secretVariant = iota // its placements on another of its territories
	less                           // its last order a placement of one army less
	untraded                       // its last order a trade, not made
)

func (v secretVariant) String() string {
	return [...]string{"placed elsewhere", "an army less", "no trade"}[v]
}

// secretTwin changes, in the first k commands, the secret orders of
// another seat than a since the secret phase began (as variant v says;
// a trade not made is a placement of one army instead, or alt).
func (tr *truth) secretTwin(t testing.TB, a, k int, v secretVariant, alt Command) (Setup, []Entry, bool) {
	t.Helper()
	g, err := Replay(tr.setup, tr.log[:k])
	if err != nil {
		t.Fatal(err)
	}
	s := g.State
	log := slices.Clone(tr.log[:k])
	for p := range s.Seats {
		if p == a || tr.ready[k][p] && tr.phase[k] == state.PhaseOrders {
			continue
		}
		changed := false
		last := -1
		for i := tr.start[k]; i < k; i++ {
			if log[i].Seat == p {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		switch c := log[last].Cmd.(type) {
		case Place:
			if v == less && c.Armies >= 2 {
				c.Armies--
				log[last].Cmd, changed = c, true
			}
		case Trade:
			if v == untraded {
				log[last].Cmd, changed = alt, true
				if alt == nil {
					for t := range s.Terr {
						if s.Terr[t].Owner == p {
							log[last].Cmd = Place{Territory: t, Armies: 1}
							break
						}
					}
				}
			}
		}
		for i := tr.start[k]; i < k && v == elsewhere; i++ {
			if log[i].Seat != p {
				continue
			}
			switch c := log[i].Cmd.(type) {
			case Place:
				for t := range s.Terr {
					if t != c.Territory && s.Terr[t].Owner == p {
						c.Territory = t
						log[i].Cmd, changed = c, true
						break
					}
				}
			case AutoPlace:
				if slices.ContainsFunc(log[i].Rand, func(v int32) bool { return v != 0 }) {
					log[i].Rand = make([]int32, len(log[i].Rand))
					changed = true
				}
			}
		}
		if changed && log[last].Cmd != nil {
			return tr.setup, log, true
		}
	}
	return Setup{}, nil, false
}

// audienceModes are the modes the property is checked in: each a kind of
// random games with its options forced.
func audienceModes() []struct {
	name  string
	games randomGames
	short int // games under -short
	steps int
} {
	noTeams := func(s *Setup) {
		s.Options.Teams = 0
		for i := range s.Seats {
			s.Seats[i].Team = 0
		}
	}
	mode := func(rg randomGames, name string, force func(*Setup)) randomGames {
		setup := rg.setup
		rg.name = name
		rg.setup = func(seed uint64) Setup {
			s := setup(seed)
			force(&s)
			return s
		}
		return rg
	}
	plain := func(s *Setup) {
		s.Options.Fog = false
		if s.Options.Victory == state.Missions {
			s.Options.Victory = state.TwoThirds
		}
		noTeams(s)
	}
	return []struct {
		name  string
		games randomGames
		short int
		steps int
	}{
		{"classic", mode(classicGames, "classic", plain), 4, 400},
		{"capitals", mode(capitalsGames, "capitals", func(s *Setup) { s.Options.Fog = false }), 3, 500},
		{"simultaneous", mode(simultaneousGames, "simultaneous", plain), 4, 400},
		{"fog", mode(classicGames, "fog", func(s *Setup) { s.Options.Fog = true }), 2, 200},
		{"teams", mode(classicGames, "teams", func(s *Setup) {
			s.Options.Fog = false
			if s.Options.Victory == state.Missions {
				s.Options.Victory = state.TwoThirds
			}
			for len(s.Seats) < 4 {
				s.Seats = append(s.Seats, SeatInfo{ID: fmt.Sprintf("p%d", len(s.Seats)), Name: fmt.Sprintf("P%d", len(s.Seats))})
			}
			s.Seats = s.Seats[:4]
			s.Options.Teams = 2
			for i := range s.Seats {
				s.Seats[i].Team = 1 + i%2
			}
		}), 3, 400},
		{"rollback", rollbacks(mode(classicGames, "rollback", plain)), 3, 400},
		{"rollback rounds", rollbacks(mode(simultaneousGames, "rollback rounds", plain)), 3, 400},
		{"missions", mode(classicGames, "missions", func(s *Setup) {
			s.Options.Fog = false
			noTeams(s)
			for len(s.Seats) < MinMissionSeats {
				s.Seats = append(s.Seats, SeatInfo{ID: fmt.Sprintf("p%d", len(s.Seats)), Name: fmt.Sprintf("P%d", len(s.Seats))})
			}
			s.Options.Victory = state.Missions
		}), 3, 400},
	}
}

// rollbacks makes rg's games roll back now and then: the host takes the
// match back to the start of an earlier turn (rollback.go).
func rollbacks(rg randomGames) randomGames {
	move := rg.move
	rg.steps = nil // a round rolled back starts again: its orders change
	rg.move = func(g *Game, r *rand.Rand) (int, Command) {
		if t := g.State.Turn; t >= 2 && r.IntN(60) == 0 {
			back := 1 + r.IntN(t)
			if _, _, err := g.RollbackPreview(back); err == nil {
				return Host, Rollback{Turn: back}
			}
		}
		return move(g, r)
	}
	return rg
}

// TestEachAudienceIsToldItsViewAndNothingMore checks the property over many
// random matches of each mode (a few under -short, 16 of each otherwise).
func TestEachAudienceIsToldItsViewAndNothingMore(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, m := range audienceModes() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			n := m.short
			if !testing.Short() {
				n = 16
			}
			twins, rollbacks := 0, 0
			for seed := range uint64(n) {
				g, log := m.games.play(t, 4200+seed, m.steps)
				for _, e := range log {
					if _, ok := e.Cmd.(Rollback); ok {
						rollbacks++
					}
				}
				tr := newTruth(t, g.Setup, log)
				r := rand.New(rand.NewPCG(seed, 42))
				for a := Public; a < tr.seats; a++ {
					problems, k := tr.property(t, tellNow, a, r)
					twins += k
					for _, p := range problems {
						t.Errorf("seed %d: %s", 4200+seed, p)
					}
				}
			}
			t.Logf("%d matches (%d rollbacks), %d twins compared", n, rollbacks, twins)
			if twins == 0 {
				t.Error("no twin was compared")
			}
		})
	}
}

// TestThePropertyCatchesTheLogServedBefore runs the property on what the
// match API served before issue 42 (every random outcome): it must find
// leaks, in every mode with a log.
func TestThePropertyCatchesTheLogServedBefore(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, m := range audienceModes() {
		if m.name == "fog" {
			continue // nothing was served while the match was played
		}
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			var found []string
			for seed := uint64(0); seed < 6 && len(found) == 0; seed++ {
				g, log := m.games.play(t, 4200+seed, m.steps)
				tr := newTruth(t, g.Setup, log)
				r := rand.New(rand.NewPCG(seed, 42))
				for a := Public; a < tr.seats; a++ {
					problems, _ := tr.property(t, tellBefore, a, r)
					found = append(found, problems...)
				}
			}
			if len(found) == 0 {
				t.Fatal("the log served before issue 42 passes: the property cannot fail")
			}
			t.Logf("%d leaks found, the first: %s", len(found), strings.SplitN(found[0], "\n", 2)[0])
		})
	}
}

// A told entry's JSON is what the API serves: cards as numbers, items by
// name, and it decodes back to the same entry.
func TestToldEntryJSON(t *testing.T) {
	e := Entry{Seat: 1, Cmd: EndTurn{}, Rand: []int32{Withheld, 3}, Seen: &Seen{
		Drawn: Cards{21},
		Hands: []SeenHand{{Seat: 2, Cards: state.CardSet{}.Add(4).Add(40)}},
		Items: []SeenItem{{Territory: 7, Kind: state.ItemTwoTurns}},
		Used:  []SeenUse{{Seat: 0, Kind: state.ItemDistant}},
	}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seat":1,"cmd":{"type":"end"},"rand":[-1,3],"seen":{"drawn":[21],"hands":[{"seat":2,"cards":[4,40]}],` +
		`"items":[{"territory":7,"kind":"two-turns"}],"used":[{"seat":0,"kind":"distant-attack"}]}}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	var back Entry
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(back); string(again) != want {
		t.Errorf("decoded and encoded again: %s", again)
	}
}

// BenchmarkTell tells a random classic match's log to the public, as the
// match API does once a version (then keeps it), and replays it with a
// replica, as a follower does.
func BenchmarkTell(b *testing.B) {
	g, log := classicGames.play(b, 11, 1500)
	rec := Record{Setup: g.Setup, Log: log}
	b.Run(fmt.Sprintf("tell %d commands", len(log)), func(b *testing.B) {
		for b.Loop() {
			if _, err := rec.Tell(Public); err != nil {
				b.Fatal(err)
			}
		}
	})
	told, err := rec.Tell(Public)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("replica %d commands", len(told.Log)), func(b *testing.B) {
		for b.Loop() {
			if _, err := told.Game(-1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("replay %d commands", len(log)), func(b *testing.B) {
		for b.Loop() {
			if _, err := Replay(rec.Setup, rec.Log); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestTellingOnIsTellingAnew tells random matches of every mode to every
// audience as a follower is told them (Telling: begun after some of the
// log, then told on a few entries at a time) and, at every length of the
// log, compares what it has told with the record told anew from the
// start (Tell), byte for byte.
func TestTellingOnIsTellingAnew(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, m := range audienceModes() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			n, steps := 2, 150
			if !testing.Short() {
				n, steps = 6, 300
			}
			compared := 0
			for seed := range uint64(n) {
				g, log := m.games.play(t, 5200+seed, steps)
				r := rand.New(rand.NewPCG(seed, 48))
				for a := Public; a < len(g.State.Seats); a++ {
					k := r.IntN(len(log) + 1)
					tl, err := Record{Setup: g.Setup, Log: log[:k]}.Telling(a)
					if err != nil {
						t.Fatal(err)
					}
					for {
						if got := tl.Len(); got != k {
							t.Fatalf("seed %d, %s: the telling has read %d entries, want %d", 5200+seed, AudienceName(a), got, k)
						}
						want, err := Record{Setup: g.Setup, Log: log[:k]}.Tell(a)
						if err != nil {
							t.Fatal(err)
						}
						gb, err1 := json.Marshal(tl.Record())
						wb, err2 := json.Marshal(want)
						if err1 != nil || err2 != nil {
							t.Fatal(err1, err2)
						}
						if !bytes.Equal(gb, wb) {
							t.Fatalf("seed %d, %s, after %d commands: told on\n%.400s\ntold anew\n%.400s", 5200+seed, AudienceName(a), k, gb, wb)
						}
						compared++
						if k == len(log) {
							break
						}
						more := min(len(log)-k, 1+r.IntN(3))
						if err := tl.Add(log[k : k+more]...); err != nil {
							t.Fatal(err)
						}
						k += more
					}
				}
			}
			t.Logf("%d tellings compared", compared)
		})
	}
}

// TestTellingStopsAtABadEntry: an entry that does not follow ends a
// telling (its state is no longer the match's), and what it told before
// stays as it was.
func TestTellingStopsAtABadEntry(t *testing.T) {
	g, log := classicGames.play(t, 7, 60)
	tl, err := Record{Setup: g.Setup, Log: log[:50]}.Telling(Public)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(tl.Record())
	if err := tl.Add(log[49]); err == nil {
		t.Fatal("an entry told twice: got no error")
	}
	if err := tl.Add(log[50]); err == nil {
		t.Fatal("after a bad entry, the next: got no error")
	}
	if after, _ := json.Marshal(tl.Record()); !bytes.Equal(after, before) {
		t.Errorf("a failed Add changed what was told:\n%s\nwant\n%s", after, before)
	}
	if _, err := (Record{Setup: g.Setup, Told: true}).Telling(Public); err == nil {
		t.Error("a told record told again: got no error")
	}
}
