package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

func set(kv ...any) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		for i := 0; i < len(kv); i += 2 {
			s.Set(kv[i].(string), kv[i+1])
		}
		return nil
	}
}

func noop(context.Context, *flow.Scope) error { return nil }

func mustBuild(t testing.TB, b *flow.Builder) *flow.Chart {
	t.Helper()
	c, err := b.Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return c
}

// verdicts is the key the tests' charts append rows to; run gathers it.
const verdicts = "verdicts"

func run(t testing.TB, c *flow.Chart, opts ...flow.RunOption) *flow.Result {
	t.Helper()
	res, err := c.Run(context.Background(), append(opts, flow.WithGather(verdicts))...)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

func filter(key string, op rules.Op, v any) rules.Predicate {
	return rules.MustFilter(rules.Where(key, op, v))
}

// kinds collects event kinds, for tests that assert what a recorder saw.
type kinds struct{ events []recorder.Event }

func (k *kinds) Record(e recorder.Event) { k.events = append(k.events, e) }

func TestScopeTracksReadsAndCommitsNetWrites(t *testing.T) {
	c := mustBuild(t, flow.New("net").
		Stage("a", set("x", 1, "y", "keep")).
		Stage("b", func(ctx context.Context, s *flow.Scope) error {
			x, _ := s.Get("x")
			s.Set("y", "keep") // same value: no net change
			s.Set("x", 1)      // same value again
			s.Set("z", x)
			if v, _ := s.Get("z"); v != 1 { // read-your-writes
				return fmt.Errorf("read-your-writes gave %v", v)
			}
			return nil
		}).
		Stage("empty", noop))
	res := run(t, c)
	if got := len(res.Log.Commits()); got != 3 {
		t.Fatalf("commits = %d, want 3 (one per stage execution, empty included)", got)
	}
	b := res.Log.Commits()[1]
	if b.Path != "b#1" || b.Stage != "b" {
		t.Errorf("path = %q stage %q", b.Path, b.Stage)
	}
	if len(b.Writes) != 1 || b.Writes[0].Key != "z" || b.Writes[0].ReadsBefore != 1 {
		t.Errorf("writes = %+v, want only z, after 1 read", b.Writes)
	}
	if len(b.Reads) != 1 || b.Reads[0].Key != "x" || b.Reads[0].Writer != "a#0" || b.Reads[0].Value != 1 {
		t.Errorf("reads = %+v, want x written by a#0", b.Reads)
	}
	if len(res.Log.Commits()[2].Writes) != 0 {
		t.Errorf("empty stage wrote %+v", res.Log.Commits()[2].Writes)
	}
	want := map[string]any{"x": 1, "y": "keep", "z": 1}
	if !reflect.DeepEqual(res.State(), want) {
		t.Errorf("state = %v, want %v", res.State(), want)
	}
}

func TestStagedWritesInvisibleToParallelSiblings(t *testing.T) {
	var sawOther atomic.Bool
	c := mustBuild(t, flow.New("iso").
		Stage("seed", set("n", 0)).
		Parallel("fork", []flow.Branch{
			{Name: "a", Steps: flow.Seq().Stage("wa", set("a", 1))},
			{Name: "b", Steps: flow.Seq().Stage("wb", func(ctx context.Context, s *flow.Scope) error {
				if _, ok := s.Get("a"); ok {
					sawOther.Store(true)
				}
				s.Set("b", 2)
				return nil
			})},
		}))
	res := run(t, c)
	if sawOther.Load() {
		t.Error("branch b saw branch a's write")
	}
	if res.State()["a"] != 1 || res.State()["b"] != 2 {
		t.Errorf("state = %v", res.State())
	}
}

func TestFailedStageCommitsWhatItWrote(t *testing.T) {
	c := mustBuild(t, flow.New("fail").
		Stage("a", func(ctx context.Context, s *flow.Scope) error {
			s.Set("partial", true)
			return errors.New("disk unreadable")
		}).
		Stage("never", set("x", 1)))
	res, err := c.Run(context.Background())
	if err == nil || res.Status != flow.StatusFailed {
		t.Fatalf("status = %v err = %v", res.Status, err)
	}
	if res.Err.Path != "a#0" || res.Err.Stage != "a" || !strings.Contains(res.Err.Message, "disk unreadable") {
		t.Errorf("err = %+v", res.Err)
	}
	if res.State()["partial"] != true {
		t.Error("the failed stage's write was rolled back")
	}
	if len(res.Log.Commits()) != 1 || res.Log.Commits()[0].Err == "" {
		t.Errorf("log = %+v", res.Log.Commits())
	}
	if _, ok := res.State()["x"]; ok {
		t.Error("a stage after the failure ran")
	}
}

func TestRetryDiscardsFailedAttempts(t *testing.T) {
	tries := 0
	c := mustBuild(t, flow.New("retry").
		Stage("flaky", func(ctx context.Context, s *flow.Scope) error {
			tries++
			s.Set("attempt", tries)
			if tries < 3 {
				s.Set("junk", tries)
				return fmt.Errorf("try %d failed", tries)
			}
			return nil
		}, flow.WithRetry(flow.RetryPolicy{Attempts: 4, Backoff: time.Millisecond})))
	rec := &kinds{}
	res := run(t, c, flow.WithRecorders(rec))
	if tries != 3 {
		t.Fatalf("tries = %d", tries)
	}
	if len(res.Log.Commits()) != 3 {
		t.Fatalf("commits = %d, want one per attempt", len(res.Log.Commits()))
	}
	for i, cm := range res.Log.Commits()[:2] {
		if !cm.Discarded || cm.Attempt != i+1 || cm.Err == "" {
			t.Errorf("attempt %d commit = %+v", i+1, cm)
		}
	}
	if _, ok := res.State()["junk"]; ok {
		t.Error("a discarded attempt's write reached the state")
	}
	if res.State()["attempt"] != 3 {
		t.Errorf("state = %v", res.State())
	}
	retries := 0
	for _, e := range rec.events {
		if e.Kind == recorder.Retry {
			retries++
		}
	}
	if retries != 2 {
		t.Errorf("retry events = %d, want 2", retries)
	}
}

func TestRetryLastAttemptFailsLikeAStage(t *testing.T) {
	c := mustBuild(t, flow.New("retry").
		Stage("bad", func(ctx context.Context, s *flow.Scope) error {
			s.Set("last", true)
			return errors.New("nope")
		}, flow.WithRetry(flow.RetryPolicy{Attempts: 2})))
	res, err := c.Run(context.Background())
	if err == nil || res.Status != flow.StatusFailed {
		t.Fatalf("status %v", res.Status)
	}
	if res.State()["last"] != true {
		t.Error("the last attempt's writes must commit")
	}
	if res.Err.Path != "bad#1" {
		t.Errorf("failure path = %q", res.Err.Path)
	}
}

func TestPanicIsTheStagesFailure(t *testing.T) {
	c := mustBuild(t, flow.New("panic").Stage("boom", func(ctx context.Context, s *flow.Scope) error {
		panic("unexpected state")
	}))
	res, err := c.Run(context.Background())
	if err == nil || res.Status != flow.StatusFailed {
		t.Fatal("a panic did not fail the run")
	}
	if !strings.Contains(res.Err.Message, "panicked") || !strings.Contains(res.Err.Stack, "run_test.go") {
		t.Errorf("err = %q stack has no frame of the stage", res.Err.Message)
	}
}

func diskDecider(b *flow.Builder) *flow.Builder {
	return b.Decide("posture", []decide.Rule{
		{When: filter("used", rules.OpGt, 95), Then: "critical", Label: "Almost full"},
		{When: filter("used", rules.OpGt, 80), Then: "warning", Label: "Filling"},
	}, decide.Default{Branch: "ok", Label: "No rule fired"}, []flow.Branch{
		{Name: "critical", Steps: flow.Seq().Stage("c", set("verdict", "critical"))},
		{Name: "warning", Description: "Over 80%", Steps: flow.Seq().Stage("w", set("verdict", "warning"))},
		{Name: "ok", Steps: flow.Seq().Stage("o", set("verdict", "ok"))},
	}, flow.Name("Disk posture"))
}

func TestDecideFirstMatchWithLabelledDefaultOnEveryDecision(t *testing.T) {
	for _, tc := range []struct {
		used    int
		verdict string
		rules   int
	}{{99, "critical", 1}, {90, "warning", 2}, {10, "ok", 2}} {
		t.Run(tc.verdict, func(t *testing.T) {
			c := mustBuild(t, diskDecider(flow.New("d").Stage("seed", set("used", tc.used))))
			res := run(t, c)
			if res.State()["verdict"] != tc.verdict {
				t.Fatalf("verdict = %v", res.State()["verdict"])
			}
			ev := res.Log.Commits()[1].Evidence()
			if ev == nil || len(ev.Rules) != tc.rules || ev.Chosen[0] != tc.verdict {
				t.Fatalf("evidence = %+v", ev)
			}
			if ev.Default == nil || ev.Default.Label != "No rule fired" {
				t.Errorf("default label missing from a decision: %+v", ev.Default)
			}
			if r := res.Log.Commits()[1].Reads; len(r) != 1 || r[0].Key != "used" || r[0].Writer != "seed#0" {
				t.Errorf("decider reads = %+v", r)
			}
		})
	}
}

func TestGoDeciderChoosingUnknownBranchFails(t *testing.T) {
	c := mustBuild(t, flow.New("d").DecideFunc("pick", func(ctx context.Context, s *flow.Scope) (decide.Evidence, error) {
		return decide.Evidence{Kind: decide.KindDecide, Chosen: []string{"nowhere"}}, nil
	}, []flow.Branch{{Name: "here"}}, flow.Name("Picker")))
	res, err := c.Run(context.Background())
	if err == nil || !strings.Contains(res.Err.Message, `"nowhere"`) || !strings.Contains(res.Err.Message, "Picker") || res.Err.Path != "pick#0" {
		t.Fatalf("err = %v", err)
	}
}

func TestSelectRunsEveryMatchAndZeroIsFine(t *testing.T) {
	build := func() *flow.Chart {
		return mustBuild(t, flow.New("s").Stage("seed", func(ctx context.Context, s *flow.Scope) error { return nil }).
			Select("checks", []decide.Rule{
				{When: filter("cpu", rules.OpGt, 90), Then: "cpu", Label: "Hot CPU"},
				{When: filter("mem", rules.OpGt, 90), Then: "mem", Label: "Low memory"},
			}, []flow.Branch{
				{Name: "cpu", Steps: flow.Seq().Stage("c", set("cpuAlert", true))},
				{Name: "mem", Steps: flow.Seq().Stage("m", set("memAlert", true))},
			}))
	}
	res := run(t, build(), flow.WithInputs(map[string]any{"cpu": 95, "mem": 99}))
	if res.State()["cpuAlert"] != true || res.State()["memAlert"] != true {
		t.Errorf("state = %v", res.State())
	}
	if ev := res.Log.Commits()[1].Evidence(); len(ev.Rules) != 2 || !reflect.DeepEqual(ev.Chosen, []string{"cpu", "mem"}) {
		t.Errorf("evidence = %+v", ev)
	}
	res = run(t, build(), flow.WithInputs(map[string]any{"cpu": 1, "mem": 1}))
	if _, ok := res.State()["cpuAlert"]; ok || res.Status != flow.StatusCompleted {
		t.Errorf("zero selected: %v %v", res.Status, res.State())
	}
}

func TestParallelMergeConflictNamesBothBranches(t *testing.T) {
	c := mustBuild(t, flow.New("p").Parallel("fork", []flow.Branch{
		{Name: "left", Steps: flow.Seq().Stage("l", set("owner", "left", "same", 1))},
		{Name: "right", Steps: flow.Seq().Stage("r", set("owner", "right", "same", 1))},
	}))
	res, err := c.Run(context.Background())
	if err == nil {
		t.Fatal("conflicting writes were merged silently")
	}
	for _, want := range []string{`"left"`, `"right"`, `"owner"`} {
		if !strings.Contains(res.Err.Message, want) {
			t.Errorf("error %q does not name %s", res.Err.Message, want)
		}
	}
	// The branches' commits are still on the record.
	if _, ok := res.Log.Find("fork~left/l#1"); !ok {
		t.Errorf("branch commit lost: %+v", res.Log.Commits())
	}
}

func TestParallelSameValueAndVerdictRowsGatherInDeclarationOrder(t *testing.T) {
	row := func(name string, d time.Duration) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) error {
			time.Sleep(d) // finish in reverse order
			rows, _ := s.Value(verdicts).([]any)
			s.Set(verdicts, append(append([]any{}, rows...), name))
			s.Set("same", true)
			return nil
		}
	}
	c := mustBuild(t, flow.New("p").Stage("seed", set(verdicts, []any{"first"})).Parallel("fork", []flow.Branch{
		{Name: "a", Steps: flow.Seq().Stage("ra", row("a", 20*time.Millisecond))},
		{Name: "b", Steps: flow.Seq().Stage("rb", row("b", 10*time.Millisecond))},
		{Name: "c", Steps: flow.Seq().Stage("rc", row("c", 0))},
	}))
	res := run(t, c)
	if got := res.State()[verdicts]; !reflect.DeepEqual(got, []any{"first", "a", "b", "c"}) {
		t.Errorf("verdicts = %v, want declaration order", got)
	}
	var paths []string
	for _, cm := range res.Log.Commits() {
		paths = append(paths, cm.Path)
	}
	want := []string{"seed#0", "fork#1", "fork~a/ra#2", "fork~b/rb#2", "fork~c/rc#2", "fork#3"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("log order = %v, want %v", paths, want)
	}
}

