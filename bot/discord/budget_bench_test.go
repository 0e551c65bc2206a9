package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	img "image"
	"image/png"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/console"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
)

// BenchmarkTurnBudget is the whole turn's budget (issue 48): where the
// time of a turn goes, stage by stage, each beside its floor, for a
// classic and a capitals turn played through Discord (the fake, with the
// real discordgo) and through the web page. It ends by logging the table
// of docs/performance.md ("A turn's budget"), shown with -v:
//
//	go test -run '^$' -bench TurnBudget -benchtime 20x -v ./bot/discord
//
// The turn is a real one: a match of four people (each command chosen by
// a normal computer player and typed as a person types it) is played
// through the fake Discord until a turn from the third round on places,
// attacks at least twice, conquers and moves (playBudgetTurn). That turn,
// from the match as it began, is played again and again on copies of the
// match, and its parts are measured each on its own, with the real code,
// each loop timing the stage and its floor (pair.both):
//
//   - parse: the interactions as the gateway hands them over, decoded by
//     discordgo, made a request (requestOf), their subcommand found and
//     options parsed (bot/command), their territories looked up; the page:
//     the POSTed JSON decoded and the line parsed (console.ParseLine, as the
//     page does), then the same. Floor: the same JSON decoded into a struct
//     of the options alone / the line split into fields.
//   - check: the rules' word on each command at its moment (engine.Legal,
//     and the command among them: engine.Covers). The engine checks a
//     command inline as it applies it, so this is not in a command's path
//     (nor in the table's sum). Floor: a map lookup of each territory the
//     command names.
//   - engine: the turn's commands applied to the game (Game.Apply). Floor:
//     one clone of the state.
//   - store: the saves of the turn, each command's with its news, as the
//     bot made them (recorded), on a copy of the match in the same SQLite
//     file (and PostgreSQL, with RISK_TEST_POSTGRES). Floor: as many
//     durable commits of a setting in the same store.
//   - render: the map of the turn's end, drawn over the map of its start
//     and encoded as PNG (render.Render; drawing and encoding are one pass
//     of the renderer: rows are encoded by bands reusing the bands that did
//     not change). Floor: image/png at BestSpeed encoding the same paletted
//     frame from scratch.
//   - delivery: on Discord, each command's answer (deferred at once, then
//     edited in, as the adapter does), the edits of the turn's living
//     message and the turn's end posted with its map, through the adapter
//     to the fake, the map drawn already (the answers and posts of the
//     turn, recorded, sent again by a stub core); on the page, the new
//     state and map.png asked for by GET (the map drawn already). Floor:
//     one round trip of a one-character message to the fake for each
//     request the turn made / a static file of the same server for each
//     GET.
//   - whole: the turn end to end: the interactions handed to the adapter
//     with the real bot behind it, or the lines POSTed to /web/command and
//     then the state and map.png asked for; the measured stages happen in
//     it once each, with what no stage names (the wording, loading the
//     match from the bot's cache). It reports what it did in the path:
//     saves, maps drawn, requests to the fake, the store's other calls
//     (the table's "store, the rest of the path": the requests recorded and
//     marked answered, settings, versions), and the time in each.
//
// µs/turn and floor-µs/turn are medians over the loops; x-floor is their
// ratio.
func BenchmarkTurnBudget(b *testing.B) {
	r := render.New(render.Options{})
	res := &budgetResults{v: map[string]float64{}, counts: map[string]string{}, load: loadAverage()}
	for _, rules := range []string{"classic", "capitals"} {
		b.Run(rules, func(b *testing.B) {
			bb := newBudget(b, r, rules)
			res.turn(rules, bb.bt)
			bb.run(b, res)
		})
	}
	b.Log("\n" + res.table())
}

// budget is the turn measured with the two bots that play it.
type budget struct {
	bt *budgetTurn
	d  *discordSide
	p  *pageSide
	r  *render.Renderer
	// states are the states before each entry of the turn.
	states []*state.State
	// sink keeps results the compiler must not drop.
	sink any
}

