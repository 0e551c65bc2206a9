package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
)

// env is what a subcommand runs with: its arguments and the standard streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// subcommand is one `risk NAME ...` command.
type subcommand struct {
	summary string
	run     func(ctx context.Context, e env) error
}

// subcommands lists every subcommand; each lives in its own file.
func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"console":    {"play a match in the terminal (no Discord needed)", runConsole},
		"discord":    {"run the Discord bot (needs DISCORD_TOKEN)", runDiscord},
		"export":     {"print a stored match as JSON", runExport},
		"import":     {"store a match exported as JSON", runImport},
		"luck":       {"each player's dice luck over an exported match, against the exact odds", runLuck},
		"map":        {"check a map file, show a built-in map, or generate one", runMap},
		"migrate":    {"copy every match from one database to another (SQLite, PostgreSQL)", runMigrate},
		"odds":       {"exact odds of attacking to the end", runOdds},
		"render":     {"render an exported match to a PNG", runRender},
		"replay":     {"draw a whole exported match: an animated GIF or a PNG of small multiples", runReplay},
		"stats":      {"a server's leaderboard or a player's stats; record finished matches' results", runStats},
		"tournament": {"play computer players against each other", runTournament},
		"verify":     {"check that an exported match's dice follow from its committed seed", runVerify},
		"version":    {"print the version", runVersion},
		"web":        {"play and watch in a browser: a local channel page, spectators, the match API", runWeb},
	}
}

// errUsage marks errors that are the user's: print them with the usage, not
// as a failure of the program.
var errUsage = errors.New("usage")

// usageError wraps a message about bad arguments.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, env{args: args, stdin: stdin, stdout: stdout, stderr: stderr, getenv: osGetenv})
}

func runEnv(ctx context.Context, e env) int {
	cmds := subcommands()
	if len(e.args) == 0 || e.args[0] == "help" || e.args[0] == "-h" || e.args[0] == "--help" {
		printUsage(e.stdout, cmds)
		return 0
	}
	c, ok := cmds[e.args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "risk: unknown command %q\n\n", e.args[0])
		printUsage(e.stderr, cmds)
		return 2
	}
	name := e.args[0]
	e.args = e.args[1:]
	if err := c.run(ctx, e); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(e.stderr, "risk %s: %s\n", name, strings.TrimPrefix(err.Error(), "usage: "))
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func printUsage(w io.Writer, cmds map[string]subcommand) {
	fmt.Fprintln(w, "risk: Risk matches in chat.\n\nUsage: risk COMMAND [flags]\n\nCommands:")
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'risk COMMAND -h' for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("risk "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: risk %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

func runVersion(_ context.Context, e env) error {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	fmt.Fprintln(e.stdout, "risk", v)
	return nil
}
