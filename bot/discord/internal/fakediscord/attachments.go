package fakediscord

import (
	"net/http"
	"strconv"
)

// Attach stores a file as a user's attachment to a command, served as
// Discord's CDN serves it, and returns the attachment object an
// interaction's resolved data carries (id, filename, size, url).
func (s *Server) Attach(name string, data []byte) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	id := s.snowflakeLocked()
	s.files[id] = data
	return map[string]any{
		"id": id, "filename": name, "size": len(data), "content_type": "application/octet-stream",
		"url":       "https://cdn.discordapp.com/attachments/1/" + id + "/" + name,
		"proxy_url": "https://media.discordapp.net/attachments/1/" + id + "/" + name,
	}
}

// attachment serves a file Attach stored.
func (s rest) attachment(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, ok := s.files[r.PathValue("id")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}
