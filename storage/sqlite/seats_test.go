package sqlite_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/storetest"
)

// writeOld writes export x as a match of a database of the first schema,
// at path, behind the store's back: Import writes today's tables (the
// seats), which the first schema does not have. It returns the match's id.
func writeOld(ctx context.Context, t *testing.T, path string, x *storage.Export) int64 {
	t.Helper()
	g, err := storage.CheckImport(x)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := storage.EncodeImport(x, g, storetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	ms := enc.Match.Created.UnixMilli()
	stmts := []string{fmt.Sprintf(`INSERT INTO matches (id, channel, status, version, meta, setup, commands, created_at, updated_at)
		VALUES (1, %s, %d, 1, NULL, %s, %d, %d, %d)`, quote(x.Channel), int(x.Status), quote(*enc.Setup), enc.Match.Commands, ms, ms)}
	for i, e := range enc.Entries {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO log (match_id, seq, version, entry, created_at) VALUES (1, %d, 1, %s, %d)`, i+1, quote(e), ms))
	}
	if err := rawExec(ctx, path, stmts...); err != nil {
		t.Fatalf("write a match of the first schema: %v", err)
	}
	return 1
}
