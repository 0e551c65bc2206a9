package storetest_test

import (
	"testing"

	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage/storetest"
)

func TestStripMap(t *testing.T) {
	b, err := mapfile.Read(mapfile.Files(storetest.StripMap(t, "Strip One", 8)), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(b.Map.Name, b.Title, b.Author, b.Map.Len(), len(b.Map.Continents))
	b2, err := mapfile.Read(b.Files, mapfile.Options{})
	if err != nil || b2.Hash != b.Hash {
		t.Fatal("canonical reread", err)
	}
}
