package web

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage/storetest"
)

// upload sends a map's zip to POST /web/maps as the page's form does.
func (p *pageClient) upload(name string, zip []byte, fields map[string]string) (int, string) {
	p.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		p.t.Fatal(err)
	}
	fw.Write(zip)
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, p.base+"/web/maps", &body)
	if err != nil {
		p.t.Fatal(err)
	}
	p.dress(req)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestPageMaps (issue 44): the page's operator uploads a map through the
// real handler, each refusal (not the operator, mapfile's, the same map
// again, a map in use) answered and the library unchanged; the page's
// channels play it with /risk new map:NAME.
func TestPageMaps(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	e := newEnv(t, Config{OperatorKey: key})
	ann, olga := named(t, e, "Ann"), named(t, e, "Olga")
	if status, body := olga.post("/web/operator", `{"key":"`+key+`"}`); status != http.StatusOK {
		t.Fatalf("the operator's key: %d %s", status, body)
	}
	b, err := mapfile.Read(mapfile.Files(storetest.StripMap(t, "Page Strip", 7)), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	zip, err := b.Zip()
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		ms, err := e.bot.Library().List(t.Context(), "web")
		if err != nil {
			t.Fatal(err)
		}
		return len(ms)
	}
	steps := []struct {
		name   string
		by     *pageClient
		file   string
		data   []byte
		fields map[string]string
		status int
		want   string
		maps   int
	}{
		{"not the operator", ann, "strip.zip", zip, nil, http.StatusForbidden, "only the page's operator", 0},
		{"not a zip", olga, "strip.map", zip, nil, http.StatusBadRequest, "as a .zip", 0},
		{"refused by mapfile", olga, "strip.zip", zip[:len(zip)/2], nil, http.StatusBadRequest, "zip", 0},
		{"added", olga, "strip.zip", zip, nil, http.StatusCreated, `"name":"Page Strip"`, 1},
		{"the same again", olga, "again.zip", zip, map[string]string{"name": "Again"}, http.StatusConflict, "already, named Page Strip", 1},
	}
	for _, s := range steps {
		status, body := s.by.upload(s.file, s.data, s.fields)
		if status != s.status || !strings.Contains(body, s.want) {
			t.Errorf("%s: got %d %s, want %d with %q", s.name, status, body, s.status, s.want)
		}
		if n := count(); n != s.maps {
			t.Errorf("%s: the library has %d maps, want %d", s.name, n, s.maps)
		}
	}
	if got := ann.run(e, "lib", "Ann", "/risk new map:Page Strip"); len(got) != 1 || !strings.Contains(got[0], "Your match is open") {
		t.Fatalf("/risk new map:Page Strip: %q", got)
	}
	if status, body := olga.post("/web/maps/remove", `{"name":"page strip"}`); status != http.StatusConflict || !strings.Contains(body, "played by the match in lib") {
		t.Errorf("removing a map in use: %d %s, want 409 naming the channel", status, body)
	}
	if status, body := ann.post("/web/maps/remove", `{"name":"page strip"}`); status != http.StatusForbidden {
		t.Errorf("removing by another than the operator: %d %s, want 403", status, body)
	}
	if n := count(); n != 1 {
		t.Errorf("after refused removals the library has %d maps, want 1", n)
	}
}
