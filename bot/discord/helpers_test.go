package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// logBuffer collects a test's logs; they are printed if the test fails.
// (Logging through t.Log would panic in goroutines that outlive the test.)
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func testLog(t testing.TB) (*slog.Logger, *logBuffer) {
	buf := &logBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", buf)
		}
	})
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), buf
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func template(t testing.TB, name string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(fixture(t, name), &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// person is someone in the test server.
type person struct {
	id   string
	name string
	// perms are their permissions in the channel (member.permissions).
	perms int64
	// locale is their Discord client's language, and guild the server's
	// (default the fixtures' en-US).
	locale, guild string
}

// memberPerms are an ordinary member's permissions; adminPerms add Manage
// Server.
const (
	memberPerms = fakediscord.PermViewChannel | fakediscord.PermSendMessages | fakediscord.PermReadMessageHistory | fakediscord.PermUseAppCommands
	adminPerms  = memberPerms | fakediscord.PermManageServer
)

var (
	ann = person{"100000000000000001", "Ann", memberPerms, "", ""}
	bob = person{"100000000000000002", "Bob", memberPerms, "", ""}
	cat = person{"100000000000000003", "Cat", memberPerms, "", ""}
	// dan administers the server.
	dan = person{"100000000000000004", "Dan", adminPerms, "", ""}
)

func (p person) userID() string { return prefix + p.id }

// member is the member object of a person, in the current user style.
func (p person) member() map[string]any {
	return map[string]any{
		"user":      map[string]any{"id": p.id, "username": strings.ToLower(p.name), "global_name": p.name, "discriminator": "0", "avatar": nil, "public_flags": 0},
		"roles":     []any{},
		"nick":      nil,
		"joined_at": "2024-03-13T19:19:14.040000+00:00",
		"deaf":      false, "mute": false, "permissions": strconv.FormatInt(p.perms, 10),
	}
}

// opt is an option typed into a command: strings are type 3, ints type 4.
type opt struct {
	name    string
	value   any
	focused bool
}

func o(name string, value any) opt { return opt{name: name, value: value} }

func (x opt) json() map[string]any {
	typ, value := 3, x.value
	if _, ok := x.value.(int); ok {
		typ = 4
	}
	if p, ok := x.value.(person); ok {
		typ, value = 6, p.id // a user option: Discord sends the member's ID
	}
	m := map[string]any{"type": typ, "name": x.name, "value": value}
	if x.focused {
		m["focused"] = true
	}
	return m
}

// retarget makes a fixture an interaction of the fake's application, by
// the person in the channel, with fresh id and token; the fake gives it
// the bot's permissions in the channel (app_permissions).
func retarget(m map[string]any, p person, channel string) {
	m["application_id"] = fakediscord.AppID
	m["id"], m["token"] = "", ""
	delete(m, "app_permissions")
	m["channel_id"] = channel
	m["guild_id"] = "290926798626357999"
	m["member"] = p.member()
	if p.locale != "" {
		m["locale"] = p.locale
	}
	if p.guild != "" {
		m["guild_locale"] = p.guild
	}
}

func encode(t testing.TB, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// slash is the payload of /risk SUB options... built from the
// subcommand fixture.
func slash(t testing.TB, p person, channel, sub string, opts ...opt) []byte {
	t.Helper()
	m := template(t, "application_command_subcommand.CONSTRUCTED.json")
	retarget(m, p, channel)
	var list []any
	for _, x := range opts {
		list = append(list, x.json())
	}
	sc := map[string]any{"type": 1}
	if len(list) > 0 {
		sc["options"] = list
	}
	nest(m["data"].(map[string]any), sub, sc)
	return encode(t, m)
}

// nest puts the subcommand sc, named by its full name in the core (or a
// word command.Alias knows), into an interaction's data as Discord sends
// it: /risk SUB, /risk GROUP SUB, or /risk-admin SUB.
func nest(data map[string]any, sub string, sc map[string]any) {
	spec := command.Spec{Name: command.Alias(sub)}
	if g, n, ok := strings.Cut(spec.Name, " "); ok {
		spec = command.Spec{Group: g, Name: n}
	}
	if s, ok := command.Find(command.Specs([]string{"normal"}), command.Alias(sub)); ok {
		spec = s // a group within /risk-admin: /risk-admin map add
	}
	sc["name"] = spec.Name
	data["name"] = spec.Command()
	data["options"] = []any{sc}
	if g := spec.DiscordGroup(); g != "" {
		data["options"] = []any{map[string]any{"type": 2, "name": g, "options": []any{sc}}}
	}
}

// autocomplete is the payload of an autocomplete of /risk SUB, typing
// into the option named focused, built from the autocomplete fixture.
func autocomplete(t testing.TB, p person, channel, sub, focused, typed string, opts ...opt) []byte {
	t.Helper()
	m := template(t, "risk_attack_autocomplete.CONSTRUCTED.json")
	retarget(m, p, channel)
	var list []any
	for _, x := range opts {
		list = append(list, x.json())
	}
	list = append(list, opt{name: focused, value: typed, focused: true}.json())
	nest(m["data"].(map[string]any), sub, map[string]any{"type": 1, "options": list})
	return encode(t, m)
}

// click is the payload of a click on the button with the custom ID, built
// from the button fixture.
func click(t testing.TB, p person, channel, customID string) []byte {
	t.Helper()
	m := template(t, "message_component_button.json")
	retarget(m, p, channel)
	m["data"].(map[string]any)["custom_id"] = customID
	msg := m["message"].(map[string]any)
	msg["channel_id"] = channel
	msg["components"] = []any{map[string]any{"type": 1, "components": []any{
		map[string]any{"type": 2, "label": "Click", "style": 1, "custom_id": customID},
	}}}
	return encode(t, m)
}

// env is an adapter talking to a fake Discord over REST only: tests hand
// interactions to the adapter's handler directly, as the gateway would.
type env struct {
	t    testing.TB
	ctx  context.Context
	fake *fakediscord.Server
	a    *Adapter
	core Core
	logs *logBuffer
}

func newEnv(t testing.TB, core Core, deferAfter time.Duration) *env {
	t.Helper()
	fake := fakediscord.New(t)
	log, logs := testLog(t)
	a, err := New(Config{Token: fakediscord.Token, HTTPClient: fake.Client(), Log: log, DeferAfter: deferAfter})
	if err != nil {
		t.Fatal(err)
	}
	// What READY would have said.
	a.s.State.Application = &discordgo.Application{ID: fakediscord.AppID}
	return &env{t: t, ctx: context.Background(), fake: fake, a: a, core: core, logs: logs}
}

// deliver registers a payload with the fake as just delivered and returns
// it as discordgo decodes it from the gateway.
func (e *env) deliver(payload []byte) *discordgo.Interaction {
	e.t.Helper()
	raw, err := e.fake.Interaction(payload)
	if err != nil {
		e.t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		e.t.Fatalf("discordgo cannot read the payload: %v", err)
	}
	return &i
}

// do delivers an interaction and handles it to the end; it returns the
// interaction's ID.
func (e *env) do(payload []byte) string {
	e.t.Helper()
	i := e.deliver(payload)
	if err := e.a.handle(e.ctx, e.core, i, time.Now()); err != nil {
		e.t.Fatalf("handle: %v", err)
	}
	return i.ID
}

// answer returns the visible answer of an interaction: its answer message
// or, if that was replaced (deleted), its first follow-up.
func (e *env) answer(id string) fakediscord.Message {
	e.t.Helper()
	rs := e.fake.Replies(id)
	if len(rs) != 1 {
		e.t.Fatalf("interaction %s has %d visible replies, want 1: %+v", id, len(rs), rs)
	}
	return rs[0]
}

// wantPublic checks that a message is public and says every want.
func wantPublic(t testing.TB, m fakediscord.Message, want ...string) {
	t.Helper()
	if m.Ephemeral {
		t.Errorf("message is private, want public: %.200q", m.Content)
	}
	wantText(t, m, want...)
}

// wantPrivate checks that a message is ephemeral and says every want.
func wantPrivate(t testing.TB, m fakediscord.Message, want ...string) {
	t.Helper()
	if !m.Ephemeral {
		t.Errorf("message is public, want private: %.200q", m.Content)
	}
	wantText(t, m, want...)
}

func wantText(t testing.TB, m fakediscord.Message, want ...string) {
	t.Helper()
	all := fullText(m)
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("message %.300q does not say %q", all, w)
		}
	}
}

// fullText is all the text of a message: its content, then its embeds'.
func fullText(m fakediscord.Message) string {
	parts := []string{m.Content}
	for _, e := range m.Embeds {
		parts = append(parts, e.Text())
	}
	return strings.TrimPrefix(strings.Join(parts, "\n"), "\n")
}

// buttonByLabel finds a button of a message by the start of its label.
func buttonByLabel(m fakediscord.Message, label string) (fakediscord.Button, bool) {
	for _, row := range m.Buttons {
		for _, b := range row {
			if strings.HasPrefix(b.Label, label) {
				return b, true
			}
		}
	}
	return fakediscord.Button{}, false
}

// coreFunc is a hand-written core for tests of the reply policy.
type coreFunc struct {
	handle       func(ctx context.Context, req chat.Request, r chat.Replier) error
	click        func(ctx context.Context, c chat.Click, r chat.Replier) error
	autocomplete func(ctx context.Context, req chat.Request, focused string) []chat.Choice
}

func (c coreFunc) Handle(ctx context.Context, req chat.Request, r chat.Replier) error {
	return c.handle(ctx, req, r)
}

func (c coreFunc) HandleClick(ctx context.Context, cl chat.Click, r chat.Replier) error {
	return c.click(ctx, cl, r)
}

func (c coreFunc) Autocomplete(ctx context.Context, req chat.Request, focused string) []chat.Choice {
	return c.autocomplete(ctx, req, focused)
}

func (c coreFunc) Specs() []command.Spec { return command.Specs([]string{"normal"}) }

// replyWith is a core that answers every command and click with m.
func replyWith(m chat.Message) coreFunc {
	return coreFunc{
		handle: func(ctx context.Context, _ chat.Request, r chat.Replier) error { return r.Reply(ctx, m) },
		click:  func(ctx context.Context, _ chat.Click, r chat.Replier) error { return r.Reply(ctx, m) },
	}
}
