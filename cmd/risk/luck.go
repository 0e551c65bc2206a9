package main

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/engine/luck"
)

// runLuck is `risk luck FILE`.
func runLuck(_ context.Context, e env) error {
	flags := newFlags(e, "luck")
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