// newBudget plays the match to the turn measured and plays that turn
// again through the adapter and through the page, checking that each
// plays the same turn (the same entries, dice included).
func newBudget(b *testing.B, r *render.Renderer, rules string) *budget {
	d := newDiscordSide(b, r)
	bt := playBudgetTurn(b, d, rules)
	bb := &budget{bt: bt, d: d, r: r}

	ch := d.copyOf(bt.start)
	l := d.match(ch)
	bt.game = l.Game.Clone()
	d.http.reset()
	for _, st := range bt.steps {
		d.do(ch, st)
	}
	// The copy is played as the match was: the same requests to Discord
	// (the turn's living message edited, not posted anew).
	if d.http.n != bt.requests {
		b.Fatalf("the copy took %d requests to the fake Discord, the match %d", d.http.n, bt.requests)
	}
	x, err := d.db.Export(d.ctx, l.ID)
	if err != nil {
		b.Fatal(err)
	}
	sameEntries(b, "the adapter", bt.entries, x.Record.Log[len(bt.start.Record.Log):])

	g := bt.game.Clone()
	for _, e := range bt.entries {
		bb.states = append(bb.states, g.State.Clone())
		if !engine.Covers(engine.Legal(g.State, e.Seat), e.Cmd) {
			b.Fatalf("the rules do not list %#v", e.Cmd)
		}
		if _, _, err := g.Apply(e.Seat, e.Cmd); err != nil {
			b.Fatal(err)
		}
	}

	p := newPageSide(b, r)
	bb.p = p
	name, pl := p.copyOf(bt.start)
	p.db.reset(true)
	for _, st := range bt.steps {
		p.command(st.who.name, p.body(name, st))
	}
	p.bot.Wait()
	bt.pageSaves = p.db.saves
	p.db.reset(false)
	x, err = p.db.Export(p.ctx, pl.ID)
	if err != nil {
		b.Fatal(err)
	}
	sameEntries(b, "the page", bt.entries, x.Record.Log[len(bt.start.Record.Log):])
	if len(bt.maps) == 0 {
		b.Fatal(errNoMap)
	}
	b.Logf("the turn: %s", bt)
	return bb
}

// run measures the turn's stages, one sub-benchmark each.
func (bb *budget) run(b *testing.B, res *budgetResults) {
	rules := bb.bt.rules
	b.Run("parse/discord", func(b *testing.B) { res.put(b, rules, "parse", "discord", bb.parseDiscord(b)) })
	b.Run("parse/page", func(b *testing.B) { res.put(b, rules, "parse", "page", bb.parsePage(b)) })
	b.Run("check", func(b *testing.B) { res.put(b, rules, "check", "", bb.check(b)) })
	b.Run("engine", func(b *testing.B) { res.put(b, rules, "engine", "", bb.engine(b)) })
	b.Run("store/discord", func(b *testing.B) {
		res.putSaves(b, rules, "store", "discord", bb.store(b, bb.d.db.DB, bb.bt.start, bb.bt.discordSaves), len(bb.bt.discordSaves))
	})
	b.Run("store/page", func(b *testing.B) {
		res.putSaves(b, rules, "store", "page", bb.store(b, bb.p.db.DB, pageExport(b, bb.bt.start), bb.bt.pageSaves), len(bb.bt.pageSaves))
	})
	b.Run("store-pg/discord", func(b *testing.B) {
		db, err := postgres.Open(context.Background(), pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		res.putSaves(b, rules, "store-pg", "discord", bb.store(b, db, bb.bt.start, bb.bt.discordSaves), len(bb.bt.discordSaves))
	})
	b.Run("render", func(b *testing.B) { res.put(b, rules, "render", "", bb.render(b)) })
	b.Run("delivery/discord", func(b *testing.B) { res.put(b, rules, "delivery", "discord", bb.deliverDiscord(b)) })
	b.Run("delivery/page", func(b *testing.B) { res.put(b, rules, "delivery", "page", bb.deliverPage(b)) })
	b.Run("whole/discord", func(b *testing.B) {
		p, calls := bb.wholeDiscord(b)
		res.put(b, rules, "whole", "discord", p)
		res.putRest(rules, "discord", calls)
	})
	b.Run("whole/page", func(b *testing.B) {
		p, calls := bb.wholePage(b)
		res.put(b, rules, "whole", "page", p)
		res.putRest(rules, "page", calls)
	})
}

// pair is a stage's time and its floor's, one sample of each a loop.
type pair struct{ stage, floor []time.Duration }

// time times f into the stage's samples (a stage without a floor).
func (p *pair) time(f func()) {
	t := time.Now()
	f()
	p.stage = append(p.stage, time.Since(t))
}

// both times the stage and its floor, one after the other, the floor
// first every other time: whatever one leaves to the other (a checkpoint
// of the database, garbage) falls on both alike.
func (p *pair) both(stage, floor func()) {
	at := func(f func(), into *[]time.Duration) {
		t := time.Now()
		f()
		*into = append(*into, time.Since(t))
	}
	if len(p.stage)%2 == 0 {
		at(stage, &p.stage)
		at(floor, &p.floor)
	} else {
		at(floor, &p.floor)
		at(stage, &p.stage)
	}
}

func medianOf(v []time.Duration) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return float64(v[len(v)/2].Nanoseconds()) / 1e3
}