func subjects(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"name": fmt.Sprintf("vol-%d", i), "used": (i * 37) % 100, "replicas": i % 4}
	}
	return out
}

func perSubject(max int) *flow.Builder {
	body := flow.Seq().
		Stage("load", func(ctx context.Context, s *flow.Scope) error {
			it := s.Value("item").(map[string]any)
			s.Set("subject", it["name"])
			s.Set("used", it["used"])
			s.Set("replicas", it["replicas"])
			return nil
		}).
		Decide("posture", []decide.Rule{
			{When: filter("replicas", rules.OpLt, 1), Then: "unprotected", Label: "No replica"},
			{When: filter("used", rules.OpGt, 90), Then: "at-risk", Label: "Nearly full"},
			{When: filter("replicas", rules.OpGte, 2), Then: "protected", Label: "Two or more replicas"},
		}, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}, []flow.Branch{
			{Name: "unprotected", Steps: flow.Seq().Stage("u", verdictRow("unprotected"))},
			{Name: "at-risk", Steps: flow.Seq().Stage("r", verdictRow("at-risk"))},
			{Name: "protected", Steps: flow.Seq().Stage("p", verdictRow("protected"))},
			{Name: "declined", Steps: flow.Seq().Stage("d", verdictRow("declined"))},
		}, flow.Name("Protection posture"))
	return flow.New("fanout").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error { return nil }).
		ForEach("per-subject", flow.ForEach{
			Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return s.Value("subjects").([]any), nil },
			MaxBranches: max, Into: "results", Body: body,
		})
}

