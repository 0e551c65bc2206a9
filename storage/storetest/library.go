package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage"
)

// LibraryFiles returns files standing for a map (the store keeps them as
// they come) and their hash.
func LibraryFiles(seed string) (storage.MapFiles, string) {
	f := storage.MapFiles{Map: []byte("[files]\n; " + seed + "\n"), Picture: []byte("picture " + seed), Index: []byte("index " + seed)}
	h := sha256.Sum256([]byte(string(f.Map) + string(f.Picture) + string(f.Index)))
	return f, hex.EncodeToString(h[:])
}

// testLibrary: a scope's library keeps its maps by name, one name per map
// whatever its case and one map per content, each refusal naming the map
// in the way and changing nothing; the files stay when a map is removed.
func testLibrary(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	town, townHash := LibraryFiles("town")
	isle, isleHash := LibraryFiles("isle")
	add := func(scope, name, hash string, f storage.MapFiles) error {
		return db.AddMap(ctx, storage.LibraryMap{Scope: scope, Name: name, Hash: hash, Title: "T " + name, Author: "ann", Territories: 12}, f, T0)
	}
	names := func(scope string) string {
		t.Helper()
		ms, err := db.Maps(ctx, scope)
		if err != nil {
			t.Fatalf("maps of %s: %v", scope, err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return strings.Join(out, ",")
	}
	if err := add("discord:1", "Old Town", townHash, town); err != nil {
		t.Fatalf("add: %v", err)
	}
	if err := add("discord:1", "isle", isleHash, isle); err != nil {
		t.Fatalf("add: %v", err)
	}
	// Another scope has a library of its own: the same name, the same files.
	if err := add("web", "old town", townHash, town); err != nil {
		t.Fatalf("add in another scope: %v", err)
	}
	conflicts := []struct {
		name, add, hash string
		f               storage.MapFiles
		want            storage.MapConflictError
	}{
		{"name taken, another case", "OLD TOWN", isleHash, isle, storage.MapConflictError{Name: "isle", Same: true}},
		{"name taken", "old town", strings.Repeat("a", 64), town, storage.MapConflictError{Name: "Old Town"}},
		{"same files", "Town again", townHash, town, storage.MapConflictError{Name: "Old Town", Same: true}},
	}
	for _, c := range conflicts {
		err := add("discord:1", c.add, c.hash, c.f)
		var got *storage.MapConflictError
		if !errors.As(err, &got) || *got != c.want {
			t.Errorf("%s: add %q: got %v, want %+v", c.name, c.add, err, c.want)
		}
	}
	for _, bad := range []storage.LibraryMap{
		{Scope: "", Name: "x", Hash: isleHash, Territories: 3},
		{Scope: "s", Name: "", Hash: isleHash, Territories: 3},
		{Scope: "s", Name: strings.Repeat("x", storage.MaxMapName+1), Hash: isleHash, Territories: 3},
		{Scope: "s", Name: "two\nlines", Hash: isleHash, Territories: 3},
		{Scope: "s", Name: "x", Hash: "abc", Territories: 3},
		{Scope: "s", Name: "x", Hash: isleHash, Territories: 0},
	} {
		if err := db.AddMap(ctx, bad, isle, T0); err == nil {
			t.Errorf("add %+v: no error", bad)
		}
	}
	if got, want := names("discord:1"), "isle,Old Town"; got != want {
		t.Errorf("maps: got %s, want %s", got, want)
	}
	all, err := db.Libraries(ctx)
	var got []string
	for _, m := range all {
		got = append(got, m.Scope+"/"+m.Name)
	}
	if want := "discord:1/isle,discord:1/Old Town,web/old town"; err != nil || strings.Join(got, ",") != want {
		t.Errorf("libraries: got %s, %v; want %s", strings.Join(got, ","), err, want)
	}
	m, err := db.LibraryMap(ctx, "discord:1", "OLD town")
	want := storage.LibraryMap{Scope: "discord:1", Name: "Old Town", Hash: townHash, Title: "T Old Town", Author: "ann",
		Territories: 12, Size: town.Size(), Added: T0}
	if err != nil || m != want {
		t.Errorf("map: got %+v, %v; want %+v", m, err, want)
	}
	if _, err := db.LibraryMap(ctx, "discord:2", "Old Town"); !errors.Is(err, storage.ErrNoMap) {
		t.Errorf("map of another scope: got %v, want ErrNoMap", err)
	}
	f, err := db.MapFiles(ctx, m.Engine())
	if err != nil || !reflect.DeepEqual(f, town) {
		t.Errorf("files: got %q, %v; want %q", f, err, town)
	}
	if _, err := db.MapFiles(ctx, "lib-0000000000000000"); !errors.Is(err, storage.ErrNoMap) {
		t.Errorf("files never stored: got %v, want ErrNoMap", err)
	}

	// Renames.
	var conflict *storage.MapConflictError
	if err := db.RenameMap(ctx, "discord:1", "isle", "OLD TOWN"); !errors.As(err, &conflict) || conflict.Name != "Old Town" || conflict.Same {
		t.Errorf("rename onto a name taken: got %v", err)
	}
	if err := db.RenameMap(ctx, "discord:1", "nowhere", "x"); !errors.Is(err, storage.ErrNoMap) {
		t.Errorf("rename a map not there: got %v, want ErrNoMap", err)
	}
	if err := db.RenameMap(ctx, "discord:1", "isle", " "); err == nil {
		t.Errorf("rename to a blank: no error")
	}
	if err := db.RenameMap(ctx, "discord:1", "isle", "Isle"); err != nil {
		t.Errorf("rename, case alone: %v", err)
	}
	if err := db.RenameMap(ctx, "discord:1", "old town", "New Town"); err != nil {
		t.Errorf("rename: %v", err)
	}
	if got, want := names("discord:1"), "Isle,New Town"; got != want {
		t.Errorf("maps after renames: got %s, want %s", got, want)
	}
	if got, want := names("web"), "old town"; got != want {
		t.Errorf("the other scope's maps after renames: got %s, want %s", got, want)
	}

	// Removal: the name and the content are free again; the files stay.
	if err := db.RemoveMap(ctx, "discord:1", "new town"); err != nil {
		t.Fatalf("remove: %v", err)
	}
	if err := db.RemoveMap(ctx, "discord:1", "new town"); !errors.Is(err, storage.ErrNoMap) {
		t.Errorf("remove again: got %v, want ErrNoMap", err)
	}
	if f, err := db.MapFiles(ctx, m.Engine()); err != nil || !reflect.DeepEqual(f, town) {
		t.Errorf("files after removal: got %v", err)
	}
	if err := add("discord:1", "Town", townHash, town); err != nil {
		t.Errorf("add again after removal: %v", err)
	}
	if got, want := names("discord:1"), "Isle,Town"; got != want {
		t.Errorf("maps at the end: got %s, want %s", got, want)
	}
	if got := names("nowhere"); got != "" {
		t.Errorf("maps of an empty scope: got %s", got)
	}
}
