package imports

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/storetest"
)

var importNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// importing is what a bot with the standard levels and one palette takes
// in.
func importing(unverified bool) Options {
	return Options{Levels: []string{"random", "easy", "normal", "hard"}, HasPalette: func(n string) bool { return n == "colorblind" },
		Unverified: unverified, Now: importNow}
}

// liveExport is the host's export of a classic match of three (the third a
// computer) played for a while, with the bot's data of it.
func liveExport(t *testing.T) (*storage.Export, hosted.Meta) {
	t.Helper()
	setup := storetest.NewSetup(3, 9)
	setup.Seats[2].ID = "bot:1"
	g, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	var log []engine.Entry
	for range 80 {
		e, err := storetest.Move(g, r)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
	}
	meta := hosted.Meta{Host: "p0", Settings: hosted.DefaultSettings(), Bots: 1, Started: importNow.Add(-time.Hour)}
	for i, s := range setup.Seats {
		seat := hosted.Seat{ID: s.ID, Name: s.Name}
		if i == 2 {
			seat.Level = "easy"
		}
		meta.Seats = append(meta.Seats, seat)
	}
	return &storage.Export{Channel: "test:live", Status: storage.Active, Meta: meta.Encode(), Record: engine.Record{Setup: g.Setup, Log: log, Commitment: g.Commitment()}}, meta
}

// problems is what CheckImport refuses x for, all on one line each.
func problems(t *testing.T, x *storage.Export, in Options) string {
	t.Helper()
	_, err := Check(x, in)
	var ie *Error
	if !errors.As(err, &ie) {
		t.Fatalf("CheckImport: %v, want an *Error", err)
	}
	return strings.Join(ie.Problems, "\n")
}

// Issue item 6: every field of the bot's data of an imported match is
// checked: identifiers of the chat, lines without markup, numbers, lists
// and times in range.
func TestCheckImportMeta(t *testing.T) {
	x, base := liveExport(t)
	a, err := Check(x, importing(false))
	if err != nil {
		t.Fatalf("the untouched export: %v", err)
	}
	if got, err := hosted.DecodeMeta(a.Export.Meta); err != nil || !got.Imported.Equal(importNow) || got.Unverified != "" {
		t.Errorf("admitted meta %+v, %v: want marked imported at %v, not unverified", got, err, importNow)
	}
	if a.Dice == nil || !a.Dice.OK() {
		t.Errorf("the dice check of an honest match: %+v", a.Dice)
	}
	for _, tt := range []struct {
		name string
		edit func(m *hosted.Meta)
		want string
	}{
		{"a host with a space", func(m *hosted.Meta) { m.Host = "p 0" }, `meta.host: "p 0" is not an identifier of the chat`},
		{"a long host", func(m *hosted.Meta) { m.Host = strings.Repeat("p", 201) }, "meta.host: "},
		{"a server with a control character", func(m *hosted.Meta) { m.Server = "discord:1\n@everyone" }, "meta.server: "},
		{"an invisible parent", func(m *hosted.Meta) { m.Parent = "discord:\u200b1" }, "meta.parent: "},
		{"a seat id with a newline", func(m *hosted.Meta) { m.Seats[0].ID = "p0\n" }, "meta.seats[0].id: "},
		{"held outside the map", func(m *hosted.Meta) { m.Seats[1].Held = []int{3, 42} }, "meta.seats[1].held: territory 42, of a map of 42 (each once)"},
		{"held twice", func(m *hosted.Meta) { m.Seats[1].Held = []int{3, 3} }, "meta.seats[1].held: territory 3"},
		{"too many computers", func(m *hosted.Meta) { m.Bots = 1 << 30 }, "meta.bots: 1073741824, at most 10000"},
		{"more steps than lines", func(m *hosted.Meta) { m.Turn, m.Steps = []string{"a"}, []int{0, 0, 1} }, "meta.steps: 1 lines in 3 steps, but the turn has 1"},
		{"a negative income", func(m *hosted.Meta) { m.Stats.Income = -1 }, "meta.stats.income: -1"},
		{"a huge conquest count", func(m *hosted.Meta) { m.Stats.Conquests = 1 << 40 }, "meta.stats.conquests: "},
		{"an eliminated seat the game lacks", func(m *hosted.Meta) { m.Stats.Eliminated = []int{7} }, "meta.stats: seat 7 eliminated"},
		{"a history line with a control character", func(m *hosted.Meta) { m.Turn = []string{"a\x00b"} }, "history line"},
		{"an end that pings", func(m *hosted.Meta) { m.Ended = "by {{mention:discord:1}}" }, "meta.ended: "},
		{"a long end", func(m *hosted.Meta) { m.Ended = strings.Repeat("e", 301) }, "meta.ended: 301 bytes, at most 300"},
		{"an unverified mark that pings", func(m *hosted.Meta) { m.Unverified = "@everyone" }, "meta.unverified: "},
		{"started in 1970", func(m *hosted.Meta) { m.Started = time.Unix(0, 0) }, "meta.started: 1970-01-01T00:00:00Z is not a time"},
		{"imported in the future", func(m *hosted.Meta) { m.Imported = importNow.Add(48 * time.Hour) }, "meta.imported: "},
		{"finished before it started", func(m *hosted.Meta) { m.Finished = m.Started.Add(-time.Minute) }, "meta.finished: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := base
			m.Seats = append([]hosted.Seat(nil), base.Seats...)
			tt.edit(&m)
			y := *x
			y.Meta = m.Encode()
			if got := problems(t, &y, importing(true)); !strings.Contains(got, tt.want) {
				t.Errorf("problems:\n%s\nwant %q", got, tt.want)
			}
		})
	}

	// A lobby has no dice: it cannot be marked imported or unverified.
	lobby := hosted.Meta{Host: "p0", Settings: hosted.DefaultSettings(), Seats: []hosted.Seat{{ID: "p0", Name: "Ann"}}, Unverified: "by hand"}
	if got := problems(t, &storage.Export{Channel: "test:lobby", Status: storage.Lobby, Meta: lobby.Encode()}, importing(true)); !strings.Contains(got, "a match that never started is marked") {
		t.Errorf("a lobby marked unverified: %s", got)
	}

	// Fields the bot does not know are not refused, nor kept.
	var raw map[string]any
	if err := json.Unmarshal(x.Meta, &raw); err != nil {
		t.Fatal(err)
	}
	raw["junk"] = strings.Repeat("j", 1000)
	y := *x
	if y.Meta, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	if a, err := Check(&y, importing(false)); err != nil || strings.Contains(string(a.Export.Meta), "junk") {
		t.Errorf("unknown field: %v; stored %s", err, a.Export.Meta)
	}
}