func verdictRow(v string) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		rows, _ := s.Value(verdicts).([]any)
		s.Set(verdicts, append(append([]any{}, rows...), map[string]any{"subject": s.Value("subject"), "verdict": v}))
		return nil
	}
}

func TestForEachGathersInItemOrder(t *testing.T) {
	rec := &kinds{}
	res := run(t, mustBuild(t, perSubject(10)), flow.WithInputs(map[string]any{"subjects": subjects(12)}), flow.WithRecorders(rec))
	rows := res.State()[verdicts].([]any)
	if len(rows) != 10 {
		t.Fatalf("rows = %d, want 10 (maxBranches)", len(rows))
	}
	for i, r := range rows {
		if r.(map[string]any)["subject"] != fmt.Sprintf("vol-%d", i) {
			t.Fatalf("row %d = %v: not item order", i, r)
		}
	}
	results := res.State()["results"].([]any)
	if len(results) != 10 || results[3].(map[string]any)["index"] != 3 || results[3].(map[string]any)["subject"] != "vol-3" {
		t.Errorf("results[3] = %v", results[3])
	}
	if _, ok := results[3].(map[string]any)[verdicts]; ok {
		t.Error("into results carry the verdict rows")
	}
	if len(res.Truncations) != 1 || res.Truncations[0].Items != 12 || res.Truncations[0].MaxBranches != 10 {
		t.Errorf("truncations = %+v", res.Truncations)
	}
	if _, ok := res.Log.Find("per-subject~3/posture#3"); !ok {
		t.Error("no commit at per-subject~3/posture#3")
	}
	var deciders []string
	for _, e := range rec.events {
		if e.Kind == recorder.Decision {
			deciders = append(deciders, e.Subflow+"/"+e.StageName)
		}
	}
	if len(deciders) != 10 || deciders[3] != "per-subject~3/Protection posture" {
		t.Errorf("decision events = %v", deciders)
	}
	if _, ok := res.State()["subject"]; ok {
		t.Error("a branch write leaked into the parent scope")
	}
}

