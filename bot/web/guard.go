package web

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/httpserve"
)

// The guards in front of the handlers (docs/api.md, "Threat model"): the
// server answers only to the names it serves, the page's requests that
// change something come from the page itself, and event streams are
// bounded.

// hosts are the Host names the server answers to: the loopback names, any
// address written as such, and the names an operator serves it under.
// A name outside them is a browser that was sent here by another site's
// DNS (rebinding): answering it would let that site read the API and the
// page. An address cannot be rebound, so every one is answered.
type hosts map[string]bool

// newHosts returns the names besides the loopback ones, in lower case and
// without their schemes and ports.
func newHosts(names []string) hosts {
	h := hosts{}
	for _, n := range names {
		if _, rest, ok := strings.Cut(n, "://"); ok {
			n = rest
		}
		if n = hostname(strings.TrimSuffix(n, "/")); n != "" {
			h[n] = true
		}
	}
	return h
}

// origins are the page's origins behind a proxy: the names given, each as
// an Origin header carries it (originOf).
func origins(names []string) map[string]bool {
	o := map[string]bool{}
	for _, n := range names {
		if u := originOf(n); u != "" {
			o[u] = true
		}
	}
	return o
}

// originOf is a name the server is reached by as an Origin header
// carries it: scheme://host[:port], in lower case, without the scheme's
// own port. A name without a scheme is served over https: the proxy in
// front of the page terminates TLS (docs/api.md); a proxy that does not
// is named with its scheme ("http://box.lan:8080"). "" if the name is not
// one.
func originOf(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	scheme := "https"
	if s, rest, ok := strings.Cut(name, "://"); ok {
		scheme, name = s, rest
	}
	name = strings.TrimSuffix(name, "/")
	if scheme != "http" && scheme != "https" || name == "" || strings.ContainsAny(name, "/?#@") {
		return ""
	}
	return origin(scheme, name)
}

// origin writes an origin: the scheme, and the host with its port unless
// it is the scheme's own.
func origin(scheme, hostport string) string {
	if _, port, err := net.SplitHostPort(hostport); err == nil && (scheme == "http" && port == "80" || scheme == "https" && port == "443") {
		hostport = strings.TrimSuffix(hostport, ":"+port)
	}
	return scheme + "://" + hostport
}

// hostname is a Host header's name: in lower case, without its port, its
// brackets or a final dot.
func hostname(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	return strings.ToLower(host)
}

// serves reports whether a request's Host is one of the server's.
func (h hosts) serves(hostport string) bool {
	name := hostname(hostport)
	switch {
	case name == "":
		return false
	case name == "localhost" || strings.HasSuffix(name, ".localhost"):
		return true // browsers resolve these to the loopback only
	case net.ParseIP(name) != nil:
		return true
	}
	return h[name]
}

