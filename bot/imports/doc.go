// Package imports checks a match exported elsewhere before the bot hosts
// it: that its log replays, that its dice follow from its seed (or from the
// commitment published when it started), and that the bot's data of it
// (host, settings, seats) holds only what the commands could have set. It
// is used by the bot's import and by risk migrate, so that a database
// moved between stores passes the same checks as a file.
package imports
