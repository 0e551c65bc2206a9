package engine

import (
	"encoding/json"
	"testing"
)

// BenchmarkDecodeLog decodes the JSON of a 2,000-command log, as loading a
// match without a snapshot does.
func BenchmarkDecodeLog(b *testing.B) {
	_, log := classicGames.play(b, 3, 2000)
	data, _ := json.Marshal(log)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var out []Entry
		if err := json.Unmarshal(data, &out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log)), "entries")
}
