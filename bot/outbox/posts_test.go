package outbox

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/people"
)

// postOnly is a chat that can post but not edit (a terminal).
type postOnly struct{ chat.Poster }

// TestLivingMessages: a message with a ref is posted once and edited from
// then on, as its mode says, by any process (its place is in the store);
// an edit notifies nobody.
func TestLivingMessages(t *testing.T) {
	post := func(text string, mode news.Mode) news.Post {
		return news.Post{Message: chat.Message{Text: text, Mentions: []string{user("Ann")}}, Ref: "7:3:0", Mode: mode}
	}
	for _, tt := range []struct {
		name  string
		steps []news.Post
		// lose, if set, happens after the first step.
		lose func(e *env, firstID string)
		// noEdit: the chat cannot edit its messages.
		noEdit bool
		// want are the channel's messages' texts after the steps; posts
		// and edits count the chat's.
		want         []string
		posts, edits int
	}{
		{name: "posted, then edited", steps: []news.Post{post("a", news.PostOrEdit), post("b", news.PostOrEdit), post("c", news.Complete)},
			want: []string{"c"}, posts: 1, edits: 2},
		{name: "complete forgets it: the next is a new message", steps: []news.Post{post("a", news.PostOrEdit), post("b", news.Complete), post("c", news.PostOrEdit)},
			want: []string{"b", "c"}, posts: 2, edits: 1},
		{name: "edit only: nothing until it was posted", steps: []news.Post{post("a", news.EditOnly), post("b", news.PostOrEdit), post("c", news.EditOnly)},
			want: []string{"c"}, posts: 1, edits: 1},
		{name: "complete with nothing posted posts it", steps: []news.Post{post("a", news.Complete), post("b", news.EditOnly)},
			want: []string{"a"}, posts: 1},
		{name: "retire edits its last, forgets it, posts nothing new", steps: []news.Post{post("a", news.Repost), post("b", news.Retire), post("c", news.Retire)},
			want: []string{"b"}, posts: 1, edits: 1},
		{name: "a repost deleted is posted anew, once, and edited from then on",
			steps: []news.Post{post("a", news.Repost), post("b", news.Repost), post("c", news.Repost)},
			lose:  func(e *env, firstID string) { e.chat.Delete(firstID) },
			want:  []string{"c"}, posts: 2, edits: 1},
		{name: "a living message deleted is not posted anew", steps: []news.Post{post("a", news.PostOrEdit), post("b", news.PostOrEdit)},
			lose: func(e *env, firstID string) { e.chat.Delete(firstID) },
			want: nil, posts: 1},
		{name: "its place forgotten: posted anew", steps: []news.Post{post("a", news.Repost), post("b", news.Repost)},
			lose: func(e *env, _ string) {
				if err := e.store.SetSetting(context.Background(), postScope, "7:3:0", nil, e.Now()); err != nil {
					e.t.Fatal(err)
				}
			},
			want: []string{"a", "b"}, posts: 2},
		{name: "a chat that cannot edit posts each", noEdit: true, steps: []news.Post{post("a", news.PostOrEdit), post("b", news.Complete), post("c", news.EditOnly)},
			want: []string{"a", "b"}, posts: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnvWith(t, func(c *Config) {
				if tt.noEdit {
					c.Poster = postOnly{c.Poster}
				}
			})
			for i, p := range tt.steps {
				if err := e.ob.Post(context.Background(), "test:c", p); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if i == 0 && tt.lose != nil {
					sent := e.chat.In("test:c")
					tt.lose(e, sent[0].ID)
				}
			}
			sent := e.chat.In("test:c")
			if got := texts(sent); !slices.Equal(got, tt.want) {
				t.Errorf("the channel holds %q, want %q", got, tt.want)
			}
			if posts, edits := e.chat.Counts(); posts != tt.posts || edits != tt.edits {
				t.Errorf("%d posts, %d edits; want %d, %d", posts, edits, tt.posts, tt.edits)
			}
		})
	}
}

// TestEditNotifiesNobody: an edit of a living message carries no
// mentions and is clipped to a chat message.
func TestEditNotifiesNobody(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("x", chat.MaxText+10)
	for _, text := range []string{"first", long} {
		p := news.Post{Message: chat.Message{Text: text, Mentions: []string{user("Ann")}}, Ref: "7:3:0", Mode: news.PostOrEdit}
		if err := e.ob.Post(context.Background(), "test:c", p); err != nil {
			t.Fatal(err)
		}
	}
	sent := e.chat.In("test:c")
	if len(sent) != 1 || len(sent[0].Msg.Mentions) != 0 || len(sent[0].Msg.Text) > chat.MaxText+len("…") {
		t.Errorf("the edited message: %d messages, mentions %v, %d bytes", len(sent), sent[0].Msg.Mentions, len(sent[0].Msg.Text))
	}
}

