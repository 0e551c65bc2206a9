package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/storage"
)

// library is the store's part that keeps the maps' libraries and the
// maps' files (the library and map_files tables). Loads and exports read
// the files too, in their own transactions, through mapFiles.
// DB embeds it: its methods are the store's.
type library struct{ conns }

// AddMap adds a map to its scope's library, its files stored once by
// their hash (kept if they were there already). A name taken in the scope,
// whatever its case, or the same files there already under any name, is a
// *storage.MapConflictError naming the map in the way; nothing changes.
func (l *library) AddMap(ctx context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error {
	if err := storage.CheckLibraryMap(m, f); err != nil {
		return err
	}
	op := fmt.Sprintf("add map %q to %s", m.Name, m.Scope)
	tx, err := l.write.BeginTx(ctx, nil)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback()
	if err := mapConflict(ctx, tx, m.Scope, m.Name, m.Hash); err != nil {
		return err
	}
	ms := now.UnixMilli()
	if _, err := tx.ExecContext(ctx, `INSERT INTO map_files (name, hash, map, picture, idx, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, m.Engine(), m.Hash, f.Map, f.Picture, f.Index, ms); err != nil {
		return fail(op, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO library (scope, name, folded, hash, title, author, territories, size, added_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.Scope, m.Name, storage.FoldName(m.Name), m.Hash, m.Title, m.Author,
		m.Territories, f.Size(), ms); err != nil {
		return fail(op, err)
	}
	if err := tx.Commit(); err != nil {
		return fail(op, err)
	}
	return nil
}

// mapConflict refuses a map named name with this hash in scope's library
// if the name is taken or the hash is there already ("" hash: the name
// only, for a rename; the map named name itself is no conflict then).
func mapConflict(ctx context.Context, tx *sql.Tx, scope, name, hash string) error {
	var have string
	err := tx.QueryRowContext(ctx, `SELECT name FROM library WHERE scope = ? AND hash = ?`, scope, hash).Scan(&have)
	switch {
	case err == nil:
		return &storage.MapConflictError{Name: have, Same: true}
	case !errors.Is(err, sql.ErrNoRows):
		return fail("read the library of "+scope, err)
	}
	err = tx.QueryRowContext(ctx, `SELECT name FROM library WHERE scope = ? AND folded = ?`, scope, storage.FoldName(name)).Scan(&have)
	switch {
	case err == nil:
		return &storage.MapConflictError{Name: have}
	case !errors.Is(err, sql.ErrNoRows):
		return fail("read the library of "+scope, err)
	}
	return nil
}

// Maps lists a scope's library by name.
func (l *library) Maps(ctx context.Context, scope string) ([]storage.LibraryMap, error) {
	return query(ctx, l.read, "list the maps of "+scope, storage.ScanLibrary,
		`SELECT `+storage.LibraryColumns+` FROM library WHERE scope = ? ORDER BY folded`, scope)
}

// Libraries lists the maps of every scope's library, by scope and name:
// what risk migrate copies.
func (l *library) Libraries(ctx context.Context) ([]storage.LibraryMap, error) {
	return query(ctx, l.read, "list the libraries", storage.ScanLibrary,
		`SELECT `+storage.LibraryColumns+` FROM library ORDER BY scope, folded`)
}

// LibraryMap returns the map of a scope's library named name, whatever
// its case; storage.ErrNoMap if there is none.
func (l *library) LibraryMap(ctx context.Context, scope, name string) (storage.LibraryMap, error) {
	m, err := storage.ScanLibraryMap(l.read.QueryRowContext(ctx, `SELECT `+storage.LibraryColumns+` FROM library
		WHERE scope = ? AND folded = ?`, scope, storage.FoldName(name)))
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	if err != nil {
		return m, fail(fmt.Sprintf("read map %q of %s", name, scope), err)
	}
	return m, nil
}

// MapFiles returns the files of the map whose engine name is name
// (storage.LibraryMap.Engine), in any library or none; storage.ErrNoMap
// if they were never stored.
func (l *library) MapFiles(ctx context.Context, name string) (storage.MapFiles, error) {
	return mapFiles(ctx, l.read, name)
}

func mapFiles(ctx context.Context, q querier, name string) (storage.MapFiles, error) {
	var f storage.MapFiles
	err := q.QueryRowContext(ctx, `SELECT map, picture, idx FROM map_files WHERE name = ?`, name).Scan(&f.Map, &f.Picture, &f.Index)
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("%w: %s", storage.ErrNoMap, name)
	}
	if err != nil {
		return f, fail("read the files of map "+name, err)
	}
	return f, nil
}

// RenameMap renames a map of a scope's library (its case alone, too);
// storage.ErrNoMap if there is none named old, a
// *storage.MapConflictError if another has the name new.
func (l *library) RenameMap(ctx context.Context, scope, old, new string) error {
	if err := storage.CheckMapName(new); err != nil {
		return err
	}
	op := fmt.Sprintf("rename map %q of %s", old, scope)
	tx, err := l.write.BeginTx(ctx, nil)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback()
	if storage.FoldName(old) != storage.FoldName(new) {
		if err := mapConflict(ctx, tx, scope, new, ""); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE library SET name = ?, folded = ? WHERE scope = ? AND folded = ?`,
		new, storage.FoldName(new), scope, storage.FoldName(old))
	if isCode(err, sqlite3.ErrConstraintPrimaryKey) || isCode(err, sqlite3.ErrConstraintUnique) {
		return &storage.MapConflictError{Name: new}
	}
	if err := oneChanged(res, err, op, old, scope); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fail(op, err)
	}
	return nil
}

// RemoveMap removes a map from a scope's library; storage.ErrNoMap if
// there is none named name. Its files stay: matches played on it replay.
func (l *library) RemoveMap(ctx context.Context, scope, name string) error {
	op := fmt.Sprintf("remove map %q of %s", name, scope)
	res, err := l.write.ExecContext(ctx, `DELETE FROM library WHERE scope = ? AND folded = ?`, scope, storage.FoldName(name))
	return oneChanged(res, err, op, name, scope)
}

// oneChanged checks the result of a change to the library map named name: an
// error, or no row changed (storage.ErrNoMap).
func oneChanged(res sql.Result, err error, op, name, scope string) error {
	if err != nil {
		return fail(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fail(op, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	return nil
}
