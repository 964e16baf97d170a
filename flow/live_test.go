package flow_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// seen counts what a recorder was handed, safely across goroutines.
type seen struct {
	mu        sync.Mutex
	ends      int      // BranchEnd
	starts    []string // StageStart stage ids
	panicking bool
}

func (s *seen) Record(e recorder.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.panicking {
		panic("a display that breaks")
	}
	switch e.Kind {
	case recorder.BranchEnd:
		s.ends++
	case recorder.StageStart:
		s.starts = append(s.starts, e.StageID)
	}
}

func (s *seen) count() (int, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ends, append([]string(nil), s.starts...)
}

// TestLiveRecordersSeeBranchesAsTheyEnd: a live recorder hears of each
// foreach item's end and each stage's start while the foreach still runs;
// a WithRecorders recorder hears of them only at the join (the buffer that
// kept the progress line at "branches 0/146" for a whole run, issue 15).
func TestLiveRecordersSeeBranchesAsTheyEnd(t *testing.T) {
	t.Parallel()
	live, buffered := &seen{}, &seen{}
	var mu sync.Mutex
	var during []string // per item: what each recorder had seen when it began
	body := flow.Seq().Stage("probe", func(_ context.Context, s *flow.Scope) error {
		le, ls := live.count()
		be, _ := buffered.count()
		mu.Lock()
		during = append(during, fmt.Sprintf("item %v: live ends %d, live saw probe %v, buffered ends %d", s.Value("item"), le, contains(ls, "probe"), be))
		mu.Unlock()
		return nil
	})
	c := mustBuild(t, flow.New("live").
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{0, 1, 2})), As: "item", MaxBranches: 5, Body: body}))
	run(t, c, flow.WithConcurrency(1), flow.WithLiveRecorders(live), flow.WithRecorders(buffered))
	want := []string{
		"item 0: live ends 0, live saw probe true, buffered ends 0",
		"item 1: live ends 1, live saw probe true, buffered ends 0",
		"item 2: live ends 2, live saw probe true, buffered ends 0",
	}
	if fmt.Sprint(during) != fmt.Sprint(want) {
		t.Errorf("while the foreach ran:\n%q\nwant\n%q", during, want)
	}
	// Each event once: the join does not hand the live recorder the
	// branches' events again; the buffered one gets them all at the end.
	if le, _ := live.count(); le != 3 {
		t.Errorf("live recorder saw %d branch ends, want 3", le)
	}
	if be, _ := buffered.count(); be != 3 {
		t.Errorf("buffered recorder saw %d branch ends, want 3", be)
	}
}

// TestLiveRecorderPanicDoesNotBreakTheRun: a live recorder is a recorder:
// one that panics is detached and reported, and the run goes on.
func TestLiveRecorderPanicDoesNotBreakTheRun(t *testing.T) {
	t.Parallel()
	bad := &seen{panicking: true}
	c := mustBuild(t, flow.New("live").
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{0, 1})), As: "item", MaxBranches: 5, Body: flow.Seq().Stage("n", noop)}))
	res := run(t, c, flow.WithLiveRecorders(bad))
	if res.Status != flow.StatusCompleted {
		t.Fatalf("status %v, want completed", res.Status)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLiveRecordersAreFlushed: a live recorder that buffers (NDJSON, whose
// doc says the engine calls Flush) was never flushed, so a run's whole
// event stream stayed in its buffer and never reached the writer; a
// recorder attached with WithRecorders got every line.
func TestLiveRecordersAreFlushed(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, flow.New("live").Stage("n", noop))
	var live, buffered strings.Builder
	run(t, c, flow.WithLiveRecorders(recorder.NewNDJSON(&live)), flow.WithRecorders(recorder.NewNDJSON(&buffered)))
	if buffered.Len() == 0 {
		t.Fatal("the buffered recorder wrote nothing")
	}
	if live.String() != buffered.String() {
		t.Errorf("the live NDJSON recorder wrote %q; the buffered one %q", live.String(), buffered.String())
	}
}
