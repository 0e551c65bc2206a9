package play

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// place chooses the capital during the setup, and sends the
// reinforcements during a turn.
func (p capitals) place(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	q, named := c.Args.Str["territory"]
	if s.Phase == state.PhaseSetup {
		if !named || strings.TrimSpace(q) == "" {
			return hosted.Result{}, chat.RefuseMsg("play.capital.choose")
		}
		if c.Args.Has("armies") {
			return hosted.Result{}, chat.RefuseMsg("play.capital.no-armies", "Troops", troops(s.Options.CapitalTroops))
		}
		t, err := command.Territory(s, "territory", q)
		if err != nil {
			return hosted.Result{}, err
		}
		return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Capital{Territory: t})
	}
	if !named || strings.TrimSpace(q) == "" {
		return hosted.Result{}, chat.RefuseMsg("play.reinforce.name")
	}
	t, err := command.Territory(s, "territory", q)
	if err != nil {
		return hosted.Result{}, err
	}
	if n, ok := c.Args.Num["armies"]; ok && n != s.Seats[seat].Reserve && s.Phase == state.PhaseReinforce && s.Current == seat {
		return hosted.Result{}, chat.RefuseMsg("play.reinforce.all-to-one", "Troops", troops(s.Seats[seat].Reserve))
	}
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Reinforce{Territory: t})
}

// attack captures a neutral territory or plans an attack on an
// enemy one.
func (p capitals) attack(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	for _, o := range []string{"dice", "until"} {
		if c.Args.Has(o) {
			return hosted.Result{}, chat.RefuseMsg("play.capitals.no-dice", "Option", o)
		}
	}
	if c.Args.Has("armies") {
		return hosted.Result{}, chat.RefuseMsg("play.capitals.no-armies")
	}
	from, to, err := fromTo(c, s)
	if err != nil {
		return hosted.Result{}, err
	}
	cmd := attackCommand(s, seat, from, to)
	if _, ok := cmd.(engine.Capture); ok {
		return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), cmd)
	}
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message { return p.cfg.Look.To(m).Replies().Plan(m, seat, out) }, cmd)
}

// attackCommand is what /risk attack from:from to:to asks of seat's
// match s: a capture of a neutral territory, else a plan. A territory in
// the fog of war is planned on (only the distant attack reaches it): who
// holds it, if anyone, is not the player's to know.
func attackCommand(s *state.State, seat, from, to int) engine.Command {
	if s.HasFog() && !s.Sight(seat).Has(to) {
		return engine.Plan{From: from, To: to}
	}
	if s.Terr[to].Owner == state.Neutral {
		return engine.Capture{From: from, To: to}
	}
	return engine.Plan{From: from, To: to}
}

// launch launches the attacks planned, in order.
func (p capitals) launch(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.Launch{})
}

// port builds a port.
func (p capitals) port(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	t, err := command.Territory(s, "territory", c.Args.Str["territory"])
	if err != nil {
		return hosted.Result{}, err
	}
	return p.Act(ctx, m, seat, p.cfg.Look.To(m).Replies().Next(m, seat), engine.BuildPort{Territory: t})
}

func parseRatio(v string) int {
	for q := 1; q <= 4; q++ {
		if voice.Ratio(q) == v {
			return q
		}
	}
	return 0
}

// fortify is the turn's move: with a ratio it moves at once; without
// one it offers the four shares as buttons, the remembered one first.
func (p capitals) fortify(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	if c.Args.Has("armies") {
		return hosted.Result{}, chat.RefuseMsg("play.capitals.quarters")
	}
	from, to, err := fromTo(c, s)
	if err != nil {
		return hosted.Result{}, err
	}
	q, hero := s.MoveDefault(seat)
	if v, ok := c.Args.Str["hero"]; ok {
		hero = v == "yes"
	}
	if s.Hero(seat) != from {
		if c.Args.Str["hero"] == "yes" {
			if s.Hero(seat) < 0 {
				return hosted.Result{}, chat.RefuseMsg("play.hero.none")
			}
			return hosted.Result{}, chat.RefuseMsg("play.hero.elsewhere", "Hero", place(s, s.Hero(seat)), "From", place(s, from))
		}
		hero = false
	}
	if v, ok := c.Args.Str["ratio"]; ok {
		return p.move(ctx, m, seat, engine.Move{From: from, To: to, Quarters: parseRatio(v), Hero: hero}, false)
	}
	if err := checkMove(s, seat, from, to); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: p.cfg.Look.To(m).Replies().MoveChoice(m, seat, from, to, q, hero)}, nil
}

