package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// CheckConfig says what Check looks at: what `risk discord` would run with.
type CheckConfig struct {
	// Token is the bot's token.
	Token string
	// ApplicationID, if set, must be the token's application.
	ApplicationID string
	// GuildID, if set, is the server /risk is registered in; else it is
	// registered globally.
	GuildID string
	// HTTP says the bot is to serve Discord's HTTP interactions endpoint,
	// which needs PublicKey and ApplicationID.
	HTTP      bool
	PublicKey string
	// Channel, if set, is a channel whose permissions for the bot are
	// checked.
	Channel string
	// Database, if set, opens the database and checks that it answers;
	// DatabaseName names it in the report.
	Database     func(ctx context.Context) error
	DatabaseName string
	// HTTPClient carries the requests to Discord; nil keeps discordgo's.
	HTTPClient *http.Client
}

// Status is how one check came out.
type Status int

// The statuses of a check.
const (
	// Pass: as it should be.
	Pass Status = iota + 1
	// Fail: the bot will not work, or not fully, until it is fixed.
	Fail
	// Note: worth knowing, but nothing to fix (such as /risk not
	// registered yet, which the bot does when it starts).
	Note
)

// Finding is one check's outcome: what was checked, what was found, and
// for a failure what to do about it.
type Finding struct {
	Status Status
	What   string
	Detail string
	Fix    string
}

// String is the finding as a line marked ✓, ✗ or –, and its fix on the
// line below.
func (f Finding) String() string {
	mark := map[Status]string{Pass: "✓", Fail: "✗", Note: "–"}[f.Status]
	s := mark + " " + f.What + ": " + f.Detail
	if f.Fix != "" {
		s += "\n    fix: " + f.Fix
	}
	return s
}

// Report is what Check found, in the order it looked.
type Report []Finding

// Failed counts the failed checks.
func (r Report) Failed() int {
	n := 0
	for _, f := range r {
		if f.Status == Fail {
			n++
		}
	}
	return n
}

