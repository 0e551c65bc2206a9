package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/riskbot/riskbot/bot/imports"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
)

// runVerify is `risk verify [--commitment HEX] FILE`.
func runVerify(_ context.Context, e env) error {
	flags := newFlags(e, "verify")
	commitment := flags.String("commitment", "", "the commitment `hex` published when the match started (default: the one in FILE, which proves less)")
	file, err := parseWithFile(flags, e.args)
	if err != nil {
		return err
	}
	data, err := readInput(e, file)
	if err != nil {
		return err
	}
	var probe struct {
		Format *int `json:"format"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if probe.Format == nil { // an export of a lobby
		return fmt.Errorf("%s: the match never started: there is nothing to verify", file)
	}
	var rec engine.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	// The rule risk import applies too: what verifies here imports, and
	// what does not is refused there (unless --unverified).
	v, problems, err := imports.CheckDice(rec, *commitment)
	if errors.Is(err, engine.ErrSealed) {
		return fmt.Errorf("%s: the export leaves out the seed of a match still going on; verify it once the match is over", file)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	fmt.Fprint(e.stdout, v)
	if len(problems) > 0 {
		return fmt.Errorf("the match does not verify: %s", problems[0])
	}
	return nil
}

// readInput reads a file named on the command line, "-" being standard
// input.
func readInput(e env, file string) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(file)
}

// readRecord reads an exported match from a file named on the command line
// ("-" being standard input).
func readRecord(e env, file string) (engine.Record, error) {
	var rec engine.Record
	data, err := readInput(e, file)
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("%s: %w", file, err)
	}
	return rec, nil
}

// readDrawn reads what the commands that draw an exported match (risk
// render, risk replay) draw with, once their flags are checked: the
// palette named by --palette, then the match of --match.
func readDrawn(e env, palette, match string) (render.Palette, engine.Record, error) {
	pal, err := parsePalette(palette)
	if err != nil {
		return 0, engine.Record{}, err
	}
	rec, err := readRecord(e, match)
	return pal, rec, err
}

// checkDrawn checks the flags of the commands that draw an exported match
// (risk render, risk replay): no argument, and --match and --out given.
func checkDrawn(flags *flagSet, match, out string) error {
	switch {
	case flags.NArg() > 0:
		return usageError("unexpected argument %q", flags.Arg(0))
	case match == "":
		return usageError("--match is required")
	case out == "":
		return usageError("--out is required")
	}
	return nil
}
