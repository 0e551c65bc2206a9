package discordsdk

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The module committed is the SDK's, of the version the package names,
// with the DiscordSDK the page imports, and its licences beside it.
func TestModule(t *testing.T) {
	head, _, _ := bytes.Cut(Module, []byte("\n"))
	if !bytes.Contains(head, []byte("Embedded App SDK "+Version+" ")) {
		t.Errorf("the module's first line is %q, want the SDK's version %s (update.sh writes it)", head, Version)
	}
	if !bytes.Contains(Module, []byte(" as DiscordSDK")) && !bytes.Contains(Module, []byte("DiscordSDK,")) {
		t.Error("the module exports no DiscordSDK")
	}
	if len(Module) > 400<<10 {
		t.Errorf("the module is %d bytes, more than 400 KB", len(Module))
	}
	lic, err := os.ReadFile("LICENSES.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"@discord/embedded-app-sdk (MIT)", "zod (MIT)", "uuid (MIT)"} {
		if !strings.Contains(string(lic), pkg) {
			t.Errorf("LICENSES.txt lacks %s", pkg)
		}
	}
}
