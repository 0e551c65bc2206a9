package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/engine"
)

// runOdds is `risk odds --attackers A --defenders D [--json]`.
func runOdds(_ context.Context, e env) error {
	fs := newFlags(e, "odds")
	a := fs.Int("attackers", 0, "armies on the attacking territory, including the one that stays")
	d := fs.Int("defenders", 0, "armies on the defending territory")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	switch {
	case !fs.given("attackers") || !fs.given("defenders"):
		return usageError("give --attackers and --defenders, e.g. risk odds --attackers 10 --defenders 6")
	}
	o, err := engine.AttackOdds(*a, *d)
	if err != nil {
		// The engine's limits, in the command line's words.
		return usageError("%s", strings.TrimPrefix(err.Error(), "engine: "))
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
