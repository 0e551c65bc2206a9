package main

import (
	"time"

	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/render"
)

// connsUsage is the synopsis of the flags connFlags defines.
const connsUsage = "[--max-conns N] [--idle-timeout D] [--header-timeout D] [--read-timeout D] [--write-timeout D]\n    [--max-header-bytes N]"

// connFlags defines on fs the flags of the limits of an HTTP server's
// connections (httpserve.Limits; docs/api.md and docs/discord.md, "Threat
// model"), which default to httpserve.Defaults. checkConns checks them
// once parsed.
func connFlags(fs *flagSet) *httpserve.Limits {
	l := httpserve.Defaults()
	fs.IntVar(&l.Conns, "max-conns", l.Conns, "the most connections open at once: when full, the one idle longest (kept alive, or still sending its headers) makes room")
	fs.DurationVar(&l.Idle, "idle-timeout", l.Idle, "close a kept-alive connection idle this `long`")
	fs.DurationVar(&l.Header, "header-timeout", l.Header, "close a connection whose request's headers take longer than this `long`")
	fs.DurationVar(&l.Read, "read-timeout", l.Read, "close a connection whose request (headers and body) takes longer than this `long` to arrive")
	fs.DurationVar(&l.Write, "write-timeout", l.Write, "cut an answer not written this `long` after its request (an event stream: each write)")
	fs.IntVar(&l.HeaderBytes, "max-header-bytes", l.HeaderBytes, "refuse a request whose headers take more than this many `bytes` (431)")
	return &l
}

// checkConns refuses limits that are not positive, naming their flags.
func checkConns(l *httpserve.Limits) error {
	for _, f := range []struct {
		flag string
		bad  bool
	}{
		{"--max-conns", l.Conns < 1}, {"--idle-timeout", l.Idle <= 0}, {"--header-timeout", l.Header <= 0},
		{"--read-timeout", l.Read <= 0}, {"--write-timeout", l.Write <= 0}, {"--max-header-bytes", l.HeaderBytes < 1<<10},
	} {
		if f.bad {
			return usageError("%s: want a positive limit (and 1024 bytes or more for --max-header-bytes)", f.flag)
		}
	}
	return l.Check()
}

// serveFlags are the flags of a command that serves the bot (risk
// discord, risk web): the bot's (botFlags) and its connections' limits
// (connFlags).
type serveFlags struct {
	bot   botFlags
	conns *httpserve.Limits
}

func serveFlagsOf(fs *flagSet) serveFlags {
	return serveFlags{bot: botFlagsOf(fs), conns: connFlags(fs)}
}

// values reads the flags, once parsed: the limits checked (checkConns),
// then the bot's palette and lobby time (botFlags.values).
func (f serveFlags) values() (render.Palette, time.Duration, error) {
	if err := checkConns(f.conns); err != nil {
		return 0, 0, err
	}
	return f.bot.values()
}
