package tokens

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/internal/lru"
	"github.com/riskbot/riskbot/storage"
)

// Scope is the settings scope of the seats' API tokens (docs/api.md),
// stored under the SHA-256 of the token: a copy of the database gives none
// away. Keeper are made here, for the bot (/risk me token) and the web
// adapter (its page) alike, and checked by the web adapter's match API:
// one database, one kind of token.
const Scope = "web-token"

// genScope is the settings scope of each seat's token generation,
// by "MATCH/USER": a token is good while the generation it was made in is
// its seat's. Revoking a seat's tokens moves its generation on, which ends
// every token made before at once, without a list of them to keep.
const genScope = "web-token-gen"

// Seat is what a token lets its holder play: a seat, by its player,
// in one match.
type Seat struct {
	Match int64  `json:"match"`
	User  string `json:"user"`
	Name  string `json:"name"`
	// Gen is the seat's token generation when it was made (0 for tokens
	// made before tokens could be revoked, good until the first
	// revocation).
	Gen int64 `json:"gen,omitempty"`
}

// Hash is the key a token is stored under.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Len is the length of a token: "rk_" and 48 hexadecimal digits.
const Len = 3 + 2*24

// Store keeps the tokens' seats and their generations.
type Store interface {
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// The errors of Verify: a token the server never made (or not a token at
// all), and one made but revoked since.
var (
	ErrUnknown = errors.New("no valid token")
	ErrRevoked = errors.New("the token was revoked")
)

// genKey names a seat's token generation.
func genKey(match int64, user string) string {
	return strconv.FormatInt(match, 10) + "/" + user
}

// tokenGen reads a seat's token generation: 0 before its first revocation.
func tokenGen(ctx context.Context, st Store, match int64, user string) (int64, error) {
	raw, err := st.Setting(ctx, genScope, genKey(match, user))
	if errors.Is(err, storage.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("bot: read the token generation of %s in match %d: %w", user, match, err)
	}
	var g struct {
		Gen int64 `json:"gen"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return 0, fmt.Errorf("bot: the token generation of %s in match %d: %w", user, match, err)
	}
	return g.Gen, nil
}

// New makes a new API token for user's seat in match id and returns
// it: shown once, to the seat's player; only its hash is kept.
func New(ctx context.Context, st Store, id int64, user chat.User, now time.Time) (string, error) {
	gen, err := tokenGen(ctx, st, id, user.ID)
	if err != nil {
		return "", err
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	tok := "rk_" + hex.EncodeToString(b)
	raw, err := json.Marshal(Seat{Match: id, User: user.ID, Name: user.Name, Gen: gen})
	if err != nil {
		return "", fmt.Errorf("bot: a token's seat: %w", err)
	}
	if err := st.SetSetting(ctx, Scope, Hash(tok), raw, now); err != nil {
		return "", fmt.Errorf("bot: keep an API token: %w", err)
	}
	return tok, nil
}

// Plausible reports whether s has the form of a token (which says nothing
// of whether the server made it).
func Plausible(s string) bool {
	if len(s) != Len || s[:3] != "rk_" {
		return false
	}
	_, err := hex.DecodeString(s[3:])
	return err == nil
}

// tokenSeat reads the seat a token was made for, good or not since.
func tokenSeat(ctx context.Context, st Store, token string) (Seat, error) {
	if !Plausible(token) {
		return Seat{}, ErrUnknown
	}
	raw, err := st.Setting(ctx, Scope, Hash(token))
	if errors.Is(err, storage.ErrNotFound) {
		return Seat{}, ErrUnknown
	}
	if err != nil {
		return Seat{}, fmt.Errorf("bot: read a token: %w", err)
	}
	var ts Seat
	if err := json.Unmarshal(raw, &ts); err != nil {
		return Seat{}, ErrUnknown
	}
	return ts, nil
}

// check reports whether the seat of a token is still its token's
// (ErrRevoked if it was revoked since it was made): one read.
func check(ctx context.Context, st Store, ts Seat) error {
	gen, err := tokenGen(ctx, st, ts.Match, ts.User)
	if err != nil {
		return err
	}
	if ts.Gen != gen {
		return ErrRevoked
	}
	return nil
}

// Requires is the setting a change made with the token requires
// (storage.Change.Requires): its seat's token generation, as it was when
// the token was made. The change is saved only if the token is still
// good when it commits, in this process or any other, without a read of
// its own.
func (ts Seat) Requires() *storage.Setting {
	r := &storage.Setting{Scope: genScope, ID: genKey(ts.Match, ts.User)}
	if ts.Gen != 0 {
		r.Value = genValue(ts.Gen) // (no generation before the first revocation)
	}
	return r
}

// genValue is a token generation as it is stored.
func genValue(gen int64) json.RawMessage {
	return json.RawMessage(`{"gen":` + strconv.FormatInt(gen, 10) + `}`)
}

// Keeper checks API tokens, keeping the seats it read: a token's seat
// (its match, player and generation) never changes once it is made.
// Whether the token is still good does, when its seat's tokens are
// revoked (in this process or another): Verify reads it, and a change made
// with a seat that Claim gave can require it instead (Seat.Requires). It
// is safe for concurrent use.
type Keeper struct {
	st    Store
	seats *lru.Cache[string, Seat] // by the token's hash
}

// NewKeeper returns a Keeper over st, keeping the seats of the n tokens
// used last.
func NewKeeper(st Store, n int) *Keeper {
	return &Keeper{st: st, seats: lru.New[string, Seat](max(n, 1))}
}

// Verify returns the seat a token plays: ErrUnknown for one the server
// never made (or not a token at all), ErrRevoked for one revoked since
// (Revoke). It is the one check of a token: one read once its seat is
// kept, of the seat's token generation.
func (k *Keeper) Verify(ctx context.Context, token string) (Seat, error) {
	ts, err := k.Claim(ctx, token)
	if err != nil {
		return Seat{}, err
	}
	return ts, check(ctx, k.st, ts)
}

// Claim returns the seat token was made for, without checking that it is
// still good: ErrUnknown for one the server never made. What is done with
// it must be checked: a change by requiring the token in its own
// transaction (Seat.Requires), anything else by Verify.
func (k *Keeper) Claim(ctx context.Context, token string) (Seat, error) {
	if !Plausible(token) {
		return Seat{}, ErrUnknown
	}
	h := Hash(token)
	if ts, ok := k.seats.Get(h); ok {
		return ts, nil
	}
	ts, err := tokenSeat(ctx, k.st, token)
	if err != nil {
		return Seat{}, err
	}
	k.seats.Add(h, ts)
	return ts, nil
}

// Revoke ends every token of user's seat in match id: those made
// before stop working at once; one asked for after is good. The seat's
// player revokes them (/risk me token revoke:yes); the bot does when the
// seat is kicked or given up.
func Revoke(ctx context.Context, st Store, id int64, user string, now time.Time) error {
	gen, err := tokenGen(ctx, st, id, user)
	if err != nil {
		return err
	}
	if err := st.SetSetting(ctx, genScope, genKey(id, user), genValue(gen+1), now); err != nil {
		return fmt.Errorf("bot: revoke the tokens of %s in match %d: %w", user, id, err)
	}
	return nil
}
