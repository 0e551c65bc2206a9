package tokens

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// TestRevokeTokens: revoking a seat's tokens ends every one made before,
// and only that seat's; a token made after works; tokens of before
// revocation existed (no generation) work until the first.
func TestRevokeTokens(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Unix(1_700_000_000, 0)
	ann, bob := chat.User{ID: "web:ann", Name: "Ann"}, chat.User{ID: "web:bob", Name: "Bob"}
	mint := func(id int64, u chat.User) string {
		t.Helper()
		tok, err := New(ctx, db, id, u, now)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	// A token as the bot made them before they could be revoked.
	old := "rk_" + "00112233445566778899aabbccddeeff0011223344556677"
	raw, _ := json.Marshal(map[string]any{"match": 1, "user": ann.ID, "name": ann.Name})
	if err := db.SetSetting(ctx, Scope, Hash(old), raw, now); err != nil {
		t.Fatal(err)
	}
	a1, a2, b1, other := mint(1, ann), mint(1, ann), mint(1, bob), mint(2, ann)
	check := func(when, tok string, want error) {
		t.Helper()
		_, err := NewKeeper(db, 0).Verify(ctx, tok)
		if !errors.Is(err, want) && !(want == nil && err == nil) {
			t.Errorf("%s: Verify = %v, want %v", when, err, want)
		}
	}
	for _, tok := range []string{old, a1, a2, b1, other} {
		check("before", tok, nil)
	}
	check("a token never made", "rk_"+"ffffffffffffffffffffffffffffffffffffffffffffffff", ErrUnknown)
	check("not a token", "rk_nothex", ErrUnknown)
	if err := Revoke(ctx, db, 1, ann.ID, now); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{old, a1, a2} {
		check("Ann's, revoked", tok, ErrRevoked)
	}
	check("Bob's, same match", b1, nil)
	check("Ann's, another match", other, nil)
	a3 := mint(1, ann)
	check("Ann's, made after", a3, nil)
	if err := Revoke(ctx, db, 1, ann.ID, now); err != nil {
		t.Fatal(err)
	}
	check("Ann's, made after, revoked again", a3, ErrRevoked)
}
