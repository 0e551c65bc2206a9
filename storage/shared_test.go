package storage

import "testing"

func TestDollars(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"none", `SELECT 1`, `SELECT 1`},
		{"one", `SELECT name FROM library WHERE scope = ?`, `SELECT name FROM library WHERE scope = $1`},
		{"in order", `VALUES (?, ?, ?)`, `VALUES ($1, $2, $3)`},
		{"ten and more", `(?,?,?,?,?,?,?,?,?,?,?)`, `($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`},
		{"text kept", `WHERE name = ? -- é`, `WHERE name = $1 -- é`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Dollars(tt.in); got != tt.want {
				t.Errorf("Dollars(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
