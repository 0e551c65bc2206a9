package storage

import (
	"unicode/utf8"
)

// Occupant is an open match as a list of channels shows it (OpenChannels):
// which match holds which channel, and whether it started. It is what the
// lists that name channels need, and all a store reads for them: no meta,
// no setup, so that a list costs what it shows.
type Occupant struct {
	Channel string
	ID      int64
	Status  Status
}

// ScanOccupants reads the rows of open channels (OpenChannels): channel,
// id and status.
func ScanOccupants(rows Rows) ([]Occupant, error) {
	return scanAll(rows, func(r Scanner) (Occupant, error) {
		var o Occupant
		err := r.Scan(&o.Channel, &o.ID, &o.Status)
		return o, err
	})
}

// PrefixEnd returns the least text greater than every text that starts
// with prefix, and false if there is none ("" and a prefix of U+10FFFF
// only: every text is in range). With it a store asks for the channels of
// a prefix as a range, prefix <= channel < end, which an index on the
// channel serves, where a test on a substring reads every row.
//
// The end is the prefix with its last character replaced by the next one
// (dropping trailing U+10FFFF), so that it is valid UTF-8 whenever the
// prefix is, as PostgreSQL requires of text; the range holds the same
// texts as the prefix in any byte-ordered comparison (SQLite's BINARY,
// PostgreSQL's "C"), since UTF-8 orders its bytes as its code points.
func PrefixEnd(prefix string) (string, bool) {
	for p := prefix; p != ""; {
		r, n := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-n]
		switch {
		case r == utf8.RuneError && n <= 1:
			// Not UTF-8: the byte after it (0xFF is dropped, as U+10FFFF).
			if b := prefix[len(p)]; b < 0xFF {
				return p + string([]byte{b + 1}), true
			}
			continue
		case r == utf8.MaxRune:
			continue
		case r == 0xD7FF: // the next character is after the surrogates
			r = 0xE000
		default:
			r++
		}
		return p + string(r), true
	}
	return "", false
}

// PrefixSQL returns the SQL test that column starts with prefix ("" for
// any text), as the range PrefixEnd gives, and its arguments; param writes
// the nth of them (from 1) as the database wants it ("?", "$3"). The
// column must compare byte by byte (SQLite's default; PostgreSQL's
// COLLATE "C").
func PrefixSQL(column, prefix string, param func(n int) string) (string, []any) {
	end, ok := PrefixEnd(prefix)
	if !ok {
		return column + " >= " + param(1), []any{prefix}
	}
	return column + " >= " + param(1) + " AND " + column + " < " + param(2), []any{prefix, end}
}
