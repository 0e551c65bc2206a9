package hosted

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// TokenScope is the settings scope of the seats' API tokens (docs/api.md),
// stored under the SHA-256 of the token: a copy of the database gives none
// away. Tokens are made here, for the bot (/risk me token) and the web
// adapter (its page) alike, and checked by the web adapter's match API:
// one database, one kind of token.
const TokenScope = "web-token"

// TokenSeat is what a token lets its holder play: a seat, by its player,
// in one match.
type TokenSeat struct {
	Match int64  `json:"match"`
	User  string `json:"user"`
	Name  string `json:"name"`
}

// TokenHash is the key a token is stored under.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TokenLen is the length of a token: "rk_" and 48 hexadecimal digits.
const TokenLen = 3 + 2*24

// TokenStore keeps the tokens' seats.
type TokenStore interface {
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
}

// NewToken makes a new API token for user's seat in match id and returns
// it: shown once, to the seat's player; only its hash is kept.
func NewToken(ctx context.Context, st TokenStore, id int64, user chat.User, now time.Time) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	tok := "rk_" + hex.EncodeToString(b)
	raw, err := json.Marshal(TokenSeat{Match: id, User: user.ID, Name: user.Name})
	if err != nil {
		return "", fmt.Errorf("bot: a token's seat: %w", err)
	}
	if err := st.SetSetting(ctx, TokenScope, TokenHash(tok), raw, now); err != nil {
		return "", fmt.Errorf("bot: keep an API token: %w", err)
	}
	return tok, nil
}
