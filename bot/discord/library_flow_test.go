package discord

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/storetest"
)

// attached is a file attached to a command's option.
type attached struct {
	option, name string
	data         []byte
}

// slashFiles is the payload of /risk SUB with files attached, served by
// the fake as Discord's CDN serves attachments.
func (g *game) slashFiles(p person, sub string, files []attached, opts ...opt) []byte {
	g.t.Helper()
	m := template(g.t, "application_command_subcommand.CONSTRUCTED.json")
	retarget(m, p, channel)
	var list []any
	resolved := map[string]any{}
	for _, f := range files {
		at := g.fake.Attach(f.name, f.data)
		resolved[at["id"].(string)] = at
		list = append(list, map[string]any{"type": 11, "name": f.option, "value": at["id"]})
	}
	for _, x := range opts {
		list = append(list, x.json())
	}
	data := m["data"].(map[string]any)
	nest(data, sub, map[string]any{"type": 1, "options": list})
	data["resolved"] = map[string]any{"attachments": resolved}
	return encode(g.t, m)
}

// TestLibraryFlow (issue 44): an admin adds a map from attachments (a
// zip, or the .map and its images), each refusal in mapfile's words or
// the library's and the library unchanged; /risk new offers it with its
// size, a match with bots starts on it, and the map cannot be removed
// while that match goes on.
func TestLibraryFlow(t *testing.T) {
	g := newGame(t)
	files := storetest.StripMap(t, "Flow Strip", 8)
	b, err := mapfile.Read(mapfile.Files(files), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	zip, err := b.Zip()
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		ms, err := g.db.Maps(g.ctx, prefix+"290926798626357999")
		if err != nil {
			t.Fatal(err)
		}
		return len(ms)
	}
	zipped := []attached{{"file", "flow-strip.zip", zip}}
	wantPrivate(t, g.answer(g.do(g.slashFiles(ann, "admin map add", zipped))), "Only the server's admins")
	wantPrivate(t, g.answer(g.do(g.slashFiles(dan, "admin map add", []attached{{"file", "strip.map", files.Map}}))),
		"A .map file comes with its two images")
	// mapfile's refusal: the index image of another map (of another size).
	other := storetest.StripMap(t, "Other", 5)
	wantPrivate(t, g.answer(g.do(g.slashFiles(dan, "admin map add", []attached{
		{"file", "strip.map", files.Map}, {"picture", "strip-pic.png", files.Picture}, {"index", "strip-map.png", other.Index}}))),
		"refused")
	if n := count(); n != 0 {
		t.Fatalf("after refusals the library has %d maps, want 0", n)
	}
	wantText(t, g.answer(g.do(g.slashFiles(dan, "admin map add", zipped))), "Added **Flow Strip**", "8 territories in 2 continents")
	wantPrivate(t, g.answer(g.do(g.slashFiles(dan, "admin map add", []attached{
		{"file", "strip.map", files.Map}, {"picture", "strip-pic.png", files.Picture}, {"index", "strip-map.png", files.Index}}, o("name", "Again")))),
		"in this server's maps already, as **Flow Strip**")
	if n := count(); n != 1 {
		t.Fatalf("the library has %d maps, want 1", n)
	}
	wantPrivate(t, g.answer(g.do(slash(t, dan, channel, "admin map list"))), "**Flow Strip**: 8 territories")
	// show tells the map's continents, with a preview: the board unowned,
	// with its names, as drawn from its own picture.
	shown := g.answer(g.do(slash(t, ann, channel, "admin map show", o("name", "flow strip"))))
	wantPrivate(t, shown, "**Flow Strip**", "8 territories")
	if len(shown.Files) != 1 {
		t.Fatalf("map show: %d files, want a preview", len(shown.Files))
	}
	if img, err := png.Decode(bytes.NewReader(shown.Files[0].Data)); err != nil || img.Bounds().Dx() < 400 {
		t.Errorf("map show's preview: %v, %v; want a PNG", img.Bounds(), err)
	}

	// /risk new offers the server's map with its size, beside the built-in ones.
	cs := g.complete(ann, "new", "map", "fl")
	if len(cs) != 1 || cs[0].Name != "Flow Strip — 8 territories" || cs[0].Value != "Flow Strip" {
		t.Errorf("map choices for \"fl\": got %+v, want Flow Strip with its size", cs)
	}
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("map", "flow strip"), o("victory", "missions")))),
		"Secret missions name the classic continents")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("map", "flw strip")))), "Did you mean map:Flow Strip?")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("map", "strip")))), "Did you mean map:Flow Strip?")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("map", "flow strip")))), "Your match is open")
	for range 2 {
		wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy")))), "takes a seat")
	}
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.bot.Wait()
	m := g.match()
	if m.Status != storage.Active || m.Game.State.Map.Name != engine.LibraryName(b.Hash) {
		t.Fatalf("the match is %s on %s, want active on %s", m.Status, m.Game.State.Map.Name, engine.LibraryName(b.Hash))
	}
	// The odds' example names the map's own territories.
	odds := g.answer(g.do(slash(t, ann, channel, "show odds")))
	_, example, _ := strings.Cut(odds.Content, "from:")
	example, _, _ = strings.Cut(example, " to:")
	if m.Game.State.Map.Index(example) < 0 {
		t.Errorf("/risk show odds: %q, want an example on the map's own territories", odds.Content)
	}
	wantPrivate(t, g.answer(g.do(slash(t, dan, channel, "admin map remove", o("name", "Flow Strip")))), "is played by the match in")
	if n := count(); n != 1 {
		t.Errorf("after a refused removal the library has %d maps, want 1", n)
	}
	wantText(t, g.answer(g.do(slash(t, dan, channel, "admin map rename", o("name", "flow strip"), o("to", "Harbour")))), "now called **Harbour**")
	if !strings.Contains(voiceSettings(t, g), "Flow Strip") {
		t.Errorf("the match's settings do not name its map")
	}
}

// voiceSettings is the answer to /risk host settings without options.
func voiceSettings(t *testing.T, g *game) string {
	t.Helper()
	return fullText(g.answer(g.do(slash(t, ann, channel, "host settings"))))
}
