// Package discordsdk holds Discord's Embedded App SDK as one ES module,
// which the page loads only when it runs inside Discord as the Activity
// (bot/web, docs/discord.md): the npm package @discord/embedded-app-sdk
// bundled with what it vendors by update.sh, committed with its licences
// (LICENSES.txt), so that building the program needs no JavaScript tool
// chain. `bash assets/discordsdk/update.sh [VERSION]` makes it again.
package discordsdk

import _ "embed"

// Module is the SDK's ES module (discord-sdk.mjs): `import { DiscordSDK }`.
//
//go:embed discord-sdk.mjs
var Module []byte

// Version is the SDK's version in Module, which update.sh writes in its
// first line.
const Version = "2.5.0"
