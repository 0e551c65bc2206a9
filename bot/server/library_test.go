package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage/storetest"
)

// Issue 44: a server's admins add maps to its library, list, show,
// rename and remove them; each refusal says what to do instead.
func TestAdminMaps(t *testing.T) {
	e := newEnv(t, "test:")
	previews := 0
	e.sv.cfg.Preview = func(m *state.Map, _ lang.Tag) *chat.Image { previews++; return chat.NewImage("p.png", nil) }
	const server = "test:s"
	files := storetest.StripMap(t, "Strip Town", 7)
	b, err := mapfile.Read(mapfile.Files(files), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	zip, err := b.Zip()
	if err != nil {
		t.Fatal(err)
	}
	other := storetest.StripMap(t, "Strip Village", 5)
	var played string // the engine name of the map added
	file := func(name string, data []byte) chat.File { return chat.File{Name: name, Data: data} }
	for i, s := range []struct {
		who     string
		command string
		opts    map[string]string
		files   map[string]chat.File
		refused bool
		public  bool
		want    string
		then    func(t *testing.T)
	}{
		{who: "Ann", command: "admin map add", opts: map[string]string{"file": "s.zip"}, files: map[string]chat.File{"file": file("s.zip", zip)},
			refused: true, want: "Only the server's admins"},
		{command: "admin map add", opts: map[string]string{"file": "s.zip"}, refused: true, want: "Attach the map"},
		{command: "admin map add", opts: map[string]string{"file": "s.txt"}, files: map[string]chat.File{"file": file("s.txt", zip)},
			refused: true, want: `"s.txt" is neither a .zip nor a .map file.`},
		{command: "admin map add", opts: map[string]string{"file": "s.map"}, files: map[string]chat.File{"file": file("s.map", files.Map)},
			refused: true, want: "A .map file comes with its two images"},
		{command: "admin map add", opts: map[string]string{"file": "s.zip", "picture": "p.png"},
			files:   map[string]chat.File{"file": file("s.zip", zip), "picture": file("p.png", files.Picture)},
			refused: true, want: "A .zip holds the map's images already: leave picture: out"},
		{command: "admin map add", opts: map[string]string{"file": "s.zip"}, files: map[string]chat.File{"file": file("s.zip", []byte("not a zip"))},
			refused: true, want: "zip"},
		{command: "admin map add", opts: map[string]string{"file": "s.zip", "name": command.Maps()[0]}, files: map[string]chat.File{"file": file("s.zip", zip)},
			refused: true, want: "is a built-in board's name"},
		{command: "admin map add", opts: map[string]string{"file": "s.zip"}, files: map[string]chat.File{"file": file("s.zip", zip)},
			public: true, want: "Added **Strip Town** by \"The tests\" to this server's maps: 7 territories in 2 continents",
			then: func(t *testing.T) {
				m, err := e.store.LibraryMap(context.Background(), server, "strip town")
				if err != nil {
					t.Fatal(err)
				}
				played = m.Engine()
			}},
		{command: "admin map add", opts: map[string]string{"file": "s.zip", "name": "Again"}, files: map[string]chat.File{"file": file("s.zip", zip)},
			refused: true, want: "This map is in this server's maps already, as **Strip Town**"},
		{command: "admin map add", opts: map[string]string{"file": "v.map", "picture": "p.png", "index": "i.png", "name": "STRIP TOWN"},
			files:   map[string]chat.File{"file": file("v.map", other.Map), "picture": file("p.png", other.Picture), "index": file("i.png", other.Index)},
			refused: true, want: "This server has a map called **Strip Town** already"},
		{command: "admin map add", opts: map[string]string{"file": "v.map", "picture": "p.png", "index": "i.png"},
			files:  map[string]chat.File{"file": file("v.map", other.Map), "picture": file("p.png", other.Picture), "index": file("i.png", other.Index)},
			public: true, want: "Added **Strip Village**"},
		{command: "admin map list", want: "This server's maps (2), played with /risk new map:NAME:\n• **Strip Town**: 7 territories, by \"The tests\"\n• **Strip Village**: 5 territories"},
		{command: "admin map show", opts: map[string]string{"name": "strip town"}, want: "**West** (+2): Land 1, Land 2, Land 3",
			then: func(t *testing.T) {
				if previews != 1 {
					t.Errorf("%d previews drawn, want 1", previews)
				}
			}},
		{command: "admin map show", opts: map[string]string{"name": "Harbour"}, refused: true, want: "This server has no map of that name"},
		{command: "admin map rename", opts: map[string]string{"name": "strip town", "to": "Strip Village"}, refused: true, want: "This server has a map called **Strip Village** already"},
		{command: "admin map rename", opts: map[string]string{"name": "strip town", "to": " Harbour "}, public: true,
			want: `The map "strip town" is now called **Harbour**: /risk new map:Harbour.`},
		{command: "admin map remove", opts: map[string]string{"name": "harbour"}, refused: true, want: "**Harbour** is played by the match in {{channel:test:m}}",
			then: nil},
		{command: "admin map remove", opts: map[string]string{"name": "Harbour"}, public: true, want: "Removed **Harbour**",
			then: nil},
		{command: "admin map remove", opts: map[string]string{"name": "Harbour"}, refused: true, want: "This server has no map of that name"},
	} {
		t.Run(fmt.Sprintf("%d %s %v", i, s.command, s.opts), func(t *testing.T) {
			e.t = t
			if strings.Contains(s.want, "is played by the match") {
				// A lobby of the server set to play it.
				meta := hosted.Meta{Host: "test:ann", Server: server, Settings: hosted.DefaultSettings()}
				meta.Settings.Options.Map = played
				if _, err := e.store.Create(context.Background(), "test:m", meta.Encode(), e.now); err != nil {
					t.Fatal(err)
				}
			}
			if strings.HasPrefix(s.want, "Removed") {
				e.endAll(t, "test:m")
			}
			who := s.who
			if who == "" {
				who = "Dan"
			}
			m, err := e.answer(chat.Request{Channel: "test:a", User: chat.User{ID: "test:" + strings.ToLower(who), Name: who}, Command: s.command,
				Options: s.opts, Files: s.files, Server: server, Admin: who == "Dan"})
			got := m.Text
			r, refused := err.(*chat.Refusal)
			if refused {
				got = r.Error()
			} else if err != nil {
				t.Fatal(err)
			}
			if refused != s.refused || (!refused && m.Private == s.public) {
				t.Errorf("refused %v, private %v; want refused %v, public %v: %q", refused, m.Private, s.refused, s.public, got)
			}
			if !strings.Contains(got, s.want) {
				t.Errorf("got %q, want %q in it", got, s.want)
			}
			if s.then != nil {
				s.then(t)
			}
		})
	}
	if got, refused := e.do(chat.Request{Channel: "dm", User: chat.User{ID: "test:dan"}, Command: "admin map list"}); !refused || !strings.Contains(got, "A library of maps belongs to a server.") {
		t.Errorf("a library outside a server: %q", got)
	}
}

// endAll abandons the open match of channel.
func (e *env) endAll(t *testing.T, channel string) {
	t.Helper()
	row, err := e.store.Active(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Save(context.Background(), row.ID, row.Version, abandon, e.now); err != nil {
		t.Fatal(err)
	}
}

// TestResolve: a map typed for /risk new is a built-in board by its name,
// or a map of the server's library by its own, whatever its case; a name
// a few letters off finds the nearest.
func TestResolve(t *testing.T) {
	e := newEnv(t, "test:")
	lib := e.sv.Library()
	ctx := context.Background()
	m, _, err := lib.Add(ctx, "test:s", Import{Files: mapfile.Files(storetest.StripMap(t, "Old Harbour", 6))})
	if err != nil {
		t.Fatal(err)
	}
	builtin := command.Maps()[0]
	for _, tt := range []struct {
		scope, typed string
		want         string
		ok           bool
	}{
		{"test:s", strings.ToUpper(builtin), builtin, true},
		{"test:s", " old harbour ", m.Engine(), true},
		{"test:other", "Old Harbour", "", false},
		{"", "Old Harbour", "", false},
		{"test:s", "Harbor", "", false},
	} {
		got, ok, err := lib.Resolve(ctx, tt.scope, tt.typed)
		if got != tt.want || ok != tt.ok || err != nil {
			t.Errorf("Resolve(%q, %q): got %q, %v, %v; want %q, %v", tt.scope, tt.typed, got, ok, err, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct{ scope, typed, want string }{
		{"test:s", "old harbor", "Old Harbour"},
		{"test:s", "harbour", "Old Harbour"},
		{"test:s", "Atlantis", ""},
		{"", "old harbor", ""},
	} {
		if got, err := lib.Nearest(ctx, tt.scope, tt.typed); got != tt.want || err != nil {
			t.Errorf("Nearest(%q, %q): got %q, %v; want %q", tt.scope, tt.typed, got, err, tt.want)
		}
	}
	// The grammar refuses braces in any option; a library's name from
	// elsewhere (the page, risk map import) is refused them too.
	if err := CheckMapName("{Town}"); err == nil || err.Error() != `a map's name cannot contain { or }: "{Town}"` {
		t.Errorf("a name with braces: %v", err)
	}
	if err := lib.Need(ctx, m.Engine()); err != nil {
		t.Errorf("Need of a map in the library: %v", err)
	}
	if err := lib.Need(ctx, builtin); err != nil {
		t.Errorf("Need of a built-in board: %v", err)
	}
}
