package web

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// pageClient sends requests as the page does in a browser: with its
// session's cookie, its origin and its anti-forgery token.
type pageClient struct {
	t      testing.TB
	client *http.Client
	base   string
	token  string
}

// openPage loads the page's session as a browser opening it would.
func openPage(t testing.TB, e *testEnv) *pageClient {
	t.Helper()
	jar := newJar(t)
	p := &pageClient{t: t, client: &http.Client{Jar: jar}, base: e.ts.URL}
	var names struct {
		Token string `json:"token"`
	}
	getJSON(t, p.client, p.base+"/web/names", &names)
	if names.Token == "" {
		t.Fatal("/web/names gave the page no token")
	}
	p.token = names.Token
	return p
}

// dress sets the headers a browser and the page's script set.
func (p *pageClient) dress(req *http.Request) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", p.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set(tokenHeader, p.token)
}

// post sends body to path and returns the status and the answer.
func (p *pageClient) post(path, body string) (int, string) {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPost, p.base+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	p.dress(req)
	res, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
