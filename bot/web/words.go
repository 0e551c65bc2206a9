package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
)

// wordsPrefix marks the catalogue's keys that are the pages' own words
// (assets/lang: "page.play.end"); the pages' scripts word themselves with
// them (static/words.js). Those of serverWords the server words itself.
const (
	wordsPrefix = "page."
	serverWords = "page.missing." // the page of a match not there: missing
)

// pageWords is one language's words of the pages, as GET /web/words
// answers them: a JSON object of key to sentence, or to its plural forms
// ({"one": …, "other": …}), and the answer's ETag.
type pageWords struct {
	body []byte
	etag string
}

// loadWords reads the pages' words of every language of the catalogue.
// They never change while the program runs: the catalogue is in it.
func loadWords() (map[lang.Tag]pageWords, error) {
	out := map[lang.Tag]pageWords{}
	for _, tag := range lang.Tags() {
		raw, err := lang.Raw(tag)
		if err != nil {
			return nil, fmt.Errorf("web: the page's words: %w", err)
		}
		words := map[string]any{}
		for k, forms := range raw {
			if !strings.HasPrefix(k, wordsPrefix) || strings.HasPrefix(k, serverWords) {
				continue
			}
			if len(forms) == 1 && forms["other"] != "" {
				words[k] = forms["other"]
			} else {
				words[k] = forms
			}
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // the words say "—" and "<b>", as the catalogue does
		if err := enc.Encode(words); err != nil {
			return nil, fmt.Errorf("web: the page's words in %s: %w", tag, err)
		}
		sum := sha256.Sum256(b.Bytes())
		out[tag] = pageWords{body: b.Bytes(), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return out, nil
}

// words answers the pages' words in a language (?lang=fr; one the
// catalogue lacks gets English), with the language in Content-Language.
// The answer changes only with the program: a browser keeps it and asks
// again with its ETag, and a 304 costs no body.
func (s *Server) words(w http.ResponseWriter, r *http.Request) {
	tag := lang.FromLocale(clipLocale(r.URL.Query().Get("lang")))
	pw, ok := s.pageWords[tag]
	if !ok {
		problem(w, http.StatusServiceUnavailable, "the page's words cannot be read just now")
		return
	}
	h := w.Header()
	h.Set("ETag", pw.etag)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Language", string(tag))
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, pw.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(pw.body)
}

// etagMatches reports whether an If-None-Match header names etag (or is *).
func etagMatches(header, etag string) bool {
	for _, e := range strings.Split(header, ",") {
		e = strings.TrimPrefix(strings.TrimSpace(e), "W/")
		if e == etag || e == "*" {
			return true
		}
	}
	return false
}
