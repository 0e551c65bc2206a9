package snowflake

import "testing"

func TestValid(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"0", true},
		{"123456789012345678", true},
		{"12345678901234567890", true},
		{"123456789012345678901", false},
		{"12a4", false},
		{"-1", false},
		{" 1", false},
		{"１２", false},
	}
	for _, tt := range tests {
		if got := Valid(tt.in); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
