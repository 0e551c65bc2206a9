package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
)

// mapCommands lists the subcommands of risk map.
func mapCommands() map[string]subcommand {
	return map[string]subcommand{
		"check":    {"validate a map file: the project's JSON format, or a Domination .map (or .zip) with its images", runMapCheck},
		"show":     {"print a built-in map or a library's: its continents, territories and borders", runMapShow},
		"generate": {"print the capitals map generated from a seed", runMapGenerate},
		"import":   {"check a Domination map (.map with its images, or .zip) and add it to a library", runMapImport},
		"list":     {"list the maps of a library", runMapList},
		"rename":   {"rename a map of a library", runMapRename},
		"remove":   {"remove a map from a library", runMapRemove},
		"export":   {"write a map of a library back as its .map file and images", runMapExport},
	}
}

// runMap is `risk map COMMAND ...`: check, show, generate, and the library.
func runMap(ctx context.Context, e env) error {
	cmds := mapCommands()
	list := ""
	for _, n := range slices.Sorted(maps.Keys(cmds)) {
		list += fmt.Sprintf("  %-9s %s\n", n, cmds[n].summary)
	}
	fs := newFlags(e, "map", "{commands}", list)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError("want check, show, generate, import, list, rename, remove or export (risk map -h says more)")
	}
	c, ok := cmds[fs.Arg(0)]
	if !ok {
		return usageError("unknown map command %q (want check, show, generate, import, list, rename, remove or export)", fs.Arg(0))
	}
	e.args = fs.Args()[1:]
	return c.run(ctx, e)
}

// runMapCheck is `risk map check [--mutual] [--png PREVIEW] FILE`.
func runMapCheck(ctx context.Context, e env) error {
	fs := newFlags(e, "map check")
	mutual := fs.Bool("mutual", false, "make a border one territory lists but its neighbour does not two-way, instead of refusing the map")
	pngPath := fs.String("png", "", "also write a preview of the map, unowned with its names and army markers, to this PNG file")
	if err := parseFlags(fs, interspersed(fs, e.args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one map file")
	}
	path := fs.Arg(0)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".map", ".zip":
		b, err := mapfile.ReadPath(path, mapfile.Options{Mutual: *mutual})
		if err != nil {
			return err
		}
		m := b.Map
		by := ""
		if b.Author != "" {
			by = " by " + b.Author
		}
		fmt.Fprintf(e.stdout, "%s: ok: %q%s, %d territories, %d continents, %d borders, %dx%d pixels\n  hash %s (plays as %s)\n",
			path, b.Title, by, m.Len(), len(m.Continents), len(m.Borders()), m.Art.W, m.Art.H, b.Hash, m.Name)
		return writePreview(ctx, e, m, *pngPath)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := state.ParseMap(data)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: ok: %q, %d territories, %d continents, %d borders\n",
		path, m.Name, m.Len(), len(m.Continents), len(m.Borders()))
	return nil
}

// runMapShow is `risk map show NAME [--json]`.
func runMapShow(ctx context.Context, e env) error {
	fs := newFlags(e, "map show", "{maps}", strings.Join(engine.MapNames(), ", "))
	asJSON := fs.Bool("json", false, "print the map as JSON")
	pngPath := fs.String("png", "", "also write a preview of the map, unowned with its names, to this PNG file")
	path := dbFlag(fs, "for a library's map")
	scope := scopeFlag(fs)
	// Accept the flag before or after the name.
	if err := parseFlags(fs, interspersed(fs, e.args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one map name (built in: %s)", strings.Join(engine.MapNames(), ", "))
	}
	if !isBuiltin(fs.Arg(0)) && !*asJSON {
		m, err := showLibraryMap(ctx, e, path, *scope, fs.Arg(0))
		if err != nil {
			return err
		}
		return writePreview(ctx, e, m, *pngPath)
	}
	m, err := engine.LoadMap(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := writePreview(ctx, e, m, *pngPath); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m.Describe())
	}
	printMap(e, m)
	return nil
}

