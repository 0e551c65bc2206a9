package storage_test

import (
	"testing"
	"testing/fstest"

	"github.com/riskbot/riskbot/storage"
)

func TestMigrationsAreNumbered(t *testing.T) {
	ok := fstest.MapFS{
		"migrations/0001_a.sql": &fstest.MapFile{Data: []byte("SELECT 1;")},
		"migrations/0002_b.sql": &fstest.MapFile{Data: []byte("SELECT 2;")},
	}
	ms, err := storage.ReadMigrations(ok)
	if err != nil {
		t.Fatal(err)
	}
	if want := []storage.Migration{{1, "0001_a.sql", "SELECT 1;"}, {2, "0002_b.sql", "SELECT 2;"}}; len(ms) != 2 || ms[0] != want[0] || ms[1] != want[1] {
		t.Fatalf("migrations: %+v, want %+v", ms, want)
	}
	for _, tt := range []struct {
		name  string
		files []string
	}{
		{"gap", []string{"0001_a.sql", "0003_c.sql"}},
		{"no number", []string{"0001_a.sql", "b.sql"}},
		{"twice", []string{"0001_a.sql", "0001_b.sql"}},
		{"not from one", []string{"0002_b.sql"}},
	} {
		fsys := fstest.MapFS{}
		for _, f := range tt.files {
			fsys["migrations/"+f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
		}
		if _, err := storage.ReadMigrations(fsys); err == nil {
			t.Errorf("%s: %v accepted", tt.name, tt.files)
		}
	}
}

func TestCheckSchema(t *testing.T) {
	for _, v := range []int{0, 5, 6} {
		if err := storage.CheckSchema(v, 6); err != nil {
			t.Errorf("schema %d of 6: %v", v, err)
		}
	}
	if err := storage.CheckSchema(7, 6); err == nil {
		t.Error("schema 7 of 6 accepted")
	}
}
