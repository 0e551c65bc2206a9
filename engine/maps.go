package engine

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/riskbot/riskbot/assets"
	"github.com/riskbot/riskbot/state"
)

// builtinMaps parses the embedded maps once; the result never changes.
var builtinMaps = sync.OnceValues(func() (map[string]*state.Map, error) {
	out := map[string]*state.Map{}
	files, err := fs.Glob(assets.Maps, "maps/*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := fs.ReadFile(assets.Maps, f)
		if err != nil {
			return nil, fmt.Errorf("engine: read %s: %w", f, err)
		}
		m, err := state.ParseMap(data)
		if err != nil {
			return nil, fmt.Errorf("engine: embedded %s: %w", f, err)
		}
		if want := strings.TrimSuffix(path.Base(f), ".json"); m.Name != want {
			return nil, fmt.Errorf("engine: embedded %s is named %q", f, m.Name)
		}
		out[m.Name] = m
	}
	return out, nil
})

// LoadMap returns the built-in map with this name, or the generated map it
// names (see MatchMap). Maps are shared and must not be changed.
func LoadMap(name string) (*state.Map, error) {
	if m, ok, err := generated.load(name); ok {
		return m, err
	}
	if IsLibraryName(name) {
		if m := library.get(name); m != nil {
			return m, nil
		}
		return nil, fmt.Errorf("%w %q: a library map that this process has not loaded", state.ErrNoSuchMap, name)
	}
	maps, err := builtinMaps()
	if err != nil {
		return nil, err
	}
	m, ok := maps[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (have: %s)", state.ErrNoSuchMap, name, strings.Join(MapNames(), ", "))
	}
	return m, nil
}

// MapNames lists the built-in maps.
func MapNames() []string {
	maps, _ := builtinMaps()
	var names []string
	for n := range maps {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// libraryPrefix begins the name of every map of a server's library.
const libraryPrefix = "lib-"

// LibraryName is the engine's name of a library map whose content hash
// (hex SHA-256 of its canonical files) is hash: a match names its map by
// content, so it keeps the map it started with whatever the library does.
func LibraryName(hash string) string {
	return libraryPrefix + hash[:min(len(hash), 16)]
}

// IsLibraryName reports whether name is one LibraryName makes.
func IsLibraryName(name string) bool {
	rest, ok := strings.CutPrefix(name, libraryPrefix)
	if !ok || len(rest) != 16 {
		return false
	}
	for _, c := range rest {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// AddMap makes a library map known to LoadMap under its name (LibraryName
// of its hash). The stores add a match's map before they decode it.
// Names are content addresses, so adding is idempotent and a name never
// changes its map: the registry is a memo, not a setting.
func AddMap(m *state.Map) error {
	if !IsLibraryName(m.Name) {
		return fmt.Errorf("engine: add map %q: not a library name", m.Name)
	}
	library.put(m)
	return nil
}

// mapLibrary holds the library maps this process has loaded, by name.
type mapLibrary struct {
	mu   sync.RWMutex
	maps map[string]*state.Map
}

var library = &mapLibrary{maps: map[string]*state.Map{}}

func (l *mapLibrary) get(name string) *state.Map {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.maps[name]
}

func (l *mapLibrary) put(m *state.Map) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.maps[m.Name]; !ok {
		l.maps[m.Name] = m
	}
}
