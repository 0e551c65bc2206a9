package voice

import (
	"cmp"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// The ping of a person's turn opens with what happened to them since
// their last turn, most important first: what they lost and to whom, the
// continents they no longer hold, the threats on their borders, and who
// leads.

// Digest is what happened to the player of seat since their last turn, in
// at most maxDigest lines; none before their first turn. With fog of war,
// m is the player's view of the match.
func (v Voice) Digest(m *hosted.Match, seat int) []string {
	own, ok := v.digest(m, seat)
	if !ok {
		return nil
	}
	out := own[:min(maxDigest, len(own))]
	if lead := v.leadLine(m.Game.State, seat); len(out) < maxDigest && lead != "" {
		out = append(out, lead)
	}
	if len(out) > 0 {
		out[0] = v.p.T("voice.digest.since", "Line", lang.Text(out[0]))
	}
	return out
}

// withRoundDigest puts above a round's ping what happened to each player
// it waits for since their last orders (the round's resolution): their
// two weightiest lines each, then who leads. Without fog of war only: it
// is public.
func (v Voice) withRoundDigest(m *hosted.Match, text string) string {
	s := m.Game.State
	var lines []string
	some := false
	for _, i := range hosted.ToAct(s) {
		if m.IsBotSeat(i) {
			continue
		}
		own, ok := v.digest(m, i)
		some = some || ok
		if len(own) > 0 {
			lines = append(lines, v.p.T("voice.digest.player", "Swatch", v.Swatch(i), "Name", lang.Text(s.Seats[i].Name),
				"Lines", lang.Text(strings.Join(own[:min(2, len(own))], " "))))
		}
	}
	if lead := v.leadLine(s, -1); lead != "" {
		lines = append(lines, lead)
	}
	if !some || len(lines) == 0 {
		return text // no round played yet
	}
	lines[0] = v.p.T("voice.digest.since-round") + "\n" + lines[0]
	return strings.Join(lines, "\n") + "\n" + text
}

// digest is what happened to the player of seat since their last turn,
// weightiest first, who leads aside (leadLine); ok is false before their
// first turn.
func (v Voice) digest(m *hosted.Match, seat int) (lines []string, ok bool) {
	s := m.Game.State
	i := m.Meta.Index(s.Seats[seat].ID)
	if i < 0 || m.Meta.Seats[i].Held == nil || s.Phase == state.PhaseSetup {
		return nil, false
	}
	type line struct {
		text  string
		score int
	}
	var scored []line
	capitals := hosted.IsCapitals(s)
	held := map[int]bool{}
	lost := map[int]lang.List{} // by the seat that holds them now
	var takers []int
	for _, t := range m.Meta.Seats[i].Held {
		if t < 0 || t >= len(s.Terr) {
			continue
		}
		held[t] = true
		if s.Terr[t].Fog {
			// Lost into the fog of war: who holds it now is not seen.
			if _, ok := lost[fogTaker]; !ok {
				takers = append(takers, fogTaker)
			}
			lost[fogTaker] = append(lost[fogTaker], lang.Place(s.Map.TerritoryName(t)))
			continue
		}
		if o := s.Terr[t].Owner; o != seat {
			if _, ok := lost[o]; !ok {
				takers = append(takers, o)
			}
			lost[o] = append(lost[o], lang.Place(s.Map.TerritoryName(t)))
		}
	}
	for _, o := range takers {
		names := lost[o]
		if o == fogTaker {
			scored = append(scored, line{v.p.T("voice.digest.lost-in-fog", "Names", names), 1000 + len(names)})
			continue
		}
		scored = append(scored, line{v.p.T("voice.digest.lost", "Names", names, "Player", lang.Text(v.Who(s, o))), 1000 + len(names)})
	}
	for c, cont := range s.Map.Continents {
		all := len(cont.Territories) > 0
		for _, t := range cont.Territories {
			all = all && held[t]
		}
		if all && s.ContinentOwner(c) != seat {
			scored = append(scored, line{v.p.T("voice.digest.continent-lost", "Continent", lang.Place(cont.Name), "Bonus", cont.Bonus), 900 + cont.Bonus})
		}
	}
	// Threats: an enemy stack that outnumbers a neighbour of theirs, the
	// greatest odds against first (two at most).
	type threat struct{ from, to, by int }
	var threats []threat
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		worst := -1
		for _, n := range s.Map.Territories[t].Adj {
			if o := s.Terr[n].Owner; o >= 0 && o != seat && s.Terr[n].Armies > s.Terr[t].Armies+1 && (worst < 0 || s.Terr[n].Armies > s.Terr[worst].Armies) {
				worst = n
			}
		}
		if worst >= 0 {
			threats = append(threats, threat{worst, t, s.Terr[worst].Armies - s.Terr[t].Armies})
		}
	}
	slices.SortStableFunc(threats, func(a, b threat) int { return cmp.Compare(b.by, a.by) })
	for k, th := range threats[:min(2, len(threats))] {
		args := []any{"Count", s.Terr[th.from].Armies, "Player", lang.Text(v.Who(s, s.Terr[th.from].Owner)),
			"From", lang.Place(s.Map.TerritoryName(th.from)), "Yours", s.Terr[th.to].Armies, "To", lang.Place(s.Map.TerritoryName(th.to))}
		text := v.p.T("voice.digest.threat", args...)
		if capitals {
			text = v.p.T("voice.digest.threat-capitals", args...)
		}
		scored = append(scored, line{text, 500 - k})
	}
	slices.SortStableFunc(scored, func(a, b line) int { return cmp.Compare(b.score, a.score) })
	for _, l := range scored {
		lines = append(lines, l.text)
	}
	return lines, true
}

