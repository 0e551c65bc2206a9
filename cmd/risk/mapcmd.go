package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// runMap is `risk map check FILE` and `risk map show NAME [--json]`.
func runMap(_ context.Context, e env) error {
	if len(e.args) == 0 {
		return usageError("want 'map check FILE' or 'map show NAME [--json]'")
	}
	switch e.args[0] {
	case "check":
		fs := newFlags(e, "map check", "FILE\n\nValidates a map file: the project's JSON format, or a Domination .map file.")
		if err := parseFlags(fs, e.args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return usageError("want one map file")
		}
		m, err := readMapFile(fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: ok: %q, %d territories, %d continents, %d borders\n",
			fs.Arg(0), m.Name, m.Len(), len(m.Continents), len(m.Borders()))
		return nil
	case "show":
		fs := newFlags(e, "map show", "NAME [--json]")
		asJSON := fs.Bool("json", false, "print the map as JSON")
		// Accept the flag before or after the name.
		args := e.args[1:]
		var rest []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				rest = append([]string{a}, rest...)
			} else {
				rest = append(rest, a)
			}
		}
		if err := parseFlags(fs, rest); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return usageError("want one map name (built in: %s)", strings.Join(engine.MapNames(), ", "))
		}
		m, err := engine.LoadMap(fs.Arg(0))
		if err != nil {
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
	return usageError("unknown map command %q (want check or show)", e.args[0])
}

func readMapFile(path string) (*state.Map, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(path), ".map") {
		return state.ParseDominationMap(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), data)
	}
	return state.ParseMap(data)
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