// A loop that runs a fan-out again must not repeat a runtime path: branch
// counters continue from the parent's, and the parent takes up the highest.
func TestRuntimePathsUniqueWhenALoopRepeatsAFanOut(t *testing.T) {
	c := mustBuild(t, flow.New("again").
		Stage("seed", set("n", 0)).
		ForEach("each", flow.ForEach{
			Items:       func(ctx context.Context, s *flow.Scope) ([]any, error) { return []any{1, 2}, nil },
			MaxBranches: 2,
			Body:        flow.Seq().Stage("a", noop).Stage("b", noop),
		}).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", s.Value("n").(int)+1)
			return nil
		}).
		Loop("back", flow.Loop{To: "each", While: filter("n", rules.OpLt, 3)}))
	res := run(t, c)
	seen := map[string]bool{}
	for _, cm := range res.Log.Commits() {
		if seen[cm.Path] {
			t.Fatalf("runtime path %s repeats", cm.Path)
		}
		seen[cm.Path] = true
	}
	if len(seen) < 3*(2*2+3) {
		t.Errorf("only %d commits", len(seen))
	}
}

func TestForEachOfNothing(t *testing.T) {
	res := run(t, mustBuild(t, perSubject(10)), flow.WithInputs(map[string]any{"subjects": []any{}}))
	if got := res.State()["results"]; !reflect.DeepEqual(got, []any{}) {
		t.Errorf("results = %#v, want an empty list", got)
	}
}

func TestForEachTenThousandWithDefaults(t *testing.T) {
	res := run(t, mustBuild(t, perSubject(10000)), flow.WithInputs(map[string]any{"subjects": subjects(10000)}))
	if n := len(res.State()[verdicts].([]any)); n != 10000 {
		t.Fatalf("rows = %d", n)
	}
}

