package hosted

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

// TokenScope is the settings scope of the seats' API tokens (docs/api.md),
// stored under the SHA-256 of the token: a copy of the database gives none
// away. Tokens are made here, for the bot (/risk me token) and the web
// adapter (its page) alike, and checked by the web adapter's match API:
// one database, one kind of token.
const TokenScope = "web-token"

// tokenGenScope is the settings scope of each seat's token generation,
// by "MATCH/USER": a token is good while the generation it was made in is
// its seat's. Revoking a seat's tokens moves its generation on, which ends
// every token made before at once, without a list of them to keep.
const tokenGenScope = "web-token-gen"

// TokenSeat is what a token lets its holder play: a seat, by its player,
// in one match.
type TokenSeat struct {
	Match int64  `json:"match"`
	User  string `json:"user"`
	Name  string `json:"name"`
	// Gen is the seat's token generation when it was made (0 for tokens
	// made before tokens could be revoked, good until the first
	// revocation).
	Gen int64 `json:"gen,omitempty"`
}

// TokenHash is the key a token is stored under.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TokenLen is the length of a token: "rk_" and 48 hexadecimal digits.
const TokenLen = 3 + 2*24

// TokenStore keeps the tokens' seats and their generations.
type TokenStore interface {
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// The errors of TokenOf: a token the server never made (or not a token at
// all), and one made but revoked since.
var (
	ErrNoToken      = errors.New("no valid token")
	ErrTokenRevoked = errors.New("the token was revoked")
)

// genKey names a seat's token generation.
func genKey(match int64, user string) string {
	return strconv.FormatInt(match, 10) + "/" + user
}

// tokenGen reads a seat's token generation: 0 before its first revocation.
func tokenGen(ctx context.Context, st TokenStore, match int64, user string) (int64, error) {
	raw, err := st.Setting(ctx, tokenGenScope, genKey(match, user))
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

// NewToken makes a new API token for user's seat in match id and returns
// it: shown once, to the seat's player; only its hash is kept.
func NewToken(ctx context.Context, st TokenStore, id int64, user chat.User, now time.Time) (string, error) {
	gen, err := tokenGen(ctx, st, id, user.ID)
	if err != nil {
		return "", err
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	tok := "rk_" + hex.EncodeToString(b)
	raw, err := json.Marshal(TokenSeat{Match: id, User: user.ID, Name: user.Name, Gen: gen})
	if err != nil {
		return "", fmt.Errorf("bot: a token's seat: %w", err)
	}
	if err := st.SetSetting(ctx, TokenScope, TokenHash(tok), raw, now); err != nil {
		return "", fmt.Errorf("bot: keep an API token: %w", err)
	}
	return tok, nil
}

// IsToken reports whether s has the form of a token (which says nothing
// of whether the server made it).
func IsToken(s string) bool {
	if len(s) != TokenLen || s[:3] != "rk_" {
		return false
	}
	_, err := hex.DecodeString(s[3:])
	return err == nil
}

// TokenOf returns the seat a token plays: ErrNoToken for one the server
// never made, ErrTokenRevoked for one revoked since (RevokeTokens).
func TokenOf(ctx context.Context, st TokenStore, token string) (TokenSeat, error) {
	ts, err := tokenSeat(ctx, st, token)
	if err != nil {
		return TokenSeat{}, err
	}
	return ts, CheckToken(ctx, st, ts)
}

// tokenSeat reads the seat a token was made for, good or not since.
func tokenSeat(ctx context.Context, st TokenStore, token string) (TokenSeat, error) {
	if !IsToken(token) {
		return TokenSeat{}, ErrNoToken
	}
	raw, err := st.Setting(ctx, TokenScope, TokenHash(token))
	if errors.Is(err, storage.ErrNotFound) {
		return TokenSeat{}, ErrNoToken
	}
	if err != nil {
		return TokenSeat{}, fmt.Errorf("bot: read a token: %w", err)
	}
	var ts TokenSeat
	if err := json.Unmarshal(raw, &ts); err != nil {
		return TokenSeat{}, ErrNoToken
	}
	return ts, nil
}

// CheckToken reports whether the seat of a token is still its token's
// (ErrTokenRevoked if it was revoked since it was made): one read.
func CheckToken(ctx context.Context, st TokenStore, ts TokenSeat) error {
	gen, err := tokenGen(ctx, st, ts.Match, ts.User)
	if err != nil {
		return err
	}
	if ts.Gen != gen {
		return ErrTokenRevoked
	}
	return nil
}

// Requires is the setting a change made with the token requires
// (storage.Change.Requires): its seat's token generation, as it was when
// the token was made. The change is saved only if the token is still
// good when it commits, in this process or any other, without a read of
// its own.
func (ts TokenSeat) Requires() *storage.Setting {
	r := &storage.Setting{Scope: tokenGenScope, ID: genKey(ts.Match, ts.User)}
	if ts.Gen != 0 {
		r.Value = genValue(ts.Gen) // (no generation before the first revocation)
	}
	return r
}

// genValue is a token generation as it is stored.
func genValue(gen int64) json.RawMessage {
	return json.RawMessage(`{"gen":` + strconv.FormatInt(gen, 10) + `}`)
}

// Tokens reads the seats of API tokens, keeping those it read: a token's
// seat (its match, player and generation) never changes once it is made.
// Whether the token is still good does, when its seat's tokens are
// revoked (in this process or another): Seat does not say, TokenOf
// (Tokens.Of) reads it, and a change made with the token can require it
// (TokenSeat.Requires). It is safe for concurrent use.
type Tokens struct {
	st    TokenStore
	seats *lru.Cache[string, TokenSeat] // by the token's hash
}

// NewTokens returns Tokens over st, keeping the seats of the n tokens
// used last.
func NewTokens(st TokenStore, n int) *Tokens {
	return &Tokens{st: st, seats: lru.New[string, TokenSeat](n)}
}

// Seat returns the seat token was made for, without checking that it is
// still good: ErrNoToken for one the server never made. What is done
// with it must be checked (Of, CheckToken, or TokenSeat.Requires).
func (t *Tokens) Seat(ctx context.Context, token string) (TokenSeat, error) {
	if !IsToken(token) {
		return TokenSeat{}, ErrNoToken
	}
	h := TokenHash(token)
	if ts, ok := t.seats.Get(h); ok {
		return ts, nil
	}
	ts, err := tokenSeat(ctx, t.st, token)
	if err != nil {
		return TokenSeat{}, err
	}
	t.seats.Add(h, ts)
	return ts, nil
}

// Of is TokenOf, the token's seat read from memory once it was read: one
// read, of the seat's token generation.
func (t *Tokens) Of(ctx context.Context, token string) (TokenSeat, error) {
	ts, err := t.Seat(ctx, token)
	if err != nil {
		return TokenSeat{}, err
	}
	return ts, CheckToken(ctx, t.st, ts)
}

// RevokeTokens ends every token of user's seat in match id: those made
// before stop working at once; one asked for after is good. The seat's
// player revokes them (/risk me token revoke:yes); the bot does when the
// seat is kicked or given up.
func RevokeTokens(ctx context.Context, st TokenStore, id int64, user string, now time.Time) error {
	gen, err := tokenGen(ctx, st, id, user)
	if err != nil {
		return err
	}
	if err := st.SetSetting(ctx, tokenGenScope, genKey(id, user), genValue(gen+1), now); err != nil {
		return fmt.Errorf("bot: revoke the tokens of %s in match %d: %w", user, id, err)
	}
	return nil
}
