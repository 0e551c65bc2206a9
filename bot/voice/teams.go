package voice

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// Teams (RULES.md section 3): a team is named by its number and its
// players, "Team 1 (🟥 Ann, 🟨 Cid)", wherever the match names a winner or
// the standings; a turn names its player's team.

// TeamName names team of s with its players.
func (lb Lobby) TeamName(s *state.State, team int) string {
	var who []string
	for _, i := range s.Sides().Members(team) {
		who = append(who, lb.v.Who(s, i))
	}
	return lb.v.p.T("voice.team.name", "N", team, "Players", lang.Text(strings.Join(who, ", ")))
}

// Winners names who won a finished match: the winner, or its team.
func (lb Lobby) Winners(s *state.State) string {
	if t := s.Sides().Team(s.Winner); t != 0 {
		return lb.TeamName(s, t)
	}
	return lb.v.Who(s, s.Winner)
}

// WhoPlays is Who with the seat's team, in a match with teams: the player
// of a turn.
func (lb Lobby) WhoPlays(s *state.State, i int) string {
	if t := s.Sides().Team(i); t != 0 {
		return lb.v.p.T("voice.team.who-plays", "Player", lang.Text(lb.v.Who(s, i)), "N", t)
	}
	return lb.v.Who(s, i)
}

// TeamsLine lists the teams with the territories each holds together (as
// far as s, a view, tells), or "" without teams.
func (lb Lobby) TeamsLine(s *state.State) string {
	if s.Sides().Teams() == 0 {
		return ""
	}
	var parts []string
	for t := 1; t <= s.Sides().Teams(); t++ {
		seats := s.Sides().Members(t)
		terr := 0
		out := true
		for _, i := range seats {
			terr += s.Owned(i)
			out = out && !s.Seats[i].Alive()
		}
		status := lb.v.p.T("n.territories", "Count", terr)
		if out {
			status = lb.v.p.T("voice.team.out")
		}
		parts = append(parts, lb.v.p.T("voice.team.status", "Team", lang.Text(lb.TeamName(s, t)), "Status", lang.Text(status)))
	}
	return lb.v.p.T("voice.team.line", "List", lang.Text(strings.Join(parts, lb.v.p.T("voice.list.sep"))))
}

// teams lists a lobby's teams as chosen so far, or "" without teams.
func (lb Lobby) teams(meta hosted.Meta) string {
	size := meta.Settings.Options.Teams
	if size == 0 {
		return ""
	}
	n := max(2, (len(meta.Seats)+size-1)/size)
	for _, s := range meta.Seats {
		n = max(n, s.Team) // a pick the start will refuse, shown
	}
	var lines []string
	for t := 1; t <= n; t++ {
		var who []string
		for _, s := range meta.Seats {
			if s.Team == t {
				who = append(who, s.Name)
			}
		}
		list := strings.Join(who, ", ")
		if len(who) == 0 {
			list = lb.v.p.T("voice.team.nobody-yet")
		}
		lines = append(lines, lb.v.p.T("voice.team.lobby-line", "N", t, "Count", len(who), "Size", size, "Players", lang.Text(list)))
	}
	var free []string
	for _, s := range meta.Seats {
		if s.Team == 0 {
			free = append(free, s.Name)
		}
	}
	if len(free) > 0 {
		lines = append(lines, lb.v.p.T("voice.team.no-team-yet", "Players", lang.Text(strings.Join(free, ", "))))
	}
	return strings.Join(lines, "\n")
}

// teamsHelp is the help's paragraph on teams, of each rule set in its own
// words.
func (lb Lobby) teamsHelp(rules state.Rules) string {
	won, moved := lang.M("voice.team.help-won-classic"), lang.M("voice.team.help-moved-classic")
	if rules == state.Capitals {
		won, moved = lang.M("voice.team.help-won-capitals"), lang.M("voice.team.help-moved-capitals")
	}
	return lb.v.p.T("voice.team.help", "Moved", moved, "Won", won)
}

