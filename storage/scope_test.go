package storage_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbot/riskbot/storage"
)

func TestPrefixEnd(t *testing.T) {
	for _, tt := range []struct {
		prefix, end string
		ok          bool
	}{
		{"", "", false},
		{"discord:", "discord;", true},
		{"web:", "web;", true},
		{"a\x7f", "a\u0080", true},
		{"é", "ê", true},
		{"x\uD7FF", "x\uE000", true},
		{"x\U0010FFFF", "y", true},
		{"\U0010FFFF\U0010FFFF", "", false},
		{"a\xff", "b", true},
		{"a\xfe", "a\xff", true},
	} {
		end, ok := storage.PrefixEnd(tt.prefix)
		if end != tt.end || ok != tt.ok {
			t.Errorf("PrefixEnd(%q) = %q, %v; want %q, %v", tt.prefix, end, ok, tt.end, tt.ok)
		}
	}
}

// Every text in [prefix, end) starts with the prefix, and every text that
// starts with it is in range, compared byte by byte; the end of a UTF-8
// prefix is UTF-8.
func TestPrefixEndRange(t *testing.T) {
	texts := []string{"", "a", "b", "discord", "discord:", "discord:1", "discord:12", "discord;", "discord:\U0010FFFF",
		"discord\x7f", "é", "ê", "éa", "\uD7FF", "\uE000", "\U0010FFFF", "\U0010FFFFa", "z\u0080", "z\x7f"}
	for _, p := range texts {
		end, bounded := storage.PrefixEnd(p)
		if utf8.ValidString(p) && !utf8.ValidString(end) {
			t.Errorf("PrefixEnd(%q) = %q, not UTF-8", p, end)
		}
		for _, s := range texts {
			in := s >= p && (!bounded || s < end)
			if in != strings.HasPrefix(s, p) {
				t.Errorf("prefix %q, end %q: %q in range %v, has the prefix %v", p, end, s, in, !in)
			}
		}
	}
}
