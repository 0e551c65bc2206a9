package lru

import (
	"sync"
	"testing"
)

func TestCache(t *testing.T) {
	c := New[string, int](2)
	c.Add("a", 1)
	c.Add("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("a: %d, %v", v, ok)
	}
	c.Add("c", 3) // b is the least recently used
	if _, ok := c.Get("b"); ok {
		t.Error("b is still kept past the cache's size")
	}
	for k, want := range map[string]int{"a": 1, "c": 3} {
		if v, ok := c.Get(k); !ok || v != want {
			t.Errorf("%s: %d, %v; want %d", k, v, ok, want)
		}
	}
	c.Add("a", 10)
	if v, _ := c.Get("a"); v != 10 || c.Len() != 2 {
		t.Errorf("a replaced: %d, %d kept", v, c.Len())
	}
}

func TestGetOrAddMakesOnce(t *testing.T) {
	c := New[int, *int](8)
	var made int
	var wg sync.WaitGroup
	got := make([]*int, 16)
	for i := range got {
		wg.Go(func() {
			got[i] = c.GetOrAdd(1, func() *int { made++; v := 7; return &v })
		})
	}
	wg.Wait()
	for _, p := range got {
		if p != got[0] {
			t.Fatal("two callers got different values for one key")
		}
	}
	if made != 1 {
		t.Errorf("made %d times, want once", made)
	}
}
