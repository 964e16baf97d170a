package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// goid is the calling goroutine's number, read from its stack header
// ("goroutine 7 [running]:"): the one way to tell which goroutine ran a
// stage body.
func goid() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	if len(f) < 2 {
		return "?"
	}
	return f[1]
}

// inlineChart is a chart that would start goroutines in a default run: a
// stage with a timeout (its body on its own goroutine) and a foreach of
// several branches (a pool), each branch writing a key of its own, and
// an empty foreach.
func inlineChart(t *testing.T, seen func(item any)) *flow.Chart {
	t.Helper()
	body := flow.Seq().Stage("probe", func(_ context.Context, s *flow.Scope) error {
		seen(s.Value("item"))
		s.Set(fmt.Sprintf("probed-%v", s.Value("item")), s.Value("item"))
		return nil
	}, flow.Timeout(time.Minute))
	return mustBuild(t, flow.New("inline").
		Stage("start", func(_ context.Context, s *flow.Scope) error {
			seen("start")
			s.Set("n", 1)
			return nil
		}, flow.Timeout(time.Minute)).
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{0, 1, 2, 3, 4, 5})), As: "item", MaxBranches: 10, Body: body}).
		// No items: no branch, and no pool of no goroutines either.
		ForEach("none", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{})), As: "item", MaxBranches: 10, Body: flow.Seq().Stage("never", func(context.Context, *flow.Scope) error { return nil })}))
}

// TestInlineStartsNoGoroutine is WithInline's promise, which the Temporal
// executor rests on (a workflow's code may not start goroutines): every
// stage body, in every foreach branch, with a stage timeout and a context
// that can be cancelled, runs on the goroutine that called Run, one after
// another in declaration order.
func TestInlineStartsNoGoroutine(t *testing.T) {
	var mu sync.Mutex
	var ids, order []string
	c := inlineChart(t, func(item any) {
		mu.Lock()
		defer mu.Unlock()
		ids = append(ids, goid())
		order = append(order, fmt.Sprint(item))
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.Run(ctx, flow.WithInline()); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 7 {
		t.Fatalf("%d stage bodies ran, want 7", len(ids))
	}
	for i, id := range ids {
		if id != goid() {
			t.Errorf("stage body %d ran on goroutine %s, not the caller's %s", i, id, goid())
		}
	}
	if got := strings.Join(order, " "); got != "start 0 1 2 3 4 5" {
		t.Errorf("stage bodies ran in the order %s, want start 0 1 2 3 4 5", got)
	}
}

// TestInlineRecordsAsDefault: an inline run's log is byte for byte a
// default (concurrent) run's, for a chart with a foreach, since branch
// order never changes the record.
func TestInlineRecordsAsDefault(t *testing.T) {
	c := inlineChart(t, func(any) {})
	logOf := func(opts ...flow.RunOption) []byte {
		res, err := c.Run(context.Background(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res.Log)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	inline := logOf(flow.WithInline())
	for range 5 {
		if def := logOf(); !bytes.Equal(def, inline) {
			t.Fatalf("the inline run's log differs from a default run's:\ninline  %s\ndefault %s", inline, def)
		}
	}
}

type branchKey struct{}

// TestFanoutIsTheHosts: with WithFanout, a host runs a fan-out's branches
// its own way — here on the caller's goroutine, last branch first — and
// the context it hands a branch is the one its stage bodies see; the log
// is still a default run's, byte for byte.
func TestFanoutIsTheHosts(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	c := mustBuild(t, flow.New("fanout").
		ForEach("each", flow.ForEach{Items: flow.ItemsOf(rules.Literal([]any{0, 1, 2, 3})), As: "item", MaxBranches: 10,
			Body: flow.Seq().Stage("probe", func(ctx context.Context, s *flow.Scope) error {
				mu.Lock()
				seen = append(seen, fmt.Sprintf("%v@%v", s.Value("item"), ctx.Value(branchKey{})))
				mu.Unlock()
				s.Set("probed", true)
				return nil
			})}))
	var calls []int
	reverse := func(ctx context.Context, n int, work func(context.Context, int)) {
		calls = append(calls, n)
		for i := n - 1; i >= 0; i-- {
			work(context.WithValue(ctx, branchKey{}, i), i)
		}
	}
	hosted, err := c.Run(context.Background(), flow.WithInline(), flow.WithFanout(reverse))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, " "); got != "3@3 2@2 1@1 0@0" || fmt.Sprint(calls) != "[4]" {
		t.Errorf("the host ran %v fan-outs, branches as %s; want [4], 3@3 2@2 1@1 0@0", calls, got)
	}
	def, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(hosted.Log)
	b, _ := json.Marshal(def.Log)
	if !bytes.Equal(a, b) {
		t.Errorf("the hosted fan-out's log differs from a default run's:\nhosted  %s\ndefault %s", a, b)
	}
}

// hostDeadline is a run context a test ends by hand, as a Temporal
// workflow's timer ends one: Err is context.DeadlineExceeded once ended.
type hostDeadline struct {
	done chan struct{}
	err  error
}

func (h *hostDeadline) Deadline() (time.Time, bool) { return time.Time{}, false }
func (h *hostDeadline) Done() <-chan struct{}       { return h.done }
func (h *hostDeadline) Err() error                  { return h.err }
func (h *hostDeadline) Value(any) any               { return nil }
func (h *hostDeadline) fire() {
	h.err = context.DeadlineExceeded
	close(h.done)
}

// TestDeadlineIsTheHostsClock: with WithDeadline, a run's timeout is the
// host's context, not the wall clock's; when it ends while an inline stage
// runs, the run fails at that stage as a concurrent run's watch says it
// (cancelled while this stage ran, the deadline its cause), and the next
// stage never starts.
func TestDeadlineIsTheHostsClock(t *testing.T) {
	h := &hostDeadline{done: make(chan struct{})}
	var asked []time.Duration
	deadline := func(_ context.Context, d time.Duration) (context.Context, context.CancelFunc) {
		asked = append(asked, d)
		return h, func() {}
	}
	ran := map[string]bool{}
	c := mustBuild(t, flow.New("host-clock").
		Stage("slow", func(_ context.Context, s *flow.Scope) error {
			ran["slow"] = true
			h.fire() // the host's timer fires while the stage waits on its host
			return nil
		}).
		Stage("after", func(context.Context, *flow.Scope) error {
			ran["after"] = true
			return nil
		}))
	res, err := c.Run(context.Background(), flow.WithInline(), flow.WithTimeout(time.Hour), flow.WithDeadline(deadline))
	if res == nil || err == nil {
		t.Fatalf("result %v, error %v; want a cancelled run's result and its error", res, err)
	}
	if len(asked) != 1 || asked[0] != time.Hour {
		t.Errorf("the host's deadline was asked for %v; want once, for the run's 1h", asked)
	}
	if res.Status != flow.StatusCancelled || res.Err == nil || res.Err.Stage != "slow" ||
		res.Err.Message != "the run timed out while this stage ran: context deadline exceeded" {
		t.Errorf("status %s, error %+v; want cancelled at slow, while it ran, by the deadline", res.Status, res.Err)
	}
	if !ran["slow"] || ran["after"] {
		t.Errorf("ran %v; want slow only", ran)
	}
	// No timeout, no deadline asked for.
	asked, h = nil, &hostDeadline{done: make(chan struct{})}
	if _, err := c.Run(context.Background(), flow.WithInline(), flow.WithDeadline(deadline)); err != nil || len(asked) != 0 {
		t.Errorf("without a timeout the deadline was asked for %v (err %v); want never", asked, err)
	}
}
