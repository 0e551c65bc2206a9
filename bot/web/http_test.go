package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReadBody: the page's body is read strictly, and what will not do is
// answered with its status and a line saying why.
func TestReadBody(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		ok         bool
		status     int
		says       string
	}{
		{"a form", `{"name":"Ann"}`, true, http.StatusOK, ""},
		{"not JSON", `name=Ann`, false, http.StatusBadRequest, "bad JSON: "},
		{"an unknown field", `{"name":"Ann","admin":true}`, false, http.StatusBadRequest, `unknown field "admin"`},
		{"two values", `{"name":"Ann"}{"name":"Bob"}`, false, http.StatusBadRequest, "bad JSON: data after the value"},
		{"too large", `{"name":"` + strings.Repeat("a", maxForm) + `"}`, false, http.StatusRequestEntityTooLarge, "the body is larger than 16384 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodPost, "/web/forget", strings.NewReader(tc.body))
			var in struct {
				Name string `json:"name"`
			}
			if got := readBody(w, r, &in); got != tc.ok {
				t.Fatalf("readBody: got %v, want %v", got, tc.ok)
			}
			if w.Code != tc.status {
				t.Errorf("status: got %d, want %d", w.Code, tc.status)
			}
			if tc.ok {
				if in.Name != "Ann" || w.Body.Len() != 0 {
					t.Errorf("got %q and an answer %q, want Ann and no answer", in.Name, w.Body)
				}
				return
			}
			var p struct{ Error string }
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || !strings.Contains(p.Error, tc.says) {
				t.Errorf("answer: got %s (%v), want an error saying %q", w.Body, err, tc.says)
			}
		})
	}
}

// TestByMatch: the handler gets the {id} of the path; a path naming no
// match is answered 404 without it.
func TestByMatch(t *testing.T) {
	for _, tc := range []struct {
		id     string
		want   int64
		status int
	}{
		{"7", 7, http.StatusOK},
		{"0", 0, http.StatusNotFound},
		{"-1", 0, http.StatusNotFound},
		{"abc", 0, http.StatusNotFound},
		{"99999999999999999999999", 0, http.StatusNotFound},
	} {
		t.Run(tc.id, func(t *testing.T) {
			var got int64
			h := byMatch(func(w http.ResponseWriter, _ *http.Request, id int64) { got = id })
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodGet, "/api/matches/x", nil)
			r.SetPathValue("id", tc.id)
			h(w, r)
			if got != tc.want || w.Code != tc.status {
				t.Errorf("id %q: got %d and %d, want %d and %d", tc.id, got, w.Code, tc.want, tc.status)
			}
		})
	}
}
