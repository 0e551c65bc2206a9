package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/riskbot/riskbot/render"
)

// runReplay is `risk replay --match FILE --out F.gif|F.png [--limit BYTES] [--width W] [--delay D] [--palette standard|colorblind]`.
func runReplay(ctx context.Context, e env) error {
	flags := newFlags(e, "replay")
	match := flags.String("match", "", "the exported match `file` (- for standard input)")
	out := flags.String("out", "", "the `file` to write: .gif for the animation, .png for the small multiples")
	limit := flags.Int("limit", render.DefaultReplayLimit, "the most `bytes` the image may take (a chat's upload limit)")
	width := flags.Int("width", 0, "frame width in `pixels` before shrinking to fit (default 800 for the GIF, to fit about 3200 across for the PNG)")
	delay := flags.Duration("delay", 700*time.Millisecond, "how long each frame `shows` in the GIF")
	palette := colourFlag(flags)
	if err := parseFlags(flags, e.args); err != nil {
		return err
	}
	if err := checkDrawn(flags, *match, *out); err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(*out))
	switch {
	case ext != ".gif" && ext != ".png":
		return usageError("--out must end in .gif (animation) or .png (small multiples), not %q", *out)
	case *limit <= 0:
		return usageError("--limit must be more than 0")
	case *width < 0:
		return usageError("--width must be 0 or more")
	case *delay <= 0:
		return usageError("--delay must be more than 0")
	}
	pal, rec, err := readDrawn(e, *palette, *match)
	if err != nil {
		return err
	}
	turns, err := rec.Turns()
	if err != nil {
		return fmt.Errorf("%s: %w", *match, err)
	}
	start := time.Now()
	// The smallest renderer width: frames are at most 800 wide anyway.
	r := render.New(render.Options{Width: 800, Palette: pal})
	o := render.ReplayOptions{Limit: *limit, Width: *width, Delay: *delay}
	var img []byte
	var info render.ReplayInfo
	if ext == ".gif" {
		img, info, err = r.Replay(ctx, turns, o)
	} else {
		img, info, err = r.Strip(ctx, turns, o)
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, img, 0o644); err != nil {
		return err
	}
	dropped := ""
	if info.Dropped > 0 {
		dropped = fmt.Sprintf(" (%d left out to fit)", info.Dropped)
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d bytes): %d of %d frames%s, %dx%d each, in %s\n",
		*out, len(img), info.Frames, len(turns), dropped, info.Width, info.Height, time.Since(start).Round(time.Millisecond))
	return nil
}
