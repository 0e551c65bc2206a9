package web

import "net/http"

// Handler returns the HTTP handler of everything the server serves.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /static/{file}", static)
	mux.HandleFunc("GET /web/words", s.words)
	mux.HandleFunc("GET /web/channels", s.play.channels)
	mux.HandleFunc("GET /web/channel", s.play.channelInfo)
	mux.HandleFunc("GET /web/events", s.guard.bounded(s.play.events))
	mux.HandleFunc("GET /web/names", s.naming.listNames)
	mux.HandleFunc("POST /web/names", s.guard.limited(s.guard.fromPage(s.naming.addName)))
	mux.HandleFunc("POST /web/forget", s.guard.limited(s.guard.fromPage(s.naming.forgetName)))
	mux.HandleFunc("POST /web/code", s.guard.limited(s.guard.fromPage(s.naming.code)))
	mux.HandleFunc("POST /web/operator", s.guard.limited(s.guard.fromPage(s.naming.operator)))
	mux.HandleFunc("POST /web/command", s.guard.limited(s.guard.fromPage(s.play.command)))
	mux.HandleFunc("GET /web/maps", s.guard.limited(s.listMaps))
	mux.HandleFunc("POST /web/maps", s.guard.limited(s.guard.fromPageAs("multipart/form-data", s.uploadMap)))
	mux.HandleFunc("POST /web/maps/remove", s.guard.limited(s.guard.fromPage(s.removeMap)))
	mux.HandleFunc("POST /web/click", s.guard.limited(s.guard.fromPage(s.play.click)))
	mux.HandleFunc("POST /web/say", s.guard.limited(s.guard.fromPage(s.play.say)))
	mux.HandleFunc("GET /web/complete", s.guard.limited(s.play.complete))
	mux.HandleFunc("GET /web/board", s.guard.limited(s.play.board))
	mux.HandleFunc("POST /web/token", s.guard.limited(s.guard.fromPage(s.play.token)))
	mux.HandleFunc("GET /web/img/{id}", s.play.image)
	mux.HandleFunc("GET /watch/{id}", s.watchers.watchPage)
	mux.HandleFunc("GET /watch/{id}/events", s.guard.limited(s.guard.bounded(byMatch(s.watchers.watchEvents))))
	mux.HandleFunc("GET /api/matches/{id}", s.guard.limited(byMatch(s.api.apiMatch)))
	mux.HandleFunc("GET /api/matches/{id}/commands", s.guard.limited(byMatch(s.api.apiCommands)))
	mux.HandleFunc("POST /api/matches/{id}/commands", s.guard.limited(byMatch(s.api.apiPlay)))
	mux.HandleFunc("GET /api/matches/{id}/map.png", s.guard.limited(s.api.apiMap))
	mux.HandleFunc("GET /api/matches/{id}/regions", s.guard.limited(s.api.apiRegions))
	mux.HandleFunc("GET /api/matches/{id}/regions.png", s.guard.limited(s.api.apiRegionsPNG))
	if s.activity != nil {
		// Discord's client frames the Activity: it may, and nobody else.
		return onlyHosts(s.hosts, secure(s.activityGate(mux), s.activity.csp))
	}
	return onlyHosts(s.hosts, secure(mux, "'none'"))
}

// secure sets the headers every answer carries: nothing from elsewhere may
// run in the page, and only frames (the Activity's Discord) may frame it.
func secure(h http.Handler, frames string) http.Handler {
	csp := "default-src 'self'; img-src 'self' data:; frame-ancestors " + frames
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}
