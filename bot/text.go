package bot

// What people type ends up in messages: seat names in every post, typed
// values quoted back in refusals. None of it may become markup, neither
// the bot's own ({{mention:ID}}, which adapters turn into a mention) nor
// the chat's (<@ID> mentions, <#ID> channels, <t:UNIX> times, @everyone,
// Markdown). Removing a substring is not enough: "@every@everyoneone"
// without "@everyone" is "@everyone". So names lose every character that
// can start or end markup, which also makes cleaning idempotent, and
// option values may not hold the bot's braces at all.
