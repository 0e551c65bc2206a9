package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// The library of maps from the command line (risk map import, list,
// rename, remove, export; show for a library map): the rules are
// server.Library's, the database the other commands'.

// defaultScope is the library risk map works on unless --scope says
// another: the console's, as risk console plays it.
const defaultScope = "console"

// scopeFlag defines --scope on fs.
func scopeFlag(fs *flagSet) *string {
	return fs.String("scope", defaultScope, "the library: `SCOPE` console (risk console's), web (the page's) or discord:SERVER_ID (a Discord server's)")
}

// openLibrary opens the database of --db (created if it is missing, with
// create) and its library.
func openLibrary(ctx context.Context, e env, path *string, create bool) (store, *server.Library, error) {
	if err := defaultDB(path, e.getenv); err != nil {
		return nil, nil, err
	}
	open := openExisting
	if create {
		open = openStore
	}
	db, err := open(ctx, *path)
	if err != nil {
		return nil, nil, err
	}
	return db, &server.Library{Store: db, Now: time.Now}, nil
}

// onLibrary runs a library's subcommand that takes n arguments (want
// says which, when they are not given): it parses its flags (--db and
// --scope, which it adds, among them), opens the database of --db and
// runs run on its library, in the scope of --scope, with the arguments.
// A refusal of the library is worded for the terminal (libraryError).
func onLibrary(ctx context.Context, e env, fs *flagSet, n int, want string, run func(lib *server.Library, scope string, args []string) error) error {
	path := dbFlag(fs, "")
	scope := scopeFlag(fs)
	if err := parseFlags(fs, interspersed(fs, e.args)); err != nil {
		return err
	}
	if fs.NArg() != n {
		return usageError("%s", want)
	}
	db, lib, err := openLibrary(ctx, e, path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	return libraryError(run(lib, *scope, fs.Args()), *scope)
}

// libraryError words a library's refusal for the terminal.
func libraryError(err error, scope string) error {
	var conflict *storage.MapConflictError
	var inUse *server.InUseError
	var read *server.MapError
	switch {
	case errors.As(err, &conflict) && conflict.Same:
		return fmt.Errorf("this map is in the library of %s already, named %q: the same files are one map", scope, conflict.Name)
	case errors.As(err, &conflict):
		return fmt.Errorf("the library of %s has a map named %q already: choose another name (--name)", scope, conflict.Name)
	case errors.As(err, &inUse):
		return fmt.Errorf("map %q is played by the match in %s: remove it once that match is over", inUse.Name, inUse.Channel)
	case errors.As(err, &read):
		return errors.New(read.Message())
	case errors.Is(err, storage.ErrNoMap):
		return fmt.Errorf("the library of %s has no such map (risk map list --scope %s lists them)", scope, scope)
	}
	return err
}

// runMapImport is `risk map import FILE.map|FILE.zip [--name N] [--author A] [--mutual] [--scope S]`.
func runMapImport(ctx context.Context, e env) error {
	fs := newFlags(e, "map import")
	path := dbFlag(fs, "created if it is missing")
	name := fs.String("name", "", "what the library calls the map (default: its title)")
	author := fs.String("author", "", "who made it (default: the file's author)")
	mutual := fs.Bool("mutual", false, "make a border that one territory lists and its neighbour does not two-way, instead of refusing the map")
	scope := scopeFlag(fs)
	if err := parseFlags(fs, interspersed(fs, e.args)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one map file: FILE.map or FILE.zip")
	}
	in := server.Import{Name: *name, Author: *author, Mutual: *mutual}
	b, err := mapfile.ReadPath(fs.Arg(0), mapfile.Options{Mutual: *mutual, Name: *name})
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "mapfile: "))
	}
	in.Files = b.Files
	db, lib, err := openLibrary(ctx, e, path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	m, _, err := lib.Add(ctx, *scope, in)
	if err != nil {
		return libraryError(err, *scope)
	}
	fmt.Fprintf(e.stdout, "added %q to the library of %s: %d territories, %d continents, hash %s\n",
		m.Name, m.Scope, b.Map.Len(), len(b.Map.Continents), m.Hash[:16])
	return nil
}

