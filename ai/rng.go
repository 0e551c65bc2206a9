package ai

import "math/rand/v2"

// newRand returns the player's own generator. Players never draw from the
// match's generator (they do not see it); every random choice comes from
// here, so a seed fixes the decisions.
func newRand(seed uint64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream^0x5851f42d4c957f2d))
}

// seedRand reseeds src as newRand(seed, stream) seeds its own, so that a
// search can replay another's generator without allocating one.
func seedRand(src *rand.PCG, seed, stream uint64) {
	src.Seed(seed, stream^0x5851f42d4c957f2d)
}

// mix derives independent seeds from a seed and some numbers (SplitMix64
// finalizer over each), for per-game and per-seat generators.
func mix(seed uint64, xs ...uint64) uint64 {
	z := seed
	for _, x := range xs {
		z += 0x9e3779b97f4a7c15 + x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
	}
	return z
}

// Mix derives a seed from seed and the numbers xs; the tournament uses it to
// give each game and seat its own generator.
func Mix(seed uint64, xs ...uint64) uint64 { return mix(seed, xs...) }
