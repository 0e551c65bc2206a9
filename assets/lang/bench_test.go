package lang

import "testing"

// BenchmarkPrinter is the cost of wording one sentence: a plain one, one
// with a place and a nested count, in English and French.
func BenchmarkPrinter(b *testing.B) {
	for _, c := range []struct {
		name string
		tag  Tag
	}{{"en", English}, {"fr", French}} {
		p := For(c.tag)
		b.Run(c.name+"/plain", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = p.T("hosted.moved-on")
			}
		})
		b.Run(c.name+"/args", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Msg(M("list.and", "Head", Place("Peru"), "Last", M("n.armies", "Count", 3)))
			}
		})
	}
}
