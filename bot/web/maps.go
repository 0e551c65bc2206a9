package web

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage"
)

// The page's library of maps (issue 44), played with /risk new map:NAME in
// the page's channels: its operator uploads a map (a .zip of its three
// files) and removes one; anyone lists them.

// pageScope is the page's server, whose library its channels play.
const pageScope = "web"

// maxUpload bounds an upload's body: a map's zip and the form around it.
const maxUpload = mapfile.MaxZipBytes + 64<<10

// mapJSON is a map of the library as the page's answers give it.
type mapJSON struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Author      string `json:"author,omitempty"`
	Territories int    `json:"territories"`
	Hash        string `json:"hash"`
}

func toJSON(m storage.LibraryMap) mapJSON {
	return mapJSON{Name: m.Name, Title: m.Title, Author: m.Author, Territories: m.Territories, Hash: m.Hash}
}

// listMaps answers GET /web/maps: the page's library.
func (s *Server) listMaps(w http.ResponseWriter, r *http.Request) {
	ms, err := s.bot.Library().List(r.Context(), pageScope)
	if err != nil {
		s.log.Error("list the page's maps", "err", err)
		problem(w, http.StatusServiceUnavailable, "the database is unavailable")
		return
	}
	out := []mapJSON{}
	for _, m := range ms {
		out = append(out, toJSON(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"maps": out})
}

// uploadMap answers POST /web/maps, the operator's upload of a map: a
// multipart form with the .zip in "file", and optionally "name" and
// "mutual" ("on").
func (s *Server) uploadMap(w http.ResponseWriter, r *http.Request) {
	if !s.browsers.isOperator(s.browsers.sessionOf(w, r)) {
		problem(w, http.StatusForbidden, "only the page's operator adds maps (the link risk web printed at start)")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
	in, err := readUpload(r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			problem(w, http.StatusRequestEntityTooLarge, "a map's zip has at most %d MB", mapfile.MaxZipBytes>>20)
			return
		}
		problem(w, http.StatusBadRequest, "%v", err)
		return
	}
	m, _, err := s.bot.Library().Add(r.Context(), pageScope, in)
	if err != nil {
		s.libraryProblem(w, err, "add a map to the page's library")
		return
	}
	writeJSON(w, http.StatusCreated, toJSON(m))
}

// readUpload reads the form of a map's upload.
func readUpload(r *http.Request) (server.Import, error) {
	var in server.Import
	mr, err := r.MultipartReader()
	if err != nil {
		return in, err
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return in, err
		}
		if err := readPart(p, &in); err != nil {
			return in, err
		}
	}
	if in.Zip == nil {
		return in, errors.New("send the map's .zip in the form's field file")
	}
	return in, nil
}

// readPart reads one field of an upload's form into in.
func readPart(p *multipart.Part, in *server.Import) error {
	defer p.Close()
	data, err := io.ReadAll(p) // bounded by the body's MaxBytesReader
	if err != nil {
		return err
	}
	switch p.FormName() {
	case "file":
		if !strings.HasSuffix(strings.ToLower(p.FileName()), ".zip") {
			return errors.New("the page takes a map as a .zip of its three files")
		}
		in.Zip = data
	case "name":
		in.Name = string(data)
	case "mutual":
		in.Mutual = string(data) == "on"
	default:
		return errors.New("unknown field " + p.FormName() + " (want file, name, mutual)")
	}
	return nil
}

// removeMap answers POST /web/maps/remove {"name"}: the operator removes a
// map no match of the page plays.
func (s *Server) removeMap(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !readBody(w, r, &in) {
		return
	}
	if !s.browsers.isOperator(s.browsers.sessionOf(w, r)) {
		problem(w, http.StatusForbidden, "only the page's operator removes maps")
		return
	}
	m, err := s.bot.Library().Remove(r.Context(), pageScope, in.Name)
	if err != nil {
		s.libraryProblem(w, err, "remove a map of the page's library")
		return
	}
	writeJSON(w, http.StatusOK, toJSON(m))
}

// libraryProblem answers err, a library's refusal, logging a failure of
// the database (doing says what failed).
func (s *Server) libraryProblem(w http.ResponseWriter, err error, doing string) {
	status, msg := libraryRefusal(err)
	if status == http.StatusInternalServerError {
		s.log.Error(doing, "err", err)
	}
	problem(w, status, "%s", msg)
}

// libraryRefusal is the status and words of a library's refusal.
func libraryRefusal(err error) (int, string) {
	var conflict *storage.MapConflictError
	var inUse *server.InUseError
	var read *server.MapError
	var name *server.NameError
	switch {
	case errors.As(err, &conflict) && conflict.Same:
		return http.StatusConflict, "this map is in the page's library already, named " + conflict.Name
	case errors.As(err, &conflict):
		return http.StatusConflict, "the page's library has a map named " + conflict.Name + " already: choose another name"
	case errors.As(err, &inUse):
		return http.StatusConflict, inUse.Name + " is played by the match in " + strings.TrimPrefix(inUse.Channel, Prefix) + ": remove it once that match is over"
	case errors.As(err, &read):
		return http.StatusBadRequest, read.Message()
	case errors.As(err, &name):
		return http.StatusBadRequest, name.Msg
	case errors.Is(err, storage.ErrNoMap):
		return http.StatusNotFound, "the page's library has no map of that name"
	}
	return http.StatusInternalServerError, "the database is unavailable"
}
