package recorder

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// slow sleeps a little on every event, so the queue fills.
type slow struct {
	mu      sync.Mutex
	events  []Event
	flushed bool
}

func (s *slow) Record(e Event) {
	time.Sleep(50 * time.Microsecond)
	s.mu.Lock()
	s.events = append(s.events, e)
	s.mu.Unlock()
}

func (s *slow) Flush() { s.flushed = true }

// noLeak fails t when goroutines started during f are still running after it.
func noLeak(t *testing.T, f func()) {
	t.Helper()
	before := runtime.NumGoroutine()
	f()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

func TestDeferredDeliversInOrder(t *testing.T) {
	events := fixtureLoop(20)
	for _, queue := range []int{0, 1, 8, 1024} {
		noLeak(t, func() {
			s := &slow{}
			d := Deferred(s, queue)
			for _, e := range events {
				d.Record(e)
			}
			d.Flush()
			if len(s.events) != len(events) {
				t.Fatalf("queue %d: %d events delivered, want %d", queue, len(s.events), len(events))
			}
			for i := range events {
				if s.events[i].Kind != events[i].Kind || s.events[i].Path != events[i].Path {
					t.Fatalf("queue %d: event %d out of order", queue, i)
				}
			}
			if !s.flushed {
				t.Error("wrapped Flusher not flushed")
			}
			if d.Err() != nil {
				t.Errorf("Err = %v", d.Err())
			}
			d.Flush() // idempotent
			// after Flush, events are delivered synchronously: none is lost
			d.Record(Event{Kind: RunEnd})
			if last := s.events[len(s.events)-1]; last.Kind != RunEnd || len(s.events) != len(events)+1 {
				t.Error("event recorded after Flush was lost")
			}
		})
	}
}

func TestDeferredRecoversPanic(t *testing.T) {
	noLeak(t, func() {
		bad := &panicky{at: 2}
		d := Deferred(bad, 2)
		for range 50 { // more than the queue: a dead recorder must not block the run
			d.Record(Event{Kind: Read})
		}
		d.Flush()
		err := d.Err()
		if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "*recorder.panicky") {
			t.Errorf("Err = %v, want the recovered panic", err)
		}
		if bad.seen != 2 {
			t.Errorf("recorder saw %d events after panicking, want none", bad.seen-2)
		}
	})
}

func TestDeferredNeverStartedNeverLeaks(t *testing.T) {
	noLeak(t, func() {
		d := Deferred(&collect{}, 4)
		d.Flush()
	})
	noLeak(t, func() {
		_ = Deferred(&collect{}, 4) // never records: no goroutine to leak
	})
}

func TestDeferredJoinsWrappedErr(t *testing.T) {
	noLeak(t, func() {
		d := Deferred(&failing{}, 4)
		d.Record(Event{Kind: RunStart})
		d.Flush()
		if err := d.Err(); err == nil || err.Error() != "disk full" {
			t.Errorf("Err = %v, want the wrapped recorder's error", err)
		}
	})
}

// Through a Dispatcher, a Deferred NDJSON writes every line by the time the
// dispatcher's Flush returns.
func TestDeferredThroughDispatcher(t *testing.T) {
	noLeak(t, func() {
		var out strings.Builder
		d := NewDispatcher(Deferred(NewNDJSON(&out, WithoutTimings()), 4))
		events := fixtureSelect()
		for _, e := range events {
			d.Record(e)
		}
		d.Flush()
		if got := strings.Count(out.String(), "\n"); got != len(events) {
			t.Errorf("%d lines written, want %d", got, len(events))
		}
		if len(d.Problems()) != 0 {
			t.Errorf("problems: %v", d.Problems())
		}
	})
}