// runMapList is `risk map list [--scope S]`.
func runMapList(ctx context.Context, e env) error {
	fs := newFlags(e, "map list")
	path := dbFlag(fs, "")
	scope := scopeFlag(fs)
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	db, lib, err := openLibrary(ctx, e, path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	ms, err := lib.List(ctx, *scope)
	if err != nil {
		return err
	}
	if len(ms) == 0 {
		fmt.Fprintf(e.stdout, "the library of %s has no maps (risk map import adds one)\n", *scope)
		return nil
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTERRITORIES\tAUTHOR\tHASH\tADDED")
	for _, m := range ms {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\n", m.Name, m.Territories, m.Author, m.Hash[:16], m.Added.Format(time.DateOnly))
	}
	return w.Flush()
}

// showLibraryMap prints a map of a library, for risk map show.
func showLibraryMap(ctx context.Context, e env, path *string, scope, name string) (*state.Map, error) {
	db, lib, err := openLibrary(ctx, e, path, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	m, b, err := lib.Find(ctx, scope, name)
	if err != nil {
		return nil, libraryError(err, scope)
	}
	by := ""
	if m.Author != "" {
		by = " by " + m.Author
	}
	fmt.Fprintf(e.stdout, "%s (library of %s, engine name %s)%s\n", m.Name, scope, m.Engine(), by)
	printMap(e, b.Map)
	return b.Map, nil
}

// runMapRename is `risk map rename OLD NEW [--scope S]`.
func runMapRename(ctx context.Context, e env) error {
	fs := newFlags(e, "map rename")
	return onLibrary(ctx, e, fs, 2, "want the map's name and its new name", func(lib *server.Library, scope string, args []string) error {
		m, err := lib.Rename(ctx, scope, args[0], args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "renamed %q to %q in the library of %s\n", args[0], m.Name, scope)
		return nil
	})
}

// runMapRemove is `risk map remove NAME [--scope S]`.
func runMapRemove(ctx context.Context, e env) error {
	fs := newFlags(e, "map remove")
	return onLibrary(ctx, e, fs, 1, "want one map name", func(lib *server.Library, scope string, args []string) error {
		m, err := lib.Remove(ctx, scope, args[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "removed %q from the library of %s\n", m.Name, scope)
		return nil
	})
}

// runMapExport is `risk map export NAME DIR [--scope S]`.
func runMapExport(ctx context.Context, e env) error {
	fs := newFlags(e, "map export")
	return onLibrary(ctx, e, fs, 2, "want the map's name and a folder", func(lib *server.Library, scope string, args []string) error {
		m, b, err := lib.Find(ctx, scope, args[0])
		if err != nil {
			return err
		}
		if err := os.MkdirAll(args[1], 0o755); err != nil {
			return err
		}
		file, err := b.WriteDir(args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %q to %s (hash %s)\n", m.Name, file, m.Hash[:16])
		return nil
	})
}

// interspersed puts the flags of args before the other arguments, so that
// they may come after them ("risk map import FILE --name N"): a flag's
// value is the argument after it unless it is written flag=value or the
// flag (of fs) is a boolean.
func interspersed(fs *flagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flags = append(flags, a)
			takes := false // whether the flag takes the next argument
			if f := fs.Lookup(strings.TrimLeft(a, "-")); f != nil {
				b, ok := f.Value.(interface{ IsBoolFlag() bool })
				takes = !(ok && b.IsBoolFlag())
			}
			if takes && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return append(flags, rest...)
}

// isBuiltin reports whether name is a board risk map show prints without
// a database.
func isBuiltin(name string) bool {
	_, err := engine.LoadMap(name)
	return err == nil
}
