package discord

import (
	"github.com/bwmarrin/discordgo"
)

// permission is a Discord permission the bot needs, by its bit and its
// name as Discord's settings show it.
type permission struct {
	bit  int64
	name string
}

// hostPermissions are what the bot needs in a channel to host a match
// there: to see it, to post each turn's results and pings, with embeds,
// and the map attached.
func hostPermissions() []permission {
	return []permission{
		{discordgo.PermissionViewChannel, "View Channel"},
		{discordgo.PermissionSendMessages, "Send Messages"},
		{discordgo.PermissionEmbedLinks, "Embed Links"},
		{discordgo.PermissionAttachFiles, "Attach Files"},
	}
}

// threadPermissions are what the bot needs in a channel to open a thread
// there for a match, and to post in it.
func threadPermissions() []permission {
	return []permission{
		{discordgo.PermissionCreatePublicThreads, "Create Public Threads"},
		{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
	}
}

// teamThreadPermissions are what the bot needs in a channel to open a
// private thread there for each team of a team match, and to post in it
// (OpenPrivateThread): without them Discord answers 403.
func teamThreadPermissions() []permission {
	return []permission{
		{discordgo.PermissionCreatePrivateThreads, "Create Private Threads"},
		{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
	}
}

// permissionNames names permissions.
func permissionNames(ps []permission) []string {
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.name)
	}
	return names
}

// lacking names the permissions of ps missing from a bit set: an empty,
// non-nil list if none is (Administrator grants them all). A zero set is
// taken as not said (interactions carry app_permissions; payloads without
// it are test fixtures or other tools), and gives nil.
func lacking(have int64, ps []permission) []string {
	if have == 0 {
		return nil
	}
	return missing(have, ps)
}

// missing names the permissions of ps missing from a bit set: an empty,
// non-nil list if none is (Administrator grants them all).
func missing(have int64, ps []permission) []string {
	out := []string{}
	if have&discordgo.PermissionAdministrator != 0 {
		return out
	}
	for _, p := range ps {
		if have&p.bit == 0 {
			out = append(out, p.name)
		}
	}
	return out
}

// isAdmin reports whether a member's permissions in a channel make them an
// admin for the bot: Administrator, Manage Server, or Manage Channels.
func isAdmin(perms int64) bool {
	return perms&(discordgo.PermissionAdministrator|discordgo.PermissionManageGuild|discordgo.PermissionManageChannels) != 0
}
