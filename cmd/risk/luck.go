package main

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/engine/luck"
)

// runLuck is `risk luck FILE`.
func runLuck(_ context.Context, e env) error {
	flags := newFlags(e, "luck", "FILE\n\n"+
		"Prints each player's luck over a match exported by 'risk export' (FILE, or - for\n"+
		"standard input): rolls won, armies killed and lost against what the exact odds of\n"+
		"those very rolls give (classic), or each attack's luck factor against its mean (capitals).")
	if err := parseFlags(flags, e.args); err != nil {
		return err
	}
	if flags.NArg() != 1 {
		return usageError("want one FILE")
	}
	file := flags.Arg(0)
	rec, err := readRecord(e, file)
	if err != nil {
		return err
	}
	r, err := luck.Of(rec)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	fmt.Fprint(e.stdout, r)
	return nil
}