// record is everything of a run that must not depend on scheduling.
func record(t testing.TB, res *flow.Result, rec *kinds) string {
	t.Helper()
	for i := range rec.events {
		rec.events[i].Elapsed = 0
	}
	b, err := json.Marshal(struct {
		Log    flow.Log
		State  map[string]any
		Events []recorder.Event
	}{res.Log, res.State(), rec.events})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRecordsAreDeterministicAcrossScheduling(t *testing.T) {
	c := mustBuild(t, perSubject(300))
	in := map[string]any{"subjects": subjects(300)}
	var first string
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		for i := 0; i < 20; i++ {
			rec := &kinds{}
			got := record(t, run(t, c, flow.WithInputs(in), flow.WithRecorders(rec)), rec)
			if first == "" {
				first = got
			} else if got != first {
				runtime.GOMAXPROCS(old)
				t.Fatalf("GOMAXPROCS=%d run %d: record differs", procs, i)
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

func loopChart(bound, max int) *flow.Chart {
	return mustBuildNoT(flow.New("loop").
		Stage("seed", set("n", 0)).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", s.Value("n").(int)+1)
			return nil
		}).
		Loop("again", flow.Loop{To: "tick", While: filter("n", rules.OpLt, bound), Max: max}))
}

func mustBuildNoT(b *flow.Builder) *flow.Chart {
	c, err := b.Build()
	if err != nil {
		panic(err)
	}
	return c
}

func TestLoopRunsUntilConditionAndFailsAtItsBound(t *testing.T) {
	res := run(t, loopChart(50, 100))
	if res.State()["n"] != 50 {
		t.Errorf("n = %v", res.State()["n"])
	}
	res, err := loopChart(5000, 10).Run(context.Background())
	if err == nil || res.Status != flow.StatusFailed {
		t.Fatal("a loop past its bound did not fail")
	}
	if !strings.Contains(res.Err.Message, `"again"`) || !strings.Contains(res.Err.Message, "10") {
		t.Errorf("error %q does not name the loop and bound", res.Err.Message)
	}
	// Passes do not count as nesting.
	res = run(t, loopChart(3000, 5000), flow.WithMaxDepth(2))
	if res.State()["n"] != 3000 {
		t.Errorf("n = %v", res.State()["n"])
	}
}

// TestCancellationStopsBetweenAndDuringStages: a stage that ignores its
// ended context is abandoned at the grace, and what it writes after that
// never commits. (The stage writes once the run has returned, not after
// a sleep: under a load of 20 a 20 ms sleep ended before the runner saw
// the 1 ms grace pass, and the test read a late write as committed.)
func TestCancellationStopsBetweenAndDuringStages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	returned, late := make(chan struct{}), make(chan struct{})
	c := mustBuild(t, flow.New("cancel").
		Stage("first", set("a", 1)).
		Stage("slow", func(ctx context.Context, s *flow.Scope) error {
			s.Set("early", true)
			cancel()
			<-returned // ignores its context past the grace
			s.Set("late", true)
			close(late)
			return nil
		}).
		Stage("never", set("b", 1)))
	res, err := c.Run(ctx, flow.WithAbandonGrace(time.Millisecond))
	close(returned)
	if err == nil || res.Status != flow.StatusCancelled || res.Err.Path != "slow#1" {
		t.Fatalf("status %v err %+v", res.Status, res.Err)
	}
	<-late
	if res.State()["early"] != true {
		t.Error("a write made before cancellation was lost")
	}
	if _, ok := res.State()["late"]; ok {
		t.Error("an abandoned stage's late write committed")
	}
	if _, ok := res.State()["b"]; ok {
		t.Error("a stage after cancellation ran")
	}
}

// A stage that honours cancellation gets the grace to settle (an exec stage
// stopping its processes): what it wrote then commits, and the run names it.
func TestCancelledStageThatReturnsWithinTheGraceCommits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := mustBuild(t, flow.New("grace").
		Stage("cleanup", func(ctx context.Context, s *flow.Scope) error {
			cancel()
			<-ctx.Done()
			time.Sleep(10 * time.Millisecond) // stopping a process group
			s.Set("stopped", true)
			return nil
		}).
		Stage("never", set("b", 1)))
	res, err := c.Run(ctx)
	if err == nil || res.Status != flow.StatusCancelled || res.Err.Stage != "cleanup" {
		t.Fatalf("status %v err %+v", res.Status, res.Err)
	}
	if res.State()["stopped"] != true {
		t.Error("a write made within the grace was lost")
	}
	if _, ok := res.State()["b"]; ok {
		t.Error("a stage after cancellation ran")
	}
}

func TestStageTimeoutFailsTheStage(t *testing.T) {
	c := mustBuild(t, flow.New("t").Stage("hang", func(ctx context.Context, s *flow.Scope) error {
		<-ctx.Done()
		return ctx.Err()
	}, flow.Timeout(10*time.Millisecond)))
	res, err := c.Run(context.Background())
	if err == nil || res.Status != flow.StatusFailed || !errors.Is(err, flow.ErrStageTimeout) {
		t.Fatalf("status %v err %v", res.Status, err)
	}
}

func TestRunTimeoutCancels(t *testing.T) {
	c := mustBuild(t, flow.New("t").Stage("hang", func(ctx context.Context, s *flow.Scope) error {
		<-ctx.Done()
		return ctx.Err()
	}))
	res, _ := c.Run(context.Background(), flow.WithTimeout(10*time.Millisecond))
	if res.Status != flow.StatusCancelled || res.Err.Stage != "hang" {
		t.Fatalf("status %v err %+v", res.Status, res.Err)
	}
}

