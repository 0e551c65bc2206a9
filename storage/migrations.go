package storage

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
)

// Migration is one numbered schema change of a store: the file
// migrations/NNNN_name.sql among its embedded migrations. Each store has
// its own, numbered alike: the same tables in its dialect.
type Migration struct {
	Version int
	Name    string // the file's name: 0001_matches.sql
	SQL     string
}

var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// ReadMigrations reads and checks the numbered files migrations/*.sql of
// fsys: 0001 to N, no gaps.
func ReadMigrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, n := range names { // Glob sorts
		m := migrationName.FindStringSubmatch(path.Base(n))
		if m == nil {
			return nil, fmt.Errorf("migration %s: want a name like 0001_matches.sql", n)
		}
		v, _ := strconv.Atoi(m[1])
		if v != len(out)+1 {
			return nil, fmt.Errorf("migration %s: want number %04d", n, len(out)+1)
		}
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{v, path.Base(n), string(b)})
	}
	return out, nil
}

// CheckSchema refuses a database whose schema is at version v while this
// program knows migrations up to known: a newer version wrote it, and this
// one would misread it.
func CheckSchema(v, known int) error {
	if v > known {
		return fmt.Errorf("the database was written by a newer version of this program (schema version %d; this one knows up to %d): upgrade it", v, known)
	}
	return nil
}
