package recorder

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// DeferredRecorder delivers events to another recorder from a goroutine of
// its own, through a bounded queue, so a slow recorder (a file, a socket)
// runs off the run's hot path. Build one with Deferred.
//
// It never drops an event: when the queue is full, Record BLOCKS the run
// until the recorder catches up. Order is preserved. Flush (the engine calls
// it before the run returns) waits until every queued event is delivered,
// then stops the goroutine. A panic in the recorder is recovered, detaches
// it (later events are drained and discarded) and is returned by Err.
//
// The goroutine starts with the first event, so a DeferredRecorder that
// never records holds none; one that records must be flushed, or its
// goroutine waits for events forever.
//
// Cost per event: one channel send of the Event (a copy) and a read lock.
type DeferredRecorder struct {
	r     Recorder
	queue chan Event
	done  chan struct{}
	start sync.Once

	// mu guards closed: Record holds it shared while it sends, Flush holds it
	// exclusively to close the queue, so no send ever meets a closed channel.
	mu     sync.RWMutex
	closed bool
	flush  sync.Once

	// errMu guards panicErr, written by the delivering goroutine, or by the
	// caller after Flush. dead is set once the wrapped recorder panicked.
	errMu    sync.Mutex
	panicErr error
	dead     atomic.Bool
}

// Deferred wraps r for delivery from its own goroutine through a queue of
// the given capacity (at least 1). If r is itself a Flusher, it is flushed
// after the queue drains.
func Deferred(r Recorder, queue int) *DeferredRecorder {
	if queue < 1 {
		queue = 1
	}
	return &DeferredRecorder{
		r:     r,
		queue: make(chan Event, queue),
		done:  make(chan struct{}),
	}
}

// Wants is the wrapped recorder's, when it is Selective; otherwise every
// kind.
func (d *DeferredRecorder) Wants(k Kind) bool {
	if s, ok := d.r.(Selective); ok {
		return s.Wants(k)
	}
	return true
}

// Record queues e, blocking while the queue is full. After Flush, events are
// delivered synchronously (still recovered), so none is ever lost.
func (d *DeferredRecorder) Record(e Event) {
	d.mu.RLock()
	if !d.closed {
		d.start.Do(d.launch)
		d.queue <- e
		d.mu.RUnlock()
		return
	}
	d.mu.RUnlock()
	d.deliver(e)
}

// Flush waits until every queued event has been delivered, stops the
// goroutine, and flushes the wrapped recorder if it is a Flusher. Calling it
// again does nothing.
func (d *DeferredRecorder) Flush() {
	d.flush.Do(func() {
		d.mu.Lock()
		d.closed = true
		d.start.Do(d.launch)
		close(d.queue)
		d.mu.Unlock()
		<-d.done
		if f, ok := d.r.(Flusher); ok && !d.isDead() {
			d.guard(f.Flush)
		}
	})
}

// Err returns the panic recovered from the wrapped recorder, joined with the
// wrapped recorder's own Err when it has one. Call it after Flush.
func (d *DeferredRecorder) Err() error {
	d.errMu.Lock()
	err := d.panicErr
	d.errMu.Unlock()
	if er, ok := d.r.(interface{ Err() error }); ok && !d.isDead() {
		err = errors.Join(err, er.Err())
	}
	return err
}

func (d *DeferredRecorder) launch() { go d.run() }

func (d *DeferredRecorder) run() {
	defer close(d.done)
	for e := range d.queue {
		d.deliver(e)
	}
}

// deliver hands e to the wrapped recorder unless it has panicked before.
func (d *DeferredRecorder) deliver(e Event) {
	if d.isDead() {
		return
	}
	d.guard(func() { d.r.Record(e) })
}

func (d *DeferredRecorder) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			d.dead.Store(true)
			d.errMu.Lock()
			d.panicErr = errors.Join(d.panicErr, fmt.Errorf("recorder %T panicked: %v", d.r, v))
			d.errMu.Unlock()
		}
	}()
	f()
}

func (d *DeferredRecorder) isDead() bool { return d.dead.Load() }