func (bb *budget) parseDiscord(b *testing.B) pair {
	specs := bb.d.bot.Specs()
	s := bb.bt.game.State
	var raws [][]byte
	ch := bb.d.e.fake.Snowflake()
	for _, st := range bb.bt.steps {
		raws = append(raws, bb.d.interaction(ch, st))
	}
	var p pair
	for b.Loop() {
		p.both(func() {
			for _, raw := range raws {
				var i discordgo.Interaction
				if err := json.Unmarshal(raw, &i); err != nil {
					b.Fatal(err)
				}
				req, err := requestOf(&i)
				if err != nil {
					b.Fatal(err)
				}
				bb.sink = parseRequest(b, specs, s, req.Command, req.Options)
			}
		}, func() {
			for _, raw := range raws {
				var i struct {
					Data struct {
						Name    string `json:"name"`
						Options []struct {
							Name    string `json:"name"`
							Options []struct {
								Name  string          `json:"name"`
								Value json.RawMessage `json:"value"`
							} `json:"options"`
						} `json:"options"`
					} `json:"data"`
				}
				if err := json.Unmarshal(raw, &i); err != nil {
					b.Fatal(err)
				}
				bb.sink = i.Data.Name
			}
		})
	}
	return p
}

// parseRequest parses a command's options as the bot does, and looks up
// the territories they name as its rules do.
func parseRequest(b *testing.B, specs []command.Spec, s *state.State, cmd string, opts map[string]string) int {
	spec, ok := command.Find(specs, command.Alias(cmd))
	if !ok {
		b.Fatalf("no command %q", cmd)
	}
	a, err := command.Parse(spec, opts)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, o := range []string{"territory", "from", "to"} {
		if v, ok := a.Str[o]; ok {
			t, err := command.Territory(s, o, v)
			if err != nil {
				b.Fatal(err)
			}
			n += t
		}
	}
	return n
}

func (bb *budget) parsePage(b *testing.B) pair {
	specs := bb.p.bot.Specs()
	s := bb.bt.game.State
	var bodies [][]byte
	for _, st := range bb.bt.steps {
		bodies = append(bodies, bb.p.body("main", st))
	}
	type in struct {
		Channel string `json:"channel"`
		As      string `json:"as"`
		Line    string `json:"line"`
	}
	var p pair
	for b.Loop() {
		p.both(func() {
			for _, body := range bodies {
				var v in
				if err := json.Unmarshal(body, &v); err != nil {
					b.Fatal(err)
				}
				l, err := console.ParseLine(strings.TrimSpace(v.Line), "web")
				if err != nil {
					b.Fatal(err)
				}
				bb.sink = parseRequest(b, specs, s, l.Command, l.Options)
			}
		}, func() {
			for _, body := range bodies {
				var v in
				if err := json.Unmarshal(body, &v); err != nil {
					b.Fatal(err)
				}
				bb.sink = strings.Fields(v.Line)
			}
		})
	}
	return p
}

func (bb *budget) check(b *testing.B) pair {
	// The floor looks up each territory a command names by its name.
	byName := map[string]int{}
	m := bb.bt.game.State.Map
	for t := range m.Territories {
		byName[m.Territories[t].Name] = t
	}
	var names [][]string
	for _, e := range bb.bt.entries {
		var ns []string
		for _, t := range engine.Territories(e.Cmd) {
			ns = append(ns, m.Territories[t].Name)
		}
		names = append(names, ns)
	}
	var p pair
	for b.Loop() {
		p.both(func() {
			for k, e := range bb.bt.entries {
				if !engine.Covers(engine.Legal(bb.states[k], e.Seat), e.Cmd) {
					b.Fatal("refused")
				}
			}
		}, func() {
			n := 0
			for _, ns := range names {
				for _, name := range ns {
					n += byName[name]
				}
			}
			bb.sink = n
		})
	}
	return p
}

