package hosted

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/storage"
)

// saves is a Store that keeps what it is asked to save, and answers loads
// with one match or an error: the four methods Matches uses, and nothing
// else of the database.
type saves struct {
	match   *storage.Loaded
	loadErr error
	saveErr error
	changes []storage.Change
}

func (s *saves) Active(context.Context, string) (*storage.Loaded, error) {
	if s.loadErr != nil {
		return nil, s.loadErr
	}
	return s.match, nil
}

func (s *saves) Load(ctx context.Context, _ int64) (*storage.Loaded, error) { return s.Active(ctx, "") }

func (s *saves) History(context.Context, string) ([]storage.Match, error) { return nil, nil }

func (s *saves) Save(_ context.Context, _, version int64, c storage.Change, _ time.Time) (int64, error) {
	if s.saveErr != nil {
		return 0, s.saveErr
	}
	s.changes = append(s.changes, c)
	return version + 1, nil
}

// A change is saved with the match's data at the version it was read; the
// request it answers goes with its first change only; the news it queues
// is claimed by this process, which delivers it.
func TestSave(t *testing.T) {
	store := &saves{match: &storage.Loaded{Match: storage.Match{ID: 7, Channel: "test:c", Version: 3, Status: storage.Lobby,
		Meta: Meta{Host: "test:ann", Settings: DefaultSettings(), Seats: []Seat{{ID: "test:ann", Name: "Ann"}}}.Encode()}}}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	claim := storage.Claim{Holder: "test", Now: now, Until: now.Add(time.Minute)}
	ms := NewMatches(store, people.New(nil, func() time.Time { return now }, slog.New(slog.DiscardHandler)),
		func() time.Time { return now }, slog.New(slog.DiscardHandler), func() storage.Claim { return claim })
	c := &Call{Req: chat.Request{Channel: "test:c", User: chat.User{ID: "test:ann"}}, Rec: &Record{Req: storage.Request{Key: "k1", Summary: "/risk join"}}}
	m, err := ms.For(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	m.Meta.Seats = append(m.Meta.Seats, Seat{ID: "test:bob", Name: "Bob"})
	m.Says("Bob joined.")
	if err := ms.SaveNews(context.Background(), m, storage.Change{}, &news.News{Note: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := ms.Save(context.Background(), m, storage.Change{}); err != nil {
		t.Fatal(err)
	}
	if len(store.changes) != 2 || m.Version != 5 || !c.Rec.Saved {
		t.Fatalf("%d changes, version %d, recorded %v", len(store.changes), m.Version, c.Rec.Saved)
	}
	first, second := store.changes[0], store.changes[1]
	if first.Request == nil || first.Request.Key != "k1" || first.Request.Result != "Bob joined." || second.Request != nil {
		t.Errorf("requests saved: %+v, then %+v", first.Request, second.Request)
	}
	if len(first.Posts) != 1 || first.Claim == nil || *first.Claim != claim || second.Claim != nil {
		t.Errorf("news and claims saved: %d posts, claims %v then %v", len(first.Posts), first.Claim, second.Claim)
	}
	meta, err := DecodeMeta(first.Meta)
	if err != nil || len(meta.Seats) != 2 {
		t.Errorf("match data saved: %+v, %v", meta, err)
	}
	// A request saved already (delivered twice) is refused, kindly.
	store.saveErr = storage.ErrDuplicate
	var r *chat.Refusal
	if err := ms.Save(context.Background(), m, storage.Change{}); !errors.As(err, &r) {
		t.Errorf("a duplicate: %v, want a refusal", err)
	}
	// Another process won the race: the conflict goes up, to run the
	// command again on the match as it is now.
	store.saveErr = storage.ErrConflict
	if err := ms.Save(context.Background(), m, storage.Change{}); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("a conflict: %v", err)
	}
}

// A channel without a match, or with one that no longer loads, gets a
// word, not an error.
func TestLoadRefuses(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{storage.ErrNotFound, "There is no match in this channel"},
		{&storage.CorruptError{Match: 9, Err: errors.New("bad log")}, "damaged and cannot be loaded (match 9)"},
	} {
		ms := NewMatches(&saves{loadErr: tt.err}, nil, time.Now, slog.New(slog.DiscardHandler), nil)
		_, err := ms.Load(context.Background(), "test:c")
		var r *chat.Refusal
		if !errors.As(err, &r) || !strings.Contains(r.Msg, tt.want) {
			t.Errorf("load with %v: %v, want a refusal with %q", tt.err, err, tt.want)
		}
	}
}
