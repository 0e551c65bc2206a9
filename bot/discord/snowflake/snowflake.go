// Package snowflake tells Discord's IDs ("snowflakes") from other text:
// the check the Discord adapter, the web page's Activity sign-in and the
// fake Discord of the tests make of every ID before they use it.
package snowflake

// Valid reports whether s is a Discord ID: 1 to 20 digits (a 64-bit
// number in decimal).
func Valid(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
