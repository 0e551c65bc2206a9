package hosted

import (
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/storage"
)

// TestStatusKeysExist: StatusMsg's key, built from a status's stable name,
// is in every language's catalogue for every status, and a status without
// a name is still worded.
func TestStatusKeysExist(t *testing.T) {
	for _, tag := range lang.Tags() {
		cat, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []storage.Status{storage.Lobby, storage.Active, storage.Finished, storage.Abandoned} {
			if k := StatusMsg(s).Key; cat[k] == nil {
				t.Errorf("%s: %v's key %q is not in the catalogue", tag, s, k)
			}
		}
	}
	for _, c := range []struct {
		s    storage.Status
		want string
	}{
		{storage.Active, "active"},
		{storage.Lobby, "lobby"},
		{storage.Status(9), "status(9)"},
	} {
		if got := StatusMsg(c.s).String(); got != c.want {
			t.Errorf("StatusMsg(%d): got %q, want %q", int(c.s), got, c.want)
		}
	}
}
