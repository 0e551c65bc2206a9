package storage_test

import (
	"errors"
	"testing"

	"github.com/riskbot/riskbot/storage"
)

func TestNoMatch(t *testing.T) {
	other := errors.New("disk on fire")
	tests := []struct {
		name string
		err  error
		want string // "" for nil
	}{
		{"found", nil, ""},
		{"not found", storage.ErrNotFound, "storage: no such match (7)"},
		{"other error", other, "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, got := range []error{storage.NoMatch(tt.err, 7), storage.NoOpenMatch(tt.err, "discord:1")} {
				if tt.want == "" {
					if got != nil {
						t.Errorf("got %v, want nil", got)
					}
					continue
				}
				if !errors.Is(got, tt.err) {
					t.Errorf("got %v, want it to wrap %v", got, tt.err)
				}
			}
			if got := storage.NoMatch(tt.err, 7); tt.want != "" && got.Error() != tt.want {
				t.Errorf("NoMatch: got %q, want %q", got, tt.want)
			}
		})
	}
	if got, want := storage.NoOpenMatch(storage.ErrNotFound, "discord:1").Error(), "storage: no such match: channel discord:1 has no open match"; got != want {
		t.Errorf("NoOpenMatch: got %q, want %q", got, want)
	}
}