// Issue item 6: a meta of 50 MB is refused by its size, before it is
// decoded (which took seconds), and so is a sealed record, even unverified.
func TestCheckImportRefusesBeforeDecoding(t *testing.T) {
	x, _ := liveExport(t)
	y := *x
	y.Meta = json.RawMessage(`{"host":"p0","junk":"` + strings.Repeat("x", 50<<20) + `"}`)
	start := time.Now()
	got := problems(t, &y, importing(true))
	if took := time.Since(start); took > time.Second {
		t.Errorf("refused after %v", took)
	}
	if want := fmt.Sprintf("meta: %d bytes, more than the 262144 the bot's data of a match may take", len(y.Meta)); got != want {
		t.Errorf("problems %q, want %q", got, want)
	}

	sealed, err := x.Record.Seal()
	if err != nil {
		t.Fatal(err)
	}
	y = *x
	y.Record = sealed
	if got := problems(t, &y, importing(true)); !strings.Contains(got, "seed: the export withholds it") || !strings.Contains(got, "risk export --full") {
		t.Errorf("a sealed record: %s", got)
	}
}

// Issue 42, item 6: risk verify and risk import apply one rule
// (CheckDice), which finds a problem exactly when the verdict is not OK.
// A record without a commitment, and none published, is not verified: a
// file whose commitment was removed used to import, said to hash to "the
// file's commitment", while risk verify said NOT verified.
func TestCheckDiceIsOneRule(t *testing.T) {
	x, _ := liveExport(t)
	rec := x.Record
	commitment := rec.Commitment
	edit := func(f func(r *engine.Record)) engine.Record {
		r := rec
		r.Log = append([]engine.Entry(nil), rec.Log...)
		f(&r)
		return r
	}
	die := -1
	for i, e := range rec.Log {
		if len(e.Rand) > 0 {
			die = i
			break
		}
	}
	if die < 0 {
		t.Fatal("no random value in the log")
	}
	tampered := edit(func(r *engine.Record) {
		e := r.Log[die]
		e.Rand = append([]int32(nil), e.Rand...)
		e.Rand[0] = (e.Rand[0] + 1) % 6
		r.Log[die] = e
	})
	for _, tt := range []struct {
		name      string
		rec       engine.Record
		published string
		want      string // the first problem ("" for none)
	}{
		{"as exported", rec, "", ""},
		{"as exported, the published commitment", rec, commitment, ""},
		{"its commitment removed", edit(func(r *engine.Record) { r.Commitment = "" }), "", "commitment: none, in the record or given"},
		{"its commitment removed, the published one given", edit(func(r *engine.Record) { r.Commitment = "" }), commitment, ""},
		{"another commitment published", rec, engine.Commitment(5), "not to the published commitment " + engine.Commitment(5)},
		{"another seed, its own commitment", edit(func(r *engine.Record) { r.Setup.Seed = 5; r.Commitment = engine.Commitment(5) }), "", "deal: "},
		{"a die changed", tampered, "", "log: command "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, p, err := CheckDice(tt.rec, tt.published)
			if err != nil {
				t.Fatal(err)
			}
			if (len(p) == 0) != v.OK() {
				t.Errorf("problems %q, but the verdict says OK %v", p, v.OK())
			}
			switch {
			case tt.want == "" && len(p) > 0:
				t.Errorf("got %q, want no problem", p)
			case tt.want != "" && (len(p) == 0 || !strings.Contains(p[0], tt.want)):
				t.Errorf("got %q, want first %q", p, tt.want)
			}
			// The import's check is the same: refused (or marked
			// unverified) exactly when CheckDice finds a problem.
			y := *x
			y.Record = tt.rec
			in := importing(false)
			in.Commitment = tt.published
			_, err = Check(&y, in)
			if (err == nil) != (len(p) == 0) {
				t.Errorf("CheckImport: %v, but CheckDice found %q", err, p)
			}
		})
	}
}
