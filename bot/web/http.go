package web

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/riskbot/riskbot/bot/chat"
)

// Prefix starts the names of the channels of the page.
const Prefix = "web:"

// consolePrefix starts the console's channels: the page plays them too
// (?c=console:NAME), so that a match begun in the terminal goes on in the
// browser, as the people the console knows by the same names.
const consolePrefix = "console:"

// platform is the prefix of a channel's users: "console:" in the
// console's channels, "discord:" in Discord's (the Activity's), "web:" in
// the page's.
func platform(channel string) string {
	switch {
	case strings.HasPrefix(channel, consolePrefix):
		return consolePrefix
	case strings.HasPrefix(channel, discordPrefix):
		return discordPrefix
	}
	return Prefix
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b)
}

// userID is the page's identity for a player name.
func userID(name string) string { return Prefix + strings.ToLower(name) }

// userIn is the player name as a user of channel's platform.
func userIn(channel, name string) chat.User {
	return chat.User{ID: platform(channel) + strings.ToLower(name), Name: name}
}

// checkName checks a player name typed in the page.
func checkName(name string) error {
	if name == "" || len([]rune(name)) > 32 {
		return errors.New("a player name has 1 to 32 characters")
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != ' ' {
			return errors.New("a player name has letters, digits, spaces, '_', '-' and '.' only")
		}
	}
	if strings.TrimSpace(name) != name {
		return errors.New("a player name does not start or end with a space")
	}
	return nil
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// problem answers with an error as JSON: {"error": "..."}.
func problem(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}

// maxForm bounds the bodies the page sends.
const maxForm = 16 << 10

// readBody decodes the page's JSON body, of maxForm bytes at most, into v
// strictly, answering the problem itself if it cannot (false).
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			problem(w, http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", maxForm)
		} else {
			problem(w, http.StatusBadRequest, "bad JSON: %v", err)
		}
		return false
	}
	if dec.More() {
		problem(w, http.StatusBadRequest, "bad JSON: data after the value")
		return false
	}
	return true
}

// pageLocale is the language a page asks for: its switch's (X-Risk-Lang),
// else the browser's first (Accept-Language), as a locale ("fr").
func pageLocale(r *http.Request) string {
	if l := r.Header.Get("X-Risk-Lang"); l != "" {
		return clipLocale(l)
	}
	first, _, _ := strings.Cut(r.Header.Get("Accept-Language"), ",")
	first, _, _ = strings.Cut(first, ";")
	return clipLocale(strings.TrimSpace(first))
}

// clipLocale keeps a locale as short as any is, letters and dashes only.
func clipLocale(l string) string {
	if len(l) > 16 {
		l = l[:16]
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return -1
	}, l)
}

// discordPrefix starts the channels, and the users, of Discord.
const discordPrefix = "discord:"

// matchID reads the {id} of a path.
func matchID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		problem(w, http.StatusNotFound, "no such match")
		return 0, false
	}
	return id, true
}

// byMatch serves a request about the match its path's {id} names,
// answering an id that names none (matchID) itself.
func byMatch(h func(w http.ResponseWriter, r *http.Request, id int64)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id, ok := matchID(w, r); ok {
			h(w, r, id)
		}
	}
}

func sortStrings(s []string) { slices.Sort(s) }

// refusal is a claim refused for what the visitor asked, with the status
// to answer (the page shows its text).
type refusal struct {
	status int
	msg    string
}

func (r *refusal) Error() string { return r.msg }

func refuse(status int, format string, args ...any) error {
	return &refusal{status: status, msg: fmt.Sprintf(format, args...)}
}
