package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// sawCommits is a recorder that notes what the run showed as it went: each
// commit's path and stage, and the reads and writes its stage made, the
// oracle a packed log's Commits must agree with.
type sawCommits struct {
	mu      sync.Mutex
	commits []sawCommit
	open    map[string]*sawCommit // by path, until its commit event
}

type sawCommit struct {
	path, stage string
	reads       []string // key=value
	writes      int
}

func (s *sawCommits) Record(e recorder.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open == nil {
		s.open = map[string]*sawCommit{}
	}
	c := s.open[e.Path]
	if c == nil {
		c = &sawCommit{path: e.Path, stage: e.StageID}
		s.open[e.Path] = c
	}
	switch e.Kind {
	case recorder.Read:
		c.reads = append(c.reads, fmt.Sprintf("%s=%v", e.Key, e.Value))
	case recorder.Commit:
		c.writes = e.Index
		s.commits = append(s.commits, *c)
		delete(s.open, e.Path)
	}
}

// packedChart is a chart nobody wrote for the packed log: a seed, a
// subflow, a parallel fork, a foreach wide enough to outgrow an arena's
// first chunks on every worker, a stage retried (its failed attempts
// discarded), a failure the run goes on past, deciders kept compact and a
// loop.
func packedChart(rng *rand.Rand) *flow.Chart {
	width := 20 + rng.IntN(300)
	flaky := 0
	sub := flow.New("sub").Stage("inner", func(ctx context.Context, s *flow.Scope) error {
		v, _ := s.Get("seed")
		s.Set("inner", fmt.Sprint(v))
		return nil
	})
	subChart, err := sub.Build()
	if err != nil {
		panic(err)
	}
	mark := func(v string) *flow.Builder {
		return flow.Seq().Stage("mark-"+v, func(ctx context.Context, s *flow.Scope) error {
			s.Set("verdict", v)
			return nil
		})
	}
	body := flow.Seq().Stage("load", func(ctx context.Context, s *flow.Scope) error {
		it := s.Value("item").(map[string]any)
		s.Set("used", it["used"])
		for k := range it["used"].(int) % 4 { // the rng is not the branches' to share
			s.Get(fmt.Sprintf("seed%d", k))
		}
		return nil
	}).Decide("posture", []decide.Rule{
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 90)), Then: "bad", Label: "full"},
		{When: rules.MustFilter(rules.Where("used", rules.OpGt, 70)), Then: "warn", Label: "filling"},
	}, decide.Default{Branch: "ok", Label: "room"}, []flow.Branch{
		{Name: "bad", Steps: mark("bad")}, {Name: "warn", Steps: mark("warn")}, {Name: "ok", Steps: mark("ok")},
	})
	items := make([]any, width)
	for i := range items {
		items[i] = map[string]any{"name": fmt.Sprintf("v%d", i), "used": rng.IntN(100)}
	}
	passes := 1 + rng.IntN(40)
	c, err := flow.New("packed").Stage("seed", func(ctx context.Context, s *flow.Scope) error {
		s.Set("seed", rng.IntN(1000))
		for k := range 3 {
			s.Set(fmt.Sprintf("seed%d", k), k)
		}
		s.Set("n", 0)
		return nil
	}).Subflow("mount", subChart, flow.Mount{Inputs: []flow.Binding{{Key: "seed", From: rules.Key("seed")}}, Outputs: []flow.Binding{{Key: "inner", From: rules.Key("inner")}}}).
		Parallel("both", []flow.Branch{
			{Name: "left", Steps: flow.Seq().Stage("l", func(ctx context.Context, s *flow.Scope) error { s.Set("left", 1); return nil })},
			{Name: "right", Steps: flow.Seq().Stage("r", func(ctx context.Context, s *flow.Scope) error { s.Set("right", 2); return nil })},
		}).
		ForEach("each", flow.ForEach{
			Items: func(ctx context.Context, s *flow.Scope) ([]any, error) { return items, nil },
			Body:  body, MaxBranches: width, As: "item", Into: "rows",
		}).
		Stage("flaky", func(ctx context.Context, s *flow.Scope) error {
			s.Set("try", flaky)
			if flaky++; flaky < 3 {
				return errors.New("not yet")
			}
			return nil
		}, flow.WithRetry(flow.RetryPolicy{Attempts: 3})).
		Stage("broken", func(ctx context.Context, s *flow.Scope) error { return errors.New("always") }, flow.ContinueOnError("")).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			v, _ := s.Get("n")
			s.Set("n", v.(int)+1)
			return nil
		}).
		Decide("again", []decide.Rule{{When: rules.MustFilter(rules.Where("n", rules.OpLt, passes)), Then: "more", Label: "more"}},
			decide.Default{Branch: "done", Label: "done"}, []flow.Branch{
				{Name: "more", Steps: flow.Seq().Loop("back", flow.Loop{To: "tick", Max: passes + 1})},
				{Name: "done", Steps: mark("done")},
			}).
		Build()
	if err != nil {
		panic(err)
	}
	return c
}

