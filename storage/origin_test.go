package storage

import (
	"strings"
	"testing"
)

func TestIsHex(t *testing.T) {
	hash := strings.Repeat("0123456789abcdef", 4)
	tests := []struct {
		name string
		s    string
		n    int
		want bool
	}{
		{"a hash", hash, 64, true},
		{"too short", hash[1:], 64, false},
		{"too long", hash + "a", 64, false},
		{"upper case", strings.ToUpper(hash), 64, false},
		{"a letter past f", "g" + hash[1:], 64, false},
		{"a space inside", hash[:10] + " " + hash[11:], 64, false},
		{"empty, none wanted", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isHex(tt.s, tt.n); got != tt.want {
				t.Errorf("isHex(%q, %d) = %v, want %v", tt.s, tt.n, got, tt.want)
			}
		})
	}
}
