package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Button IDs carry everything a click needs, so they keep working after a
// restart: "r|MATCH|VERSION|ACTION|ARGS...". A click on a button made at an
// older version of the match is refused politely, except for join (any
// time in the lobby) and autoplace, which stays good for the placement it
// was posted for (its argument is the turn, 0 for the initial placement)
// however many commands come between.
const buttonPrefix = "r"

func (b *Bot) buttonID(m *match, action string, args ...int) string {
	parts := []string{buttonPrefix, strconv.FormatInt(m.ID, 10), strconv.FormatInt(m.Version, 10), action}
	for _, a := range args {
		parts = append(parts, strconv.Itoa(a))
	}
	return strings.Join(parts, "|")
}

func lobbyButton(id int64, action string) string {
	return strings.Join([]string{buttonPrefix, strconv.FormatInt(id, 10), "0", action}, "|")
}

type buttonID struct {
	match   int64
	version int64
	action  string
	args    []int
}

func parseButton(id string) (buttonID, error) {
	parts := strings.Split(id, "|")
	if len(parts) < 4 || parts[0] != buttonPrefix || len(id) > 100 {
		return buttonID{}, fmt.Errorf("bot: not a button of ours: %q", id)
	}
	var bt buttonID
	var err error
	if bt.match, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return bt, fmt.Errorf("bot: bad button %q", id)
	}
	if bt.version, err = strconv.ParseInt(parts[2], 10, 64); err != nil {
		return bt, fmt.Errorf("bot: bad button %q", id)
	}
	bt.action = parts[3]
	for _, p := range parts[4:] {
		n, err := strconv.Atoi(p)
		if err != nil {
			return bt, fmt.Errorf("bot: bad button %q", id)
		}
		bt.args = append(bt.args, n)
	}
	return bt, nil
}

// HandleClick answers a button press.
func (b *Bot) HandleClick(ctx context.Context, c chat.Click, r chat.Replier) error {
	res, err := b.click(ctx, c)
	name := "click"
	if bt, perr := parseButton(c.ID); perr == nil {
		name = "click " + bt.action
	}
	b.cfg.Meter.Command(name, resultOf(err))
	return b.finish(ctx, c.Channel, c.User, "click "+c.ID, c.BotLacks, res, err, r)
}

// summary words a click for its author.
func clickSummary(c chat.Click) string {
	if c.Label == "" {
		return "a button"
	}
	return "the “" + c.Label + "” button"
}

func (b *Bot) click(ctx context.Context, c chat.Click) (result, error) {
	bt, err := parseButton(c.ID)
	if err != nil {
		return result{}, chat.Refuse("That button is not one of mine.")
	}
	unlock := b.lock(c.Channel)
	defer unlock()
	var rec *record
	if c.Key != "" {
		if res, ok, err := b.repeated(ctx, c.Channel, c.User, c.Key); ok || err != nil {
			return res, err
		}
		rec = &record{req: storage.Request{Key: c.Key, User: c.User.ID, Summary: clickSummary(c)}}
	}
	if bt.action == "abandon" || bt.action == "keep" {
		// The match may be damaged: it is not loaded.
		return b.clickAbandon(ctx, c, bt)
	}
	m, err := b.loadID(ctx, bt.match)
	if err != nil {
		return result{}, err
	}
	m.rec = rec
	res, err := b.clickOn(ctx, c, bt, m)
	if rec != nil && rec.saved {
		res.answers = c.Key
	}
	return res, err
}