// TestPingsFollowPlayersChoices: a turn's ping reaches each person as
// they chose: a direct message too, in their language; nothing in their
// quiet hours; no reminder if they want none, and a reminder left with
// nobody to ping is not posted.
func TestPingsFollowPlayersChoices(t *testing.T) {
	quiet := people.Prefs{QuietFrom: 11, QuietTo: 13} // t0 is 12:00 UTC
	for _, tt := range []struct {
		name     string
		prefs    people.Prefs
		notice   news.Notice
		posted   bool
		mentions bool
		dm       string // in the direct message, "" for none
	}{
		{"no choices", people.Prefs{}, news.TurnPing, true, true, ""},
		{"a direct message too", people.Prefs{DM: true}, news.TurnPing, true, true, "🔔 In {{channel:test:c}}: Ann, it is your turn"},
		{"a direct message in French", people.Prefs{DM: true, Lang: "fr"}, news.TurnPing, true, true, "🔔 Dans {{channel:test:c}} : Ann, c'est ton tour"},
		{"quiet hours", people.Prefs{DM: true, QuietFrom: 11, QuietTo: 13}, news.TurnPing, true, false, ""},
		{"quiet hours elsewhere", people.Prefs{DM: true, QuietFrom: 11, QuietTo: 13, Offset: 180}, news.TurnPing, true, true, "Ann, it is your turn"},
		{"a reminder", people.Prefs{DM: true}, news.ReminderPing, true, true, "🔔 In {{channel:test:c}}: Ann, it is your turn"},
		{"no reminders", people.Prefs{DM: true, NoReminders: true}, news.ReminderPing, false, false, ""},
		{"a reminder in quiet hours", quiet, news.ReminderPing, false, false, ""},
		{"a plain post pings as it is", people.Prefs{DM: true, QuietFrom: 11, QuietTo: 13}, news.Plain, true, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if err := e.pp.Set(context.Background(), user("Ann"), tt.prefs); err != nil {
				t.Fatal(err)
			}
			p := news.Post{Message: chat.Message{Text: "Ann, it is your turn", Mentions: []string{user("Ann")}}, Notice: tt.notice,
				Said: map[string]string{"fr": "Ann, c'est ton tour"}}
			if err := e.ob.Post(context.Background(), "test:c", p); err != nil {
				t.Fatal(err)
			}
			sent := e.chat.In("test:c")
			if (len(sent) == 1) != tt.posted {
				t.Fatalf("%d posted, want posted %v", len(sent), tt.posted)
			}
			if tt.posted && (len(sent[0].Msg.Mentions) == 1) != tt.mentions {
				t.Errorf("mentions %v, want Ann pinged %v", sent[0].Msg.Mentions, tt.mentions)
			}
			dms := e.chat.In("dm:" + user("Ann"))
			if (len(dms) == 1) != (tt.dm != "") || (tt.dm != "" && !strings.Contains(dms[0].Msg.Text, tt.dm)) {
				t.Errorf("direct messages %q, want %q", texts(dms), tt.dm)
			}
		})
	}
}

