package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/voice"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

func cmdStatus(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := b.matches.Latest(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	if m.Status == storage.Lobby {
		return hosted.Result{Reply: chat.Private("Lobby (%d/%d seats); %s.\n%s\nThe host starts the match with /risk start.",
			len(m.Meta.Seats), state.MaxSeats, voice.SettingsText(m.Meta.Settings), voice.SeatList(m.Meta))}, nil
	}
	s := m.Game.State
	if hosted.IsCapitals(s) {
		lines := append([]string{b.look.Voice(m).StatusLine(m)}, b.look.Voice(m).CapitalsStatus(m)...)
		lines = append(lines, "* a computer plays this seat. "+voice.SettingsText(m.Meta.Settings)+".")
		return hosted.Result{Reply: b.look.Voice(m).Standings(m, lines)}, nil
	}
	lines := []string{b.look.Voice(m).StatusLine(m), "```"}
	lines = append(lines, fmt.Sprintf("%-16s %5s %6s %5s %6s", "player", "terr", "armies", "cards", "income"))
	for i := range s.Seats {
		name := s.Seats[i].Name
		if sm := m.Seat(i); sm.IsBot() || sm.Autopilot {
			name += "*"
		}
		if i == s.Current && s.Phase != state.PhaseSetup && s.Phase != state.PhaseOver {
			name = "▶ " + name
		}
		if !s.Seats[i].Alive() {
			lines = append(lines, fmt.Sprintf("%-16s %s", chat.Trunc(name, 16), s.Seats[i].Status))
			continue
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %5d %6d", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), s.HandSize(i), s.Income(i).Total))
	}
	lines = append(lines, "```", "* a computer plays this seat. "+voice.SettingsText(m.Meta.Settings)+".")
	var held []string
	for ci, cont := range s.Map.Continents {
		if o := s.ContinentOwner(ci); o >= 0 {
			held = append(held, fmt.Sprintf("%s (+%d) by %s", cont.Name, cont.Bonus, s.Seats[o].Name))
		}
	}
	if len(held) > 0 {
		lines = append(lines, "Continents held: "+strings.Join(held, "; ")+".")
	}
	return hosted.Result{Reply: b.look.Voice(m).Standings(m, lines)}, nil
}

func cmdCards(ctx context.Context, c *call, m *hosted.Match, seat int) (hosted.Result, error) {
	b := c.bot
	s := m.Game.State
	if hosted.IsCapitals(s) {
		return b.capitalsCards(ctx, c, m, seat)
	}
	if c.Args.Has("use") {
		return hosted.Result{}, chat.Refuse("use is for the items of capitals matches; trade cards with /risk trade.")
	}
	hand := s.Seats[seat].Hand.Cards()
	if len(hand) == 0 {
		return hosted.Result{Reply: chat.Private("You hold no cards. You draw one at the end of every turn in which you conquer a territory.")}, nil
	}
	var lines []string
	for _, card := range hand {
		mark := ""
		if t, ok := s.Map.CardTerritory(card); ok && s.Terr[t].Owner == seat {
			mark = " — yours: +2 armies there when traded"
		}
		lines = append(lines, "• "+s.Map.CardName(card)+mark)
	}
	text := "Your cards (only you see this):\n" + strings.Join(lines, "\n")
	if set, ok := engine.BestSet(s, seat); ok {
		// Cards are named by territory: names stay right from turn to turn,
		// where positions in the hand shift as cards come and go.
		text += fmt.Sprintf("\nYou hold a set: /risk trade cards:%s (worth %d).", setNames(s, set), engine.SetValue(s, set))
	} else {
		text += "\nNo set yet: three of a kind, or one of each (a wild counts as any). " + nextSetText(s)
	}
	if len(hand) >= 5 {
		text += "\nWith 5 or more cards you must trade at the start of your turn."
	}
	return hosted.Result{Reply: chat.Message{Private: true, Text: text}}, nil
}

// setNames names the cards of a set as /risk trade takes them.
func setNames(s *state.State, set [3]state.Card) string {
	var names []string
	for _, c := range set {
		names = append(names, cardValue(s, c))
	}
	return strings.Join(names, ", ")
}

// nextSetText says what the next set traded in the match is worth.
func nextSetText(s *state.State) string {
	if s.Options.Cards == state.Fixed {
		return "A set is worth 4 (three infantry), 6 (cavalry), 8 (artillery) or 10 (one of each)."
	}
	return fmt.Sprintf("The next set traded here is worth %d.", engine.EscalatingValue(s.Trades))
}

func cmdOdds(ctx context.Context, c *call) (hosted.Result, error) {
	a, d := c.Args.Num["attackers"], c.Args.Num["defenders"]
	what := fmt.Sprintf("%d armies attacking %d", a, d)
	if c.Args.Has("from") || c.Args.Has("to") {
		if c.Args.Has("attackers") || c.Args.Has("defenders") {
			return hosted.Result{}, chat.Refuse("Give the territories (from, to) or the numbers (attackers, defenders), not both.")
		}
		m, err := c.bot.matches.Latest(ctx, c.Req.Channel)
		if err != nil {
			return hosted.Result{}, err
		}
		g, err := m.Started()
		if err != nil {
			return hosted.Result{}, err
		}
		s := g.State
		if hosted.IsCapitals(s) {
			return hosted.Result{}, chat.Refuse("Capitals battles have no dice: /risk attack shows each planned attack's total, the defence, and what it may kill.")
		}
		from, to, err := fromTo(c, s)
		if err != nil {
			return hosted.Result{}, err
		}
		if !s.Map.Adjacent(from, to) {
			return hosted.Result{}, chat.Refuse("%s does not border %s.", s.Map.TerritoryName(from), s.Map.TerritoryName(to))
		}
		a, d = s.Terr[from].Armies, s.Terr[to].Armies
		what = fmt.Sprintf("%s (%d) attacking %s (%d)", s.Map.TerritoryName(from), a, s.Map.TerritoryName(to), d)
		if a < 2 {
			return hosted.Result{}, chat.Refuse("%s has 1 army: it cannot attack.", s.Map.TerritoryName(from))
		}
	} else if !c.Args.Has("attackers") || !c.Args.Has("defenders") {
		return hosted.Result{}, chat.Refuse("Give the territories (/risk odds from:Alaska to:Kamchatka) or the numbers (/risk odds attackers:10 defenders:6).")
	}
	o, err := engine.AttackOdds(a, d)
	if err != nil {
		return hosted.Result{}, chat.Refuse("%s.", err)
	}
	return hosted.Result{Reply: chat.Private("%s to the end (one stays behind): **%.1f%%** to win; on average %.1f of the attackers and %.1f of the defenders are left.",
		what, 100*o.Win, o.AttackerLeft, o.DefenderLeft)}, nil
}

func cmdHistory(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := b.matches.Latest(ctx, c.Req.Channel)
	if err != nil {
		return hosted.Result{}, err
	}
	show := c.Args.Str["show"]
	if show != "" && show != "turn" {
		if c.Args.Has("turn") {
			return hosted.Result{}, chat.Refuse("turn is for show:turn; show:%s is about the whole match.", show)
		}
		return b.wholeMatch(ctx, m, show)
	}
	turn, ok := c.Args.Num["turn"]
	if !ok {
		turn = -1
	}
	return b.history(ctx, m, turn, -1)
}

// history shows one turn of match m, told again from its log: turn
// number turn (the setup is 0), or page page of the turns, or the latest
// if both are negative. Buttons page through them.
func (b *Bot) history(ctx context.Context, m *hosted.Match, turn, page int) (hosted.Result, error) {
	g, err := m.Started()
	if err != nil {
		return hosted.Result{}, err
	}
	e, err := b.cfg.Store.Export(ctx, m.ID)
	if err != nil {
		return hosted.Result{}, err
	}
	v := b.look.Voice(m)
	turns, live, err := v.Retell(e.Record)
	if err != nil {
		return hosted.Result{}, fmt.Errorf("bot: tell the history of match %d: %w", m.ID, err)
	}
	if live != nil && len(live.Lines) > 0 {
		turns = append(turns, *live)
	} else {
		live = nil
	}
	if len(turns) == 0 {
		return hosted.Result{Reply: chat.Private("Nothing has happened yet.")}, nil
	}
	s := g.State
	switch {
	case page >= 0:
		page = min(page, len(turns)-1)
	case turn >= 0:
		page = -1
		for i, t := range turns {
			if t.Turn == turn {
				page = i
				break
			}
		}
		if page < 0 {
			first, last := turns[0].Turn, turns[len(turns)-1].Turn
			return hosted.Result{}, chat.Refuse("There is no turn %d to show: turns %d to %d have been played.", turn, first, last)
		}
	default:
		page = len(turns) - 1
	}
	t := turns[page]
	em := v.TurnEmbed(s, t, "")
	em.Footer = fmt.Sprintf("%d of %d", page+1, len(turns))
	if live != nil && page == len(turns)-1 {
		em.Footer += " · in progress"
	}
	msg := chat.Message{Private: true, Embed: em}
	var row []chat.Button
	if page > 0 {
		row = append(row, chat.Button{ID: m.ButtonID("history", page-1), Label: "◀ " + v.ShortTitle(turns[page-1]), Style: chat.Secondary})
	}
	if page < len(turns)-1 {
		row = append(row, chat.Button{ID: m.ButtonID("history", page+1), Label: v.ShortTitle(turns[page+1]) + " ▶", Style: chat.Secondary})
	}
	if page < len(turns)-2 {
		row = append(row, chat.Button{ID: m.ButtonID("history", len(turns)-1), Label: "Latest", Style: chat.Secondary})
	}
	if len(row) > 0 {
		msg.Buttons = [][]chat.Button{row}
	}
	return hosted.Result{Reply: msg}, nil
}

func cmdHelp(_ context.Context, c *call) (hosted.Result, error) {
	var names []string
	for _, s := range c.bot.specs {
		names = append(names, s.FullName())
	}
	text := strings.Join([]string{
		"**Risk in chat**: conquer the world with dice, one slash command at a time.",
		"**Start**: `/risk new`, friends `/risk join`, fill seats with `/risk addbot`, then `/risk start`.",
		"**Setup**: everyone places their armies at once: `/risk place territory:Alaska armies:3` or `/risk autoplace`.",
		"**Your turn**: trade a set of cards (`/risk trade`), place your reinforcements (`/risk place`), " +
			"attack (`/risk attack from:Alaska to:Kamchatka`, add `until:win` to keep rolling), move in (`/risk occupy`), " +
			"move armies (`/risk fortify`), then `/risk end`. `/risk undo` takes back moves made since the last dice roll.",
		"**Anytime**: `/risk status` (the standings and the map), `/risk cards` (only you see them), `/risk odds`, `/risk history`, `/risk stats` (the leaderboard).",
		"**Admins** (Manage Server, or Manage Channels here) and the host: `/risk abandon` ends the match without a winner; admins may also `/risk kick` any player, and set this server's defaults and limits with `/risk admin defaults` and `/risk admin limits` (`/risk admin show` shows them).",
		"**Names**: any unique start or abbreviation works: `kamch`, `e africa`, `w us`.",
		"**Notifications**: `/risk notify dm:on` adds a direct message when it is your turn; `reminders:off`; `quiet:22-7 utc-offset:+1` stops pings and your turn's clock in those hours.",
		"**Rules**: two thirds of the map wins (or the last player standing); cards trade for 4, 6, 8, 10, 12, 15, then 5 more each time.",
		"**Capitals** (`/risk new rules:capitals map:small|normal|large`): on generated islands, choose a capital (`/risk place`), then each turn send your reinforcements to one territory (`/risk place`), take one action — capture a neutral territory or plan attacks (`/risk attack`, then `/risk launch`), or build a port (`/risk port`) — and move once (`/risk fortify ratio:1/2`). `/risk end` passes, `/risk surrender` abandons, `/risk cards` shows your item. Lose your capital and you are out; the last capital standing wins.",
		"All commands: " + strings.Join(names, ", ") + ".",
	}, "\n")
	return hosted.Result{Reply: chat.Message{Private: true, Text: text}}, nil
}
