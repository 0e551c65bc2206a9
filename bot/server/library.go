package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// A server's library of maps (issue 44): the boards its admins imported
// (/risk-admin map add, the page's upload, risk map import), played with
// /risk new map:NAME. The chat-neutral part is here, in Library, so that
// the command line keeps the same rules as the chat; the admins'
// commands (/risk-admin map ...) answer with it in admin.go's words.

// LibraryStore is what a library needs of the database.
type LibraryStore interface {
	AddMap(ctx context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error
	Maps(ctx context.Context, scope string) ([]storage.LibraryMap, error)
	LibraryMap(ctx context.Context, scope, name string) (storage.LibraryMap, error)
	MapFiles(ctx context.Context, name string) (storage.MapFiles, error)
	RenameMap(ctx context.Context, scope, old, new string) error
	RemoveMap(ctx context.Context, scope, name string) error
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
}

// Library keeps the maps of the scopes (chat servers) of one database.
type Library struct {
	Store LibraryStore
	// Prefix is the channels whose open matches may use a map (the bot's
	// scope; "" for all): removing a map they use is refused.
	Prefix string
	Now    func() time.Time
}

// Import is a map to add: its files, or a zip of them, and how to take it.
type Import struct {
	Files mapfile.Files
	// Zip, if set, holds the three files instead of Files.
	Zip []byte
	// Name is what the library calls it (default: its title); Author is
	// who made it (default: the file's author).
	Name, Author string
	// Mutual makes one-way borders two-way instead of refusing the map.
	Mutual bool
}

// InUseError refuses to remove a map that a match not yet over plays or
// is set to play.
type InUseError struct {
	Name    string
	Channel string
}

// Error says which channel's match uses the map.
func (e *InUseError) Error() string {
	return fmt.Sprintf("bot: map %q is used by the match in %s: remove it once that match is over", e.Name, e.Channel)
}

// MapError is a map's files refused by mapfile: its message names each
// line or territory at fault.
type MapError struct{ Err error }

// Error is mapfile's message.
func (e *MapError) Error() string { return e.Err.Error() }

// Unwrap returns mapfile's error.
func (e *MapError) Unwrap() error { return e.Err }

// Message is mapfile's message without its package's prefix, for people.
func (e *MapError) Message() string { return strings.TrimPrefix(e.Err.Error(), "mapfile: ") }

// NameError refuses a name a library map may not have.
type NameError struct {
	Msg string
	// Say, if set, is Msg as the catalogue words it (lang.Worded).
	Say lang.Msg
}

// Message is the refusal as the catalogue words it (lang.Worded).
func (e *NameError) Message() lang.Msg {
	if e.Say.IsZero() {
		return lang.M("chat.as-is", "Text", lang.Text(e.Msg))
	}
	return e.Say
}

// nameError is a NameError the catalogue words.
func nameError(m lang.Msg) *NameError { return &NameError{Msg: m.String(), Say: m} }

// Error says why.
func (e *NameError) Error() string { return e.Msg }

// Add checks a map (mapfile's refusals come back as they are: each names
// its line or territory) and adds it to scope's library. The same files
// there already, or the name taken, is a *storage.MapConflictError and
// changes nothing.
func (l *Library) Add(ctx context.Context, scope string, in Import) (storage.LibraryMap, *mapfile.Board, error) {
	o := mapfile.Options{Mutual: in.Mutual, Name: in.Name}
	var b *mapfile.Board
	var err error
	if in.Zip != nil {
		b, err = mapfile.ReadZip(in.Zip, o)
	} else {
		b, err = mapfile.Read(in.Files, o)
	}
	if err != nil {
		return storage.LibraryMap{}, nil, &MapError{err}
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = b.Title
	}
	if err := CheckMapName(name); err != nil {
		return storage.LibraryMap{}, nil, err
	}
	author := strings.TrimSpace(in.Author)
	if author == "" {
		author = b.Author
	}
	m := storage.LibraryMap{Scope: scope, Name: name, Hash: b.Hash, Title: b.Title, Author: author, Territories: b.Map.Len()}
	if err := l.Store.AddMap(ctx, m, storage.MapFiles(b.Files), l.Now()); err != nil {
		return storage.LibraryMap{}, nil, err
	}
	if err := engine.AddMap(b.Map); err != nil {
		return storage.LibraryMap{}, nil, err
	}
	m.Size, m.Added = storage.MapFiles(b.Files).Size(), l.Now().UTC().Truncate(time.Millisecond)
	return m, b, nil
}

// CheckMapName refuses a name a library map may not have: one the
// stores refuse, or one of a built-in board, which map:NAME would mean
// instead.
func CheckMapName(name string) error {
	if err := storage.CheckMapName(name); err != nil {
		return &NameError{Msg: strings.TrimPrefix(err.Error(), "storage: ")}
	}
	if strings.ContainsAny(name, "{}") {
		// A name is shown in chat, where braces are the bot's markup.
		return nameError(lang.M("server.map.name-braces", "Name", lang.Text(strconv.Quote(name))))
	}
	if slices.Contains(command.Maps(), storage.FoldName(name)) || engine.IsLibraryName(storage.FoldName(name)) {
		return nameError(lang.M("server.map.name-builtin", "Name", lang.Text(strconv.Quote(name))))
	}
	return nil
}

// List lists scope's maps by name.
func (l *Library) List(ctx context.Context, scope string) ([]storage.LibraryMap, error) {
	return l.Store.Maps(ctx, scope)
}

// Find returns scope's map named name (whatever its case) with its board,
// known to the engine from then on; storage.ErrNoMap if there is none.
func (l *Library) Find(ctx context.Context, scope, name string) (storage.LibraryMap, *mapfile.Board, error) {
	m, err := l.Store.LibraryMap(ctx, scope, name)
	if err != nil {
		return m, nil, err
	}
	b, err := l.Board(ctx, m.Engine())
	return m, b, err
}

// Board reads the board whose engine name is name from its stored files
// and makes it known to the engine.
func (l *Library) Board(ctx context.Context, name string) (*mapfile.Board, error) {
	f, err := l.Store.MapFiles(ctx, name)
	if err != nil {
		return nil, err
	}
	b, err := mapfile.Read(mapfile.Files(f), mapfile.Options{})
	if err != nil {
		return nil, fmt.Errorf("bot: the stored map %s: %w", name, err)
	}
	if b.Map.Name != name {
		return nil, fmt.Errorf("bot: the files stored as map %s are map %s", name, b.Map.Name)
	}
	return b, engine.AddMap(b.Map)
}

// Need makes the library map a match is set to play (its options' map,
// an engine name) known to the engine, from the store if this process
// has not read it yet; other maps need nothing.
func (l *Library) Need(ctx context.Context, name string) error {
	if !engine.IsLibraryName(name) {
		return nil
	}
	if _, err := engine.LoadMap(name); err == nil {
		return nil
	}
	_, err := l.Board(ctx, name)
	return err
}

// Rename renames scope's map old to new.
func (l *Library) Rename(ctx context.Context, scope, old, new string) (storage.LibraryMap, error) {
	new = strings.TrimSpace(new)
	if err := CheckMapName(new); err != nil {
		return storage.LibraryMap{}, err
	}
	if err := l.Store.RenameMap(ctx, scope, old, new); err != nil {
		return storage.LibraryMap{}, err
	}
	return l.Store.LibraryMap(ctx, scope, new)
}

// Remove removes scope's map named name, unless a match of the scope not
// yet over plays it or is set to (an *InUseError naming its channel).
// Its files stay: the matches played on it replay.
func (l *Library) Remove(ctx context.Context, scope, name string) (storage.LibraryMap, error) {
	m, err := l.Store.LibraryMap(ctx, scope, name)
	if err != nil {
		return m, err
	}
	open, err := l.Store.OpenMatches(ctx, l.Prefix)
	if err != nil {
		return m, err
	}
	for _, o := range open {
		meta, err := hosted.DecodeMeta(o.Meta)
		if err != nil || meta.Server != scope {
			continue
		}
		played := meta.Settings.Options.Map
		if o.Setup != nil {
			played = o.Setup.Options.Map
		}
		if played == m.Engine() {
			return m, &InUseError{Name: m.Name, Channel: o.Channel}
		}
	}
	return m, l.Store.RemoveMap(ctx, scope, m.Name)
}

// Nearest returns the name of scope's library map that typed most likely
// means (one whose name holds it, or is a few letters from it), or "".
func (l *Library) Nearest(ctx context.Context, scope, typed string) (string, error) {
	if scope == "" {
		return "", nil
	}
	ms, err := l.Store.Maps(ctx, scope)
	if err != nil {
		return "", err
	}
	want := storage.FoldName(strings.TrimSpace(typed))
	best, bestD := "", 1<<30
	for _, m := range ms {
		name := storage.FoldName(m.Name)
		d := state.EditDistance(want, name)
		if want != "" && strings.Contains(name, want) {
			d = 0
		}
		if d < bestD {
			best, bestD = m.Name, d
		}
	}
	if bestD <= max(2, len(want)/3) {
		return best, nil
	}
	return "", nil
}

// Resolve turns a map typed for /risk new (map:NAME) into the name a
// match's options hold: a built-in board's as it is, a map of scope's
// library as its engine name (known to the engine from then on). ok is
// false for a name that is neither.
func (l *Library) Resolve(ctx context.Context, scope, typed string) (name string, ok bool, err error) {
	typed = strings.TrimSpace(typed)
	if slices.Contains(command.Maps(), strings.ToLower(typed)) {
		return strings.ToLower(typed), true, nil
	}
	if scope == "" {
		return "", false, nil
	}
	m, err := l.Store.LibraryMap(ctx, scope, typed)
	if errors.Is(err, storage.ErrNoMap) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if err := l.Need(ctx, m.Engine()); err != nil {
		return "", false, err
	}
	return m.Engine(), true, nil
}