// TestOwnViewInTheDirectMessage: with fog of war the direct message of a
// turn's ping carries the player's own view, in their language; a
// reminder's does not.
func TestOwnViewInTheDirectMessage(t *testing.T) {
	var asked []string
	e := newEnvWith(t, func(c *Config) {
		c.Own = func(_ context.Context, channel, user string, t lang.Tag) (chat.Message, bool) {
			asked = append(asked, fmt.Sprintf("%s %s %s", channel, user, t))
			return chat.Message{Text: "your view", Image: chat.NewImage("v.png", nil)}, user != "test:bob"
		}
	})
	if err := e.pp.Set(context.Background(), user("Ann"), people.Prefs{DM: true, Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	if err := e.pp.Set(context.Background(), user("Bob"), people.Prefs{DM: true}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []news.Notice{news.TurnPing, news.ReminderPing} {
		p := news.Post{Message: chat.Message{Text: "your turn", Mentions: []string{user("Ann"), user("Bob")}}, Notice: n}
		if err := e.ob.Post(context.Background(), "test:c", p); err != nil {
			t.Fatal(err)
		}
	}
	ann, bob := e.chat.In("dm:"+user("Ann")), e.chat.In("dm:"+user("Bob"))
	if len(ann) != 2 || !strings.HasSuffix(ann[0].Msg.Text, "\nyour view") || ann[0].Msg.Image == nil || ann[1].Msg.Image != nil {
		t.Errorf("Ann's direct messages: %q; want her view with the ping, none with the reminder", texts(ann))
	}
	if len(bob) != 2 || strings.Contains(bob[0].Msg.Text, "your view") {
		t.Errorf("Bob's direct messages: %q; want the ping alone (he has no view of his own)", texts(bob))
	}
	if want := []string{"test:c test:ann fr", "test:c test:bob en"}; !slices.Equal(asked, want) {
		t.Errorf("views asked for %q, want %q", asked, want)
	}
}

// TestChannelNotes: an answer in a channel that refused the bot's post
// says so until the bot may post there again (a request that says it
// lacks nothing clears the note); one that says what the bot lacks says
// that, where a match is open.
func TestChannelNotes(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	m := e.started("test:open", "")
	if got := e.note("test:open", []string{"Send Messages"}, lang.English); !strings.Contains(got, "⚠️ I lack Send Messages in this channel") {
		t.Errorf("lacking in a channel with a match: %q", got)
	}
	if got := e.note("test:none", []string{"Send Messages"}, lang.English); got != "" {
		t.Errorf("lacking in a channel without a match: %q", got)
	}
	e.ob.refused(ctx, "test:open", m.ID, &chat.RefusedError{Reason: "Missing Access"})
	for _, tt := range []struct {
		name  string
		lacks []string
		t     lang.Tag
		want  string
	}{
		{"refused, the platform does not say", nil, lang.English, "This channel refused my last post ({{time:"},
		{"refused, in French", nil, lang.French, "Ce salon a refusé mon dernier message"},
		{"refused, its needs unknown", nil, lang.English, "my permissions here (all of them)"},
		{"refused, and it says what it lacks", []string{"Embed Links"}, lang.English, "I cannot post in this channel (since {{time:"},
		{"it lacks nothing now", []string{}, lang.English, ""},
		{"cleared", nil, lang.English, ""},
	} {
		got := e.note("test:open", tt.lacks, tt.t)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRestore: a channel that lost its messages gets them anew, pinging
// nobody, and its living messages are edited from then on.
func TestRestore(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	posts := []news.Post{
		{Message: chat.Message{Text: "record", Mentions: []string{user("Ann")}}},
		{Message: chat.Message{Text: "lobby"}, Ref: news.LobbyRef(7), Mode: news.Repost},
	}
	if err := e.ob.Restore(ctx, "test:c", posts); err != nil {
		t.Fatal(err)
	}
	if err := e.ob.Post(ctx, "test:c", news.Post{Message: chat.Message{Text: "lobby, 2 seats"}, Ref: news.LobbyRef(7), Mode: news.Repost}); err != nil {
		t.Fatal(err)
	}
	sent := e.chat.In("test:c")
	if got := texts(sent); !slices.Equal(got, []string{"record", "lobby, 2 seats"}) || len(sent[0].Msg.Mentions) != 0 {
		t.Errorf("the channel holds %q (mentions %v); want the record, pinging nobody, and the lobby edited", got, sent[0].Msg.Mentions)
	}
	e.downFor(down)
	if err := e.ob.Restore(ctx, "test:c", posts); err == nil {
		t.Error("a restore the chat refused gave no error")
	}
}

// TestBatch: the news of a change is its messages, keyed by the change,
// each ping carrying its words in the other languages for the direct
// messages of those who read them; a match that ended in its own thread
// archives it, and its teams' threads.
func TestBatch(t *testing.T) {
	e := newEnv(t)
	m := e.started("test:b", "")
	bt, _, _ := e.endTurn(m)
	if bt.Match != m.ID || bt.Version != m.Version || bt.Archive || len(bt.Threads) != 0 {
		t.Errorf("batch of match %d version %d, archive %v, threads %v", bt.Match, bt.Version, bt.Archive, bt.Threads)
	}
	for i, p := range bt.Posts {
		if p.Key != news.Keyed([]news.Post{{}, {}}, m.ID, m.Version)[i].Key {
			t.Errorf("post %d keyed %q", i, p.Key)
		}
	}
	ping := bt.Posts[len(bt.Posts)-1]
	if ping.Notice != news.TurnPing || !strings.Contains(ping.Said["fr"], "c'est ton tour") || ping.Said["en"] != "" {
		t.Errorf("the ping's other languages: %q", ping.Said)
	}
	if e.ob.Batch(m, nil).Posts != nil {
		t.Error("no news made posts")
	}
	m.Meta.Thread = true
	m.Meta.TeamThreads = []string{"test:t1", "", "test:t2"}
	m.Status = 3 // finished
	bt = e.ob.Batch(m, &news.News{Note: "over"})
	if !bt.Archive || !slices.Equal(bt.Threads, []string{"test:t1", "test:t2"}) {
		t.Errorf("a match ended in its thread: archive %v, threads %v", bt.Archive, bt.Threads)
	}
}