// String is the report, a finding a line.
func (r Report) String() string {
	var b strings.Builder
	for _, f := range r {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Check checks what the bot needs to run, without connecting to the
// gateway or registering anything: that Discord takes the token, the
// application (and, for the HTTP endpoint, its public key), whether /risk
// is registered, that the database answers, and the bot's permissions in
// a channel. What Discord refuses is a failed finding, not an error; the
// error is for a check that cannot be made at all.
func Check(ctx context.Context, cfg CheckConfig) (Report, error) {
	s, err := session(cfg.Token, cfg.HTTPClient)
	if err != nil {
		return nil, fmt.Errorf("discord: check: %w", err)
	}
	c := checker{s: s, cfg: cfg}
	var r Report
	bot, f := c.token(ctx)
	r = append(r, f)
	var app *discordgo.Application
	if bot != nil {
		app, f = c.application(ctx)
		r = append(r, f)
		if app != nil {
			r = append(r, c.command(ctx, app.ID))
		}
	} else {
		r = append(r, notChecked("application"), notChecked("/"+command.CommandName))
	}
	if cfg.HTTP {
		r = append(r, c.publicKey(app))
	}
	if cfg.Database != nil {
		r = append(r, c.database(ctx))
	}
	if cfg.Channel != "" {
		if bot != nil {
			r = append(r, c.channel(ctx, bot.ID)...)
		} else {
			r = append(r, notChecked("channel "+cfg.Channel))
		}
	}
	return r, nil
}

// notChecked is the note of a check that needs a token Discord takes.
func notChecked(what string) Finding {
	return Finding{Status: Note, What: what, Detail: "not checked: it needs a token Discord takes"}
}

// checker makes the checks, one request or so each.
type checker struct {
	s   *discordgo.Session
	cfg CheckConfig
}

// token checks that Discord takes the token, and returns the bot user it
// belongs to (nil if it does not).
func (c checker) token(ctx context.Context) (*discordgo.User, Finding) {
	f := Finding{What: "token", Status: Fail}
	u, err := c.s.User("@me", discordgo.WithContext(ctx))
	switch {
	case restStatus(err) == http.StatusUnauthorized:
		f.Detail = "Discord refused it (401 Unauthorized)"
		f.Fix = "copy the token again from the developer portal (your application, Bot, Reset Token) into DISCORD_TOKEN; resetting it makes the old one stop working"
		return nil, f
	case err != nil:
		f.Detail = fmt.Sprintf("could not ask Discord: %v", err)
		f.Fix = askFix(err)
		return nil, f
	case !u.Bot:
		f.Detail = fmt.Sprintf("it is the token of a user (%s), not of a bot", u)
		f.Fix = "use the token of the application's Bot page"
		return nil, f
	}
	f.Status, f.Detail = Pass, fmt.Sprintf("valid: the bot is %s (ID %s)", u, u.ID)
	return u, f
}

// application checks that the token's application is found, and that it
// is the one DISCORD_APPLICATION_ID says (which the HTTP endpoint needs).
func (c checker) application(ctx context.Context) (*discordgo.Application, Finding) {
	f := Finding{What: "application", Status: Fail}
	var app discordgo.Application
	// discordgo's Application takes no context.
	body, err := c.s.RequestWithBucketID(http.MethodGet, discordgo.EndpointOAuth2Application("@me"), nil,
		discordgo.EndpointOAuth2Application(""), discordgo.WithContext(ctx))
	if err == nil {
		err = discordgo.Unmarshal(body, &app)
	}
	if err != nil {
		f.Detail = fmt.Sprintf("could not read the token's application: %v", err)
		f.Fix = askFix(err)
		return nil, f
	}
	want := c.cfg.ApplicationID
	switch {
	case want != "" && want != app.ID:
		f.Detail = fmt.Sprintf("DISCORD_APPLICATION_ID is %s, but the token is the bot of %s (ID %s)", want, app.Name, app.ID)
		f.Fix = fmt.Sprintf("set DISCORD_APPLICATION_ID=%s, or use the token of application %s", app.ID, want)
	case want == "" && c.cfg.HTTP:
		f.Detail = fmt.Sprintf("%s (ID %s), but DISCORD_APPLICATION_ID is not set: --http registers /%s with it", app.Name, app.ID, command.CommandName)
		f.Fix = "export DISCORD_APPLICATION_ID=" + app.ID
	default:
		f.Status, f.Detail = Pass, fmt.Sprintf("%s (ID %s)", app.Name, app.ID)
		if want != "" {
			f.Detail += ", as DISCORD_APPLICATION_ID says"
		}
	}
	return &app, f
}

// command says whether the bot's two commands, /risk and /risk-admin, are
// registered where the bot registers them. Not yet is no failure: the bot
// registers both at every start.
func (c checker) command(ctx context.Context, app string) Finding {
	names := []string{command.CommandName, command.AdminCommandName}
	what := "/" + names[0] + " and /" + names[1]
	where := "globally"
	if c.cfg.GuildID != "" {
		where = "in server " + c.cfg.GuildID
	}
	cmds, err := c.s.ApplicationCommands(app, c.cfg.GuildID, discordgo.WithContext(ctx))
	if err != nil {
		f := Finding{Status: Fail, What: what, Detail: fmt.Sprintf("could not read the commands registered %s: %v", where, err), Fix: askFix(err)}
		if restStatus(err) == http.StatusForbidden && c.cfg.GuildID != "" {
			f.Fix = "check DISCORD_GUILD_ID, and that the bot is in that server, invited with the applications.commands scope (the invite link of docs/discord.md)"
		}
		return f
	}
	var absent []string
	for _, n := range names {
		if !slices.ContainsFunc(cmds, func(cmd *discordgo.ApplicationCommand) bool { return cmd.Name == n }) {
			absent = append(absent, "/"+n)
		}
	}
	if len(absent) == 0 {
		return Finding{Status: Pass, What: what, Detail: "registered " + where}
	}
	detail := chat.AndList(absent) + " not registered " + where + " yet: the bot registers both when it starts"
	if c.cfg.GuildID == "" {
		detail += " (a global command can take a while to show up the first time)"
	}
	return Finding{Status: Note, What: what, Detail: detail}
}

// publicKey checks DISCORD_PUBLIC_KEY, which the HTTP endpoint checks
// every request with: 32 bytes of hexadecimal, and the application's own
// key when Discord said it (app may be nil).
func (c checker) publicKey(app *discordgo.Application) Finding {
	f := Finding{What: "public key", Status: Fail, Fix: "copy the application's Public Key (developer portal, General Information) into DISCORD_PUBLIC_KEY"}
	pk := strings.TrimSpace(c.cfg.PublicKey)
	if pk == "" {
		f.Detail = "DISCORD_PUBLIC_KEY is not set: --http checks every request with it"
		return f
	}
	key, err := ParsePublicKey(pk)
	if err != nil {
		f.Detail = "DISCORD_PUBLIC_KEY is not 64 hexadecimal digits (32 bytes)"
		return f
	}
	if app != nil && app.VerifyKey != "" {
		if theirs, err := ParsePublicKey(app.VerifyKey); err == nil && !theirs.Equal(key) {
			f.Detail = fmt.Sprintf("DISCORD_PUBLIC_KEY is not the public key of %s: every request would be refused", app.Name)
			f.Fix = "export DISCORD_PUBLIC_KEY=" + app.VerifyKey
			return f
		}
		f.Status, f.Detail, f.Fix = Pass, "DISCORD_PUBLIC_KEY is the application's", ""
		return f
	}
	f.Status, f.Detail, f.Fix = Pass, "DISCORD_PUBLIC_KEY is 32 bytes of hexadecimal", ""
	return f
}

// database checks that the database opens and answers.
func (c checker) database(ctx context.Context) Finding {
	if err := c.cfg.Database(ctx); err != nil {
		// The store's errors name the database.
		return Finding{Status: Fail, What: "database", Detail: err.Error(),
			Fix: "check --db: a SQLite file in a folder the bot's user may write to, or a postgres:// address whose role may log in and owns the database"}
	}
	return Finding{Status: Pass, What: "database", Detail: c.cfg.DatabaseName + " answers, its tables up to date"}
}

// channel checks the bot's permissions in the configured channel, as
// Discord computes them from the server's roles and the channel's
// overwrites: those it needs to host a match there (a failure if any is
// missing), then those of a thread per match (a note if missing: matches
// then play in the channel).
func (c checker) channel(ctx context.Context, bot string) []Finding {
	id := c.cfg.Channel
	what := "channel " + id
	fail := func(detail, fix string) []Finding {
		return []Finding{{Status: Fail, What: what, Detail: detail, Fix: fix}}
	}
	ch, err := c.s.Channel(id, discordgo.WithContext(ctx))
	if err != nil {
		switch restStatus(err) {
		case http.StatusNotFound:
			return fail("Discord knows no channel of that ID",
				"copy the ID again: turn on Developer Mode (User Settings, Advanced), right-click the channel, Copy Channel ID")
		case http.StatusForbidden:
			return fail("the bot cannot see the channel (Missing Access)",
				"invite the bot to that server (the invite link of docs/discord.md), and let it View Channel there")
		}
		return fail(fmt.Sprintf("could not read the channel: %v", err), askFix(err))
	}
	if ch.GuildID == "" {
		return fail("a direct message channel, not a server's", "name a channel of a server the bot is in")
	}
	thread := ""
	if ch.IsThread() {
		// A thread has its channel's permissions.
		thread = fmt.Sprintf(", the channel of thread %q", ch.Name)
		if ch, err = c.s.Channel(ch.ParentID, discordgo.WithContext(ctx)); err != nil {
			return fail(fmt.Sprintf("could not read the thread's channel: %v", err), askFix(err))
		}
	}
	g, err := c.s.Guild(ch.GuildID, discordgo.WithContext(ctx))
	if err != nil {
		return fail(fmt.Sprintf("could not read its server %s: %v", ch.GuildID, err), askFix(err))
	}
	what = fmt.Sprintf("channel #%s (%s) in %s%s", ch.Name, ch.ID, g.Name, thread)
	m, err := c.s.GuildMember(g.ID, bot, discordgo.WithContext(ctx))
	if err != nil {
		if restStatus(err) == http.StatusNotFound {
			return fail("the bot is not a member of "+g.Name, "invite it to that server with the invite link of docs/discord.md")
		}
		return fail(fmt.Sprintf("could not read the bot's roles in %s: %v", g.Name, err), askFix(err))
	}
	have, err := permissionsIn(g, ch, m, bot)
	if err != nil {
		return fail(fmt.Sprintf("could not work out the bot's permissions: %v", err), "a bug: please report it, with this line")
	}
	var out []Finding
	if lacks := missing(have, hostPermissions()); len(lacks) > 0 {
		out = append(out, Finding{Status: Fail, What: what, Detail: "the bot lacks " + chat.AndList(lacks) + ", which hosting a match there needs",
			Fix: "give them to the bot's role in the channel (Edit Channel, Permissions) or in the server (Server Settings, Roles), or invite it again with the invite link of docs/discord.md"})
	} else {
		out = append(out, Finding{Status: Pass, What: what, Detail: "the bot may " + chat.AndList(permissionNames(hostPermissions()))})
	}
	threads := fmt.Sprintf("threads in #%s", ch.Name)
	if lacks := missing(have, threadPermissions()); len(lacks) > 0 {
		out = append(out, Finding{Status: Note, What: threads, Detail: "the bot lacks " + chat.AndList(lacks) + ", so matches play in the channel itself (give them to have a thread per match)"})
	} else {
		out = append(out, Finding{Status: Pass, What: threads, Detail: "the bot may open a thread per match"})
	}
	// Any player may start a team match (there is no setting to forbid
	// one), and Discord refuses its team threads (403) without these:
	// said always, as a note, since the match goes on without them.
	teams := fmt.Sprintf("team threads in #%s", ch.Name)
	if lacks := missing(have, teamThreadPermissions()); len(lacks) > 0 {
		out = append(out, Finding{Status: Note, What: teams, Detail: "the bot lacks " + chat.AndList(lacks) +
			", so team matches (teams:2, teams:3) start without a private thread per team (give them to have one; the invite link with team threads is in docs/discord.md)"})
	} else {
		out = append(out, Finding{Status: Pass, What: teams, Detail: "the bot may open a private thread per team (teams:2, teams:3)"})
	}
	return out
}

// permissionsIn computes a member's permissions in a channel, with
// discordgo's own computation (owner, roles, Administrator, then the
// channel's overwrites), which it offers through a State.
func permissionsIn(g *discordgo.Guild, ch *discordgo.Channel, m *discordgo.Member, user string) (int64, error) {
	st := discordgo.NewState()
	m.GuildID = g.ID
	for _, err := range []error{st.GuildAdd(g), st.ChannelAdd(ch), st.MemberAdd(m)} {
		if err != nil {
			return 0, err
		}
	}
	return st.UserChannelPermissions(user, ch.ID)
}

// restStatus is the HTTP status of Discord's answer to a failed request
// (0 if there was none).
func restStatus(err error) int {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return 0
	}
	return re.Response.StatusCode
}

// askFix is the fix of a request that failed otherwise than the check
// expects.
func askFix(err error) string {
	if status := restStatus(err); status != 0 {
		return fmt.Sprintf("Discord answered %d: try again in a while (https://discordstatus.com says whether Discord is down)", status)
	}
	return "the machine must reach https://discord.com (port 443): check its network, DNS and any proxy"
}