func TestSubflowInheritAndIsolatedMounts(t *testing.T) {
	inner := mustBuild(t, flow.New("inner").Stage("double", func(ctx context.Context, s *flow.Scope) error {
		s.Set("out", s.Value("in").(int)*2)
		return nil
	}))
	c := mustBuild(t, flow.New("outer").
		Stage("seed", set("in", 4)).
		Subflow("inherit", inner, flow.Mount{}).
		Subflow("isolated", inner, flow.Mount{
			Inputs:  []flow.Binding{{Key: "in", From: rules.Literal(10)}},
			Outputs: []flow.Binding{{Key: "isoOut", From: rules.Key("out")}},
		}))
	res := run(t, c)
	if res.State()["out"] != 8 || res.State()["isoOut"] != 20 {
		t.Errorf("state = %v", res.State())
	}
	if _, ok := res.Log.Find("inherit/double#2"); !ok {
		t.Errorf("no commit at inherit/double#2: %+v", res.Log.Commits())
	}
}

func TestNestingBound(t *testing.T) {
	c := mustBuild(t, flow.New("leaf").Stage("x", set("x", 1)))
	for i := 0; i < 12; i++ {
		c = mustBuild(t, flow.New(fmt.Sprintf("lvl%d", i)).Subflow("m", c, flow.Mount{}))
	}
	if _, err := c.Run(context.Background(), flow.WithMaxDepth(5)); err == nil || !strings.Contains(err.Error(), "nesting deeper than 5") {
		t.Fatalf("err = %v", err)
	}
	run(t, c) // the default bound is far above 12
}

func askChart() *flow.Chart {
	return mustBuildNoT(flow.New("approve").
		Stage("seed", set("host", "db-1")).
		Decide("route", []decide.Rule{{When: filter("host", rules.OpStartsWith, "db"), Then: "db", Label: "A database"}},
			decide.Default{Branch: "other"}, []flow.Branch{
				{Name: "db", Steps: flow.Seq().
					Stage("ask", func(ctx context.Context, s *flow.Scope) error {
						if _, ok := s.Get("approve"); ok {
							return nil
						}
						return s.Ask("Restart db-1?", map[string]string{"approve": "bool"})
					}).
					Stage("act", func(ctx context.Context, s *flow.Scope) error {
						s.Set("restarted", s.Value("approve"))
						return nil
					})},
				{Name: "other"},
			}).
		Stage("done", set("finished", true)))
}

func TestPauseCheckpointAndResume(t *testing.T) {
	c := askChart()
	res := run(t, c)
	if res.Status != flow.StatusPaused || res.Pause.Question != "Restart db-1?" || res.Checkpoint == nil {
		t.Fatalf("status %v pause %+v", res.Status, res.Pause)
	}
	raw, err := json.Marshal(res.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	var cp flow.Checkpoint
	if err := json.Unmarshal(raw, &cp); err != nil {
		t.Fatal(err)
	}
	res2, err := c.Resume(context.Background(), &cp, map[string]any{"approve": true})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if res2.State()["restarted"] != true || res2.State()["finished"] != true || res2.State()["host"] != "db-1" {
		t.Errorf("state = %v", res2.State())
	}
	first := res2.Log.Commits()[0]
	if first.Path != "ask#3" || first.Index != len(res.Log.Commits()) || first.Writes[0].Key != "approve" {
		t.Errorf("answer commit = %+v (counters must continue)", first)
	}
	// Same result as the uninterrupted run with the answer already there.
	direct := run(t, c, flow.WithInputs(map[string]any{"approve": true}))
	if !reflect.DeepEqual(direct.State(), res2.State()) {
		t.Errorf("resumed %v != direct %v", res2.State(), direct.State())
	}
	if _, err := c.Resume(context.Background(), &flow.Checkpoint{Version: 99}, nil); err == nil {
		t.Error("a checkpoint of another version was accepted")
	}
}

func TestAskInsideABranchIsRefused(t *testing.T) {
	c := mustBuild(t, flow.New("p").Parallel("fork", []flow.Branch{{Name: "a", Steps: flow.Seq().Stage("ask", func(ctx context.Context, s *flow.Scope) error {
		return s.Ask("?", nil)
	})}}))
	if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "pause") {
		t.Fatalf("err = %v", err)
	}
}

type panicky struct{}

func (panicky) Record(recorder.Event) { panic("recorder bug") }

func TestPanickingRecorderNeverBreaksTheRun(t *testing.T) {
	res := run(t, loopChart(10, 100), flow.WithRecorders(panicky{}))
	if res.State()["n"] != 10 || len(res.RecorderProblems) != 1 {
		t.Errorf("state %v problems %v", res.State(), res.RecorderProblems)
	}
}

// An isolated mount's input bindings are the subflow's to read, not
// writes of its own: a mount without outputs merges what the subflow
// wrote, and leaves the parent's value of a bound key as it was.
func TestIsolatedInputsAreNotMergedBack(t *testing.T) {
	inner := mustBuild(t, flow.New("inner").Stage("note", func(ctx context.Context, s *flow.Scope) error {
		s.Set("seen", s.Value("in"))
		return nil
	}))
	c := mustBuild(t, flow.New("outer").
		Stage("seed", set("in", 4)).
		Subflow("isolated", inner, flow.Mount{Inputs: []flow.Binding{{Key: "in", From: rules.Literal(10)}}}))
	res := run(t, c)
	if res.State()["in"] != 4 || res.State()["seen"] != 10 {
		t.Errorf("state = %v, want in 4 (the parent's) and seen 10 (the binding)", res.State())
	}
}

