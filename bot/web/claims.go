package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/storage"
)

// A browser's claims of names: who may play a name, the proofs that move
// one from another browser, and the records the claims write.

// claim lets session se act as the player name, unless another browser
// plays them. proof, if given, is the seat's API token or a one-time code
// from the browser that plays them: it moves the name here. A name new to
// the page must look like no other (nor like a mention), within the
// limits of a browser and of the page.
func (b *browsers) claim(ctx context.Context, se *session, name, proof string) error {
	if err := checkName(name); err != nil {
		return refuse(http.StatusBadRequest, "%v", err)
	}
	key := strings.ToLower(name)
	b.mu.Lock()
	mine, count, op := se.users[key], len(se.users), se.operator
	b.mu.Unlock()
	if mine && proof == "" {
		return nil
	}
	if !mine && !op && count >= b.limits.NamesPerBrowser {
		return refuse(http.StatusTooManyRequests, "This browser plays %s, the most one browser may: forget one first (✕ beside it), once it has no match under way.",
			chat.Plural(count, "name", "names"))
	}
	b.claiming.Lock()
	defer b.claiming.Unlock()
	idx, err := b.loadIndex(ctx)
	if err != nil {
		return err
	}
	rec, known, err := b.record(ctx, key)
	if err != nil {
		return err
	}
	from := "" // the browser the name moves from, by its hash
	switch {
	case known && rec.Browser == cookieHash(se.id):
	case known && proof != "":
		if err := b.prove(ctx, key, proof); err != nil {
			return err
		}
		from = rec.Browser
	case known:
		free, err := b.free(ctx, key, rec)
		if err != nil {
			return err
		}
		if !free {
			return refuse(http.StatusConflict, "%s is %v: to play %s here, give the seat's API token or a one-time code from that browser (Move to another browser, under Playing as).", name, errTaken, name)
		}
		from = rec.Browser
	default:
		if err := b.makeRoom(ctx, idx); err != nil {
			return err
		}
		if err := idx.admits(name, key, b.limits.Names); err != nil {
			return err
		}
	}
	if err := b.bind(ctx, se, key, name, from); err != nil {
		return err
	}
	idx.add(name, key)
	return nil
}

// record reads a name's record: known false for a name the page never
// had.
func (b *browsers) record(ctx context.Context, key string) (nameRecord, bool, error) {
	raw, err := b.store.Setting(ctx, nameScope, key)
	if errors.Is(err, storage.ErrNotFound) {
		return nameRecord{}, false, nil
	}
	if err != nil {
		return nameRecord{}, false, fmt.Errorf("web: the names cannot be checked now: %w", err)
	}
	var rec nameRecord
	if json.Unmarshal(raw, &rec) != nil {
		// A damaged record binds nobody.
		return nameRecord{}, false, nil
	}
	return rec, true, nil
}

// free reports whether a name another browser played may be taken: unused
// for NameDays, with no seat in a match under way.
func (b *browsers) free(ctx context.Context, key string, rec nameRecord) (bool, error) {
	seen := time.Unix(rec.Seen, 0)
	if rec.Seen == 0 {
		seen = b.started
	}
	if b.now().Sub(seen) < time.Duration(b.limits.NameDays)*24*time.Hour {
		return false, nil
	}
	for _, prefix := range []string{Prefix, consolePrefix} {
		open, err := b.store.Seated(ctx, prefix+key, prefix, 1)
		if err != nil {
			return false, fmt.Errorf("web: the names cannot be checked now: %w", err)
		}
		if len(open) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// bind writes a claim down and takes the name from the browser it moves
// from (by its hash), if any: the name's browser, and the browsers' names.
func (b *browsers) bind(ctx context.Context, se *session, key, name, from string) error {
	now := b.now()
	raw, _ := json.Marshal(nameRecord{Browser: cookieHash(se.id), Name: name, Seen: now.Unix()})
	if err := b.store.SetSetting(ctx, nameScope, key, raw, now); err != nil {
		return fmt.Errorf("web: the name cannot be kept now: %w", err)
	}
	b.mu.Lock()
	if old, ok := b.owner[key]; ok && old != se.id {
		if o := b.sessions[old]; o != nil {
			delete(o.users, key)
		}
	}
	b.owner[key], b.names[key], se.users[key] = se.id, name, true
	b.touched[key] = now
	b.mu.Unlock()
	if from != "" {
		if err := b.dropFrom(ctx, from, key); err != nil {
			return err
		}
	}
	return b.saveBrowser(ctx, se)
}

// dropFrom takes a name out of the record of the browser hashed h.
func (b *browsers) dropFrom(ctx context.Context, h, key string) error {
	raw, err := b.store.Setting(ctx, browserScope, h)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("web: move a name: %w", err)
	}
	var rec browserRecord
	if json.Unmarshal(raw, &rec) != nil {
		return nil
	}
	kept := rec.Names[:0]
	for _, n := range rec.Names {
		if strings.ToLower(n) != key {
			kept = append(kept, n)
		}
	}
	rec.Names = kept
	raw, _ = json.Marshal(rec)
	if err := b.store.SetSetting(ctx, browserScope, h, raw, b.now()); err != nil {
		return fmt.Errorf("web: move a name: %w", err)
	}
	return nil
}

// prove checks a proof that the claimant is the player key: a token of
// their seat in a match under way, or a one-time code for the name (used
// up).
func (b *browsers) prove(ctx context.Context, key, proof string) error {
	proof = strings.TrimSpace(proof)
	if tokens.Plausible(proof) {
		ts, err := b.tokens.Verify(ctx, proof)
		switch {
		case errors.Is(err, tokens.ErrUnknown), errors.Is(err, tokens.ErrRevoked):
			return refuse(http.StatusForbidden, "That token is not valid (%v).", err)
		case err != nil:
			return fmt.Errorf("web: check a token: %w", err)
		}
		if ts.User != Prefix+key && ts.User != consolePrefix+key {
			return refuse(http.StatusForbidden, "That token is another player's seat, not %s's.", b.display(key))
		}
		h, err := b.store.Head(ctx, ts.Match)
		if err != nil || (h.Status != storage.Active && h.Status != storage.Lobby) {
			return refuse(http.StatusForbidden, "That token is of a match that is over: a token of a match under way moves its player.")
		}
		return nil
	}
	return b.useCode(ctx, key, proof)
}
