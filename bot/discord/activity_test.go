package discord

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// The Activity's sign-in against the fake Discord: a code Discord's client
// gave the player is exchanged with the client secret, the player read
// with the token, and the instance checked with the bot's token; anything
// forged, used, or from elsewhere is refused (ErrRefused).
func TestActivityIdentify(t *testing.T) {
	fake := fakediscord.New(t)
	ann := fakediscord.User{ID: "100000000000000001", Username: "ann", GlobalName: "Ann"}
	bob := fakediscord.User{ID: "100000000000000002", Username: "bob"}
	const ch = "200000000000000001"
	in := fake.Launch(ch, ann.ID)
	act := func(secret string) *Activity {
		return &Activity{ClientID: fakediscord.AppID, ClientSecret: secret, Token: fakediscord.Token, API: fake.URL() + "/api/v10"}
	}
	used := fake.Authorize(ann)
	if _, err := act(fakediscord.ClientSecret).Identify(context.Background(), used, in); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		code     string
		instance string
		secret   string
		want     Player // UserID "" for a refusal
	}{
		{"the player in the instance", fake.Authorize(ann), in, fakediscord.ClientSecret, Player{UserID: ann.ID, Name: "Ann", Channel: ch, Guild: fakediscord.GuildID}},
		{"a username when no display name", fake.Authorize(bob), fake.Launch(ch, bob.ID), fakediscord.ClientSecret, Player{UserID: bob.ID, Name: "bob", Channel: ch, Guild: fakediscord.GuildID}},
		{"a forged code", "code-of-nobody", in, fakediscord.ClientSecret, Player{}},
		{"a code used already", used, in, fakediscord.ClientSecret, Player{}},
		{"a player not in the instance", fake.Authorize(bob), in, fakediscord.ClientSecret, Player{}},
		{"an instance not running", fake.Authorize(ann), "i-404", fakediscord.ClientSecret, Player{}},
		{"the wrong client secret", fake.Authorize(ann), in, "not-the-secret", Player{}},
		{"no code", "", in, fakediscord.ClientSecret, Player{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := act(tt.secret).Identify(context.Background(), tt.code, tt.instance)
			if tt.want.UserID == "" {
				if !errors.Is(err, ErrRefused) {
					t.Errorf("got %+v, %v; want ErrRefused", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.AccessToken == "" {
				t.Error("no access token for the SDK's authenticate")
			}
			got.AccessToken = ""
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// With the Activity on (bot.Config.PlayOnMap), a turn's living post
// carries a Play on the map button, good at any moment, whose click
// launches the Activity (LAUNCH_ACTIVITY, type 12); an application
// without an Activity enabled refuses that answer, and the click is
// answered privately with how to open it instead. With it off, no post
// carries the button.
func TestPlayOnMapLaunchesTheActivity(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match's start")
	}
	for _, c := range []struct {
		name              string
		onMap, activities bool
	}{{"launched", true, true}, {"no Activity in the portal", true, false}, {"off", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, nil, DefaultDeferAfter)
			if c.activities {
				e.fake.EnableActivities()
			}
			db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "risk.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			var mu sync.Mutex
			seed := uint64(0)
			b, err := bot.New(bot.Standard(bot.Config{Store: db, Render: sharedRenderer(), Poster: e.a, Log: e.a.log, PlayOnMap: c.onMap,
				Seed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed }}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.Close)
			e.core = b
			e.do(slash(t, ann, channel, "new"))
			e.do(slash(t, ann, channel, "addbot", o("level", "easy")))
			e.do(slash(t, ann, channel, "start"))
			b.Wait()
			e.do(slash(t, ann, channel, "place")) // the setup's armies, placed for her
			b.Wait()
			l, err := db.Active(context.Background(), prefix+channel)
			if err != nil || l.Status != storage.Active || l.Game.State.Seats[l.Game.State.Current].ID != ann.userID() {
				t.Fatalf("the match is not at Ann's turn: %v", err)
			}
			var post *fakediscord.Message
			for _, m := range e.fake.Messages() {
				if _, ok := buttonByLabel(m, "🗺 Play on the map"); ok && m.Public() {
					post = &m
				}
			}
			if !c.onMap {
				if post != nil {
					t.Fatalf("a post carries Play on the map with the Activity off: %.200q", fullText(*post))
				}
				return
			}
			if post == nil {
				t.Fatal("no post carries Play on the map")
			}
			wantText(t, *post, "Turn ") // the turn's living post
			btn, _ := buttonByLabel(*post, "🗺 Play on the map")
			id := e.do(click(t, ann, channel, btn.CustomID))
			msg, typ := e.fake.Answer(id)
			if c.activities {
				if typ != 12 || msg != nil {
					t.Errorf("the click was answered with type %d and %+v, want 12 (LAUNCH_ACTIVITY) and no message", typ, msg)
				}
				return
			}
			if v := e.fake.TakeViolations(); len(v) != 1 || !strings.Contains(v[0], "LAUNCH_ACTIVITY") {
				t.Errorf("the fake saw %q, want the one refused launch", v)
			}
			wantPrivate(t, e.answer(id), "Activities")
		})
	}
}