// An isolated mount's subflow starts with none of its parent's rows, so
// every row it writes is its own: the second of two `subflow: {inputs:
// …}` each writing one verdict row lost its row in silence (its one row
// taken for the parent's one), the table held the first alone and the run
// stood Consistent; after two rows a mount's one row failed the run,
// `branch "two" removed rows from "verdicts"`.
func TestIsolatedSubflowAppendsItsRowsAfterTheParents(t *testing.T) {
	appendRow := func(name string) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) error {
			rows, _ := s.Value(verdicts).([]any)
			s.Set(verdicts, append(append([]any{}, rows...), name))
			return nil
		}
	}
	inner := func(name string) *flow.Chart {
		return mustBuild(t, flow.New("inner-"+name).Stage("row", appendRow(name)))
	}
	bind := flow.Mount{Inputs: []flow.Binding{{Key: "in", From: rules.Literal(1)}}}
	for _, tc := range []struct {
		name string
		seed []any
	}{{"after one row", []any{"first"}}, {"after two rows", []any{"first", "second"}}} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustBuild(t, flow.New("outer").
				Stage("seed", set(verdicts, tc.seed)).
				Subflow("one", inner("one"), bind).
				Subflow("two", inner("two"), bind))
			res := run(t, c)
			want := append(append([]any{}, tc.seed...), "one", "two")
			if got := res.State()[verdicts]; !reflect.DeepEqual(got, want) {
				t.Errorf("verdicts = %v, want %v", got, want)
			}
			// each row traces to the subflow that wrote it (explain, and
			// the rows' marking, read the same trace)
			n := len(tc.seed)
			for _, ex := range []*flow.Explainer{
				flow.NewExplainer(&res.Log, flow.WithStructure(c.Describe()), flow.WithGathered(verdicts)),
				flow.NewExplainer(&res.Log, flow.WithGathered(verdicts)),
			} {
				tr := ex.Rows(verdicts, []int{n, n + 1})
				for k, mount := range []string{"one", "two"} {
					if len(tr[k].Scope) != 1 || tr[k].Scope[0].Node != mount {
						t.Errorf("row %d (%s) traced to %q (%v), want subflow %q's row", n+k, want[n+k], tr[k].Path, tr[k].Scope, mount)
					}
				}
			}
		})
	}
}

// A retry's backoff is waited out by the run's sleep (WithSleep) when it
// has one, never by the clock: three attempts an hour apart finish at
// once, each wait asked for with the policy's delay.
func TestRetryWaitsByTheRunsSleep(t *testing.T) {
	fails := 2
	c := mustBuild(t, flow.New("retry").Stage("flaky", func(ctx context.Context, s *flow.Scope) error {
		if fails > 0 {
			fails--
			return errors.New("not yet")
		}
		s.Set("ok", true)
		return nil
	}, flow.WithRetry(flow.RetryPolicy{Attempts: 3, Backoff: time.Hour})))
	var waits []time.Duration
	res, err := c.Run(context.Background(), flow.WithSleep(func(ctx context.Context, d time.Duration) { waits = append(waits, d) }))
	if err != nil || res.State()["ok"] != true {
		t.Fatalf("run: %v, state %v", err, res.State())
	}
	p := flow.RetryPolicy{Attempts: 3, Backoff: time.Hour}
	if len(waits) != 2 || waits[0] != p.Delay(1) || waits[1] != p.Delay(2) {
		t.Errorf("waits = %v, want the policy's delays %v, %v", waits, p.Delay(1), p.Delay(2))
	}
}

// A fact (SetFact) is written even when it equals the value it replaces,
// in the stage's own commit and on through a mount's join, so its writer
// is the stage that gathered it last; Set leaves an unchanged value out.
// Before, a second mount's exec stage whose answer matched the first's to
// the microsecond of its durationMs left no write, and explain named the
// first mount's stage: the record's shape hung on the clock.
func TestFactIsWrittenWhenEqual(t *testing.T) {
	for _, fact := range []bool{false, true} {
		inner := mustBuild(t, flow.New("inner").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
			if fact {
				s.SetFact("said", map[string]any{"stdout": "same"})
			} else {
				s.Set("said", map[string]any{"stdout": "same"})
			}
			return nil
		}))
		c := mustBuild(t, flow.New("outer").Subflow("a", inner, flow.Mount{}).Subflow("b", inner, flow.Mount{}))
		res := run(t, c)
		var writers []string
		for _, cm := range res.Log.Commits() {
			for _, w := range cm.Writes {
				if w.Key == "said" {
					writers = append(writers, cm.Path)
				}
			}
		}
		want := []string{"a/probe#1", "a#2", "b/probe#4", "b#5"} // each mount's stage and its join
		if !fact {
			want = want[:2] // the second mount changed nothing
		}
		if !slices.Equal(writers, want) {
			t.Errorf("fact %v: said written by %v, want %v", fact, writers, want)
		}
	}
}

