package rating

import (
	"math"
	"testing"
)

func TestKey(t *testing.T) {
	for _, tt := range []struct{ id, level, want string }{
		{"discord:123", "", "discord:123"},
		{"bot:normal:2", "", "bot:normal"},
		{"bot:1", "easy", "bot:easy"},
		{"bot:1", "", "bot:1"},
		{"console:ann", "", "console:ann"},
	} {
		if got := Key(tt.id, tt.level); got != tt.want {
			t.Errorf("Key(%q, %q) = %q, want %q", tt.id, tt.level, got, tt.want)
		}
	}
}

// Worked by hand. Match 1: three new players, A first, B second, C third;
// each of the three duels moves K/2 = 16 times (score - 1/2): A +8+8, B
// -8+8, C -8-8. Match 2: A (1516) and C (1484) alone, C wins; A expected
// 1/(1+10^(-32/400)) = 0.545922, so A moves 32·(0-0.545922) = -17.4695.
// Match 3: a tie of two new players against each other changes nothing.
func TestApply(t *testing.T) {
	r := map[string]float64{}
	Apply(r, []Seat{{"A", 1}, {"B", 2}, {"C", 3}})
	want := map[string]float64{"A": 1516, "B": 1500, "C": 1484}
	same(t, "after match 1", r, want)
	Apply(r, []Seat{{"A", 2}, {"C", 1}})
	e := 1 / (1 + math.Pow(10, -32.0/400))
	if math.Abs(e-0.545922) > 1e-6 {
		t.Fatalf("expected %v", e)
	}
	want["A"], want["C"] = 1516-32*e, 1484+32*e
	same(t, "after match 2", r, want)
	if math.Abs(r["A"]-1498.5305) > 1e-3 || math.Abs(r["C"]-1501.4695) > 1e-3 {
		t.Errorf("A %v, C %v; want 1498.5305 and 1501.4695", r["A"], r["C"])
	}
	Apply(r, []Seat{{"D", 1}, {"E", 1}})
	want["D"], want["E"] = 1500, 1500
	same(t, "after a tie", r, want)
}

// Two seats of one computer level do not duel each other; each duels the
// person, and the level takes both changes.
func TestSameKey(t *testing.T) {
	r := map[string]float64{}
	Apply(r, []Seat{{"ann", 1}, {"bot:easy", 2}, {"bot:easy", 3}})
	// K/2 = 16 a duel: ann +8 +8; the level -8 -8.
	same(t, "bots", r, map[string]float64{"ann": 1516, "bot:easy": 1484})
	if d := Changes(r, []Seat{{"x", 1}}); len(d) != 1 || d[0] != 0 {
		t.Errorf("a one-seat match changes %v", d)
	}
}

// The more players, the less each duel counts: winning a six-seat match
// against equals moves the winner by K/2, as winning a duel does.
func TestSizes(t *testing.T) {
	for n := 2; n <= 6; n++ {
		seats := make([]Seat, n)
		for i := range seats {
			seats[i] = Seat{Key: string(rune('a' + i)), Place: i + 1}
		}
		d := Changes(map[string]float64{}, seats)
		if math.Abs(d[0]-K/2) > 1e-9 || math.Abs(d[n-1]+K/2) > 1e-9 {
			t.Errorf("%d seats: changes %v", n, d)
		}
		sum := 0.0
		for _, x := range d {
			sum += x
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("%d seats: changes add up to %v", n, sum)
		}
	}
}

func same(t *testing.T, when string, got, want map[string]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", when, got, want)
	}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-9 {
			t.Errorf("%s: %s = %v, want %v", when, k, got[k], w)
		}
	}
}
