package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/openrunbook/runbook/flow"
)

// TestFanoutWorkersShareArenasSafely: the branches a fan-out worker runs
// one after another share its chunks and spare scope. A foreach whose
// items each run a subflow-free body with a nested foreach of one item
// (run on its caller's goroutine), of several (a pool of their own) and a
// parallel fork leaves the same log, byte for byte, whatever the number
// of workers — one worker running every branch, or many — and every
// branch's commits are its own.
func TestFanoutWorkersShareArenasSafely(t *testing.T) {
	inner := func(b *flow.Builder, id string, width int) *flow.Builder {
		return b.ForEach(id, flow.ForEach{
			Items: func(ctx context.Context, s *flow.Scope) ([]any, error) {
				out := make([]any, width)
				for i := range out {
					out[i] = fmt.Sprint(s.Value("item"), "/", i)
				}
				return out, nil
			},
			As: "sub", MaxBranches: width, Into: id + "-out",
			Body: flow.Seq().Stage(id+"-mark", func(ctx context.Context, s *flow.Scope) error {
				s.Set("seen", s.Value("sub"))
				s.Set("again", s.Value("sub"))
				return nil
			}),
		})
	}
	body := flow.Seq().
		Stage("load", func(ctx context.Context, s *flow.Scope) error {
			s.Set("name", fmt.Sprint("vol-", s.Value("item")))
			return nil
		})
	body = body.Stage("one", func(ctx context.Context, s *flow.Scope) error { s.Set("one", true); return nil })
	c, err := flow.New("nested").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			items := make([]any, 40)
			for i := range items {
				items[i] = i
			}
			s.Set("items", items)
			return nil
		}).
		ForEach("each", flow.ForEach{
			Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return s.Value("items").([]any), nil },
			MaxBranches: 40, Into: "results",
			Body: inner(inner(body, "single", 1), "triple", 3).
				Parallel("both", []flow.Branch{
					{Name: "left", Steps: flow.Seq().Stage("l", func(ctx context.Context, s *flow.Scope) error { s.Set("l", s.Value("name")); return nil })},
					{Name: "right", Steps: flow.Seq().Stage("r", func(ctx context.Context, s *flow.Scope) error { s.Set("r", s.Value("name")); return nil })},
				}),
		}).Build()
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, workers := range []int{1, 2, 8, 64} {
		for range 3 {
			res, err := c.Run(context.Background(), flow.WithConcurrency(workers))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(res.Log)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = got
				continue
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("with %d workers the log differs from one worker's", workers)
			}
		}
	}
}