// checkMove checks seat's move from from to to as a whole (all of it,
// with the hero if it is there) before its shares are offered.
func checkMove(s *state.State, seat, from, to int) error {
	mv := engine.Move{From: from, To: to, Quarters: 4, Hero: s.Hero(seat) == from}
	if err := inSight(s, seat, mv); err != nil {
		return err
	}
	if _, err := engine.Apply(s.Clone(), seat, mv); err != nil {
		return ruleRefusal(err)
	}
	return nil
}

// move applies the turn's move. One that would leave the player's capital
// with no troops is refused with a warning unless sure (the player has
// seen it): the rules allow it, but a capital lost puts its player out.
func (p *Play) move(ctx context.Context, m *hosted.Match, seat int, mv engine.Move, sure bool) (hosted.Result, error) {
	if !sure {
		if err := emptyCapitalAsk(p.cfg.Look.To(m), m, seat, mv); err != nil {
			return hosted.Result{}, err
		}
	}
	return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
		msg := chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600) + p.cfg.Look.To(m).Replies().NextStep(m, seat)}
		if m.Game.State.Phase == state.PhaseMove && m.Game.State.Current == seat {
			msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.End), Label: reader(m).T("play.button.end-turn"), Style: chat.Success}}}
		}
		return msg
	}, mv)
}

// emptyCapitalAsk is the question asked before move mv if it would leave
// seat's capital with no troops (a refusal with buttons), or the rules'
// refusal of the move; nil if the move may go ahead.
func emptyCapitalAsk(v voice.Voice, m *hosted.Match, seat int, mv engine.Move) error {
	s := m.Game.State
	if !emptiesCapital(s, seat, mv) {
		return nil
	}
	// Only a move the rules allow is worth the question.
	if err := inSight(s, seat, mv); err != nil {
		return err
	}
	after := s.Clone()
	if _, err := engine.Apply(after, seat, mv); err != nil {
		return ruleRefusal(err)
	}
	return v.Asks().EmptyCapital(m, seat, mv, after)
}

// emptiesCapital reports whether move mv would leave seat's capital with
// no troops: only a move of all of them from it can.
func emptiesCapital(s *state.State, seat int, mv engine.Move) bool {
	c := s.Capital(seat)
	if c < 0 || mv.From != c || mv.Quarters < 1 || mv.Quarters > 4 {
		return false
	}
	armies := s.Terr[c].Armies
	return armies-state.MoveCount(armies, mv.Quarters) == 0
}

// cards shows the player's item, privately, and uses it on request.
func (p capitals) cards(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	s := m.Game.State
	it := s.Seats[seat].Capitals.Item
	if c.Args.Has("use") {
		if !it.Kept() {
			return hosted.Result{}, chat.RefuseMsg("play.item.none-to-use")
		}
		return p.Act(ctx, m, seat, func(out voice.Said) chat.Message {
			return chat.Message{Text: p.cfg.Look.To(m).Replies().Fit(out.Lines, 1600) + "\n" + p.cfg.Look.To(m).Replies().ItemEffect(it) + p.cfg.Look.To(m).Replies().NextStep(m, seat)}
		}, engine.UseItem{})
	}
	if !it.Kept() {
		return hosted.Result{Reply: chat.Private("%s", reader(m).T("play.item.none"))}, nil
	}
	lp := reader(m)
	msg := chat.Message{Private: true, Text: lp.T("play.item.yours", "Item", lang.Text(it.Title()), "What", lang.Text(voice.Speaking(lp.Tag()).Replies().ItemWhat(it)))}
	if s.Current == seat && s.Phase != state.PhaseSetup && s.Phase != state.PhaseOver {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.Use), Label: lp.T("play.button.use-now"), Style: chat.Primary}}}
		msg.Text += " " + lp.T("play.item.use-hint")
	}
	return hosted.Result{Reply: msg}, nil
}

