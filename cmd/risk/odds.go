package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/riskbot/riskbot/engine"
)

// runOdds is `risk odds --attackers A --defenders D [--json]`.
func runOdds(_ context.Context, e env) error {
	fs := newFlags(e, "odds", "--attackers A --defenders D [--json]\n\nExact odds that A armies on a territory (one stays behind) take a territory held by D, attacking to the end.")
	a := fs.Int("attackers", 0, "armies on the attacking territory, including the one that stays")
	d := fs.Int("defenders", 0, "armies on the defending territory")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	o, err := engine.AttackOdds(*a, *d)
	if err != nil {
		return usageError("%v", err)
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(o)
	}
	fmt.Fprintf(e.stdout, "%d attackers against %d defenders, attacking to the end:\n", o.Attackers, o.Defenders)
	fmt.Fprintf(e.stdout, "  win:            %6.2f%%\n", 100*o.Win)
	fmt.Fprintf(e.stdout, "  attackers left: %6.2f (on average, including the one that stays)\n", o.AttackerLeft)
	fmt.Fprintf(e.stdout, "  defenders left: %6.2f (on average)\n", o.DefenderLeft)
	return nil
}
