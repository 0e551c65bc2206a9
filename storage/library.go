package storage

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
)

// A server's library of maps (issue 44): the maps its admins imported, by
// the name they gave each, in a scope (the chat server: "discord:1234",
// the page's "web", the console's "console"). The files of each map are
// stored once, by their content hash, and kept for good: a match names its
// map by that hash (engine.LibraryName), so a finished match still
// replays, and a match keeps its map whatever the library does later.

// MapFiles are a map's three files as imported and checked (mapfile.Files
// in its canonical form): the .map text, the picture players see, and the
// index image whose pixels name the territories.
type MapFiles struct {
	Map     []byte `json:"map"`
	Picture []byte `json:"picture"`
	Index   []byte `json:"index"`
}

// Size is the bytes of the three files together.
func (f MapFiles) Size() int { return len(f.Map) + len(f.Picture) + len(f.Index) }

// LibraryMap is a map of a scope's library.
type LibraryMap struct {
	Scope string
	// Name is what the scope's people call it: unique in the scope,
	// whatever its case.
	Name string
	// Hash is the hex SHA-256 of its canonical files: one map per hash in
	// a scope, and its engine name (Engine).
	Hash string
	// Title and Author are the map's, from its file or as imported.
	Title, Author string
	// Territories is how many it has; Size is its files' bytes. They are
	// what a list of maps shows, without reading the files.
	Territories int
	Size        int
	// Added is when it was imported.
	Added time.Time
}

// Engine is the map's name for the engine and in a match's options.
func (m LibraryMap) Engine() string { return engine.LibraryName(m.Hash) }

// ErrNoMap: the library has no map of that name (or no files of that hash).
var ErrNoMap = errors.New("storage: no such map")

// MapConflictError refuses to add or rename a map: its name is taken in
// the scope, or (Same) the very same files are there already, under Name.
type MapConflictError struct {
	Name string
	Same bool
}

// Error says which map is in the way.
func (e *MapConflictError) Error() string {
	if e.Same {
		return fmt.Sprintf("storage: this map is in the library already, named %q", e.Name)
	}
	return fmt.Sprintf("storage: the library has a map named %q already", e.Name)
}

// MaxMapName is the longest name of a library map, in characters: it fits
// an autocomplete choice with the map's size beside it.
const MaxMapName = 40

// FoldName is a map's name as the library compares names: in lower case,
// so that "Old Town" and "old town" are one map.
func FoldName(name string) string { return strings.ToLower(name) }

// CheckLibraryMap refuses a map a store cannot take: no scope or name, a
// name too long, a hash that is not hex SHA-256, or files missing.
func CheckLibraryMap(m LibraryMap, f MapFiles) error {
	switch {
	case m.Scope == "":
		return errors.New("storage: add map: no scope")
	case !isHex(m.Hash, 64):
		return fmt.Errorf("storage: add map: hash %q is not hex SHA-256", m.Hash)
	case len(f.Map) == 0 || len(f.Picture) == 0 || len(f.Index) == 0:
		return errors.New("storage: add map: a file is missing")
	case m.Territories < 1:
		return fmt.Errorf("storage: add map: %d territories", m.Territories)
	}
	return CheckMapName(m.Name)
}

// CheckMapName refuses a name no library map may have: empty, too long,
// or not plain text on one line.
func CheckMapName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("storage: a map needs a name")
	case !utf8.ValidString(name):
		return errors.New("storage: a map's name must be text")
	case utf8.RuneCountInString(name) > MaxMapName:
		return fmt.Errorf("storage: a map's name has at most %d characters", MaxMapName)
	case strings.TrimSpace(name) != name:
		return errors.New("storage: a map's name neither begins nor ends with a space")
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return errors.New("storage: a map's name is one line of text")
		}
	}
	return nil
}

// LibraryColumns are the columns of a library map that ScanLibrary reads,
// in order.
const LibraryColumns = `scope, name, hash, title, author, territories, size, added_at`

// ScanLibraryMap reads the LibraryColumns of a row.
func ScanLibraryMap(r Scanner) (LibraryMap, error) {
	var m LibraryMap
	var added int64
	err := r.Scan(&m.Scope, &m.Name, &m.Hash, &m.Title, &m.Author, &m.Territories, &m.Size, &added)
	m.Added = fromMillis(added)
	return m, err
}

// ScanLibrary reads every row of rows with ScanLibraryMap.
func ScanLibrary(rows Rows) ([]LibraryMap, error) {
	return scanAll(rows, ScanLibraryMap)
}

// NeedMap makes the library map that setup plays on known to the engine
// (engine.AddMap) before the game is rebuilt: a process that has not seen
// the map yet (another of a fleet, or one restarted) reads its files with
// files, by the map's engine name. Other maps need nothing.
func NeedMap(setup *engine.Setup, files func(name string) (MapFiles, error)) error {
	if setup == nil || !engine.IsLibraryName(setup.Options.Map) {
		return nil
	}
	name := setup.Options.Map
	if _, err := engine.LoadMap(name); err == nil {
		return nil
	}
	f, err := files(name)
	if err != nil {
		return fmt.Errorf("storage: the files of map %s: %w", name, err)
	}
	m, err := readMap(f)
	if err != nil {
		return fmt.Errorf("storage: map %s: %w", name, err)
	}
	if m.Name != name {
		return fmt.Errorf("storage: the files stored as map %s are map %s", name, m.Name)
	}
	return engine.AddMap(m)
}

// MapOf returns the files of the library map setup plays on, read with
// files, for an export: whoever imports or replays the export elsewhere
// needs them. It is nil for a built-in or generated map.
func MapOf(setup *engine.Setup, files func(name string) (MapFiles, error)) (*MapFiles, error) {
	if setup == nil || !engine.IsLibraryName(setup.Options.Map) {
		return nil, nil
	}
	f, err := files(setup.Options.Map)
	if err != nil {
		return nil, fmt.Errorf("storage: the files of map %s: %w", setup.Options.Map, err)
	}
	return &f, nil
}

// ImportedMap checks the map files an export carries (e.Map) against the
// map its setup names and makes the map known to the engine; it returns
// the hash to store the files under, or "" when the export carries none.
// Files that are not the map the setup names are refused: an export
// cannot bring another board under a known name.
func ImportedMap(e *Export) (hash string, err error) {
	if e.Map == nil {
		return "", nil
	}
	name := e.Record.Setup.Options.Map
	if !engine.IsLibraryName(name) {
		return "", fmt.Errorf("storage: the export carries map files, but its match plays on %q", name)
	}
	b, err := mapfile.Read(mapfile.Files(*e.Map), mapfile.Options{})
	if err != nil {
		return "", fmt.Errorf("storage: the export's map: %w", err)
	}
	if b.Map.Name != name {
		return "", fmt.Errorf("storage: the export's map files are map %s, not %s", b.Map.Name, name)
	}
	if err := engine.AddMap(b.Map); err != nil {
		return "", err
	}
	return b.Hash, nil
}
