package host

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBatcherGroupsConcurrentCalls(t *testing.T) {
	t.Parallel()
	var batches, items atomic.Int64
	b := newBatcher(64, 1, func(_ context.Context, ins []int) ([]int, error) {
		batches.Add(1)
		items.Add(int64(len(ins)))
		time.Sleep(2 * time.Millisecond) // a round trip
		out := make([]int, len(ins))
		for i, v := range ins {
			out[i] = v * 2
		}
		return out, nil
	})
	var wg sync.WaitGroup
	for i := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := b.do(context.Background(), i)
			if err != nil || got != 2*i {
				t.Errorf("do(%d) = %d, %v", i, got, err)
			}
		}()
	}
	wg.Wait()
	if items.Load() != 1000 || batches.Load() > 100 {
		t.Fatalf("%d items in %d batches: want far fewer batches than calls", items.Load(), batches.Load())
	}
}

func TestBatcherLoneCallDoesNotWait(t *testing.T) {
	t.Parallel()
	b := newBatcher(64, 1, func(_ context.Context, ins []int) ([]int, error) { return ins, nil })
	began := time.Now()
	for i := range 100 {
		if got, _ := b.do(context.Background(), i); got != i {
			t.Fatal(got)
		}
	}
	if d := time.Since(began); d > 500*time.Millisecond {
		t.Fatalf("100 sequential calls took %s", d)
	}
}

func TestBatcherCallerGivesUp(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	b := newBatcher(64, 1, func(ctx context.Context, ins []int) ([]int, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return ins, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := b.do(ctx, 1); err == nil {
		t.Fatal("no error")
	}
	close(release)
	if got, err := b.do(context.Background(), 2); err != nil || got != 2 {
		t.Fatal(got, err)
	}
}
