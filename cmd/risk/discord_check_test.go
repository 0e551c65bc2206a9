package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// risk discord --check takes --channel, a channel ID, and nothing else
// takes it.
func TestDiscordCheckFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "risk.db")
	token := map[string]string{"DISCORD_TOKEN": "x"}
	tests := []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"channel without check", token, []string{"--channel", "645027906669510667"}, `--channel "645027906669510667": want a channel ID`},
		{"channel by name", token, []string{"--check", "--channel", "#general"}, `--channel "#general": want a channel ID`},
		{"check without a token", nil, []string{"--check"}, "DISCORD_TOKEN is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runEnv(context.Background(), env{
				args: append([]string{"discord", "--db", db}, tt.args...), stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
				getenv: func(k string) string { return tt.vars[k] },
			})
			if code != 2 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errb.String(), tt.want)
			}
		})
	}
}

// risk discord --check reports instead of running, and fails with what
// failed. (Its context is cancelled, so that it asks Discord nothing:
// bot/discord tests the checks themselves against a fake Discord.)
func TestDiscordCheckReports(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := runEnv(ctx, env{
		args:  []string{"discord", "--check", "--http", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "risk.db"), "--channel", "645027906669510667"},
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return map[string]string{"DISCORD_TOKEN": "x"}[k] },
	})
	t.Logf("stdout:\n%sstderr:\n%s", out.String(), errb.String())
	for _, want := range []string{"✗ token: could not ask Discord", "– application: not checked", "✗ public key: DISCORD_PUBLIC_KEY is not set", "✗ database: ", "– channel 645027906669510667: not checked"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if code != 1 || !strings.Contains(errb.String(), "risk discord: the check failed: 3 ✗ above") {
		t.Errorf("exit %d, stderr %q; want 1 and the count of failures", code, errb.String())
	}
}