func (bb *budget) engine(b *testing.B) pair {
	var p pair
	for b.Loop() {
		g := bb.bt.game.Clone()
		p.both(func() {
			for _, e := range bb.bt.entries {
				if _, _, err := g.Apply(e.Seat, e.Cmd); err != nil {
					b.Fatal(err)
				}
			}
		}, func() { bb.sink = bb.bt.game.State.Clone() })
	}
	return p
}

// budgetStore is what the store stage needs of a store.
type budgetStore interface {
	ImportCopies(ctx context.Context, e *storage.Export, channels []string, now time.Time) error
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// store saves the changes of the turn, as the bot made them, on a copy of
// the match as it began in db; the floor commits as many settings.
func (bb *budget) store(b *testing.B, db budgetStore, start *storage.Export, saves []storage.Change) pair {
	ctx := context.Background()
	var p pair
	n := 0
	for b.Loop() {
		n++
		ch := fmt.Sprintf("budget:store%d", n)
		if err := db.ImportCopies(ctx, start, []string{ch}, budgetClock()); err != nil {
			b.Fatal(err)
		}
		l, err := db.Active(ctx, ch)
		if err != nil {
			b.Fatal(err)
		}
		changes := make([]storage.Change, len(saves))
		for i, c := range saves {
			changes[i] = c
			if c.Request != nil {
				r := *c.Request
				r.Key = fmt.Sprintf("%s/%d", r.Key, n) // a request is applied once
				changes[i].Request = &r
			}
		}
		p.both(func() {
			v := l.Version
			for _, c := range changes {
				if v, err = db.Save(ctx, l.ID, v, c, budgetClock()); err != nil {
					b.Fatal(err)
				}
			}
		}, func() {
			for i := range changes {
				if err := db.SetSetting(ctx, "budget", "floor", json.RawMessage(fmt.Sprint(n*1000+i)), budgetClock()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.ReportMetric(float64(len(saves)), "saves")
	return p
}

func (bb *budget) render(b *testing.B) pair {
	ctx := context.Background()
	before := bb.bt.game.State.View(-1)
	end := bb.bt.maps[len(bb.bt.maps)-1]
	data, err := bb.r.Render(ctx, end)
	if err != nil {
		b.Fatal(err)
	}
	decoded, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	frame, ok := decoded.(*img.Paletted)
	if !ok {
		b.Fatalf("the map decodes as %T, not paletted", decoded)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &budgetPNGPool{}}
	var p pair
	for b.Loop() {
		if _, err := bb.r.Render(ctx, before); err != nil {
			b.Fatal(err)
		}
		p.both(func() {
			if data, err = bb.r.Render(ctx, end); err != nil {
				b.Fatal(err)
			}
		}, func() {
			buf.Reset()
			if err := enc.Encode(&buf, frame); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.ReportMetric(float64(len(data)), "png-bytes")
	return p
}

// budgetPNGPool keeps the floor's encoder buffers, as the renderer keeps
// its own.
type budgetPNGPool struct{ b *png.EncoderBuffer }

func (p *budgetPNGPool) Get() *png.EncoderBuffer  { return p.b }
func (p *budgetPNGPool) Put(b *png.EncoderBuffer) { p.b = b }

// budgetStub answers each command of the turn as the bot did, and sends
// what the bot sent after it: the delivery alone.
type budgetStub struct {
	d       *discordSide
	bt      *budgetTurn
	channel string
	live    string // the turn's living message
	k       int    // the step
}

func (s *budgetStub) Handle(ctx context.Context, _ chat.Request, r chat.Replier) error {
	if err := r.Reply(ctx, s.bt.answers[s.k]); err != nil {
		return err
	}
	for _, m := range s.bt.sent[s.k] {
		if m.edit {
			if err := s.d.e.a.Edit(ctx, s.channel, s.live, m.msg); err != nil {
				return err
			}
		} else if _, err := s.d.e.a.Post(ctx, s.channel, m.msg); err != nil {
			return err
		}
	}
	return nil
}

func (s *budgetStub) HandleClick(context.Context, chat.Click, chat.Replier) error {
	return fmt.Errorf("no click in the turn")
}

func (s *budgetStub) Autocomplete(context.Context, chat.Request, string) []chat.Choice { return nil }

func (s *budgetStub) Specs() []command.Spec { return s.d.bot.Specs() }

func (bb *budget) deliverDiscord(b *testing.B) pair {
	d := bb.d
	stub := &budgetStub{d: d, bt: bb.bt}
	var p pair
	for b.Loop() {
		ch := d.e.fake.Snowflake()
		stub.channel = prefix + ch
		live, err := d.e.a.Post(d.ctx, stub.channel, chat.Message{Text: "The turn so far"})
		if err != nil {
			b.Fatal(err)
		}
		stub.live = live
		var raws [][]byte
		for _, st := range bb.bt.steps {
			raws = append(raws, d.interaction(ch, st))
		}
		d.http.reset()
		p.both(func() {
			for k, raw := range raws {
				stub.k = k
				var i discordgo.Interaction
				if err := json.Unmarshal(raw, &i); err != nil {
					b.Fatal(err)
				}
				if err := d.e.a.handle(d.ctx, stub, &i, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		}, func() {
			for range bb.bt.requests {
				if _, err := d.e.a.Post(d.ctx, stub.channel, chat.Message{Text: "."}); err != nil {
					b.Fatal(err)
				}
			}
		})
		if n := d.http.n - bb.bt.requests; n != bb.bt.requests {
			b.Fatalf("the turn sent again took %d requests, the turn %d", n, bb.bt.requests)
		}
	}
	b.ReportMetric(float64(bb.bt.requests), "requests")
	return p
}

func (bb *budget) deliverPage(b *testing.B) pair {
	p := bb.p
	var pr pair
	size := 0
	for b.Loop() {
		_, l := p.copyOf(bb.bt.end)
		statePath := fmt.Sprintf("/api/matches/%d", l.ID)
		mapPNG := fmt.Sprintf("/api/matches/%d/map.png?at=%d", l.ID, l.Game.Version)
		p.get(mapPNG) // drawn: the render is a stage of its own
		pr.both(func() { size = p.get(statePath) + p.get(mapPNG) }, func() { p.get("/static/watch.js"); p.get("/static/watch.js") })
	}
	b.ReportMetric(float64(size), "bytes")
	return pr
}

func (bb *budget) wholeDiscord(b *testing.B) (pair, budgetCalls) {
	d := bb.d
	var p pair
	var saves, maps, requests int
	var saveT, renderT, httpT time.Duration
	var calls budgetCalls
	for b.Loop() {
		ch := d.copyOf(bb.bt.start)
		var raws [][]byte
		for _, st := range bb.bt.steps {
			raws = append(raws, d.interaction(ch, st))
		}
		d.db.reset(false)
		d.draw.reset(false)
		d.http.reset()
		p.time(func() {
			for _, raw := range raws {
				d.handle(raw)
			}
			d.bot.Wait()
		})
		calls.add(d.db)
		saves, maps, requests = saves+d.db.n, maps+d.draw.n, requests+d.http.n
		saveT, renderT, httpT = saveT+d.db.took, renderT+d.draw.took, httpT+d.http.took
	}
	n := float64(len(p.stage))
	b.ReportMetric(float64(saves)/n, "saves")
	b.ReportMetric(float64(saveT.Microseconds())/n, "save-µs")
	b.ReportMetric(float64(maps)/n, "maps")
	b.ReportMetric(float64(renderT.Microseconds())/n, "render-µs")
	b.ReportMetric(float64(requests)/n, "requests")
	b.ReportMetric(float64(httpT.Microseconds())/n, "http-µs")
	calls.report(b, n)
	return p, calls
}

func (bb *budget) wholePage(b *testing.B) (pair, budgetCalls) {
	p := bb.p
	var pr pair
	var saves, maps int
	var saveT, renderT time.Duration
	var calls budgetCalls
	for b.Loop() {
		name, l := p.copyOf(bb.bt.start)
		var bodies [][]byte
		for _, st := range bb.bt.steps {
			bodies = append(bodies, p.body(name, st))
		}
		statePath := fmt.Sprintf("/api/matches/%d", l.ID)
		mapPNG := fmt.Sprintf("/api/matches/%d/map.png?at=%d", l.ID, l.Game.Version+len(bb.bt.entries))
		p.db.reset(false)
		p.draw.reset(false)
		pr.time(func() {
			for k, body := range bodies {
				p.command(bb.bt.steps[k].who.name, body)
			}
			p.bot.Wait()
			p.get(statePath)
			p.get(mapPNG)
		})
		calls.add(p.db)
		saves, maps = saves+p.db.n, maps+p.draw.n
		saveT, renderT = saveT+p.db.took, renderT+p.draw.took
	}
	n := float64(len(pr.stage))
	b.ReportMetric(float64(saves)/n, "saves")
	b.ReportMetric(float64(saveT.Microseconds())/n, "save-µs")
	b.ReportMetric(float64(maps)/n, "maps")
	b.ReportMetric(float64(renderT.Microseconds())/n, "render-µs")
	calls.report(b, n)
	return pr, calls
}

// budgetCalls sums the store's calls other than saves in the path of
// whole turns.
type budgetCalls struct {
	turns               int
	writes, reads       int
	writeTook, readTook time.Duration
	// each is the time of the calls of each turn.
	each  []time.Duration
	calls map[string]int // by method
}

func (c *budgetCalls) add(d *budgetDB) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c.turns++
	c.each = append(c.each, d.writeTook+d.readTook)
	if c.calls == nil {
		c.calls = map[string]int{}
	}
	for name, n := range d.calls {
		c.calls[name] += n
	}
	c.writes, c.reads = c.writes+d.writes, c.reads+d.reads
	c.writeTook, c.readTook = c.writeTook+d.writeTook, c.readTook+d.readTook
}

// report reports them per turn, over n turns.
func (c *budgetCalls) report(b *testing.B, n float64) {
	b.ReportMetric(float64(c.writes)/n, "other-writes")
	b.ReportMetric(float64(c.writeTook.Microseconds())/n, "other-write-µs")
	b.ReportMetric(float64(c.reads)/n, "reads")
	b.ReportMetric(float64(c.readTook.Microseconds())/n, "read-µs")
}

// budgetResults are the medians of the stages and their floors, in µs,
// by rules, stage and side ("" for a stage both sides share), and the
// turns measured.
type budgetResults struct {
	mu     sync.Mutex
	v      map[string]float64
	turns  []string
	counts map[string]string // what the store did besides the saves, by rules and side
	load   string            // the load average as the benchmark began
}

// loadAverage is the machine's load average, as /proc/loadavg says it
// ("" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func (r *budgetResults) turn(rules string, bt *budgetTurn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turns = append(r.turns, bt.String())
}

// put reports a stage's medians and keeps them for the table.
func (r *budgetResults) put(b *testing.B, rules, stage, side string, p pair) {
	st, fl := medianOf(p.stage), medianOf(p.floor)
	b.ReportMetric(st, "µs/turn")
	if len(p.floor) > 0 {
		b.ReportMetric(fl, "floor-µs/turn")
		if fl > 0 {
			b.ReportMetric(st/fl, "x-floor")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := rules + "/" + stage + "/" + side
	r.v[k] = st
	if len(p.floor) > 0 {
		r.v[k+"/floor"] = fl
	}
}

// putSaves is put for a store: its floor is one commit a save, kept
// for the floor of the other writes of the path (putRest).
func (r *budgetResults) putSaves(b *testing.B, rules, stage, side string, p pair, saves int) {
	r.put(b, rules, stage, side, p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if saves > 0 {
		r.v[rules+"/"+stage+"/"+side+"/commit"] = medianOf(p.floor) / float64(saves)
	}
}

// putRest keeps the store's calls other than saves in whole turns: their
// median time a turn, and as floor one commit (from the store's floor)
// for each of their writes.
func (r *budgetResults) putRest(rules, side string, c budgetCalls) {
	if c.turns == 0 {
		return
	}
	n := float64(c.turns)
	r.mu.Lock()
	defer r.mu.Unlock()
	k := rules + "/store-rest/" + side
	r.v[k] = medianOf(c.each)
	if commit, ok := r.v[rules+"/store/"+side+"/commit"]; ok {
		r.v[k+"/floor"] = float64(c.writes) / n * commit
	}
	var each []string
	for _, name := range slices.Sorted(maps.Keys(c.calls)) {
		each = append(each, fmt.Sprintf("%s %.0f", name, float64(c.calls[name])/n))
	}
	r.counts[rules+"/"+side] = fmt.Sprintf("%.0f other commits and %.0f reads (%s)", float64(c.writes)/n, float64(c.reads)/n, strings.Join(each, ", "))
}

// get is a stage's median and its floor's for one side: the shared
// value when the stage is the same for both.
func (r *budgetResults) get(rules, stage, side string) (v, floor float64, ok bool) {
	for _, s := range []string{side, ""} {
		k := rules + "/" + stage + "/" + s
		if v, ok := r.v[k]; ok {
			return v, r.v[k+"/floor"], true
		}
	}
	return 0, 0, false
}

// budgetRows are the table's stages: the key of its results, its name
// and what its floor is.
var budgetRows = []struct{ key, name, floor string }{
	{"parse", "parse", "the interaction's JSON decoded into its options alone / the line split into fields"},
	{"check", "rule check (not in the path)", "a map lookup of each territory named"},
	{"engine", "engine", "one clone of the state"},
	{"store", "store (SQLite)", "one durable commit of a setting in the same file, a save"},
	{"store-pg", "store (PostgreSQL)", "one commit of a setting on the same server, a save"},
	{"store-rest", "store, the rest of the path", "one durable commit (SQLite) a write: each command's request marked answered, the turn's posts marked delivered, its living message's place kept; reads not floored"},
	{"render", "render + encode", "`image/png` at BestSpeed encoding the same frame"},
	{"delivery", "delivery", "a one-character message's round trip to the fake, a request / a static file of the same server, a GET"},
}

// table is the turn's budget as a Markdown table: each cell the median
// with its floor, in µs or ms.
func (r *budgetResults) table() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	type col struct{ rules, side string }
	cols := []col{{"classic", "discord"}, {"classic", "page"}, {"capitals", "discord"}, {"capitals", "page"}}
	var sb strings.Builder
	if r.load != "" {
		fmt.Fprintf(&sb, "load average (1, 5, 15 min) at the start: %s; at the end: %s\n", r.load, loadAverage())
	}
	for _, t := range r.turns {
		fmt.Fprintf(&sb, "turn: %s\n", t)
	}
	for _, c := range cols {
		if s, ok := r.counts[c.rules+"/"+c.side]; ok {
			fmt.Fprintf(&sb, "%s through %s: besides its saves, %s a turn\n", c.rules, c.side, s)
		}
	}
	sb.WriteString("\n| stage | classic (Discord) | classic (page) | capitals (Discord) | capitals (page) | floor |\n|---|---|---|---|---|---|\n")
	sums := make([]float64, len(cols))
	for _, row := range budgetRows {
		cells := make([]string, len(cols))
		seen := false
		for i, c := range cols {
			v, fl, ok := r.get(c.rules, row.key, c.side)
			if !ok {
				cells[i] = "—"
				continue
			}
			seen = true
			if row.key != "store-pg" && row.key != "check" {
				sums[i] += v
			}
			cells[i] = budgetTime(v)
			if fl > 0 {
				cells[i] += " (" + budgetTime(fl) + ")"
			}
		}
		if seen {
			fmt.Fprintf(&sb, "| %s | %s | %s |\n", row.name, strings.Join(cells, " | "), row.floor)
		}
	}
	sum := make([]string, len(cols))
	whole := make([]string, len(cols))
	rest := make([]string, len(cols))
	for i, c := range cols {
		sum[i] = budgetTime(sums[i])
		w, _, ok := r.get(c.rules, "whole", c.side)
		if !ok {
			whole[i], rest[i] = "—", "—"
			continue
		}
		whole[i] = budgetTime(w)
		rest[i] = budgetTime(w - sums[i])
	}
	fmt.Fprintf(&sb, "| sum of the stages (rule check aside) | %s | |\n", strings.Join(sum, " | "))
	fmt.Fprintf(&sb, "| **whole turn** | %s | |\n", strings.Join(whole, " | "))
	fmt.Fprintf(&sb, "| whole − sum | %s | |\n", strings.Join(rest, " | "))
	return sb.String()
}

// budgetTime writes a duration in µs as the table shows it.
func budgetTime(us float64) string {
	switch {
	case us >= 1000 || us <= -1000:
		return fmt.Sprintf("%.1f ms", us/1000)
	case us >= 10 || us <= -10:
		return fmt.Sprintf("%.0f µs", us)
	}
	return fmt.Sprintf("%.1f µs", us)
}
