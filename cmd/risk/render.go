package main

import (
	"context"
	"fmt"
	"os"

	"github.com/riskbot/riskbot/render"
)

// runRender is `risk render --match FILE --out PNG [--at N] [--width W] [--palette standard|colorblind]`.
func runRender(ctx context.Context, e env) error {
	flags := newFlags(e, "render")
	match := flags.String("match", "", "the exported match `file` (- for standard input)")
	out := flags.String("out", "", "the PNG `file` to write")
	at := flags.Int("at", -1, "draw the match after its first `N` commands (default: all of them)")
	width := flags.Int("width", 0, fmt.Sprintf("image width in `pixels`, 800 to 3200 (default %d)", render.DefaultWidth))
	palette := colourFlag(flags)
	if err := parseFlags(flags, e.args); err != nil {
		return err
	}
	if err := checkDrawn(flags, *match, *out); err != nil {
		return err
	}
	if *at < -1 {
		return usageError("--at must be 0 or more")
	}
	pal, rec, err := readDrawn(e, *palette, *match)
	if err != nil {
		return err
	}
	g, err := rec.Game(*at)
	if err != nil {
		return fmt.Errorf("%s: %w", *match, err)
	}
	png, err := render.New(render.Options{Width: *width, Palette: pal}).Render(ctx, g.State)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, png, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d bytes): turn %d, after %d of %d commands\n", *out, len(png), g.State.Turn, g.Version, len(rec.Log))
	return nil
}
