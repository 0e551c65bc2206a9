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