// onlyHosts answers 421 to a request for a name the server does not
// serve.
func onlyHosts(h hosts, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.serves(r.Host) {
			problem(w, http.StatusMisdirectedRequest, "this server does not answer to the name %q (its operator may add it with --host)", chat.Trunc(r.Host, 80))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guard is the gates in front of the handlers: each client's rate of
// requests, the bounds of the event streams, and the checks that a
// request that plays comes from the page itself (or the Activity's).
type guard struct {
	// limit bounds the requests of one client to the API.
	limit *limiter
	// streams bounds the open event streams.
	streams *streams
	// origins are Hosts as origins, with their schemes and ports: the
	// page's origins behind a proxy.
	origins  map[string]bool
	browsers *browsers
	// activity is the Activity's side (its sessions), nil unless the
	// server is Discord's Activity.
	activity *activity
	now      func() time.Time
}

// tokenHeader carries the page's anti-forgery token.
const tokenHeader = "X-Risk-Token"

// fromPage lets through only the requests the page itself sends: JSON,
// from the page's own origin, with its session's anti-forgery token.
// Browsers let any site send a form, plain text or a JSON body to any
// address, with the cookie of that address's site (a page on another port
// of the same host is the same site): these requests would play as the
// browser's players.
func (g *guard) fromPage(h http.HandlerFunc) http.HandlerFunc {
	return g.fromPageAs("application/json", h)
}

// fromPageAs is fromPage for a request whose body is of media type mt
// (an upload's multipart/form-data).
func (g *guard) fromPageAs(mt string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if why := g.forged(r, mt); why != "" {
			problem(w, http.StatusForbidden, "%s", why)
			return
		}
		h(w, r)
	}
}

// forged says why a request does not come from the page, or "".
func (g *guard) forged(r *http.Request, mt string) string {
	if g.activity != nil {
		return g.activityForged(r, mt)
	}
	if got, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || got != mt {
		if mt == "application/json" {
			return "the page sends JSON only (Content-Type: application/json)"
		}
		return "the page sends " + mt + " here (Content-Type)"
	}
	site := r.Header.Get("Sec-Fetch-Site")
	origin := r.Header.Get("Origin")
	switch {
	case site != "" && site != "same-origin":
		return "a request from another site (Sec-Fetch-Site: " + chat.Trunc(site, 40) + ") cannot play here"
	case origin == "" && site == "":
		return "a request that does not say where it comes from (no Origin) cannot play here"
	case origin != "" && !g.sameOrigin(origin, r):
		return "a request from another origin (" + chat.Trunc(origin, 80) + ") cannot play here"
	}
	c, err := r.Cookie(cookieName)
	if err != nil {
		return "no session: reload the page"
	}
	se := g.browsers.known(r.Context(), c.Value)
	got := r.Header.Get(tokenHeader)
	if se == nil || subtle.ConstantTimeCompare([]byte(got), []byte(g.browsers.token(se))) != 1 {
		return staleToken
	}
	return ""
}

// staleToken is the page's cue to fetch its token again (after a restart
// of the server) and retry.
const staleToken = "the page's anti-forgery token is missing or stale: reload the page"

// sameOrigin reports whether an Origin header is the page's own: the
// scheme and Host the request came with (the server serves plain HTTP
// itself), or a name an operator serves it under behind a proxy, with
// its scheme and port. Another scheme is another origin: a page served
// over plain HTTP under the name of the page's proxy (which anyone on the
// network can forge) is not the page.
func (g *guard) sameOrigin(o string, r *http.Request) bool {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Path != "" {
		return false
	}
	got := origin(u.Scheme, strings.ToLower(u.Host))
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if got == origin(scheme, strings.ToLower(r.Host)) {
		return true
	}
	// A name given exactly, its port too: another port of the same name
	// is another origin, maybe another program's.
	return g.origins[got]
}

// Bounds of the event streams: a page holds one, a spectator's page one;
// a few tabs of one browser are fine, thousands from one address are not.
const (
	DefaultStreams       = 1000
	DefaultClientStreams = 16
)

// streams counts the open event streams, in all and by client.
type streams struct {
	max, perClient int

	mu     sync.Mutex
	total  int
	client map[string]int
}

func newStreams(max, perClient int) *streams {
	return &streams{max: max, perClient: perClient, client: map[string]int{}}
}

// open takes a stream for a client, or answers why not with its status.
func (st *streams) open(client string) (status int, why string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.client[client] >= st.perClient:
		return http.StatusTooManyRequests, "too many open event streams from your address (" + strconv.Itoa(st.perClient) + "): close some pages"
	case st.total >= st.max:
		return http.StatusServiceUnavailable, "the server follows as many pages as it can: try again later"
	}
	st.total++
	st.client[client]++
	return 0, ""
}

// close gives a client's stream back.
func (st *streams) close(client string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.total--
	if st.client[client]--; st.client[client] <= 0 {
		delete(st.client, client)
	}
}

// bounded admits an event stream within the bounds, 429 or 503 beyond.
// A stream outlives the server's write limit: each of its writes is
// bounded instead (httpserve.Stream).
func (g *guard) bounded(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		client := clientOf(r)
		if status, why := g.streams.open(client); status != 0 {
			w.Header().Set("Retry-After", "10")
			problem(w, status, "%s", why)
			return
		}
		defer g.streams.close(client)
		h(httpserve.Stream(w, r), r)
	}
}

// clientOf is the address a request comes from, without its port.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limiter bounds each client's requests: a bucket of Burst tokens per
// address, refilled at Rate a second.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token of client's bucket, if there is one.
func (l *limiter) allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.buckets) > 10000 {
		// Forget the full buckets: they are as good as new.
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
	}
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// limited answers 429 to a client over its bound.
func (g *guard) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !g.limit.allow(clientOf(r)) {
			w.Header().Set("Retry-After", "1")
			problem(w, http.StatusTooManyRequests, "too many requests: slow down")
			return
		}
		h(w, r)
	}
}

// activityForged is forged for the Activity: the page's JSON, with its
// session in the header (a cookie alone, which any site's form would
// carry, changes nothing).
func (g *guard) activityForged(r *http.Request, mt string) string {
	if got, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || got != mt {
		return "the page sends " + mt + " here (Content-Type)"
	}
	if g.activity.read(r.Header.Get(activityHeader), g.now()) == nil {
		return "no session of the Activity, or an expired one: open the Activity again"
	}
	return ""
}
