package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/storage"
)

// runExport is `risk export [--db PATH] (--channel NAME | --match N) [--full]`,
// or `risk export [--db PATH] --list`.
func runExport(ctx context.Context, e env) error {
	flags := newFlags(e, "export")
	path := dbFlag(flags, "")
	channel := flags.String("channel", "", "the channel: its open match, or else its latest; `NAME` as the console or the page calls it (quickstart), or as stored (console:quickstart, web:caps, discord:1234)")
	id := flags.Int64("match", 0, "the match `id` (--list shows them)")
	full := flags.Bool("full", false, "print all of a match still open, the seed and every hidden thing (the host's export, to move the match)")
	list := flags.Bool("list", false, "list the stored matches instead: id, channel, status, commands, last change")
	if err := parseNoArgs(flags, e.args); err != nil {
		return err
	}
	switch {
	case *list && (*channel != "" || *id != 0 || *full):
		return usageError("--list lists the matches: give it alone (with --db)")
	case !*list && (*channel == "") == (*id == 0):
		return usageError("give --channel or --match (risk export --list lists the matches)")
	}
	db, err := openDefault(ctx, path, e.getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	if *list {
		return listMatches(ctx, e.stdout, db)
	}
	if *channel != "" {
		if *id, err = pick(ctx, db, *channel); err != nil {
			return err
		}
	}
	x, err := db.Export(ctx, *id)
	if err != nil {
		return err
	}
	if !*full {
		whole := len(x.Record.Log)
		if x, err = x.Public(); err != nil {
			return err
		}
		if x.Record.Told {
			what := fmt.Sprintf("%d of its %d commands, without the seed, the cards drawn, the kinds of hidden items, "+
				"the others' missions, or the orders and placements not yet resolved", len(x.Record.Log), whole)
			if x.Record.Setup.Options.Fog {
				what = "its setup without the seed: with fog of war the log waits for the end"
			}
			fmt.Fprintf(e.stderr, "risk export: match %d is still played: printing what anyone may see of it, %s. "+
				"--full prints everything, for the operator.\n", *id, what)
		}
	}
	return json.NewEncoder(e.stdout).Encode(x)
}

// archive is what risk export reads: the matches listed, a channel's
// history, a match whole.
type archive interface {
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	Finished(ctx context.Context, limit int) ([]storage.Match, error)
	History(ctx context.Context, channel string) ([]storage.Match, error)
	Export(ctx context.Context, id int64) (*storage.Export, error)
}

// listMatches writes every stored match, open ones first, then ended ones,
// the most recent first.
func listMatches(ctx context.Context, w io.Writer, db archive) error {
	open, err := db.OpenMatches(ctx, "")
	if err != nil {
		return err
	}
	slices.SortFunc(open, func(a, b storage.Match) int { return b.Updated.Compare(a.Updated) })
	ended, err := db.Finished(ctx, 0)
	if err != nil {
		return err
	}
	all := append(open, ended...)
	if len(all) == 0 {
		fmt.Fprintln(w, "no match is stored here")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "match\tchannel\tstatus\tcommands\tlast change")
	for _, m := range all {
		fmt.Fprintf(tw, "%5d\t%s\t%s\t%8d\t%s\n", m.ID, m.Channel, m.Status, m.Commands, m.Updated.UTC().Format("2006-01-02 15:04 UTC"))
	}
	return tw.Flush()
}

// pick returns the channel's open match, or else its latest. A channel
// named without its adapter's prefix ("quickstart", "#caps") is looked for
// under each adapter's; a name found under several is refused, naming them.
func pick(ctx context.Context, db archive, channel string) (int64, error) {
	name := strings.TrimPrefix(channel, "#")
	tries := []string{name}
	if !strings.Contains(name, ":") {
		tries = nil
		for _, p := range []string{"console:", "web:", "discord:"} { // the adapters' prefixes
			tries = append(tries, p+name)
		}
	}
	var found []string
	var hist []storage.Match
	for _, ch := range tries {
		ms, err := db.History(ctx, ch)
		if err != nil {
			return 0, err
		}
		if len(ms) > 0 {
			found, hist = append(found, ch), ms
		}
	}
	switch {
	case len(found) == 0:
		return 0, fmt.Errorf("channel %s has no match (risk export --list lists the matches)", channel)
	case len(found) > 1:
		return 0, usageError("--channel %s: there are matches in %s: say which", channel, strings.Join(found, " and in "))
	}
	for _, m := range hist {
		if m.Status.Open() {
			return m.ID, nil
		}
	}
	return hist[0].ID, nil
}

// runImport is `risk import [--db PATH] [--channel ID] [--commitment HEX] [--unverified] [--rated] FILE`.
func runImport(ctx context.Context, e env) error {
	flags := newFlags(e, "import")
	path := dbFlag(flags, "a file is created if missing")
	channel := flags.String("channel", "", "store the match in this channel `id` instead of the exported one")
	commitment := flags.String("commitment", "", "check the dice against the commitment `hex` published when the match started (default: the file's, which proves less)")
	unverified := flags.Bool("unverified", false, "host a match whose dice do not follow from its seed all the same, marked so: it never claims fair dice")
	rated := flags.Bool("rated", false, "count the match's result in the server's stats, for the players its seats name (only for a file you trust)")
	file, err := parseWithFile(flags, e.args)
	if err != nil {
		return err
	}
	if err := defaultDB(path, e.getenv); err != nil {
		return err
	}
	data, err := readExport(e, file)
	if err != nil {
		return err
	}
	var x storage.Export
	if err := json.Unmarshal(data, &x); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if *channel != "" {
		x.Channel = *channel
	}
	db, err := openStore(ctx, *path)
	if err != nil {
		return err
	}
	defer db.Close()
	// The bot checks what it will rely on when it hosts the match: a
	// match it could not load would poison its channel.
	b, err := newBot(botDeps{db: db})
	if err != nil {
		return err
	}
	defer b.Close()
	sum := sha256.Sum256(data)
	im, err := b.Import(ctx, &x, bot.ImportOptions{Unverified: *unverified, Commitment: *commitment, Rated: *rated,
		Source: file, SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	m := im.Match
	fmt.Fprintf(e.stdout, "imported match %d into %s: %s, %d commands\n", m.ID, m.Channel, m.Status, m.Commands)
	switch v := im.Dice; {
	case v == nil:
		fmt.Fprintln(e.stdout, "dice: nothing to check, the match never started (it draws its seed when it starts)")
	case im.Unverified != "" && !v.OK():
		fmt.Fprintf(e.stdout, "dice: NOT verified, hosted all the same (--unverified) and marked so, never to claim fair dice: %s\n", im.Unverified)
	case im.Unverified != "":
		fmt.Fprintf(e.stdout, "dice: verified, but the file marks the match unverified, and the mark stays: %s\n", im.Unverified)
	default:
		from := "the file's commitment"
		if v.Published {
			from = "the published commitment"
		}
		fmt.Fprintf(e.stdout, "dice: verified: the deal and %d random values in %d commands follow from seed %d, which hashes to %s %s\n",
			v.Values, v.Commands, v.Seed, from, v.Commitment)
	}
	o := im.Origin
	fmt.Fprintf(e.stdout, "origin: %s (sha256 %s), imported %s\n", o.Source, o.SHA256, o.Imported.Format(time.RFC3339))
	var people []string
	for _, s := range im.Seats {
		if s.Level == "" {
			people = append(people, fmt.Sprintf("%s (%s)", s.ID, s.Name))
		}
	}
	switch who := strings.Join(people, ", "); {
	case o.Rated && who != "":
		fmt.Fprintf(e.stdout, "stats: counted (--rated): its result credits %s, as the file names them\n", who)
	case o.Rated:
		fmt.Fprintln(e.stdout, "stats: counted (--rated)")
	case who != "":
		fmt.Fprintf(e.stdout, "stats: not counted, since the file names whom its result would credit (%s): --rated counts a file you trust\n", who)
	default:
		fmt.Fprintln(e.stdout, "stats: not counted (--rated counts a file you trust)")
	}
	return nil
}

// maxExport bounds the file risk import reads, in bytes. The longest of
// six matches of six computer players (1,090 commands, 461 turns) exported
// to 55 KB, about 50 bytes a command: 16 MiB is some 300,000 commands, and
// refuses a file of junk before it is parsed.
const maxExport = 16 << 20

// readExport reads an export named on the command line ("-" being
// standard input), refusing one over maxExport.
func readExport(e env, file string) ([]byte, error) {
	r := e.stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxExport+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > maxExport {
		return nil, fmt.Errorf("%s: more than %d MiB, more than any match exports: not imported", file, maxExport>>20)
	}
	return data, nil
}
