// Package discordtest lends the fake Discord of the adapter's tests
// (bot/discord/internal/fakediscord) to the tests of other packages: the
// page's Activity (bot/web) signs its players in against it, and posts
// its answers in its channels. Tests only.
package discordtest

import (
	"testing"

	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// Server is the fake Discord.
type Server = fakediscord.Server

// User is a Discord user, as an Activity's sign-in reads them.
type User = fakediscord.User

// Message is a message as the fake holds it.
type Message = fakediscord.Message

// The fake's application, bot and server.
const (
	AppID        = fakediscord.AppID
	Token        = fakediscord.Token
	ClientSecret = fakediscord.ClientSecret
	GuildID      = fakediscord.GuildID
)

// New starts a fake Discord for the test (fakediscord.New): it stops with
// the test, which fails if requests broke Discord's rules.
func New(t testing.TB) *Server { return fakediscord.New(t) }
