package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// The whole way through the real discordgo: Run looks up the gateway,
// connects, identifies with no intents, gets READY, registers /risk in the
// server, answers an INTERACTION_CREATE, and stops when its context ends.
// (Few tests like this one: discordgo's Close sleeps a second.)
func TestRunThroughTheGateway(t *testing.T) {
	fake := fakediscord.New(t)
	log, _ := testLog(t)
	const guild = "290926798626357999"
	a, err := New(Config{Token: fakediscord.Token, GuildID: guild, HTTPClient: fake.Client(), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	core := replyWith(chat.Message{Text: "**Risk in chat.**"})
	core.autocomplete = func(context.Context, chat.Request, string) []chat.Choice {
		return []chat.Choice{{Name: "Kamchatka (3 armies)", Value: "Kamchatka"}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, core) }()
	stopped := false
	defer func() {
		if !stopped {
			cancel()
			<-done
		}
	}()
	if !fakediscord.Await(10*time.Second, func() bool { return fake.Connected() == 1 && fake.Overwrites() == 1 }) {
		t.Fatalf("not connected and registered: %d connections, %d registrations", fake.Connected(), fake.Overwrites())
	}
	if ids := fake.Identified(); len(ids) != 1 || ids[0].Intents != 0 || ids[0].Token != "Bot "+fakediscord.Token {
		t.Errorf("identified as %+v, want the bot token and no intents", ids)
	}
	if cmds := fake.Commands(guild); len(cmds) != 2 || cmds[0].Name != "risk" || cmds[1].Name != "risk-admin" {
		t.Errorf("server commands: %d, want /risk and /risk-admin", len(cmds))
	}

	sent, err := fake.Dispatch(slash(t, ann, channel, "help"))
	if err != nil {
		t.Fatal(err)
	}
	id := interactionID(t, sent)
	if !fakediscord.Await(10*time.Second, func() bool { m, _ := fake.Answer(id); return m != nil }) {
		t.Fatal("the interaction was not answered")
	}
	m, typ := fake.Answer(id)
	if typ != 4 || m.Content != "**Risk in chat.**" {
		t.Errorf("answered %d: %+v", typ, m)
	}
	sent, err = fake.Dispatch(autocomplete(t, ann, channel, "attack", "to", "kam", o("from", "Alaska")))
	if err != nil {
		t.Fatal(err)
	}
	id = interactionID(t, sent)
	if !fakediscord.Await(10*time.Second, func() bool { _, ok := fake.Choices(id); return ok }) {
		t.Fatal("the autocomplete was not answered")
	}

	cancel()
	stopped = true
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	if !fakediscord.Await(2*time.Second, func() bool { return fake.Connected() == 0 }) {
		t.Error("still connected after Run returned")
	}
}

// A refused token ends Run at once instead of retrying: a crash loop
// would burn the token's 1000 logins a day.
func TestRunRefusedToken(t *testing.T) {
	fake := fakediscord.New(t)
	log, _ := testLog(t)
	a, err := New(Config{Token: "not-the-token", HTTPClient: fake.Client(), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = a.Run(ctx, replyWith(chat.Message{Text: "x"}))
	if err == nil || !strings.Contains(err.Error(), "refused") || ctx.Err() != nil {
		t.Errorf("Run: %v (context %v), want a prompt refusal", err, ctx.Err())
	}
	if v := fake.TakeViolations(); len(v) != 1 || !strings.Contains(v[0], "wrong token") {
		t.Errorf("violations %q", v)
	}
}

func TestNew(t *testing.T) {
	if _, err := New(Config{Token: "  "}); err == nil {
		t.Error("New accepted an empty token")
	}
	a, err := New(Config{Token: "Bot abc"})
	if err != nil {
		t.Fatal(err)
	}
	// No intents; events handled concurrently (matches run in parallel,
	// the core serialises each one); discordgo's reconnection on.
	if a.s.Identify.Intents != 0 || a.s.SyncEvents || !a.s.ShouldReconnectOnError || a.s.Token != "Bot abc" {
		t.Errorf("session: intents %d, sync events %v, reconnect %v, token %q", a.s.Identify.Intents, a.s.SyncEvents, a.s.ShouldReconnectOnError, a.s.Token)
	}
}

func interactionID(t *testing.T, payload []byte) string {
	t.Helper()
	i := struct{ ID string }{}
	if err := json.Unmarshal(payload, &i); err != nil || i.ID == "" {
		t.Fatalf("dispatched payload: %v", err)
	}
	return i.ID
}

// Sharded, each connection identifies with its shard, and only shard 0
// registers the command.
func TestShards(t *testing.T) {
	fake := fakediscord.New(t)
	log, _ := testLog(t)
	core := replyWith(chat.Message{Text: "hi"})
	ctx, cancel := context.WithCancel(context.Background())
	var done []chan error
	defer func() {
		cancel()
		for _, d := range done {
			<-d
		}
	}()
	for shard := range 2 {
		a, err := New(Config{Token: fakediscord.Token, HTTPClient: fake.Client(), Log: log, Shard: shard, Shards: 2})
		if err != nil {
			t.Fatal(err)
		}
		d := make(chan error, 1)
		done = append(done, d)
		go func() { d <- a.Run(ctx, core) }()
	}
	if !fakediscord.Await(10*time.Second, func() bool { return fake.Connected() == 2 }) {
		t.Fatalf("%d connections, want 2", fake.Connected())
	}
	time.Sleep(200 * time.Millisecond) // a registration by shard 1 would have come by now
	if n := fake.Overwrites(); n != 1 {
		t.Errorf("%d registrations, want 1 (shard 0's)", n)
	}
	var shards []string
	for _, id := range fake.Identified() {
		if id.Shard == nil {
			t.Fatalf("identified without a shard: %+v", id)
		}
		shards = append(shards, fmt.Sprint(*id.Shard))
	}
	slices.Sort(shards)
	if fmt.Sprint(shards) != "[[0 2] [1 2]]" {
		t.Errorf("shards %v", shards)
	}
	if _, err := New(Config{Token: fakediscord.Token, Shard: 2, Shards: 2}); err == nil {
		t.Error("shard 2 of 2 was taken")
	}
}
