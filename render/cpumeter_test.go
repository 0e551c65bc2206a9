package render

import (
	"testing"
	"time"
)

// cpuMeter reports a benchmark's CPU time per operation (the process's,
// garbage collection included) as cpu-ms/op: on a machine shared with other
// work, wall time per operation grows with the load, CPU time much less.
type cpuMeter struct {
	start time.Duration
	ok    bool
	n     int
}

func startCPU() *cpuMeter {
	c, ok := processCPU()
	return &cpuMeter{start: c, ok: ok}
}

// op counts one operation.
func (m *cpuMeter) op() { m.n++ }

// report adds the metric to b.
func (m *cpuMeter) report(b *testing.B) {
	c, ok := processCPU()
	if m.ok && ok && m.n > 0 {
		b.ReportMetric(float64(c-m.start)/float64(m.n)/1e6, "cpu-ms/op")
	}
}
