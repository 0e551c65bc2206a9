package web

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/engine/mapfile"
)

// TestBrowserMaps (issue 44): the page's operator adds a map from the
// page (a Domination map's .zip chosen in a file field), the list shows
// it, and /risk new map:NAME plays it, drawn from its own picture; a
// visitor who is not the operator has no maps panel.
func TestBrowserMaps(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	b, err := mapfile.ReadPath(filepath.Join("..", "..", "examples", "maps", "inkwell", "inkwell.map"), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	zip, err := b.Zip()
	if err != nil {
		t.Fatal(err)
	}
	br := newBrowser(t)
	e := newEnv(t, Config{OperatorKey: key})
	shots := shotsDir(t)
	url := e.ts.URL + "/?c=maps"
	visitor := br.openIn(br.newContext(), url, shots)
	visitor.ready("maps")
	visitor.addName("Vic")
	visitor.playing("Vic")

	op := br.openIn(br.newContext(), url+"#operator="+key, shots)
	op.ready("maps")
	op.addName("Olga")
	op.playing("Olga")
	op.waitFor("the maps panel", `!document.getElementById("maps-panel").hidden`, browserWait)
	op.waitFor("the empty library", `document.getElementById("map-list").textContent.includes("None yet")`, browserWait)
	op.eval(fmt.Sprintf(`(() => {
		const bytes = Uint8Array.from(atob(%q), (c) => c.charCodeAt(0));
		const dt = new DataTransfer();
		dt.items.add(new File([bytes], "inkwell.zip", { type: "application/zip" }));
		document.getElementById("map-file").files = dt.files;
		document.getElementById("map-name").value = "Inkwell";
		document.getElementById("map-upload").requestSubmit();
	})()`, base64.StdEncoding.EncodeToString(zip)), nil)
	op.waitFor("the map added", `document.getElementById("map-note").textContent.includes("Added Inkwell (13 territories)")`, browserWait)
	op.waitFor("the map listed", `document.getElementById("map-list").textContent.includes("Inkwell — 13 territories")`, browserWait)
	op.screenshot("maps-0-added")

	var hidden bool
	visitor.eval(`document.getElementById("maps-panel").hidden`, &hidden)
	if !hidden {
		visitor.fail("a visitor who is not the operator sees the maps panel")
	}
	op.command("/risk new map:Inkwell", browserWait)
	op.seen("the lobby on the map", `on the map "The Inkwell Isles"`, browserWait)
	op.command("/risk host addbot level:easy", browserWait)
	op.seen("the bot", "(2/6)", browserWait)
	op.command("/risk start", browserWait)
	op.seen("the start", "The match has started", browserWait)
	op.waitFor("the map drawn", `[...document.querySelectorAll("#messages img")].some((i) => i.complete && i.naturalWidth > 400)`, browserWait)
	op.screenshot("maps-1-played")
}
