package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
)

// apiRegions is GET /api/matches/{id}/regions as a client reads it.
type apiRegions struct {
	Match  int64 `json:"match"`
	Width  int   `json:"width"`
	Height int   `json:"height"`
	Map    struct {
		X, Y, W, H int
	} `json:"map"`
	Index       string `json:"index"`
	Territories []struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Anchor struct{ X, Y int }
		Label  *struct {
			X, Y  int
			Lines []string
		}
		Box struct{ X, Y, W, H int }
	} `json:"territories"`
}

// fetch gets path from the server and returns the answer and its body.
func fetch(t *testing.T, e *testEnv, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// TestRegionsAPI makes a match's map clickable as docs/api.md tells a
// client to: the regions and their index fetched through the handler, the
// map image of the same size, and a click on each territory's badge read
// from the index's pixel there names that territory; its owner and armies
// come from the match's state. The answers are cached by their ETag, the
// index's versioned address for good, and say nothing of owners.
func TestRegionsAPI(t *testing.T) {
	e := newEnv(t, Config{})
	for _, rules := range []string{"classic", "capitals map:small"} {
		t.Run(strings.Fields(rules)[0], func(t *testing.T) {
			ch := "regions-" + strings.Fields(rules)[0]
			id := startMatch(t, e, ch, rules)
			res, body := fetch(t, e, fmt.Sprintf("/api/matches/%d/regions", id))
			if res.StatusCode != http.StatusOK {
				t.Fatalf("regions: %d %s", res.StatusCode, body)
			}
			if got, want := res.Header.Get("Cache-Control"), "public, max-age=86400"; got != want {
				t.Errorf("regions' Cache-Control %q, want %q", got, want)
			}
			for _, secret := range []string{`"owner"`, `"armies"`} {
				if bytes.Contains(body, []byte(secret)) {
					t.Errorf("the regions tell %s: %s", secret, body)
				}
			}
			var reg apiRegions
			if err := json.Unmarshal(body, &reg); err != nil {
				t.Fatal(err)
			}
			// Asked again with its ETag: not modified.
			again, _ := fetch(t, e, fmt.Sprintf("/api/matches/%d/regions", id), "If-None-Match", res.Header.Get("ETag"))
			if again.StatusCode != http.StatusNotModified || res.Header.Get("ETag") == "" {
				t.Errorf("regions asked again with ETag %q: %d, want 304", res.Header.Get("ETag"), again.StatusCode)
			}

			_, mapPNG := fetch(t, e, fmt.Sprintf("/api/matches/%d/map.png", id))
			pic, err := png.Decode(bytes.NewReader(mapPNG))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := image.Rect(0, 0, reg.Width, reg.Height), pic.Bounds(); got != want {
				t.Errorf("regions of %v, want map.png's %v", got, want)
			}
			res, body = fetch(t, e, reg.Index)
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("index %s: %d %s", reg.Index, res.StatusCode, res.Header.Get("Content-Type"))
			}
			if got := res.Header.Get("Cache-Control"); !strings.Contains(got, "immutable") {
				t.Errorf("the versioned index's Cache-Control %q, want immutable", got)
			}
			img, err := png.Decode(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			idx, ok := img.(*image.Gray)
			if !ok || idx.Rect != pic.Bounds() {
				t.Fatalf("the index is a %T of %v, want an *image.Gray of map.png's %v", img, img.Bounds(), pic.Bounds())
			}
			res, _ = fetch(t, e, fmt.Sprintf("/api/matches/%d/regions.png", id))
			if got := res.Header.Get("Cache-Control"); strings.Contains(got, "immutable") {
				t.Errorf("the unversioned index's Cache-Control %q, want not immutable", got)
			}

			var m struct {
				State struct {
					Territories []struct{ Owner, Armies int }
				}
			}
			(&client{t: t, base: e.ts.URL}).get(fmt.Sprintf("/api/matches/%d", id), &m)
			if len(reg.Territories) != len(m.State.Territories) || len(reg.Territories) == 0 {
				t.Fatalf("%d regions, want the state's %d territories", len(reg.Territories), len(m.State.Territories))
			}
			for want, tr := range reg.Territories {
				// A click on the badge: the index's pixel there.
				got := int(idx.GrayAt(tr.Anchor.X, tr.Anchor.Y).Y) - 1
				if got != want || tr.ID != want {
					t.Errorf("a click on %s's badge at (%d, %d) is on territory %d, want %d", tr.Name, tr.Anchor.X, tr.Anchor.Y, got, want)
					continue
				}
				if owner := m.State.Territories[got].Owner; owner < 0 && rules == "classic" {
					t.Errorf("%s is owned by %d, want a seat's after the deal", tr.Name, owner)
				}
				if tr.Box.W == 0 || tr.Box.H == 0 {
					t.Errorf("%s has an empty box", tr.Name)
				}
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		e.do(t, "regions-lobby", "Ann", "/risk new")
		l, err := e.db.Active(t.Context(), Prefix+"regions-lobby")
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			path string
			want int
		}{
			{fmt.Sprintf("/api/matches/%d/regions", l.ID), http.StatusServiceUnavailable},
			{fmt.Sprintf("/api/matches/%d/regions.png", l.ID), http.StatusServiceUnavailable},
			{"/api/matches/999/regions", http.StatusNotFound},
			{"/api/matches/x/regions.png", http.StatusNotFound},
		} {
			if res, body := fetch(t, e, tt.path); res.StatusCode != tt.want {
				t.Errorf("%s: %d %s, want %d", tt.path, res.StatusCode, body, tt.want)
			}
		}
	})
}