// capitalsChoices suggests values for a capitals command's option: only
// the territories the rules allow now (engine.Legal), best matches first,
// each with the numbers that decide it. With fog of war s is seat's view
// (choices): a defence is what seat sees of it.
func capitalsChoices(s *state.State, seat int, req chat.Request, focused string) []chat.Choice {
	legal := engine.Legal(s, seat)
	lp := lang.For(lang.FromLocale(req.Locale))
	t := s.Map.TerritoryName
	lookup := func(option string) int {
		id, err := s.Map.Lookup(req.Options[option])
		if err != nil {
			return -1
		}
		return id
	}
	notes := map[int]string{}
	var ids []int
	add := func(id int, note string) {
		if _, ok := notes[id]; !ok {
			ids = append(ids, id)
			notes[id] = note
		}
	}
	troopsOn := func(id int) lang.Msg { return troops(s.Terr[id].Armies) }
	from := lookup("from")
	// fromTo offers a command of two territories (name's from: and to:):
	// the source with its troops; the target, if from its chosen source
	// (or any), with what note says of it.
	fromTo := func(name string, src, dst int, note func() string) {
		switch req.Command + "." + focused {
		case name + ".from":
			add(src, lp.Msg(troopsOn(src)))
		case name + ".to":
			if from < 0 || from == src {
				add(dst, note())
			}
		}
	}
	for _, c := range legal {
		switch c := c.(type) {
		case engine.Capital:
			if req.Command+"."+focused == "place.territory" {
				add(c.Territory, lp.T("play.choice.capital", "Troops", troopsOn(c.Territory), "Terrain", s.Map.Territories[c.Territory].Terrain)+features(lp, s, c.Territory))
			}
		case engine.Reinforce:
			if req.Command+"."+focused == "place.territory" {
				add(c.Territory, lp.T("play.choice.reinforce", "Troops", troopsOn(c.Territory), "Reserve", s.Seats[seat].Reserve)+voice.Speaking(lp.Tag()).Asks().Threat(s, c.Territory))
			}
		case engine.BuildPort:
			if req.Command+"."+focused == "port.territory" {
				add(c.Territory, lp.T("play.choice.port", "Troops", troopsOn(c.Territory), "Territories", lang.M("play.n.territories", "Count", len(s.Map.Territories[c.Territory].Sea))))
			}
		case engine.Capture:
			fromTo("attack", c.From, c.To, func() string { return lp.T("play.choice.capture", "Troops", troopsOn(c.To)) })
		case engine.Plan:
			fromTo("attack", c.From, c.To, func() string {
				n := int(s.Cap.NPlan) + 1
				src := c.From
				if from >= 0 {
					src = from
				}
				total := lang.Text(state.FormatPower(s.AttackTotal(src, c.To, n).Total))
				switch {
				case s.Terr[c.To].Fog:
					return lp.T("play.choice.plan-fog", "Total", total)
				case s.Fogged():
					return lp.T("play.choice.plan-seen", "Player", lang.Text(s.Seats[s.Terr[c.To].Owner].Name),
						"Defence", lang.Text(state.FormatPower(s.DefenceTotal(c.To))), "Total", total)
				}
				return lp.T("play.choice.plan", "Player", lang.Text(s.Seats[s.Terr[c.To].Owner].Name),
					"Defence", lang.Text(state.FormatPower(s.DefenceTotal(c.To))), "Total", total)
			})
		case engine.Move:
			fromTo("fortify", c.From, c.To, func() string { return lp.Msg(troopsOn(c.To)) })
		}
	}
	var out []chat.Choice
	for _, id := range s.Map.Rank(req.Options[focused], ids) {
		name := fmt.Sprintf("%s — %s", lp.PlaceName(t(id)), notes[id])
		if len(name) > 100 {
			name = name[:99] + "…"
		}
		out = append(out, chat.Choice{Name: name, Value: t(id)})
		if len(out) == chat.MaxChoices {
			break
		}
	}
	return out
}