// TestALoopEnteredAgainCountsAfresh: a loop's bound is per activation,
// each of two nested loops counted apart. The inner loop makes two passes
// back each time the outer loop enters it; six in all pass its bound of
// three, and the run must not fail for it.
func TestALoopEnteredAgainCountsAfresh(t *testing.T) {
	c := mustBuild(t, flow.New("nested").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", 0)
			s.Set("m", 0)
			return nil
		}).
		Stage("round", func(ctx context.Context, s *flow.Scope) error {
			s.Set("m", s.Value("m").(int)+1)
			s.Set("i", 0)
			return nil
		}).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			s.Set("i", s.Value("i").(int)+1)
			s.Set("n", s.Value("n").(int)+1)
			return nil
		}).
		Loop("inner", flow.Loop{To: "tick", While: filter("i", rules.OpLt, 3), Max: 3}).
		Loop("outer", flow.Loop{To: "round", While: filter("m", rules.OpLt, 3), Max: 3}))
	res := run(t, c)
	if res.State()["n"] != 9 || res.State()["m"] != 3 {
		t.Errorf("n = %v, m = %v; want 9 and 3", res.State()["n"], res.State()["m"])
	}
}

// TestSetOfAnotherGoTypeIsAWrite: Set left out a write equal under the
// comparison law to the value it replaced, so a Go stage that set n = 1
// (an int) over an earlier stage's 1.0 left the float64 in the state, and
// the next stage's s.Value("n").(int) panicked; []int{1} over []any{1},
// and a time.Time over the same instant in another zone, were left out
// too. A write is left out only when the next reader would read the same
// Go value.
func TestSetOfAnotherGoTypeIsAWrite(t *testing.T) {
	utc := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	cet := utc.In(time.FixedZone("CET", 3600))
	c := mustBuild(t, flow.New("retype").
		Stage("first", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", 1.0)
			s.Set("l", []any{1})
			s.Set("at", utc)
			s.Set("same", "x")
			return nil
		}).
		Stage("second", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", 1)
			s.Set("l", []int{1})
			s.Set("at", cet)
			s.Set("same", "x")
			return nil
		}).
		Stage("third", func(ctx context.Context, s *flow.Scope) error {
			if n, ok := s.Value("n").(int); !ok || n != 1 {
				return fmt.Errorf("n read as %T %v, want the int 1 the second stage set", s.Value("n"), s.Value("n"))
			}
			if _, ok := s.Value("l").([]int); !ok {
				return fmt.Errorf("l read as %T, want the []int the second stage set", s.Value("l"))
			}
			if at := s.Value("at").(time.Time); at.Location() != cet.Location() {
				return fmt.Errorf("at read in %v, want the zone the second stage set", at.Location())
			}
			return nil
		}))
	res := run(t, c)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var second []string
	for _, w := range res.Log.Commits()[1].Writes {
		second = append(second, w.Key)
	}
	slices.Sort(second)
	if want := []string{"at", "l", "n"}; !slices.Equal(second, want) {
		t.Errorf("the second stage's commit wrote %v, want %v (same, unchanged, left out)", second, want)
	}
}

// TestStateIsSpelledOnceWhenAsked: Result.State is the final state without
// the keys deleted, built when first asked and the same map on every call
// after, from any goroutine (a run's caller that reads no state builds no
// map: TestShortRunStartsInItsRunner).
func TestStateIsSpelledOnceWhenAsked(t *testing.T) {
	c, err := flow.New("state").
		Stage("a", func(ctx context.Context, s *flow.Scope) error {
			s.Set("x", 1)
			s.Set("gone", true)
			return nil
		}).
		Stage("b", func(ctx context.Context, s *flow.Scope) error {
			s.Set("x", 2)
			s.Delete("gone")
			return nil
		}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	maps := make([]map[string]any, 8)
	done := make(chan int)
	for i := range maps {
		go func() { maps[i] = res.State(); done <- i }()
	}
	for range maps {
		<-done
	}
	if want := map[string]any{"x": 2}; !reflect.DeepEqual(maps[0], want) {
		t.Fatalf("state %v, want %v", maps[0], want)
	}
	for i, m := range append(maps, res.State()) {
		if reflect.ValueOf(m).Pointer() != reflect.ValueOf(maps[0]).Pointer() {
			t.Fatalf("call %d gave another map than the first", i)
		}
	}
	var zero flow.Result
	if zero.State() != nil {
		t.Fatalf("a zero Result's state is %v, want nil", zero.State())
	}
	zero.SetState(map[string]any{"y": 1})
	if zero.State()["y"] != 1 {
		t.Fatalf("SetState's map not returned: %v", zero.State())
	}
}
