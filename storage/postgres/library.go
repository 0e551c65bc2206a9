package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// library is the store's part that keeps the maps' libraries and the
// maps' files (the library and map_files tables); what both stores run
// alike is storage's (LibraryQueries, InsertLibraryMap, …). Loads and
// exports read the files too, in their own transactions, through
// storage.ReadMapFiles. DB embeds it: its methods are the store's.
type library struct {
	pool *pgxpool.Pool
	storage.LibraryQueries
}

// AddMap adds a map to its scope's library, its files stored once by
// their hash (kept if they were there already). A name taken in the scope,
// whatever its case, or the same files there already under any name, is a
// *storage.MapConflictError naming the map in the way; nothing changes.
// Another writer adding one in between is told by the library's unique
// constraints.
func (l *library) AddMap(ctx context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error {
	if err := storage.CheckLibraryMap(m, f); err != nil {
		return err
	}
	return l.inTx(ctx, fmt.Sprintf("add map %q to %s", m.Name, m.Scope), func(q storage.Querier) error {
		err := storage.InsertLibraryMap(ctx, q, m, f, now)
		switch {
		case uniqueViolation(err, "library_name"): // another writer, just now
			return &storage.MapConflictError{Name: m.Name}
		case uniqueViolation(err, "library_hash"):
			return &storage.MapConflictError{Name: m.Name, Same: true}
		}
		return err
	})
}

// Maps lists a scope's library by name.
func (l *library) Maps(ctx context.Context, scope string) ([]storage.LibraryMap, error) {
	return storage.QueryAll(ctx, shared{l.pool}, "list the maps of "+scope, storage.ScanLibrary,
		`SELECT `+storage.LibraryColumns+` FROM library WHERE scope = $1 ORDER BY folded COLLATE "C"`, scope)
}

// Libraries lists the maps of every scope's library, by scope and name:
// what risk migrate copies.
func (l *library) Libraries(ctx context.Context) ([]storage.LibraryMap, error) {
	return storage.QueryAll(ctx, shared{l.pool}, "list the libraries", storage.ScanLibrary,
		`SELECT `+storage.LibraryColumns+` FROM library ORDER BY scope COLLATE "C", folded COLLATE "C"`)
}

// RenameMap renames a map of a scope's library (its case alone, too);
// storage.ErrNoMap if there is none named old, a
// *storage.MapConflictError if another has the name new.
func (l *library) RenameMap(ctx context.Context, scope, old, new string) error {
	if err := storage.CheckMapName(new); err != nil {
		return err
	}
	return l.inTx(ctx, fmt.Sprintf("rename map %q of %s", old, scope), func(q storage.Querier) error {
		err := storage.UpdateLibraryMap(ctx, q, scope, old, new)
		if uniqueViolation(err, "library_name") {
			return &storage.MapConflictError{Name: new}
		}
		return err
	})
}

// inTx runs change, operation op, in a transaction, and commits it if
// change returns no error.
func (l *library) inTx(ctx context.Context, op string, change func(storage.Querier) error) error {
	tx, err := l.pool.Begin(ctx)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := change(shared{tx}); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fail(op, err)
	}
	return nil
}