// features names a territory's fortress and shore, for a capital's choice.
// The shore is said as what it allows: "coast" beside the coastal terrain
// read as the same thing twice.
func features(lp lang.Printer, s *state.State, t int) string {
	var f []string
	if s.Map.Territories[t].Fortress {
		f = append(f, lp.T("play.choice.fortress"))
	}
	if s.Map.Territories[t].Coast {
		f = append(f, lp.T("play.choice.coast"))
	}
	if len(f) == 0 {
		return ""
	}
	return ", " + strings.Join(f, ", ")
}

// Missing answers a command that left out a required option (Parse's
// error). In a match under way its example is from the player's own
// territories (in a capitals match, in the match's own names); elsewhere
// it is the command's usage. It only reads the match: it takes no lock.
func (p *Play) Missing(ctx context.Context, req chat.Request, miss *command.Missing) error {
	usage := chat.Refusing(lang.M("play.refusal", "Text", miss.Message()))
	switch miss.Spec.FullName() {
	case "attack", "fortify", "port":
	default:
		return usage
	}
	m, err := p.cfg.Matches.Load(ctx, req.Channel)
	if err != nil {
		return usage
	}
	g, err := m.Started()
	switch {
	case err != nil && m.Meta.Settings.Options.Rules == state.Capitals:
		// A capitals lobby: no map to take an example from yet, and the
		// classic one would mislead. What the command would say.
		return err
	case err != nil:
		return usage
	}
	// A territory mistyped is the first thing to put right: its answer
	// names the closest territory, which the usage's example would not.
	for _, o := range []string{"from", "to"} {
		if q := req.Options[o]; strings.TrimSpace(q) != "" {
			if _, err := command.Territory(g.State, o, q); err != nil {
				return err
			}
		}
	}
	seat, err := m.SeatOf(req.User)
	if err != nil {
		seat = -1
	}
	m.Reader = hosted.ReaderOf(req.Locale)
	v := p.cfg.Look.To(m)
	if !hosted.IsCapitals(g.State) {
		// The usage's Alaska and Kamchatka may be anyone's: the example
		// is from the player's own territories.
		if text, ok := v.Status().ClassicUsage(g.State, seat, miss.Spec.FullName(), miss.Option, req.Options["from"]); ok {
			return chat.RefuseMsg("chat.as-is", "Text", lang.Text(text))
		}
		return usage
	}
	if text, ok := v.Status().CapitalsUsage(g.State, seat, miss.Spec.FullName(), miss.Option); ok {
		return chat.RefuseMsg("chat.as-is", "Text", lang.Text(text))
	}
	return usage
}

// end passes; there are no cards to discard. The rules let unsent
// reinforcements lapse, but /risk end does not drop them without a word:
// it is refused, with a button that passes all the same.
func (p capitals) end(ctx context.Context, c *hosted.Call, m *hosted.Match, seat int) (hosted.Result, error) {
	if c.Args.Has("discard") {
		return hosted.Result{}, chat.RefuseMsg("play.capitals.no-discard")
	}
	if s := m.Game.State; s.Current == seat && s.Phase == state.PhaseReinforce && s.Seats[seat].Reserve > 0 {
		return hosted.Result{}, p.cfg.Look.To(m).Asks().PassUnsent(m, seat)
	}
	return p.endTurn(ctx, m, seat, "")
}
