package flow

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// The counter's spelling carried in place is strconv's, across carries
// into a new digit, small jumps (executions nobody named, which
// Scope.where leaves unspelled), large ones (a branch's count taken up at
// a join) and going back (a fan-out worker's arena moving between
// branches).
func TestCounterTextSpellsTheCounter(t *testing.T) {
	var ct counterText
	seq := []int{0, 1, 2, 9, 10, 11, 99, 100, 101, 998, 999, 1000, 7, 8, 9, 10, 123456789, 123456790, 5, 0}
	for n := 0; n < 20000; n++ {
		seq = append(seq, n)
	}
	for n := 0; n < 20000; n += 3 { // a loop's pass names one of three
		seq = append(seq, n)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 1e6; n += 1 + r.IntN(12) {
		seq = append(seq, n)
	}
	for range 2000 {
		n := r.IntN(1 << 40)
		seq = append(seq, n, n+1, n+2)
	}
	for i, n := range seq {
		if got, want := string(ct.spell(n)), strconv.Itoa(n); got != want {
			t.Fatalf("step %d: spell(%d) = %q, want %q", i, n, got, want)
		}
	}
}

// A path written by the arena is the display spelling Position gives.
func TestArenaPathIsThePositionsSpelling(t *testing.T) {
	var a arena
	for _, tc := range []struct {
		prefix, id string
		n          int
	}{{"", "tick", 0}, {"", "tick", 1}, {"per-volume~3", "posture", 2}, {"per-volume~3", "posture", 9}, {"", "check", 10}, {"a~x/b", "c", 10}, {"", "tick", 4}} {
		got := a.path(tc.prefix, tc.id, tc.n)
		if want := string(appendExecution(nil, tc.prefix, tc.id, tc.n)); got != want {
			t.Errorf("path(%q, %q, %d) = %q, want %q", tc.prefix, tc.id, tc.n, got, want)
		}
	}
}
