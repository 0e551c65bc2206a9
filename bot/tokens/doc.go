// Package tokens makes, checks and revokes the API tokens of seats
// (docs/api.md): a token lets its holder play one seat of one match, as
// its player, through the match API. The bot makes them (/risk me token)
// and the web adapter its page's; a Keeper checks them (Verify), and a
// player, a kick or a seat given up revokes them (Revoke).
package tokens
