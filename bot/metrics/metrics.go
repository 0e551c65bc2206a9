// Package metrics makes a bot process observable: Prometheus metrics of
// what it does (commands by name and result, answer latency, render and
// computer think times, timer lag) and of the database it shares (open
// matches, the outbox's backlog), and the health endpoints a load balancer
// or an orchestrator checks.
//
// It uses its own registry, not the global one, so that a test or a
// second bot in a process counts apart.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/riskbot/riskbot/storage"
)

// Database is what the metrics and health endpoints read of the store.
type Database interface {
	// Stats counts the open matches and queued posts.
	Stats(ctx context.Context) (storage.Stats, error)
	// Ready reports whether the database answers, at the schema this
	// program knows.
	Ready(ctx context.Context) error
}

// Metrics are one process's metrics. Its methods are safe for concurrent
// use; they are the hooks the bot core (bot.Meter) and the Discord adapter
// (discord.Meter) call.
type Metrics struct {
	reg      *prometheus.Registry
	db       Database
	commands *prometheus.CounterVec
	answers  *prometheus.HistogramVec
	render   prometheus.Histogram
	think    *prometheus.HistogramVec
	lag      *prometheus.HistogramVec
}

// latencies are the buckets of answer and render times, in seconds: a
// command without a map takes milliseconds, one with a map tens of them,
// and Discord's limit to acknowledge is 3 s.
var latencies = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New returns the metrics of a process whose database is db.
func New(db Database) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		db:  db,
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "risk_commands_total",
			Help: "Commands and clicks handled, by name and result (ok, refused, moved_on, repeat, error).",
		}, []string{"command", "result"}),
		answers: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "risk_answer_seconds",
			Help:    "Time from an interaction's arrival to its answer being out, by kind (command, click, autocomplete).",
			Buckets: latencies,
		}, []string{"kind"}),
		render: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "risk_render_seconds",
			Help:    "Time to render a map to PNG.",
			Buckets: latencies,
		}),
		think: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "risk_ai_think_seconds",
			Help:    "Time a computer player took to decide a whole turn (or initial placement), by level.",
			Buckets: []float64{.0001, .001, .01, .1, .5, 1, 2, 5, 10},
		}, []string{"level"}),
		lag: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "risk_timer_lag_seconds",
			Help:    "Time from a timer falling due to its handling, by kind (remind, deadline; a computer's turn is a deadline of now).",
			Buckets: []float64{.1, .5, 1, 5, 15, 30, 60, 120, 300, 900, 3600},
		}, []string{"kind"}),
	}
	m.reg.MustRegister(m.commands, m.answers, m.render, m.think, m.lag,
		stats{db},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Command counts a command or click handled, and its result.
func (m *Metrics) Command(name, result string) { m.commands.WithLabelValues(name, result).Inc() }

// Answer observes the time from an interaction's arrival to its answer.
func (m *Metrics) Answer(kind string, d time.Duration) {
	m.answers.WithLabelValues(kind).Observe(d.Seconds())
}

// Render observes the time to render a map.
func (m *Metrics) Render(d time.Duration) { m.render.Observe(d.Seconds()) }

// Think observes a computer player's time for a turn.
func (m *Metrics) Think(level string, d time.Duration) {
	m.think.WithLabelValues(level).Observe(d.Seconds())
}

// TimerLag observes how late a due timer was handled.
func (m *Metrics) TimerLag(kind string, d time.Duration) {
	m.lag.WithLabelValues(kind).Observe(d.Seconds())
}

// stats collects the database's counts at each scrape: they are the
// fleet's, the same from every process.
type stats struct{ db Database }

var (
	openDesc    = prometheus.NewDesc("risk_open_matches", "Open matches (lobbies and started), in the whole database.", nil, nil)
	activeDesc  = prometheus.NewDesc("risk_active_matches", "Started matches, in the whole database.", nil, nil)
	queuedDesc  = prometheus.NewDesc("risk_outbox_backlog", "Posts queued and not yet delivered, in the whole database.", nil, nil)
	oldestDesc  = prometheus.NewDesc("risk_outbox_oldest_seconds", "Age of the oldest post not yet delivered (0 if none).", nil, nil)
	statsUpDesc = prometheus.NewDesc("risk_database_up", "Whether the last read of the database's counts succeeded.", nil, nil)
)

func (stats) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{openDesc, activeDesc, queuedDesc, oldestDesc, statsUpDesc} {
		ch <- d
	}
}

func (s stats) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := s.db.Stats(ctx)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(statsUpDesc, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(statsUpDesc, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(openDesc, prometheus.GaugeValue, float64(st.Open))
	ch <- prometheus.MustNewConstMetric(activeDesc, prometheus.GaugeValue, float64(st.Active))
	ch <- prometheus.MustNewConstMetric(queuedDesc, prometheus.GaugeValue, float64(st.Queued))
	age := 0.0
	if !st.Oldest.IsZero() {
		age = time.Since(st.Oldest).Seconds()
	}
	ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, age)
}

// Handler serves /metrics (Prometheus' text format), /healthz (the
// process answers) and /readyz (the database answers, at the schema this
// program knows: a process that is not ready should get no traffic).
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	m.Health(mux)
	return mux
}

// Health adds /healthz and /readyz to mux.
func (m *Metrics) Health(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		if err := m.db.Ready(ctx); err != nil {
			msg := err.Error()
			if errors.Is(err, context.DeadlineExceeded) {
				msg = "the database did not answer in 3 s"
			}
			http.Error(w, "not ready: "+msg, http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	})
}