// TestPackedLogSpellsWhatTheRunSaw: a run keeps its log packed, numbers
// standing for its paths, stages, reads and writes, and spells it into
// Commits when asked. For charts nobody wrote for it — subflow, fork, a
// foreach whose workers fill many chunks, retries, a failure gone past,
// a loop — the spelled log says what the run showed its recorder as it
// went, commit for commit: path, stage, every read's key and value, the
// count of writes; indexes run 0…n-1, and a failed attempt is discarded
// with its error.
func TestPackedLogSpellsWhatTheRunSaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	for i := range 30 {
		c := packedChart(rng)
		saw := &sawCommits{}
		res, err := c.Run(context.Background(), flow.WithRecorders(saw))
		if err != nil {
			t.Fatalf("chart %d: %v", i, err)
		}
		cs := res.Log.Commits()
		if len(cs) != len(saw.commits) || len(cs) != res.Stages {
			t.Fatalf("chart %d: %d commits in the log, %d seen, %d stages", i, len(cs), len(saw.commits), res.Stages)
		}
		discarded, failed := 0, 0
		for j, got := range cs {
			want := saw.commits[j]
			var reads []string
			for _, r := range got.Reads {
				reads = append(reads, fmt.Sprintf("%s=%v", r.Key, r.Value))
			}
			if got.Index != j || got.Path != want.path || got.Stage != want.stage || len(got.Writes) != want.writes || !reflect.DeepEqual(reads, want.reads) {
				t.Fatalf("chart %d commit %d: the log says %d %s (%s) reads %v, %d writes; the run showed %s (%s) reads %v, %d writes",
					i, j, got.Index, got.Path, got.Stage, reads, len(got.Writes), want.path, want.stage, want.reads, want.writes)
			}
			if got.Discarded {
				discarded++
				if got.Err != "not yet" || got.Attempt == 0 {
					t.Fatalf("chart %d: discarded attempt %+v", i, got)
				}
			}
			if got.Stage == "broken" {
				failed++
				if got.Err != "always" {
					t.Fatalf("chart %d: the failure gone past reads %q", i, got.Err)
				}
			}
		}
		if discarded != 2 || failed != 1 {
			t.Fatalf("chart %d: %d discarded attempts, %d failures; want 2 and 1", i, discarded, failed)
		}
	}
}

// TestPackedLogIsSpelledOnceForEveryReader: the first Commits spells the
// log; every later call, on any copy of the Log and from any goroutine,
// gets the same commits (run with -race).
func TestPackedLogIsSpelledOnceForEveryReader(t *testing.T) {
	res, err := packedChart(rand.New(rand.NewPCG(1, 2))).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	copied := res.Log
	var wg sync.WaitGroup
	got := make([][]flow.Commit, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g%2 == 0 {
				got[g] = res.Log.Commits()
			} else {
				got[g] = copied.Commits()
			}
		}()
	}
	wg.Wait()
	for g := range got {
		if len(got[g]) == 0 || &got[g][0] != &got[0][0] {
			t.Fatalf("reader %d got another spelling of the log", g)
		}
	}
	got[0][0].Answer = &flow.Answer{Asked: "x"}
	if res.Log.Commits()[0].Answer == nil {
		t.Fatal("a change made through one reader's commits is not seen by the next")
	}
}

// TestLogReadBackFromItsJSON: a log written as JSON reads back into a Log
// whose JSON is the same bytes (the commits are behind a method now, so
// the encoding package alone would not fill them).
func TestLogReadBackFromItsJSON(t *testing.T) {
	res, err := packedChart(rand.New(rand.NewPCG(3, 4))).Run(context.Background(), flow.WithInputs(map[string]any{"limit": 3}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Log)
	if err != nil {
		t.Fatal(err)
	}
	var back flow.Log
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Commits()) != len(res.Log.Commits()) || back.Inputs["limit"] == nil {
		t.Fatalf("read back %d commits and inputs %v; wrote %d", len(back.Commits()), back.Inputs, len(res.Log.Commits()))
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(b, again) {
		t.Fatalf("the log read back writes other bytes:\n%s\n%s", b, again)
	}
}