// leadLine says who leads, by territories then armies: "You lead" to
// seat (-1: to everyone).
func (v Voice) leadLine(s *state.State, seat int) string {
	lead := -1
	for o := range s.Seats {
		if !s.Seats[o].Alive() {
			continue
		}
		if lead < 0 || s.Owned(o) > s.Owned(lead) || (s.Owned(o) == s.Owned(lead) && s.Armies(o) > s.Armies(lead)) {
			lead = o
		}
	}
	if lead < 0 {
		return ""
	}
	args := []any{"Player", lang.Text(v.Who(s, lead)), "Territories", s.Owned(lead), "Armies", s.Armies(lead)}
	switch capitals := hosted.IsCapitals(s); {
	case lead == seat && capitals:
		return v.p.T("voice.digest.you-lead-capitals", args...)
	case lead == seat:
		return v.p.T("voice.digest.you-lead", args...)
	case capitals:
		return v.p.T("voice.digest.lead-capitals", args...)
	}
	return v.p.T("voice.digest.lead", args...)
}

// WithDigest puts the digest of seat's player above a ping's text.
func (v Voice) WithDigest(m *hosted.Match, seat int, text string) string {
	d := v.Digest(m, seat)
	if len(d) == 0 {
		return text
	}
	return strings.Join(d, "\n") + "\n" + text
}

// fogTaker stands for whoever took a territory now out of sight.
const fogTaker = -100

// maxDigest bounds the digest's lines.
const maxDigest = 5

// WithDigestLines puts the digest of seat's player above what they saw
// (lines), for their own view with fog of war; what they saw is cut to
// the latest lines if long.
func (v Voice) WithDigestLines(m *hosted.Match, seat int, saw []string) []string {
	out := v.Digest(m, seat)
	if len(saw) > 0 {
		out = append(out, v.p.T("voice.digest.saw"))
		// The latest lines that fit: the oldest are in the history.
		from, n := len(saw), 0
		for from > 0 && n+len(saw[from-1])+1 <= maxSaw {
			from--
			n += len(saw[from]) + 1
		}
		if from > 0 {
			out = append(out, v.p.T("voice.digest.earlier", "Count", from))
		}
		out = append(out, saw[from:]...)
	}
	return out
}

// maxSaw keeps what a player saw within an answer, beside the standings.
const maxSaw = 2000