// runMapGenerate is `risk map generate --seed N [--size S] [--json]`.
func runMapGenerate(_ context.Context, e env) error {
	fs := newFlags(e, "map generate")
	seed := fs.Uint64("seed", 0, "the seed (required)")
	size := fs.String("size", "normal", "small (12-18 territories), normal (20-28) or large (30-40)")
	asJSON := fs.Bool("json", false, "print the map as JSON")
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	if !fs.given("seed") {
		return usageError("want --seed N")
	}
	z, err := genmap.ParseSize(*size)
	if err != nil {
		return usageError("%s", strings.TrimPrefix(err.Error(), "genmap: "))
	}
	m, err := genmap.Generate(*seed, z)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m.Describe())
	}
	printGenerated(e.stdout, m)
	return nil
}

func printMap(e env, m *state.Map) {
	fmt.Fprintf(e.stdout, "%s: %d territories, %d continents, %d borders\n", m.Title, m.Len(), len(m.Continents), len(m.Borders()))
	for _, c := range m.Continents {
		fmt.Fprintf(e.stdout, "\n%s (+%d)\n", c.Name, c.Bonus)
		for _, t := range c.Territories {
			tr := m.Territories[t]
			var adj []string
			for _, a := range tr.Adj {
				adj = append(adj, m.Territories[a].Name)
			}
			fmt.Fprintf(e.stdout, "  %-22s %-8s borders %s\n", tr.Name, tr.Terrain, strings.Join(adj, ", "))
		}
	}
}

// printGenerated writes a generated map for people: its counts, the grid
// with each territory's letter, then the regions with their territories
// and the sea links.
func printGenerated(w io.Writer, m *state.Map) {
	d := m.Describe()
	forts, coasts := 0, 0
	for _, t := range m.Territories {
		if t.Fortress {
			forts++
		}
		if t.Coast {
			coasts++
		}
	}
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	fmt.Fprintf(w, "%s (%s)\n", m.Title, m.Name)
	fmt.Fprintf(w, "%d territories in %d regions, %s, %s, %s, %d on the coast, %s\n\n",
		m.Len(), len(m.Continents), count(len(d.Borders), "border", "borders"), count(len(d.SeaLinks), "sea link", "sea links"),
		count(forts, "fortress", "fortresses"), coasts, count(m.WaterBodies, "body of water", "bodies of water"))
	// The rows of open sea above and below the land are left out.
	first, last := 0, len(d.Grid.Rows)-1
	for first < last && strings.Trim(d.Grid.Rows[first], ".") == "" {
		first++
	}
	for last > first && strings.Trim(d.Grid.Rows[last], ".") == "" {
		last--
	}
	fmt.Fprintf(w, "Rows %d to %d of %d ('.' is water; the other rows are open sea):\n", first+1, last+1, len(d.Grid.Rows))
	for _, row := range d.Grid.Rows[first : last+1] {
		fmt.Fprintf(w, "  %s\n", row)
	}
	key := func(t int) string { return string(gridKey(t)) }
	for _, c := range m.Continents {
		fmt.Fprintf(w, "\n%s (+%d)\n", c.Name, c.Bonus)
		for _, t := range c.Territories {
			tr := m.Territories[t]
			var marks []string
			if tr.Fortress {
				marks = append(marks, "fortress")
			}
			if tr.Coast {
				marks = append(marks, "coast")
			}
			var adj []string
			for _, a := range tr.Adj {
				adj = append(adj, m.Territories[a].Name)
			}
			borders := "borders " + strings.Join(adj, ", ")
			if len(adj) == 0 {
				borders = "an island: reached by sea only"
			}
			fmt.Fprintf(w, "  %s %-11s %-8s %-15s %s\n", key(t), tr.Name, tr.Terrain, strings.Join(marks, ", "), borders)
		}
	}
	if len(d.SeaLinks) > 0 {
		fmt.Fprintf(w, "\nSea links (a port on either end sails to the other):\n")
		for _, l := range d.SeaLinks {
			fmt.Fprintf(w, "  %s ~ %s\n", l[0], l[1])
		}
	}
}

// gridKey is the character of territory t in the grid's rows (see
// state.GridSpec).
func gridKey(t int) byte {
	return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[t]
}

// writePreview writes map m drawn unowned with its names to path, if one
// is given: how a map's maker checks the markers and names of a map.
func writePreview(ctx context.Context, e env, m *state.Map, path string) error {
	if path == "" {
		return nil
	}
	b, err := render.New(render.Options{}).Preview(ctx, m)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote a preview of %s to %s\n", m.Title, path)
	return nil
}
