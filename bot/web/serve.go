package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/riskbot/riskbot/bot/httpserve"
)

// shutdownGrace is how long Serve waits, once its context ends, for the
// requests in progress to finish.
const shutdownGrace = 3 * time.Second

// Serve serves the page, the spectators' pages and the match API on ln,
// every connection within limits (docs/api.md, "Threat model"), until ctx
// ends: then it stops taking connections, ends the event streams (pages
// reconnect to whatever serves next) and lets the other requests finish
// for a few seconds.
func (s *Server) Serve(ctx context.Context, ln net.Listener, limits httpserve.Limits) error {
	if err := limits.Check(); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	hs := httpserve.New(httpserve.Config{Handler: s.Handler(), Limits: limits, Context: ctx, Log: s.log})
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("web: serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		hs.Close() // the requests still in progress after the grace
	} else if err != nil {
		return fmt.Errorf("web: stop serving: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: serve %s: %w", ln.Addr(), err)
	}
	return nil
}
