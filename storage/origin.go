package storage

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Origin is where an imported match came from (risk import), stored beside
// it: the file, its hash, when, and whether its result counts in its
// server's stats. A match without one was played here. Whoever wrote the
// file chose what it says, its seats' players included: an import counts
// in the leaderboards only if its operator said so (Rated).
type Origin struct {
	// Source names what was imported: the file's name as given ("-" for
	// standard input).
	Source string
	// SHA256 is the hash of the file's bytes, in hexadecimal ("" if
	// unknown: a match imported before origins were kept).
	SHA256 string
	// Imported is when it was imported.
	Imported time.Time
	// Rated says that its result counts in its server's leaderboards and
	// players' stats (risk import --rated).
	Rated bool
}

// maxSource bounds an origin's Source, in bytes.
const maxSource = 1000

// CheckOrigin refuses an origin a store would not keep: no source, or one
// too long or not UTF-8, a hash that is not 64 hexadecimal digits, no time.
func CheckOrigin(o *Origin) error {
	switch {
	case o.Source == "" || len(o.Source) > maxSource || !utf8.ValidString(o.Source):
		return fmt.Errorf("storage: origin: the source %.80q is not a file's name (1 to %d bytes of UTF-8)", o.Source, maxSource)
	case o.SHA256 != "" && !isHex(o.SHA256, 64):
		return fmt.Errorf("storage: origin: the hash %.80q is not 64 hexadecimal digits", o.SHA256)
	case o.Imported.IsZero():
		return errors.New("storage: origin: no time of import")
	}
	return nil
}

// isHex reports whether s is n lower-case hexadecimal digits: a hash as
// the stores keep it.
func isHex(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789abcdef") == ""
}

// OriginColumns are the columns of the imports table that ScanOrigin
// reads, in order.
const OriginColumns = `source, sha256, imported_at, rated`

// ScanOrigin reads the OriginColumns of a row.
func ScanOrigin(r Scanner) (*Origin, error) {
	var o Origin
	var ms int64
	if err := r.Scan(&o.Source, &o.SHA256, &ms, &o.Rated); err != nil {
		return nil, err
	}
	o.Imported = fromMillis(ms)
	return &o, nil
}

// Counted is the condition, in both stores' SQL, under which a row of the
// results table counts in the standings: its match was played here, or
// imported with Rated.
const Counted = `NOT EXISTS (SELECT 1 FROM imports WHERE imports.match_id = results.match_id AND NOT imports.rated)`
