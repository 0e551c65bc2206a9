package discord

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/riskbot/riskbot/bot/httpserve"
)

// ServeConfig is how Serve answers Discord's interactions over HTTP.
type ServeConfig struct {
	// Key is the application's public key (ParsePublicKey).
	Key ed25519.PublicKey
	// Limits bound every connection (docs/discord.md, "Threat model").
	Limits httpserve.Limits
	// Health, if set, adds a load balancer's checks to the paths served
	// (metrics.Metrics.Health): it checks the same port.
	Health func(*http.ServeMux)
}

// Serve is the application's Interactions Endpoint URL, on ln: it
// registers /risk, then answers the interactions signed with cfg.Key
// (Endpoint) until ctx ends, every connection within cfg.Limits. Then it
// stops taking requests and lets the answers in flight finish, for
// shutdownGrace at most before it cancels them.
func (a *Adapter) Serve(ctx context.Context, core Core, ln net.Listener, cfg ServeConfig) error {
	defer ln.Close()
	if err := cfg.Limits.Check(); err != nil {
		return fmt.Errorf("discord: %w", err)
	}
	answers, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	ep, err := a.NewEndpoint(answers, core, cfg.Key)
	if err != nil {
		return err
	}
	if err := a.Register(ctx, core.Specs()); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", ep)
	if cfg.Health != nil {
		cfg.Health(mux)
	}
	srv := httpserve.New(httpserve.Config{Handler: mux, Limits: cfg.Limits, Log: a.log})
	a.log.Info("serving Discord's interactions over HTTP", "addr", ln.Addr().String())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("discord: serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			a.log.Warn("stop serving", "err", err)
		}
		srv.Close()
	}
	a.drain(ep.Wait, stop)
	return nil
}