// clickOn applies a click on a button of match m, under its channel's lock.
func (b *Bot) clickOn(ctx context.Context, c chat.Click, bt buttonID, m *match) (result, error) {
	if m.Channel != c.Channel {
		return result{}, chat.Refuse("That button belongs to a match in another channel.")
	}
	if bt.action == "history" {
		// Reading only: good at any version, and once the match is over.
		page := 0
		if len(bt.args) > 0 {
			page = max(0, bt.args[0])
		}
		return b.history(ctx, m, -1, page)
	}
	if m.Status != storage.Lobby && m.Status != storage.Active {
		return result{}, chat.Refuse("That match is over.")
	}
	switch bt.action {
	case "join":
		if m.Status != storage.Lobby {
			return result{}, chat.Refuse("The match has already started; you can watch with /risk status.")
		}
		res, err := b.join(ctx, m, c.User)
		// The lobby clicked shows the new seat.
		res.reply.Replace = err == nil
		return res, err
	case "autoplace":
		seat, err := m.seatOf(c.User)
		if err != nil {
			return result{}, err
		}
		if err := autoplaceApplies(m.Game.State, bt.args); err != nil {
			return result{}, err
		}
		return b.act(ctx, m, seat, b.replyAutoplaced(m, seat), engine.AutoPlace{})
	}
	switch bt.action {
	case "goon":
		return result{reply: chat.Private("You play on.")}, nil
	case "keepseat":
		return result{reply: chat.Private("Nobody was removed.")}, nil
	case "kick":
		if len(bt.args) != 2 || bt.args[0] < 0 || bt.args[0] >= len(m.meta.Seats) || b.cfg.Now().Unix() > int64(bt.args[1]) {
			return result{}, chat.Refuse("That question has expired: run /risk kick again if you still mean it.")
		}
		if !c.Admin {
			if err := hostOnly(m, c.User, "remove players"); err != nil {
				return result{}, err
			}
		}
		if m.Status != storage.Active {
			return result{}, chat.Refuse("The match is not under way any more.")
		}
		if m.meta.Seats[bt.args[0]].ID == c.User.ID {
			return result{}, chat.Refuse("You cannot remove yourself; /risk surrender leaves.")
		}
		return b.kickSeat(ctx, m, bt.args[0])
	case "surrender":
		// The match may have moved on since the question: it holds until
		// it expires, for the seat it was asked of.
		seat, err := m.seatOf(c.User)
		if err != nil {
			return result{}, err
		}
		if len(bt.args) != 2 || bt.args[0] != seat || b.cfg.Now().Unix() > int64(bt.args[1]) {
			return result{}, chat.Refuse("That question has expired: run /risk surrender again if you still mean it.")
		}
		return b.act(ctx, m, seat, nil, engine.Surrender{})
	}
	if bt.version != m.Version {
		return result{}, chat.Refuse("That button is from an earlier moment of the match and no longer applies. Use /risk status to see where things are.")
	}
	seat, err := m.seatOf(c.User)
	if err != nil {
		return result{}, err
	}
	if s := m.Game.State; s.Current != seat {
		return result{}, chat.Refuse("Those buttons are for %s.", s.Seats[s.Current].Name)
	}
	arg := func(i int) int {
		if i < len(bt.args) {
			return bt.args[i]
		}
		return -1
	}
	s := m.Game.State
	switch bt.action {
	case "attack":
		from, to := arg(0), arg(1)
		if from < 0 || from >= len(s.Terr) || to < 0 || to >= len(s.Terr) {
			return result{}, chat.Refuse("That button is broken.")
		}
		dice := max(1, engine.MaxDice(s.Terr[from].Armies))
		return b.act(ctx, m, seat, func(out outcome) chat.Message { return b.attackReply(m, seat, from, to, out) },
			engine.Attack{From: from, To: to, Dice: dice})
	case "blitz":
		from, to := arg(0), arg(1)
		return b.act(ctx, m, seat, func(out outcome) chat.Message { return b.attackReply(m, seat, from, to, out) },
			engine.Blitz{From: from, To: to, Keep: 1})
	case "occupy":
		return b.occupy(ctx, m, seat, arg(0))
	case "end":
		return b.endTurn(ctx, m, seat, "")
	case "launch":
		return b.act(ctx, m, seat, b.replyNext(m, seat), engine.Launch{})
	case "use":
		it := s.Seats[seat].Capitals.Item
		return b.act(ctx, m, seat, func(out outcome) chat.Message {
			return chat.Message{Text: fitLines(out.lines, 1600) + "\n" + itemEffect(it) + b.nextStep(m, seat)}
		}, engine.UseItem{})
	case "move":
		return b.move(ctx, m, seat, engine.Move{From: arg(0), To: arg(1), Quarters: arg(2), Hero: arg(3) == 1})
	case "stop":
		return result{reply: chat.Private("Attacks stopped. Move armies with /risk fortify, or end your turn with /risk end.")}, nil
	}
	return result{}, chat.Refuse("That button does nothing any more.")
}

// autoplaceApplies refuses a "Place automatically" button posted for
// another placement than the one under way: the initial placement's button
// must not place a later turn's reinforcements. Buttons from before the
// turn was part of the ID (no argument) were only ever posted for the
// initial placement.
func autoplaceApplies(s *state.State, args []int) error {
	turn := 0
	if len(args) > 0 {
		turn = args[0]
	}
	setup := s.Phase == state.PhaseSetup
	if (turn == 0) == setup && (setup || (s.Turn == turn && s.Phase == state.PhaseReinforce)) {
		return nil
	}
	posted := "the initial placement"
	if turn > 0 {
		posted = fmt.Sprintf("turn %d", turn)
	}
	return chat.Refuse("That button was for %s and no longer applies. Use /risk status to see where things are.", posted)
}
