package server

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// t0 is when every test starts.
var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// levels are the computer levels the tests' bot offers.
var levels = []string{"random", "easy", "normal", "hard"}

// The store's methods Servers use are the fake's.
var _ Store = (*faketest.Store)(nil)

// env is Servers over a store in memory, with a clock the test sets.
type env struct {
	t     *testing.T
	store *faketest.Store
	sv    *Servers
	ms    *hosted.Matches
	now   time.Time
	specs []command.Spec
}

func newEnv(t *testing.T, scope string) *env {
	e := &env{t: t, store: faketest.NewStore(), now: t0, specs: command.Specs(levels)}
	log := slog.New(slog.DiscardHandler)
	clock := func() time.Time { return e.now }
	claim := func() storage.Claim { return storage.Claim{Holder: "test", Now: e.now, Until: e.now.Add(time.Minute)} }
	e.ms = hosted.NewMatches(e.store, people.New(e.store, clock, log), clock, log, claim)
	e.sv = New(Config{Store: e.store, Matches: e.ms, HasPalette: func(n string) bool { return n == "standard" || n == "colorblind" },
		Levels: levels, LobbyTTL: 7 * 24 * time.Hour, Scope: scope, Now: clock, Log: log})
	return e
}

// handlerOf is the Servers' answer to a command, by its full name.
func (e *env) handlerOf(name string) func(context.Context, chat.Request, command.Args) (chat.Message, error) {
	return map[string]func(context.Context, chat.Request, command.Args) (chat.Message, error){
		"admin show":       e.sv.AdminShow,
		"admin defaults":   e.sv.AdminDefaults,
		"admin limits":     e.sv.AdminLimits,
		"admin reset":      e.sv.AdminReset,
		"admin map add":    e.sv.AdminMapAdd,
		"admin map list":   e.sv.AdminMapList,
		"admin map show":   e.sv.AdminMapShow,
		"admin map rename": e.sv.AdminMapRename,
		"admin map remove": e.sv.AdminMapRemove,
		"me stats":         e.sv.Stats,
		"me games":         e.sv.Games,
	}[name]
}

// answer answers req, its options parsed as the bot parses them; the
// grammar's refusal is returned as the bot's would be.
func (e *env) answer(req chat.Request) (chat.Message, error) {
	e.t.Helper()
	spec, ok := command.Find(e.specs, req.Command)
	if !ok {
		e.t.Fatalf("no command %q", req.Command)
	}
	a, err := command.Parse(spec, req.Options)
	if err != nil {
		return chat.Message{}, chat.Refuse("%s", err.Error())
	}
	return e.handlerOf(req.Command)(context.Background(), req, a)
}

// do answers req privately and returns the answer's text (its embed's
// too), or the refusal's words in English; refused reports which.
func (e *env) do(req chat.Request) (text string, refused bool) {
	e.t.Helper()
	m, err := e.answer(req)
	if r, ok := errors.AsType[*chat.Refusal](err); ok {
		return r.Error(), true
	}
	if err != nil {
		e.t.Fatalf("/risk %s: %v", req.Command, err)
	}
	if !m.Private {
		e.t.Errorf("/risk %s answered in public: %q", req.Command, m.Text)
	}
	if m.Embed != nil {
		return strings.TrimPrefix(m.Text+"\n"+m.Embed.Text(), "\n"), false
	}
	return m.Text, false
}

// seat names a seat of a test match: a person "Ann" is "test:ann"; a
// computer is "bot:N" of a level ("bot:2 easy").
func seat(name string) hosted.Seat {
	if id, level, ok := strings.Cut(name, " "); ok && strings.HasPrefix(id, "bot:") {
		return hosted.Seat{ID: id, Name: "Bot " + id[4:], Level: level}
	}
	return hosted.Seat{ID: "test:" + strings.ToLower(name), Name: name}
}

// open stores a match of server started in channel, hosted by the first
// of seats, its deadline d from now.
func (e *env) open(server, channel string, d time.Duration, seats ...string) *hosted.Match {
	e.t.Helper()
	ctx := context.Background()
	meta := hosted.Meta{Settings: hosted.DefaultSettings(), Server: server}
	setup := engine.Setup{Options: meta.Settings.Options, Seed: uint64(len(channel))}
	for _, name := range seats {
		s := seat(name)
		meta.Seats = append(meta.Seats, s)
		setup.Seats = append(setup.Seats, engine.SeatInfo{ID: s.ID, Name: s.Name})
	}
	meta.Host = meta.Seats[0].ID
	row, err := e.store.Create(ctx, channel, meta.Encode(), e.now)
	if err != nil {
		e.t.Fatal(err)
	}
	timers := storage.Timers{Deadline: e.now.Add(d)}
	if _, err := e.store.Save(ctx, row.ID, row.Version, storage.Change{Start: &setup, Timers: &timers}, e.now); err != nil {
		e.t.Fatal(err)
	}
	m, err := e.ms.ByID(ctx, row.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

// play has seat of match m play commands, saved.
func (e *env) play(m *hosted.Match, seat int, cmds ...engine.Command) {
	e.t.Helper()
	var entries []engine.Entry
	for _, c := range cmds {
		entry, _, err := m.Game.Apply(seat, c)
		if err != nil {
			e.t.Fatalf("seat %d: %#v: %v", seat, c, err)
		}
		entries = append(entries, entry)
	}
	if err := e.ms.Save(context.Background(), m, storage.Change{Entries: entries, Game: m.Game}); err != nil {
		e.t.Fatal(err)
	}
}

// seatOf is the engine seat of a person in m.
func seatOf(m *hosted.Match, name string) int { return m.Game.State.SeatByID(seat(name).ID) }

// abandon is the change that ends a match without a winner.
var abandon = storage.Change{Status: storage.Abandoned}
