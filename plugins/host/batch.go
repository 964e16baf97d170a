package host

import (
	"context"
	"sync"
	"time"
)

// batcher merges concurrent calls into batches by group commit: the first
// call of an idle batcher is sent at once, alone; the calls that arrive
// while a batch is in flight queue up and leave together in the next one
// (at most max per batch, at most inflight batches at a time). There is no
// timer: a lone caller never waits for company, and a 1000-branch fan-out
// pays about one round trip per batch of concurrently running branches,
// not one per branch.
type batcher[In, Out any] struct {
	send     func(ctx context.Context, ins []In) ([]Out, error)
	max      int
	inflight int

	mu      sync.Mutex
	queue   []*pending[In, Out]
	running int
}

type pending[In, Out any] struct {
	ctx  context.Context
	in   In
	out  Out
	err  error
	done chan struct{}
}

func newBatcher[In, Out any](max, inflight int, send func(context.Context, []In) ([]Out, error)) *batcher[In, Out] {
	return &batcher[In, Out]{send: send, max: max, inflight: inflight}
}

// do queues in and waits for its answer or ctx's end, whichever is first.
func (b *batcher[In, Out]) do(ctx context.Context, in In) (Out, error) {
	p := &pending[In, Out]{ctx: ctx, in: in, done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, p)
	if b.running < b.inflight {
		b.running++
		go b.flush()
	}
	b.mu.Unlock()
	select {
	case <-p.done:
		return p.out, p.err
	case <-ctx.Done():
		var zero Out
		return zero, ctx.Err()
	}
}

// flush sends batches until the queue is empty.
func (b *batcher[In, Out]) flush() {
	for {
		b.mu.Lock()
		n := min(len(b.queue), b.max)
		if n == 0 {
			b.running--
			b.mu.Unlock()
			return
		}
		batch := make([]*pending[In, Out], 0, n)
		for _, p := range b.queue[:n] {
			if p.ctx.Err() != nil {
				close(p.done) // its caller has gone
				continue
			}
			batch = append(batch, p)
		}
		b.queue = append(b.queue[:0:0], b.queue[n:]...)
		b.mu.Unlock()
		if len(batch) > 0 {
			b.sendBatch(batch)
		}
	}
}

// sendBatch sends one batch under a context that carries the latest of its
// calls' deadlines and ends when every caller has gone.
func (b *batcher[In, Out]) sendBatch(batch []*pending[In, Out]) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var latest time.Time
	bounded := true
	left := int64(len(batch))
	var mu sync.Mutex
	ins := make([]In, len(batch))
	for i, p := range batch {
		ins[i] = p.in
		if d, ok := p.ctx.Deadline(); !ok {
			bounded = false
		} else if d.After(latest) {
			latest = d
		}
		stop := context.AfterFunc(p.ctx, func() {
			mu.Lock()
			left--
			if left == 0 {
				cancel()
			}
			mu.Unlock()
		})
		defer stop()
	}
	if bounded {
		var c2 context.CancelFunc
		ctx, c2 = context.WithDeadline(ctx, latest)
		defer c2()
	}
	outs, err := b.send(ctx, ins)
	for i, p := range batch {
		if err != nil {
			p.err = err
		} else {
			p.out = outs[i]
		}
		close(p.done)
	}
}
