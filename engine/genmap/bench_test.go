package genmap

import "testing"

// BenchmarkGenerate generates maps of each size from a new seed every
// iteration: retries included, as the engine would see them.
func BenchmarkGenerate(b *testing.B) {
	for _, z := range Sizes() {
		b.Run(z.String(), func(b *testing.B) {
			b.ReportAllocs()
			seed := uint64(0)
			for b.Loop() {
				if _, err := Generate(seed, z); err != nil {
					b.Fatal(err)
				}
				seed++
			}
		})
	}
}
