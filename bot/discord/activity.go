package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/discord/snowflake"
)

// The Activity (docs/discord.md, "Inside Discord"): the page runs inside
// Discord, whose client gives it an OAuth2 code for the person playing
// (the Embedded App SDK's authorize). The app's server, not the page,
// exchanges the code for an access token with the client secret, reads
// the person with it, and checks with the bot's token that the Activity's
// instance the page names is running, where, and with that person in it
// (Discord's advice against pages loaded outside an instance). Only then
// does the page play, as that person, in that channel.

// DefaultAPI is Discord's REST API, which Activity.API defaults to.
const DefaultAPI = "https://discord.com/api/v10"

// Activity reads who plays in the Activity, from Discord.
type Activity struct {
	// ClientID and ClientSecret are the application's OAuth2 credentials
	// (Developer Portal, OAuth2); the client ID is the application's ID.
	ClientID, ClientSecret string
	// Token is the bot's token: it reads the Activity's instances.
	Token string
	// API is the base of Discord's REST API; "" is DefaultAPI. Tests point
	// it at a fake Discord.
	API string
	// Client carries the requests; nil is a client with a 10 s timeout.
	Client *http.Client
}

// Player is the person an Activity's code names, and where they play: the
// channel (and server) of the instance they are in.
type Player struct {
	// UserID is their Discord ID, Name what Discord shows them as (their
	// display name, else their username).
	UserID, Name string
	// AccessToken is the token the code was exchanged for: the page gives
	// it to the SDK's authenticate. It reads the player's profile
	// (scope identify) and nothing else.
	AccessToken string
	// Channel and Guild are the IDs of where the instance runs.
	Channel, Guild string
}

// ErrRefused: Discord refused the code (forged, used, expired), or the
// instance named is not running or the player is not in it. Nothing to
// retry: the page starts again from Discord's client.
var ErrRefused = errors.New("discord: the Activity's sign-in was refused")

// Identify exchanges code (from the SDK's authorize, scope identify) for the
// person it names, and checks that they are in the Activity's instance (the
// instance_id Discord gives the page), returning them with its channel.
// A refusal wraps ErrRefused; other errors are Discord's being unreachable.
func (a *Activity) Identify(ctx context.Context, code, instance string) (Player, error) {
	if code == "" || len(code) > 200 || instance == "" || len(instance) > 200 {
		return Player{}, fmt.Errorf("%w: a code and an instance are needed", ErrRefused)
	}
	form := url.Values{"client_id": {a.ClientID}, "client_secret": {a.ClientSecret}, "grant_type": {"authorization_code"}, "code": {code}}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := a.call(ctx, http.MethodPost, "/oauth2/token", "", strings.NewReader(form.Encode()), &tok); err != nil {
		return Player{}, fmt.Errorf("discord: exchange the Activity's code: %w", err)
	}
	if tok.AccessToken == "" {
		return Player{}, errors.New("discord: exchange the Activity's code: no access token in the answer")
	}
	var me struct {
		ID         string  `json:"id"`
		Username   string  `json:"username"`
		GlobalName *string `json:"global_name"`
	}
	if err := a.call(ctx, http.MethodGet, "/users/@me", "Bearer "+tok.AccessToken, nil, &me); err != nil {
		return Player{}, fmt.Errorf("discord: read the Activity's player: %w", err)
	}
	if !snowflake.Valid(me.ID) {
		return Player{}, fmt.Errorf("discord: read the Activity's player: %q is not a user ID", me.ID)
	}
	var in struct {
		Location struct {
			ChannelID string `json:"channel_id"`
			GuildID   string `json:"guild_id"`
		} `json:"location"`
		Users []string `json:"users"`
	}
	path := "/applications/" + url.PathEscape(a.ClientID) + "/activity-instance/" + url.PathEscape(instance)
	if err := a.call(ctx, http.MethodGet, path, "Bot "+a.Token, nil, &in); err != nil {
		return Player{}, fmt.Errorf("discord: read the Activity's instance: %w", err)
	}
	if !slices.Contains(in.Users, me.ID) {
		return Player{}, fmt.Errorf("%w: user %s is not in the Activity's instance", ErrRefused, me.ID)
	}
	if !snowflake.Valid(in.Location.ChannelID) {
		return Player{}, fmt.Errorf("%w: the Activity's instance runs in no channel", ErrRefused)
	}
	name := me.Username
	if me.GlobalName != nil && *me.GlobalName != "" {
		name = *me.GlobalName
	}
	return Player{UserID: me.ID, Name: name, AccessToken: tok.AccessToken, Channel: in.Location.ChannelID, Guild: in.Location.GuildID}, nil
}

// maxAnswer bounds what the Activity reads of an answer of Discord's.
const maxAnswer = 64 << 10

// call sends a request to Discord's REST API and decodes its answer into v;
// a 4xx answer is a refusal (ErrRefused), with Discord's words.
func (a *Activity) call(ctx context.Context, method, path, auth string, body io.Reader, v any) error {
	base := a.API
	if base == "" {
		base = DefaultAPI
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(base, "/")+path, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("User-Agent", "DiscordBot (https://github.com/riskbot/riskbot, 1)")
	c := a.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return err
	}
	switch {
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		return fmt.Errorf("%w: %s %s: %d %s", ErrRefused, method, path, resp.StatusCode, strings.TrimSpace(e.Error+" "+e.Message))
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}
