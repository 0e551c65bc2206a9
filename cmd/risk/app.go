package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
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
	// flagsMade, if set, is given every flag set the subcommand makes
	// (newFlags): tests hold each usage line to its flags.
	flagsMade func(*flagSet)
}

// subcommand is one `risk NAME ...` command.
type subcommand struct {
	summary string
	run     func(ctx context.Context, e env) error
}

// subcommands lists every subcommand; each lives in its own file.
func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"backup":     {"copy a live SQLite database to a file, consistently", runBackup},
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
	if len(e.args) > 1 && e.args[0] == "help" {
		// risk help COMMAND [SUBCOMMAND] is risk COMMAND [SUBCOMMAND] -h.
		e.args = append(slices.Clone(e.args[1:]), "-h")
	}
	if len(e.args) == 0 {
		// No command is a mistake, as a missing flag is: a script that
		// runs risk with an empty variable must not take it for success.
		fmt.Fprintln(e.stderr, "risk: say which command")
		fmt.Fprintln(e.stderr)
		printUsage(e.stderr, cmds)
		return 2
	}
	if e.args[0] == "help" || e.args[0] == "-h" || e.args[0] == "--help" {
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
		fmt.Fprintf(e.stderr, "risk %s: %s\n", name, message(name, err))
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// message is what the user reads of a subcommand's error, after "risk
// NAME: ": without the usage mark, and without a first "NAME: " that the
// package of the same name put there (risk tournament's errors come from
// package tournament, and would read "risk tournament: tournament: ...").
func message(name string, err error) string {
	s := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
	return strings.TrimPrefix(s, name+": ")
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
	fmt.Fprintln(w, "\nRun 'risk COMMAND -h' (or 'risk help COMMAND') for a command's flags.")
}

// flagSet is a subcommand's flags with its usage: what -h prints, and
// what a mistake in the flags is answered with.
type flagSet struct {
	*flag.FlagSet
	name string
	// usage is the synopsis (the flags and arguments, on one or more
	// lines), then, after a blank line, what the command does.
	usage          string
	stdout, stderr io.Writer
}

// helpFiles holds each subcommand's usage as -h prints it, in
// help/NAME.txt (risk map import's in help/map-import.txt): the synopsis,
// a blank line, then what the command does. That prose reads and is edited
// better as text than as Go strings joined line by line.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpFile is the file of helpFiles that holds subcommand name's usage.
func helpFile(name string) string {
	return "help/" + strings.ReplaceAll(name, " ", "-") + ".txt"
}

// newFlags returns the flag set of subcommand name, which reports errors
// instead of exiting, with its usage from helpFiles. vars are pairs of a
// placeholder in the usage ("{conns}") and what it stands for: what the
// code knows better than a text would (connFlags' flags, the computer
// players' levels).
func newFlags(e env, name string, vars ...string) *flagSet {
	// A file missing leaves the usage empty, which TestHelpFiles catches.
	text, _ := helpFiles.ReadFile(helpFile(name))
	usage := strings.NewReplacer(vars...).Replace(strings.TrimSuffix(string(text), "\n"))
	fs := &flagSet{FlagSet: flag.NewFlagSet("risk "+name, flag.ContinueOnError), name: name, usage: usage, stdout: e.stdout, stderr: e.stderr}
	// parseFlags prints the usage itself, to standard output when it is
	// asked for and to standard error after a mistake; the flag package
	// would print it to one writer, with the mistake first.
	fs.SetOutput(io.Discard)
	fs.FlagSet.Usage = func() {}
	if e.flagsMade != nil {
		e.flagsMade(fs)
	}
	return fs
}

// synopsis is the first paragraph of the usage: the flags and arguments.
func (fs *flagSet) synopsis() string {
	s, _, _ := strings.Cut(fs.usage, "\n\n")
	return s
}

// printUsage writes the usage and every flag with its meaning to w.
func (fs *flagSet) printUsage(w io.Writer) {
	syn, about, _ := strings.Cut(fs.usage, "\n\n")
	fmt.Fprintln(w, strings.TrimSpace("Usage: risk "+fs.name+" "+syn))
	if about != "" {
		fmt.Fprintf(w, "\n%s\n", about)
	}
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintln(w, "\nFlags:")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
}

// given reports whether flag name was on the command line.
func (fs *flagSet) given(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseWithFile parses the flags of a command that takes one FILE, the
// flags before or after it, and returns FILE.
func parseWithFile(fs *flagSet, args []string) (string, error) {
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	var file string
	if fs.NArg() > 0 {
		file = fs.Arg(0)
		if err := parseFlags(fs, fs.Args()[1:]); err != nil {
			return "", err
		}
	}
	if file == "" || fs.NArg() > 0 {
		return "", usageError("want one FILE")
	}
	return file, nil
}

// parseFlags parses args: -h or --help prints the usage to standard output
// and returns flag.ErrHelp (exit 0); a mistake prints it to standard error
// and returns a usage error (exit 2).
func parseFlags(fs *flagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.printUsage(fs.stdout)
		return err
	case err != nil:
		fs.printUsage(fs.stderr)
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// parseNoArgs parses the flags of a command that takes no argument.
func parseNoArgs(fs *flagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func runVersion(_ context.Context, e env) error {
	fs := newFlags(e, "version")
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
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