// Lobby writes a lobby's living card (its seats, settings, teams and
// buttons), the invitations, and the names of the teams.
type Lobby struct{ v Voice }

// Lobby is v writing the lobby and the teams.
func (v Voice) Lobby() Lobby { return Lobby{v} }

// TeamPlan is the line a computer player on a team says in its team's
// thread after its turn (issue 47): the continent it goes for and the
// front it holds. It reads view, the seat's own view after the turn,
// which its teammates share, so it tells them nothing they could not see.
func (lb Lobby) TeamPlan(view *state.State, seat int) string {
	p := lb.v.p
	aim := p.T("voice.team.plan-grow")
	if c, held, ok := planContinent(view, seat); ok && held == len(view.Map.Continents[c].Territories) {
		aim = p.T("voice.team.plan-hold", "Continent", lang.Place(view.Map.Continents[c].Name))
	} else if ok {
		aim = p.T("voice.team.plan-aim", "Continent", lang.Place(view.Map.Continents[c].Name),
			"Held", held, "Size", len(view.Map.Continents[c].Territories))
	}
	front := p.T("voice.team.plan-no-front")
	if t, mate, ok := planFront(view, seat); ok && mate >= 0 {
		front = p.T("voice.team.plan-front-beside", "Territory", place(view, t), "Armies", view.Terr[t].Armies,
			"Mate", lang.Text(view.Seats[view.Terr[mate].Owner].Name), "Their", place(view, mate))
	} else if ok {
		front = p.T("voice.team.plan-front", "Territory", place(view, t), "Armies", view.Terr[t].Armies)
	}
	return p.T("voice.team.plan", "Player", lang.Text(lb.v.Who(view, seat)), "Aim", lang.Text(aim), "Front", lang.Text(front))
}

// planContinent is the continent seat goes for: of those it has a
// territory in, the one its team holds the largest share of without
// holding it all (the larger bonus on a tie); else one its team holds.
// held counts the territories of it the team holds, as far as view shows.
func planContinent(view *state.State, seat int) (c, held int, ok bool) {
	best, bestHeld, whole := -1, 0, -1
	for i, cont := range view.Map.Continents {
		mine, ours := 0, 0
		for _, t := range cont.Territories {
			switch o := view.Terr[t].Owner; {
			case view.Terr[t].Fog:
			case o == seat:
				mine++
				ours++
			case o >= 0 && view.Sides().Same(seat, o):
				ours++
			}
		}
		n := len(cont.Territories)
		switch {
		case mine == 0:
		case ours == n:
			if whole < 0 || cont.Bonus > view.Map.Continents[whole].Bonus {
				whole = i
			}
		case best < 0 || ours*len(view.Map.Continents[best].Territories) > bestHeld*n ||
			ours*len(view.Map.Continents[best].Territories) == bestHeld*n && cont.Bonus > view.Map.Continents[best].Bonus:
			best, bestHeld = i, ours
		}
	}
	if best >= 0 {
		return best, bestHeld, true
	}
	if whole >= 0 {
		return whole, len(view.Map.Continents[whole].Territories), true
	}
	return 0, 0, false
}

// planFront is seat's strongest territory that borders one not on its
// side (a neutral's included; none out of sight), and the strongest of
// its teammates' territories beside it, or -1.
func planFront(view *state.State, seat int) (t, mate int, ok bool) {
	t, mate = -1, -1
	for i, tr := range view.Terr {
		if tr.Owner != seat || tr.Fog || t >= 0 && tr.Armies <= view.Terr[t].Armies {
			continue
		}
		for _, n := range view.Map.Territories[i].Adj {
			if nt := view.Terr[n]; !nt.Fog && !view.Sides().Same(seat, nt.Owner) {
				t = i
				break
			}
		}
	}
	if t < 0 {
		return -1, -1, false
	}
	for _, n := range view.Map.Territories[t].Adj {
		if nt := view.Terr[n]; !nt.Fog && view.Sides().Teammates(seat, nt.Owner) && (mate < 0 || nt.Armies > view.Terr[mate].Armies) {
			mate = n
		}
	}
	return t, mate, true
}
