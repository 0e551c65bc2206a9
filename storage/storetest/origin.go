package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// testOrigin (issue 42, item 6): an import's origin (file, hash, time,
// rated or not) is stored with it and read back with its export, copies
// included; a match played here has none; an origin that is not one is
// refused with nothing stored. The standings count the results of matches
// played here and of those imported rated, never of those imported
// without it, whoever their seats name.
func testOrigin(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:played", 3, 31)
	Play(t, db, l.ID, 20, r)
	x := mustExport(t, db, l.ID)
	if x.Origin != nil {
		t.Fatalf("a match played here: origin %+v, want none", x.Origin)
	}
	hash := strings.Repeat("ab", 32)
	unrated := &storage.Origin{Source: "match-7.json", SHA256: hash, Imported: T0.Add(time.Hour), Rated: false}
	rated := &storage.Origin{Source: "-", SHA256: "", Imported: T0.Add(2 * time.Hour), Rated: true}
	x.Status = storage.Finished
	ids := map[string]int64{"played": l.ID}
	for name, o := range map[string]*storage.Origin{"unrated": unrated, "rated": rated} {
		y := *x
		y.Channel, y.Origin = "test:"+name, o
		m, err := db.Import(ctx, &y, o.Imported)
		if err != nil {
			t.Fatalf("import %s: %v", name, err)
		}
		ids[name] = m.ID
		got := mustExport(t, db, m.ID)
		if got.Origin == nil || *got.Origin != *o {
			t.Errorf("import %s: origin %+v, want %+v", name, got.Origin, o)
		}
	}
	y := *x
	y.Origin = unrated
	if err := db.ImportCopies(ctx, &y, []string{"copy:1", "copy:2"}, T0); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"copy:1", "copy:2"} {
		h, err := db.History(ctx, ch)
		if err != nil || len(h) != 1 {
			t.Fatalf("%s: %v, %v", ch, h, err)
		}
		if got, err := db.Export(ctx, h[0].ID); err != nil || got.Origin == nil || *got.Origin != *unrated {
			t.Errorf("%s: origin %+v, %v; want %+v", ch, got.Origin, err, unrated)
		}
	}

	for _, bad := range []storage.Origin{
		{Source: "", Imported: T0},
		{Source: "a.json", SHA256: "not a hash", Imported: T0},
		{Source: "a.json", SHA256: strings.Repeat("AB", 32), Imported: T0},
		{Source: "a.json"},
		{Source: strings.Repeat("a", 1001), Imported: T0},
	} {
		y := *x
		y.Channel, y.Origin = "test:bad", &bad
		if _, err := db.Import(ctx, &y, T0); err == nil {
			t.Errorf("origin %+.80v: imported", bad)
		}
	}
	if h, err := db.History(ctx, "test:bad"); err != nil || len(h) != 0 {
		t.Errorf("refused imports left %v, %v", h, err)
	}

	// Each match credits its seats: Ann wins the one played here, Mallory
	// (whom the files name) the imported ones. Only the rated import
	// counts beside the match played here.
	const guild = "discord:guild:42"
	result := func(id int64, winner string, at time.Duration) storage.Result {
		return storage.Result{Match: id, Server: guild, Rules: state.Classic, Ended: T0.Add(at), Seats: []storage.ResultSeat{
			{Player: winner, Name: strings.TrimPrefix(winner, "discord:"), Place: 1},
			{Player: "discord:bob", Name: "bob", Place: 2},
		}}
	}
	for _, r := range []storage.Result{result(ids["played"], "discord:ann", 0), result(ids["unrated"], "discord:mallory", time.Hour),
		result(ids["rated"], "discord:carol", 2*time.Hour)} {
		if err := db.RecordResult(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	board, err := db.Leaderboard(ctx, guild, state.Classic, 0)
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]int{}
	for _, s := range board {
		played[s.Player] = s.Played
	}
	if want := map[string]int{"discord:ann": 1, "discord:carol": 1, "discord:bob": 2}; len(played) != len(want) ||
		played["discord:ann"] != 1 || played["discord:carol"] != 1 || played["discord:bob"] != 2 {
		t.Errorf("the leaderboard counts %v, want %v (the unrated import left out)", played, want)
	}
	if st, err := db.PlayerStats(ctx, guild, "discord:mallory"); err != nil || len(st) != 0 {
		t.Errorf("the stats of a player only an unrated import names: %+v, %v; want none", st, err)
	}
}
