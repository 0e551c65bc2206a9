package engine

import (
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// applyCapitals is Apply for the capitals rule set (RULES.md section 2).
// Every command validates in full before it changes anything.
func applyCapitals(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	if s.Phase == state.PhaseOver {
		return nil, fail(ErrGameOver, "engine.over.won", "Player", player(s, s.Winner))
	}
	if !s.Seats[seat].Alive() {
		return nil, fail(ErrNotPlaying, "engine.seat.out", "Status", status(s.Seats[seat].Status))
	}
	if _, ok := c.(Surrender); ok {
		return abandon(s, seat, d), nil
	}
	switch c.(type) {
	case Capital, Reinforce, Capture, BuildPort, Plan, Launch, UseItem, Move, EndTurn:
	case Undo:
		return nil, fail(ErrUnsupported, "engine.undo.no-history")
	case Place, AutoPlace:
		return nil, fail(ErrUnsupported, "engine.capitals.no-place")
	case Attack, Blitz, Occupy:
		return nil, fail(ErrUnsupported, "engine.capitals.no-attack")
	case Fortify:
		return nil, fail(ErrUnsupported, "engine.capitals.no-fortify")
	case Trade, Discard:
		return nil, fail(ErrUnsupported, "engine.capitals.no-cards")
	default:
		return nil, fail(ErrBadCommand, "engine.capitals.not-a-command", "Command", lang.Text(c.Name()))
	}
	if seat != s.Current {
		if s.Phase == state.PhaseSetup {
			return nil, fail(ErrNotYourTurn, "engine.capitals.choosing", "Player", player(s, s.Current))
		}
		return nil, fail(ErrNotYourTurn, "engine.turn.not-yours", "Player", player(s, s.Current))
	}
	if s.Phase == state.PhaseSetup {
		if c, ok := c.(Capital); ok {
			return chooseCapital(s, seat, c, d)
		}
		return nil, fail(ErrWrongPhase, "engine.capitals.choose-first")
	}
	switch c := c.(type) {
	case Capital:
		return nil, fail(ErrWrongPhase, "engine.capitals.chosen")
	case Reinforce:
		return reinforce(s, seat, c)
	case Capture:
		return capture(s, seat, c, d)
	case BuildPort:
		return buildPort(s, seat, c)
	case Plan:
		return plan(s, seat, c)
	case Launch:
		return launch(s, seat, d)
	case UseItem:
		return useItem(s, seat)
	case Move:
		return move(s, seat, c)
	case EndTurn:
		return endCapitalsTurn(s, seat, d), nil
	}
	return nil, fail(ErrBadCommand, "engine.capitals.not-a-command", "Command", lang.Text(c.Name()))
}

// newCapitals deals a capitals match on map m: turn order drawn at random,
// every territory neutral with its troops drawn in the options' range.
func newCapitals(setup Setup, m *state.Map) (*state.State, error) {
	o := setup.Options
	if err := checkCapitalsOptions(o); err != nil {
		return nil, err
	}
	n := len(setup.Seats)
	if m.Len() < 2*n {
		return nil, fmt.Errorf("engine: map %s has %d territories, too few for %d capitals", m.Name, m.Len(), n)
	}
	s := &state.State{
		Map:     m,
		Options: o,
		RNG:     state.RNG{Seed: setup.Seed},
		Phase:   state.PhaseSetup,
		Winner:  -1,
		Seats:   make([]state.Seat, n),
		Terr:    make([]state.Terr, m.Len()),
	}
	deal := Deal{Order: make([]int, n), Troops: make([]int, m.Len())}
	for i := range deal.Order {
		deal.Order[i] = i
	}
	shuffle(&s.RNG, deal.Order)
	for t := range deal.Troops {
		deal.Troops[t] = o.NeutralMin + uniform(&s.RNG, o.NeutralMax-o.NeutralMin+1)
		if m.Territories[t].Fortress {
			deal.Troops[t] += state.FortressTroops
		}
	}
	if setup.Deal != nil {
		if err := checkCapitalsDeal(setup.Deal, n, m.Len()); err != nil {
			return nil, err
		}
		deal = *setup.Deal
	}
	for i, p := range deal.Order {
		s.Seats[i] = state.Seat{ID: setup.Seats[p].ID, Name: setup.Seats[p].Name, Team: setup.Seats[p].Team}
	}
	for t, troops := range deal.Troops {
		s.Terr[t] = state.Terr{Owner: state.Neutral, Armies: troops}
	}
	return s, nil
}

func checkCapitalsOptions(o state.Options) error {
	switch {
	case o.NeutralMin < 0 || o.NeutralMax > state.MaxNeutral || o.NeutralMin > o.NeutralMax:
		return fmt.Errorf("engine: neutral troops %d to %d: want a range within 0 to %d", o.NeutralMin, o.NeutralMax, state.MaxNeutral)
	case o.CapitalTroops < 1 || o.CapitalTroops > state.MaxCapitalTroops:
		return fmt.Errorf("engine: %d troops on a capital: want 1 to %d", o.CapitalTroops, state.MaxCapitalTroops)
	}
	return nil
}

func checkCapitalsDeal(d *Deal, seats, territories int) error {
	if err := checkDealCommon(d, seats, territories, d.Troops, d.Owners); err != nil {
		return err
	}
	for t, n := range d.Troops {
		if n < 0 || n > state.MaxNeutral+state.FortressTroops {
			return fmt.Errorf("engine: the recorded deal puts %d troops on territory %d", n, t)
		}
	}
	return nil
}

// capitalSpot reports why territory t cannot become seat's capital, or nil.
// A capital may not border another one, unless no free territory is left
// that does not (a choice of ours: RULES.md is silent, and a capital next to
// another could be attacked in the first turn).
func capitalSpot(s *state.State, seat, t int) *Error {
	if err := checkTerritory(s, t); err != nil {
		return err
	}
	if o := s.Terr[t].Owner; o != state.Neutral {
		return fail(ErrNotNeutral, "engine.capitals.taken", "Place", land(s, t), "Player", player(s, o))
	}
	if n := borderingCapital(s, t); n >= 0 && freeSpotExists(s) {
		return fail(ErrNotAdjacent, "engine.capitals.borders-capital",
			"Place", land(s, t), "Other", land(s, n), "Player", player(s, s.Terr[n].Owner))
	}
	return nil
}

// borderingCapital returns a capital that borders t, or -1.
func borderingCapital(s *state.State, t int) int {
	for _, n := range s.Map.Territories[t].Adj {
		if s.Terr[n].Owner != state.Neutral && s.IsCapital(n) {
			return n
		}
	}
	return -1
}

// freeSpotExists reports whether some neutral territory borders no capital.
func freeSpotExists(s *state.State) bool {
	for t := range s.Terr {
		if s.Terr[t].Owner == state.Neutral && borderingCapital(s, t) < 0 {
			return true
		}
	}
	return false
}

// chooseCapital makes c.Territory the seat's capital; the next seat without
// one chooses, and once all have, the first turn begins.
func chooseCapital(s *state.State, seat int, c Capital, d *dice) ([]Event, error) {
	if err := capitalSpot(s, seat, c.Territory); err != nil {
		return nil, err
	}
	t := c.Territory
	s.Terr[t] = state.Terr{Owner: seat, Armies: s.Options.CapitalTroops, Port: s.Terr[t].Port}
	s.Seats[seat].Capitals.Capital = int16(t + 1)
	ev := []Event{CapitalChosen{Seat: seat, Territory: t, Troops: s.Options.CapitalTroops}}
	ev = append(ev, unlockHero(s, seat)...)
	return append(ev, nextChooser(s, d)...), nil
}

// nextChooser hands the choice of a capital to the next seat that has
// none, or starts the first turn.
func nextChooser(s *state.State, d *dice) []Event {
	for i := range s.Seats {
		if s.Seats[i].Alive() && s.Capital(i) < 0 {
			s.Current = i
			return nil
		}
	}
	first := 0
	if !s.Seats[first].Alive() {
		first = nextAlive(s, first)
	}
	return append([]Event{SetupDone{}}, startCapitalsTurn(s, first, d)...)
}

// startCapitalsTurn hands the turn to seat: items age and may appear, and
// the seat gets 3 troops per territory it holds to send to one of them.
func startCapitalsTurn(s *state.State, seat int, d *dice) []Event {
	if over := handTurn(s, seat); over != nil {
		return over
	}
	s.Cap = state.CapitalsTurn{}
	items := turnItems(s, d)
	s.Seats[seat].Reserve = 3 * s.Owned(seat)
	return append([]Event{TurnStarted{Seat: seat, Turn: s.Turn, Armies: s.Seats[seat].Reserve, Round: s.Round}}, items...)
}

// endCapitalsTurn passes: whatever is left of the turn is dropped, planned
// attacks included, and the next seat plays (the same one after the
// two-turns item).
func endCapitalsTurn(s *state.State, seat int, d *dice) []Event {
	again := s.Cap.Again
	s.Seats[seat].Reserve = 0
	s.Last = s.This
	s.This.Reset()
	next := nextAlive(s, seat)
	if again {
		next = seat
	}
	return startCapitalsTurn(s, next, d)
}

func reinforce(s *state.State, seat int, c Reinforce) ([]Event, error) {
	if s.Phase != state.PhaseReinforce {
		return nil, fail(ErrWrongPhase, "engine.reinforce.done")
	}
	if err := checkOwn(s, seat, c.Territory); err != nil {
		return nil, err
	}
	n := s.Seats[seat].Reserve
	s.Terr[c.Territory].Armies += n
	s.Seats[seat].Reserve = 0
	s.Phase = state.PhaseAction
	return []Event{Placed{Seat: seat, Territory: c.Territory, Armies: n}}, nil
}

// checkOwn validates a territory the seat must own.
func checkOwn(s *state.State, seat, t int) *Error {
	if err := checkTerritory(s, t); err != nil {
		return err
	}
	if o := s.Terr[t].Owner; o != seat {
		if o == state.Neutral {
			return fail(ErrNotYourTerritory, "engine.territory.neutral-not-yours", "Place", land(s, t))
		}
		return fail(ErrNotYourTerritory, "engine.territory.not-yours", "Place", land(s, t), "Player", player(s, o))
	}
	return nil
}

// checkAction validates that the seat may take its turn's action now.
// what is the action the seat is about to take, for a refusal to name
// (none for an action that planned attacks do not forbid).
func checkAction(s *state.State, what lang.Msg) *Error {
	switch s.Phase {
	case state.PhaseAction:
	case state.PhaseReinforce:
		return fail(ErrWrongPhase, "engine.reinforce.first", "Troops", troops(s.Seats[s.Current].Reserve))
	default:
		return fail(ErrWrongPhase, "engine.action.done")
	}
	if s.Cap.NPlan > 0 && !what.IsZero() {
		return fail(ErrWrongPhase, "engine.action.planned", "Action", what)
	}
	return nil
}

// reachError explains why from cannot reach to.
func reachError(s *state.State, from, to int) *Error {
	if s.Map.SeaLinked(from, to) {
		return fail(ErrNotAdjacent, "engine.capitals.by-sea", "From", land(s, from), "To", land(s, to))
	}
	return fail(ErrNotAdjacent, "engine.border.none", "From", land(s, from), "To", land(s, to))
}

func capture(s *state.State, seat int, c Capture, d *dice) ([]Event, error) {
	if err := checkAction(s, lang.M("engine.action.capture")); err != nil {
		return nil, err
	}
	if s.Cap.Ported {
		return nil, fail(ErrWrongPhase, "engine.capture.ported")
	}
	if err := checkOwn(s, seat, c.From); err != nil {
		return nil, err
	}
	if err := checkTerritory(s, c.To); err != nil {
		return nil, err
	}
	switch o := s.Terr[c.To].Owner; {
	case o == seat:
		return nil, fail(ErrOwnTerritory, "engine.capture.own", "Place", land(s, c.To))
	case o != state.Neutral:
		return nil, fail(ErrNotNeutral, "engine.capture.enemy", "Place", land(s, c.To), "Player", player(s, o))
	}
	if s.Map.Reach(c.From, c.To, s.Terr[c.From].Port) == state.NoReach {
		return nil, reachError(s, c.From, c.To)
	}
	s.Terr[c.To].Owner = seat
	s.Phase = state.PhaseMove
	s.This.Add(state.Arrow{From: int16(c.From), To: int16(c.To), Kind: state.ArrowConquest, Seat: int8(seat)})
	ev := []Event{Captured{Seat: seat, From: c.From, To: c.To, Troops: s.Terr[c.To].Armies}}
	ev = append(ev, collect(s, seat, c.To, d)...)
	return append(ev, unlockHero(s, seat)...), nil
}

func buildPort(s *state.State, seat int, c BuildPort) ([]Event, error) {
	withItem := s.Cap.Has(state.ItemAttackPort)
	switch {
	case s.Cap.Ported:
		return nil, fail(ErrWrongPhase, "engine.port.done")
	case withItem && s.Phase == state.PhaseMove && !s.Cap.Moved:
		// The attack-and-port item: a port after the attacks is fine.
	default:
		what := lang.M("engine.action.build-port")
		if withItem {
			what = lang.Msg{}
		}
		if err := checkAction(s, what); err != nil {
			return nil, err
		}
	}
	if err := checkOwn(s, seat, c.Territory); err != nil {
		return nil, err
	}
	t := c.Territory
	if s.Terr[t].Port {
		return nil, fail(ErrBadCommand, "engine.port.already", "Place", land(s, t))
	}
	if !s.Map.Territories[t].Coast {
		return nil, fail(ErrBadCommand, "engine.port.no-shore", "Place", land(s, t))
	}
	s.Terr[t].Port = true
	s.Cap.Ported = true
	if !withItem {
		s.Phase = state.PhaseMove
	}
	return []Event{PortBuilt{Seat: seat, Territory: t}}, nil
}

// plan adds an attack to the turn's plan. The whole plan must pass the
// strictly-greater rule with the new count of attacks. With fog of war
// the rule counts the defence the planner sees (PlanningView), and so do the
// refusal and the event: what it does not see, it is not told, and the
// launch applies the whole defence.
func plan(s *state.State, seat int, c Plan) ([]Event, error) {
	if err := checkAction(s, lang.Msg{}); err != nil {
		return nil, err
	}
	if err := checkOwn(s, seat, c.From); err != nil {
		return nil, err
	}
	if err := checkTerritory(s, c.To); err != nil {
		return nil, err
	}
	v := PlanningView(s, seat)
	switch o := v.Terr[c.To].Owner; {
	case v.Terr[c.To].Fog:
		// Out of sight, so reached only by the distant attack (checked
		// below): whether anyone holds it is not known until the launch.
	case o == seat:
		return nil, fail(ErrOwnTerritory, "engine.plan.own", "Place", land(s, c.To))
	case s.Sides().Teammates(seat, o):
		return nil, checkNotTeammate(s, seat, c.To)
	case o == state.Neutral:
		return nil, fail(ErrNotNeutral, "engine.plan.neutral", "Place", land(s, c.To))
	}
	for _, p := range s.Cap.Planned() {
		if int(p.From) == c.From && int(p.To) == c.To {
			return nil, fail(ErrBadCommand, "engine.plan.already", "From", land(s, c.From), "To", land(s, c.To))
		}
	}
	if int(s.Cap.NPlan) >= state.MaxPlan {
		return nil, fail(ErrBadCommand, "engine.plan.most", "Number", state.MaxPlan)
	}
	n := int(s.Cap.NPlan) + 1
	a := v.AttackTotal(c.From, c.To, n)
	if a.Reach == state.NoReach {
		if s.Cap.Has(state.ItemDistant) && s.IsCapital(c.To) {
			return nil, fail(ErrNotAdjacent, "engine.plan.distant-capital", "Place", land(s, c.To))
		}
		return nil, reachError(s, c.From, c.To)
	}
	if err := tooWeak(v, c.From, c.To, n, a.Total); err != nil {
		return nil, err
	}
	for _, p := range s.Cap.Planned() {
		from, to := int(p.From), int(p.To)
		if tot, def := v.AttackTotal(from, to, n).Total, v.DefenceTotal(to); tot <= def {
			return nil, fail(ErrTooWeak, "engine.plan.divides", "Ordinal", ordinal(n), "Number", n,
				"From", land(s, from), "To", land(s, to), "Total", power(tot), "Defence", power(def), "Seen", seenNote(v))
		}
	}
	s.Cap.Plan[s.Cap.NPlan] = state.Planned{From: int16(c.From), To: int16(c.To)}
	s.Cap.NPlan++
	return []Event{AttackPlanned{Seat: seat, From: c.From, To: c.To, Order: n, Attack: a.Total,
		Defence: v.DefenceTotal(c.To), Reach: a.Reach}}, nil
}

// PlanningView is s as seat knows it when it plans: s itself, or with fog
// of war seat's view (state.View), where a defence counts only the troops
// and the hero in sight, and a territory out of sight counts nothing (a
// choice of ours, docs/rules.md "Fog of war": the rule book is silent).
// It is never more than the defence in truth, so that a plan the whole
// defence allows, the view allows too. The bot's previews of a plan
// count on it too.
func PlanningView(s *state.State, seat int) *state.State {
	if !s.HasFog() || s.IsView() && s.Viewer == seat {
		return s
	}
	return s.View(seat)
}

// seenNote qualifies a defence counted on v, a PlanningView.
func seenNote(v *state.State) lang.Msg {
	if v.Fogged() {
		return lang.M("engine.plan.as-far-as-you-see")
	}
	return lang.Msg{}
}

// tooWeak applies the strictly-greater rule to one attack, on s as the
// planner sees it (PlanningView).
func tooWeak(s *state.State, from, to, n, total int) *Error {
	def := s.DefenceTotal(to)
	if total > def {
		return nil
	}
	var why lang.Msg
	if n > 1 && !s.Cap.Has(state.ItemFullPower) {
		why = lang.M("engine.plan.divided", "Number", n)
	}
	return fail(ErrTooWeak, "engine.plan.too-weak", "From", land(s, from), "Total", power(total),
		"To", land(s, to), "Defence", power(def), "Seen", seenNote(s), "Why", why)
}

// LuckMin and LuckSpan give the luck factor of an attack in thousandths:
// uniform in [LuckMin, LuckMin+LuckSpan), that is 0.800 to 1.200.
const (
	LuckMin  = 800
	LuckSpan = 401
)

// Damage returns the troops an attack kills: floor((attack - defence) ×
// luck), with the totals in state.PowerUnits and luck in thousandths.
func Damage(attack, defence, luck int) int {
	if attack <= defence {
		return 0
	}
	return (attack - defence) * luck / (state.PowerUnit * 1000)
}

// launch runs the plan in order; an attack that is no longer valid when
// its turn comes is skipped: with fog of war, one that does not beat the
// whole defence too (it was planned against the defence in sight).
func launch(s *state.State, seat int, d *dice) ([]Event, error) {
	if err := checkAction(s, lang.Msg{}); err != nil {
		return nil, err
	}
	if s.Cap.NPlan == 0 {
		return nil, fail(ErrWrongPhase, "engine.launch.none")
	}
	plans := s.Cap.Planned()
	n := len(plans)
	fog := s.HasFog()
	s.Cap.NPlan = 0
	s.Phase = state.PhaseMove
	var ev []Event
	for k, p := range plans {
		from, to, order := int(p.From), int(p.To), k+1
		skip := func(why lang.Msg) {
			ev = append(ev, AttackSkipped{Seat: seat, From: from, To: to, Order: order, Why: why})
		}
		def := s.Terr[to].Owner
		switch {
		case s.Terr[from].Owner != seat:
			skip(lang.M("engine.skip.not-yours", "From", land(s, from)))
			continue
		case def == seat:
			skip(lang.M("engine.skip.yours", "To", land(s, to)))
			continue
		case s.Sides().Teammates(seat, def):
			// Planned on an enemy that a teammate has taken since: only
			// with the two-turns item, a turn of another seat in between
			// being impossible, so this guards the rule, not a case.
			skip(lang.M("engine.skip.teammate", "To", land(s, to), "Mate", player(s, def)))
			continue
		case def == state.Neutral && fog:
			// Planned into the fog with the distant attack, or left by
			// a surrender since.
			skip(lang.M("engine.skip.neutral-fog", "To", land(s, to)))
			continue
		case def == state.Neutral:
			skip(lang.M("engine.skip.neutral", "To", land(s, to)))
			continue
		}
		a := s.AttackTotal(from, to, n)
		dt := s.DefenceTotal(to)
		switch {
		case a.Reach != state.NoReach && a.Total > dt:
		case fog:
			// Planned against the defence in sight: the whole of it is
			// what a strike would have shown (Struck.Defence).
			skip(lang.M("engine.skip.weak-fog", "From", land(s, from), "Total", power(a.Total), "To", land(s, to), "Defence", power(dt)))
			continue
		default:
			skip(lang.M("engine.skip.weak", "From", land(s, from), "Total", power(a.Total), "To", land(s, to), "Defence", power(dt)))
			continue
		}
		luck := LuckMin + d.intn(LuckSpan)
		dmg := Damage(a.Total, dt, luck)
		left := max(0, s.Terr[to].Armies-dmg)
		s.Terr[to].Armies = left
		ev = append(ev, Struck{Seat: seat, Defender: def, From: from, To: to, Order: order,
			Attack: a.Total, Defence: dt, Reach: a.Reach, Luck: luck, Damage: dmg, Left: left})
		arrow := state.Arrow{From: int16(from), To: int16(to), Kind: state.ArrowAttack, Seat: int8(seat), Count: int32(order)}
		if left > 0 {
			s.This.Add(arrow)
			continue
		}
		arrow.Kind = state.ArrowConquest
		s.This.Add(arrow)
		ev = append(ev, fall(s, seat, def, from, to)...)
		if s.Phase == state.PhaseOver {
			return ev, nil
		}
	}
	return ev, nil
}

// fall hands territory to, at 0 troops, from def to seat: the hero on it
// dies, and a capital brings every territory of its owner with it.
func fall(s *state.State, seat, def, from, to int) []Event {
	s.Terr[to].Owner = seat
	ev := []Event{Conquered{Seat: seat, Defender: def, From: from, To: to}}
	if s.Hero(def) == to {
		ev = append(ev, heroDies(s, def, to)...)
	}
	if s.Capital(def) == to {
		taken := 0
		for t := range s.Terr {
			if s.Terr[t].Owner == def {
				s.Terr[t].Owner = seat
				taken++
			}
		}
		ev = append(ev, CapitalTaken{Seat: seat, Defender: def, Capital: to, Territories: taken + 1})
		eliminate(s, def, state.Eliminated)
		ev = append(ev, Eliminated{Seat: def, By: seat})
	}
	ev = append(ev, unlockHero(s, seat)...)
	return append(ev, capitalsVictory(s, seat)...)
}

// eliminate takes a seat out: its capital, hero and item go with it.
func eliminate(s *state.State, seat int, why state.Status) {
	st := &s.Seats[seat]
	st.Status = why
	st.Reserve = 0
	st.Capitals.Capital, st.Capitals.Hero, st.Capitals.Item = 0, 0, state.NoItem
}

// capitalsVictory ends the match when one seat (one team) is left with a
// capital; seat, acting, wins for its team if it is still playing.
func capitalsVictory(s *state.State, seat int) []Event {
	w := sideWinner(s, seat)
	if w < 0 {
		return nil
	}
	s.Cap = state.CapitalsTurn{}
	return []Event{won(s, w)}
}

// unlockHero gives seat its hero, on its capital, the first time it holds
// territories of 4 terrains.
func unlockHero(s *state.State, seat int) []Event {
	c := &s.Seats[seat].Capitals
	if c.HeroWon || c.Capital == 0 || s.Terrains(seat) < state.HeroTerrains {
		return nil
	}
	c.HeroWon = true
	c.Hero = c.Capital
	return []Event{HeroUnlocked{Seat: seat, Territory: int(c.Capital) - 1}}
}

// heroDies kills seat's hero, which stood on t: it never comes back, and
// every territory of the seat loses half its troops (rounded down).
func heroDies(s *state.State, seat, t int) []Event {
	s.Seats[seat].Capitals.Hero = 0
	for i := range s.Terr {
		if s.Terr[i].Owner == seat {
			s.Terr[i].Armies /= 2
		}
	}
	return []Event{HeroDied{Seat: seat, Territory: t}}
}

func useItem(s *state.State, seat int) ([]Event, error) {
	it := s.Seats[seat].Capitals.Item
	if !it.Kept() {
		return nil, fail(ErrNoItem, "engine.item.none")
	}
	s.Seats[seat].Capitals.Item = state.NoItem
	s.Cap.Active |= 1 << it
	if it == state.ItemTwoTurns {
		s.Cap.Again = true
	}
	return []Event{ItemUsed{Seat: seat, Kind: it}}, nil
}

func move(s *state.State, seat int, c Move) ([]Event, error) {
	switch {
	case s.Phase == state.PhaseMove && s.Cap.Moved:
		return nil, fail(ErrAlreadyFortified, "engine.move.done")
	case s.Phase == state.PhaseMove:
	default:
		if err := checkAction(s, lang.M("engine.action.move")); err != nil {
			return nil, err
		}
	}
	if err := checkOwn(s, seat, c.From); err != nil {
		return nil, err
	}
	if err := checkFriendly(s, seat, c.To); err != nil {
		return nil, err
	}
	if c.Hero && s.Sides().Teammates(seat, s.Terr[c.To].Owner) {
		return nil, fail(ErrBadCommand, "engine.hero.own-only", "Player", player(s, s.Terr[c.To].Owner), "Place", land(s, c.To))
	}
	if c.From == c.To {
		return nil, fail(ErrBadCommand, "engine.move.same-territory")
	}
	if s.Map.Reach(c.From, c.To, s.Terr[c.From].Port) == state.NoReach {
		return nil, reachError(s, c.From, c.To)
	}
	if c.Quarters < 1 || c.Quarters > 4 {
		return nil, fail(ErrBadArmies, "engine.move.quarters", "Number", c.Quarters)
	}
	if c.Hero && s.Hero(seat) != c.From {
		if s.Hero(seat) < 0 {
			return nil, fail(ErrBadCommand, "engine.hero.none")
		}
		return nil, fail(ErrBadCommand, "engine.hero.elsewhere", "Hero", land(s, s.Hero(seat)), "From", land(s, c.From))
	}
	n := state.MoveCount(s.Terr[c.From].Armies, c.Quarters)
	if n == 0 && !c.Hero {
		return nil, fail(ErrNotEnoughArmies, "engine.move.none",
			"From", land(s, c.From), "Troops", troops(s.Terr[c.From].Armies), "Share", quarters(c.Quarters))
	}
	s.Terr[c.From].Armies -= n
	s.Terr[c.To].Armies += n
	if c.Hero {
		s.Seats[seat].Capitals.Hero = int16(c.To + 1)
	}
	cs := &s.Seats[seat].Capitals
	cs.MoveQuarters, cs.MoveHero = uint8(c.Quarters), c.Hero
	s.Cap.Moved = true
	s.Phase = state.PhaseMove
	s.This.Add(state.Arrow{From: int16(c.From), To: int16(c.To), Kind: state.ArrowFortify, Seat: int8(seat), Count: int32(n)})
	return []Event{Moved{Seat: seat, From: c.From, To: c.To, Troops: n, Hero: c.Hero}}, nil
}

// abandon takes the seat out: its territories turn neutral with their
// troops (ports stay), its hero and item go.
func abandon(s *state.State, seat int, d *dice) []Event {
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			s.Terr[t].Owner = state.Neutral
		}
	}
	eliminate(s, seat, state.Surrendered)
	ev := []Event{Surrendered{Seat: seat}}
	if won := capitalsVictory(s, -1); won != nil {
		return append(ev, won...)
	}
	switch {
	case s.Phase == state.PhaseSetup:
		if seat == s.Current {
			ev = append(ev, nextChooser(s, d)...)
		}
	case seat == s.Current:
		s.Last = s.This
		s.This.Reset()
		ev = append(ev, startCapitalsTurn(s, nextAlive(s, seat), d)...)
	}
	return ev
}
