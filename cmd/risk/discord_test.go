package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// risk discord refuses to start without what it needs, saying what is
// missing, before touching the database or the network.
func TestDiscordNeedsItsEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "risk.db")
	tests := []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"no token", nil, nil, "DISCORD_TOKEN is not set"},
		{"blank token", map[string]string{"DISCORD_TOKEN": "  "}, nil, "DISCORD_TOKEN is not set"},
		{"bad server", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_GUILD_ID": "my server"}, nil, `DISCORD_GUILD_ID "my server" is not a server ID`},
		{"stray argument", map[string]string{"DISCORD_TOKEN": "x"}, []string{"now"}, `unexpected argument "now"`},
		{"bad shard", map[string]string{"DISCORD_TOKEN": "x"}, []string{"--shard", "2/2"}, `--shard "2/2": want I/N`},
		{"shard and http", map[string]string{"DISCORD_TOKEN": "x"}, []string{"--shard", "0/2", "--http", ":0"}, "choose one"},
		{"http without a key", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_APPLICATION_ID": "1"}, []string{"--http", ":0"}, "DISCORD_PUBLIC_KEY is not set"},
		{"http with a bad key", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": "abc", "DISCORD_APPLICATION_ID": "1"}, []string{"--http", ":0"}, "not 64 hexadecimal digits"},
		{"http without the application", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}, []string{"--http", ":0"}, "DISCORD_APPLICATION_ID"},
		{"activity without the secret", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_APPLICATION_ID": "1"}, []string{"--activity", "127.0.0.1:0"}, "DISCORD_CLIENT_SECRET is not set"},
		{"activity without the application", map[string]string{"DISCORD_TOKEN": "x", "DISCORD_CLIENT_SECRET": "s"}, []string{"--activity", "127.0.0.1:0"}, "DISCORD_APPLICATION_ID"},
		{"activity on no address", map[string]string{"DISCORD_TOKEN": "x"}, []string{"--activity", "8081"}, `--activity "8081": want host:port`},
		{"activity host alone", map[string]string{"DISCORD_TOKEN": "x"}, []string{"--activity-host", "risk.example.org"}, "give --activity ADDR too"},
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
