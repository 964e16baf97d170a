package flow_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/openrunbook/runbook/flow"
)

// TestStagesKeepTheirOwnReads: a stage's reads go straight into its
// arena's room and its commit keeps them there. Stages reading nothing,
// a few keys, more than the room holds (their reads move out and are
// copied back) and across many chunk boundaries, a retried stage (its
// discarded attempt commits too), a stage on its own goroutine (a
// timeout) and foreach branches on workers' arenas must each find in
// their commit exactly the keys they read, in order, with the values they
// saw — no commit's reads overwritten by a later stage's.
func TestStagesKeepTheirOwnReads(t *testing.T) {
	const keys = 40
	want := map[string][]string{} // stage id -> keys it reads
	read := func(id string, n, offset int) flow.StageFunc {
		var ks []string
		for i := 0; i < n; i++ {
			ks = append(ks, fmt.Sprintf("k%d", (offset+i)%keys))
		}
		want[id] = ks
		return func(ctx context.Context, s *flow.Scope) error {
			for _, k := range ks {
				s.Get(k)
			}
			s.Set("last-"+id, len(ks))
			return nil
		}
	}
	b := flow.New("reads").Stage("seed", func(ctx context.Context, s *flow.Scope) error {
		for i := 0; i < keys; i++ {
			s.Set(fmt.Sprintf("k%d", i), i)
		}
		return nil
	})
	for i, n := range []int{0, 1, 3, 5, 0, 2, 17, 1, 4, 33, 0, 6, 2, 9, 40, 1} {
		b = b.Stage(fmt.Sprintf("r%d", i), read(fmt.Sprintf("r%d", i), n, i*7))
	}
	tries := 0
	retried := read("retried", 6, 3)
	b = b.Stage("retried", func(ctx context.Context, s *flow.Scope) error {
		if err := retried(ctx, s); err != nil {
			return err
		}
		if tries++; tries < 3 {
			return errors.New("again")
		}
		return nil
	}, flow.WithRetry(flow.RetryPolicy{Attempts: 3}))
	b = b.Stage("timed", read("timed", 7, 11), flow.Timeout(time.Minute))
	body := flow.Seq().Stage("item-a", read("item-a", 3, 1)).Stage("item-b", read("item-b", 9, 20))
	b = b.ForEach("each", flow.ForEach{
		Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return make([]any, 30), nil },
		MaxBranches: 30, Body: body,
	})
	for i := 0; i < 200; i++ { // many chunks' worth after the fan-out
		b = b.Stage(fmt.Sprintf("t%d", i), read(fmt.Sprintf("t%d", i), i%7, i))
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 4} {
		tries = 0
		res, err := c.Run(context.Background(), flow.WithConcurrency(workers))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, cm := range res.Log.Commits() {
			ks, ok := want[cm.Stage]
			if !ok {
				continue
			}
			var got []string
			for _, r := range cm.Reads {
				got = append(got, r.Key)
				if r.Missing || r.Value != res.State()[r.Key] {
					t.Fatalf("workers %d: %s read %s = %v (missing %v); want %v", workers, cm.Path, r.Key, r.Value, r.Missing, res.State()[r.Key])
				}
			}
			// a key read twice is one read
			var uniq []string
			for _, k := range ks {
				if !slices.Contains(uniq, k) {
					uniq = append(uniq, k)
				}
			}
			if !slices.Equal(got, uniq) {
				t.Fatalf("workers %d: %s kept reads %v; it read %v", workers, cm.Path, got, uniq)
			}
			checked++
		}
		if want := 16 + 3 + 1 + 60 + 200; checked != want {
			t.Fatalf("workers %d: checked %d commits, want %d", workers, checked, want)
		}
	}
}
