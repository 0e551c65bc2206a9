package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord"
	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/bot/web"
)

// The Activity of `risk discord --activity ADDR` (docs/discord.md, "Inside
// Discord"): the page, served on ADDR as the application's Activity, which
// Discord's client frames beside a channel through the URL mapping.

// activitySecretEnv names the environment variable of the application's
// OAuth2 client secret, which the Activity's sign-in needs.
const activitySecretEnv = "DISCORD_CLIENT_SECRET"

// activityFlags are the Activity's flags of risk discord.
type activityFlags struct {
	addr, hosts *string
}

func activityFlagsOf(fs *flagSet) activityFlags {
	return activityFlags{
		addr: fs.String("activity", "", "serve the match's map as the application's Activity on `ADDR` (host:port), the target of its URL mapping: needs "+
			activitySecretEnv+" and DISCORD_APPLICATION_ID (docs/discord.md); turn posts then get a Play on the map button"),
		hosts: fs.String("activity-host", "", "with --activity: the `names` Discord's proxy reaches it by (the URL mapping's target, e.g. risk.example.org), comma-separated, besides localhost and addresses: requests for any other name get 421"),
	}
}

// activitySetup is what --activity needs, checked before anything starts.
type activitySetup struct {
	addr     string
	hosts    []string
	clientID string
	secret   string
}

// check reads the Activity's flags and environment: nil without
// --activity.
func (f activityFlags) check(getenv func(string) string, app string) (*activitySetup, error) {
	if *f.addr == "" {
		if *f.hosts != "" {
			return nil, usageError("--activity-host names the Activity's server: give --activity ADDR too")
		}
		return nil, nil
	}
	if _, _, err := net.SplitHostPort(*f.addr); err != nil {
		return nil, usageError("--activity %q: want host:port (such as 127.0.0.1:8081)", *f.addr)
	}
	secret := strings.TrimSpace(getenv(activitySecretEnv))
	if secret == "" {
		return nil, usageError("%s is not set: --activity exchanges the players' codes with the application's client secret (Developer Portal, OAuth2)", activitySecretEnv)
	}
	if app == "" || strings.Trim(app, "0123456789") != "" {
		return nil, usageError("DISCORD_APPLICATION_ID %q is not an application ID (Developer Portal, General Information): --activity's page needs it", app)
	}
	var hosts []string
	for n := range strings.SplitSeq(*f.hosts, ",") {
		if n = strings.TrimSpace(n); n != "" {
			hosts = append(hosts, n)
		}
	}
	return &activitySetup{addr: *f.addr, hosts: hosts, clientID: app, secret: secret}, nil
}

// page makes the Activity's server; its bot is attached once made.
func (a *activitySetup) page(st web.Store, token string, poster chat.Poster, log *slog.Logger) *web.Server {
	who := &discord.Activity{ClientID: a.clientID, ClientSecret: a.secret, Token: token}
	return web.New(web.Config{Store: st, Log: log, Hosts: a.hosts, Activity: &web.ActivityConfig{
		ClientID: a.clientID,
		Identify: func(ctx context.Context, code, instance string) (web.ActivityPlayer, error) {
			p, err := who.Identify(ctx, code, instance)
			if errors.Is(err, discord.ErrRefused) {
				return web.ActivityPlayer{}, fmt.Errorf("%w: %w", web.ErrNotSignedIn, err)
			}
			return web.ActivityPlayer{UserID: p.UserID, Name: p.Name, AccessToken: p.AccessToken, Channel: p.Channel, Guild: p.Guild}, err
		},
		Key:    activityKey(a.secret),
		Poster: poster,
	}})
}

// activityKey signs the Activity's sessions: made from the client secret,
// so that every process of the bot, and the next run, takes the sessions
// of the others, and nobody without the secret makes one.
func activityKey(secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("riskbot: the key of the Activity's sessions"))
	return m.Sum(nil)
}

// serve serves the Activity's page on its address in the background,
// until ctx ends or the function returned stops it (and waits for it).
func (a *activitySetup) serve(ctx context.Context, page *web.Server, limits httpserve.Limits, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", a.addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s for the Activity: %w", a.addr, err)
	}
	log.Info("serving the Activity's page", "addr", ln.Addr().String())
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := page.Serve(ctx, ln, limits); err != nil {
			log.Error("the Activity's page", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}

// mirrored is the Discord adapter whose posts and edits in a channel are
// also shown on the Activity's page while it has the channel open.
type mirrored struct {
	*discord.Adapter
	page *web.Server
}

// Post implements chat.Poster.
func (m mirrored) Post(ctx context.Context, channel string, msg chat.Message) (string, error) {
	id, err := m.Adapter.Post(ctx, channel, msg)
	if err == nil {
		m.page.Mirror(channel, id, msg)
	}
	return id, err
}

// Edit implements chat.Editor.
func (m mirrored) Edit(ctx context.Context, channel, id string, msg chat.Message) error {
	err := m.Adapter.Edit(ctx, channel, id, msg)
	if err == nil {
		m.page.Mirror(channel, id, msg)
	}
	return err
}
