package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

// add is a stage that adds d to the integer at key: it fails (a type
// assertion's panic) if a continue gave the key back as a float.
func add(key string, d int) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		s.Set(key, s.Value(key).(int)+d)
		return nil
	}
}

// yieldCharts are charts whose boundaries a yield may fall on: loops in
// the top-level sequence and in decider branches, a loop jumping out of a
// branch, deciders within deciders, and fan-outs (never split) between.
func yieldCharts() map[string]*flow.Chart {
	low := filter("n", rules.OpLt, 3)
	return map[string]*flow.Chart{
		"loop": loopChart(12, 100),
		"branches": mustBuildNoT(flow.New("branches").
			Stage("seed", set("n", 0, "m", 0, "mixed", map[string]any{"f": 2.0, "i": 1, "xs": []any{1, 2.5, "x", 3}})).
			Stage("tick", add("n", 1)).
			Decide("route", []decide.Rule{{When: low, Then: "low", Label: "early"}}, decide.Default{Branch: "high"}, []flow.Branch{
				{Name: "low", Steps: flow.Seq().
					Stage("inner", add("m", 1)).
					Loop("innerAgain", flow.Loop{To: "inner", While: filter("m", rules.OpLt, 4)}).
					Stage("reset", set("m", 0))},
				{Name: "high", Steps: flow.Seq().
					Decide("deeper", []decide.Rule{{When: filter("n", rules.OpLt, 5), Then: "mid", Label: "middle"}}, decide.Default{Branch: "top"}, []flow.Branch{
						{Name: "mid", Steps: flow.Seq().
							Stage("midWork", add("m", 2)).
							Loop("back", flow.Loop{To: "tick", While: filter("n", rules.OpLt, 5)})},
						{Name: "top", Steps: flow.Seq().Stage("topWork", add("m", 3))},
					}).
					Parallel("fan", []flow.Branch{
						{Name: "a", Steps: flow.Seq().Stage("fa", set("a", 1)).Stage("fa2", add("a", 1))},
						{Name: "b", Steps: flow.Seq().Stage("fb", set("b", 2.5))},
					})},
			}).
			Loop("again", flow.Loop{To: "tick", While: filter("n", rules.OpLt, 7)}).
			ForEach("each", flow.ForEach{Items: func(context.Context, *flow.Scope) ([]any, error) { return []any{1, 2, 3}, nil }, MaxBranches: 10, Into: "eaches",
				Body: flow.Seq().Stage("double", func(ctx context.Context, s *flow.Scope) error {
					s.Set("twice", s.Value("item").(int)*2)
					return nil
				})}).
			Stage("done", set("finished", true))),
	}
}

// events keeps what a recorder saw, timings and ids aside.
type events struct{ got []string }

func (e *events) Record(ev recorder.Event) {
	e.got = append(e.got, fmt.Sprintf("%s %s %s %s %s %d/%d %s", ev.Kind, ev.Path, ev.StageID, ev.Target, ev.Branch, ev.Index, ev.Total, ev.Err))
}

// runYielding runs c to its end, yielding whenever yield says so, each
// checkpoint through its JSON as a host carries it: the parts' logs
// joined, the last part's state, the stage executions of all, what the
// recorders saw across the parts, and how many times it yielded.
func runYielding(t *testing.T, c *flow.Chart, yield func() bool) (flow.Log, map[string]any, int, []string, int) {
	t.Helper()
	rec := &events{}
	res, err := c.Run(context.Background(), flow.WithGather(verdicts), flow.WithYield(yield), flow.WithRecorders(rec))
	var log flow.Log
	stages, yields := 0, 0
	for {
		if err != nil {
			t.Fatalf("part %d: %v", yields+1, err)
		}
		log.SetCommits(append(log.Commits(), res.Log.Commits()...))
		stages += res.Stages
		if res.Status != flow.StatusPaused {
			return log, res.State(), stages, rec.got, yields
		}
		if res.Pause != nil || res.Checkpoint.Kind != flow.CheckpointContinue {
			t.Fatalf("a yield left pause %+v, checkpoint kind %q", res.Pause, res.Checkpoint.Kind)
		}
		yields++
		b, merr := json.Marshal(res.Checkpoint)
		if merr != nil {
			t.Fatal(merr)
		}
		var cp flow.Checkpoint
		if uerr := json.Unmarshal(b, &cp); uerr != nil {
			t.Fatal(uerr)
		}
		res, err = c.Resume(context.Background(), &cp, nil, flow.WithGather(verdicts), flow.WithYield(yield), flow.WithRecorders(rec))
	}
}

func logBytes(t *testing.T, l flow.Log) string {
	t.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestYieldedRunIsTheUninterruptedRun yields a run at every boundary it
// has, one at a time, and at random ones, many at a time: the continued
// parts leave the log (byte for byte), the state (Go types included), the
// stage count and the events of the run that never yielded.
func TestYieldedRunIsTheUninterruptedRun(t *testing.T) {
	for name, c := range yieldCharts() {
		t.Run(name, func(t *testing.T) {
			asked := 0
			wantLog, wantState, wantStages, wantEvents, _ := runYielding(t, c, func() bool { asked++; return false })
			want := logBytes(t, wantLog)
			if asked < 5 {
				t.Fatalf("the run asked to yield %d times: the chart has too few boundaries to test", asked)
			}
			check := func(t *testing.T, yield func() bool, atLeast int) {
				t.Helper()
				log, state, stages, evs, yields := runYielding(t, c, yield)
				if yields < atLeast {
					t.Fatalf("yielded %d times, want at least %d", yields, atLeast)
				}
				if got := logBytes(t, log); got != want {
					t.Fatalf("the log differs from the uninterrupted run's:\n got %s\nwant %s", got, want)
				}
				if !reflect.DeepEqual(state, wantState) {
					t.Errorf("state %#v, want %#v", state, wantState)
				}
				if stages != wantStages {
					t.Errorf("%d stage executions, want %d", stages, wantStages)
				}
				if i := firstDiff(evs, wantEvents); i >= 0 {
					t.Errorf("the recorders saw, from event %d:\n%s\nwant\n%s", i, strings.Join(evs[i:min(i+5, len(evs))], "\n"), strings.Join(wantEvents[i:min(i+5, len(wantEvents))], "\n"))
				}
			}
			for k := 1; k <= asked; k++ {
				t.Run(fmt.Sprintf("at-%d", k), func(t *testing.T) {
					n := 0
					check(t, func() bool { n++; return n == k }, 1)
				})
			}
			t.Run("every", func(t *testing.T) {
				check(t, func() bool { return true }, asked/2)
			})
			for seed := range uint64(20) {
				t.Run(fmt.Sprintf("random-%d", seed), func(t *testing.T) {
					rnd := rand.New(rand.NewPCG(seed, 7))
					check(t, func() bool { return rnd.IntN(3) == 0 }, 0)
				})
			}
		})
	}
}

// TestYieldNeverSplitsAFanOut: a yield asked only where a checkpoint can
// name the position, never in a fan-out's branches or a subflow.
func TestYieldNeverSplitsAFanOut(t *testing.T) {
	sub := mustBuild(t, flow.New("sub").Stage("s1", set("s", 1)).Stage("s2", set("s", 2)))
	c := mustBuild(t, flow.New("fans").
		Stage("first", set("x", 1)).
		Parallel("par", []flow.Branch{{Name: "a", Steps: flow.Seq().Stage("p1", set("p", 1)).Stage("p2", set("q", 1))}, {Name: "b", Steps: flow.Seq().Stage("p3", set("r", 1))}}).
		ForEach("each", flow.ForEach{Items: func(context.Context, *flow.Scope) ([]any, error) { return []any{1, 2}, nil }, MaxBranches: 5,
			Body: flow.Seq().Stage("e1", noop).Stage("e2", noop)}).
		Subflow("mount", sub, flow.Mount{}).
		Stage("last", noop))
	var at []string
	res, err := c.Run(context.Background(), flow.WithYield(func() bool { at = append(at, "?"); return false }))
	if err != nil || res.Status != flow.StatusCompleted {
		t.Fatalf("%v %v", res.Status, err)
	}
	// Asked before par, each, mount and last: never before first (the run's
	// first node), never inside.
	if len(at) != 4 {
		t.Fatalf("yield asked %d times, want 4 (before par, each, mount, last)", len(at))
	}
	for _, node := range []string{"par", "each", "mount", "last"} {
		n := 0
		res, err := c.Run(context.Background(), flow.WithYield(func() bool { n++; return n == len(at)-3+indexOf(node) }))
		if err != nil || res.Checkpoint == nil {
			t.Fatalf("%s: %v %v", node, res.Status, err)
		}
		if got := res.Checkpoint.At; len(got) != 1 || got[0].Node != node {
			t.Errorf("yielded at %+v, want before %s", got, node)
		}
	}
}

func indexOf(node string) int {
	return map[string]int{"par": 0, "each": 1, "mount": 2, "last": 3}[node]
}

// TestContinueTakesNoAnswersAndAskCheckpointsStayAsks: the two kinds do
// not mix.
func TestContinueTakesNoAnswersAndAskCheckpointsStayAsks(t *testing.T) {
	c := loopChart(5, 10)
	n := 0
	res, err := c.Run(context.Background(), flow.WithYield(func() bool { n++; return n == 2 }))
	if err != nil || res.Checkpoint == nil || res.Checkpoint.Kind != flow.CheckpointContinue {
		t.Fatalf("%v %+v", err, res.Checkpoint)
	}
	if _, err := c.Resume(context.Background(), res.Checkpoint, map[string]any{"approve": true}); err == nil || !strings.Contains(err.Error(), "takes no answers") {
		t.Errorf("a continue with answers: %v", err)
	}
	bad := *res.Checkpoint
	bad.Kind = "later"
	if _, err := c.Resume(context.Background(), &bad, nil); err == nil || !strings.Contains(err.Error(), `"later"`) {
		t.Errorf("a checkpoint of an unknown kind: %v", err)
	}
	ask := run(t, askChart())
	if ask.Checkpoint.Kind != "" || ask.Checkpoint.State[0].Numbers != "" {
		t.Errorf("an ask's checkpoint changed shape: %+v", ask.Checkpoint)
	}
}

// firstDiff is the index where a and b first differ, -1 when they do not.
func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestAskTwiceInABranchResumesWhereItAsked: a decider branch that asks,
// is resumed, and asks again paused with a position that named the
// second asker alone, without the branch holding it, and the second
// resume was refused ("not in this chart"): Resume now names the branches
// of the level it runs in.
func TestAskTwiceInABranchResumesWhereItAsked(t *testing.T) {
	asker := func(key string) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) error {
			if _, ok := s.Get(key); ok {
				return nil
			}
			return s.Ask("Go on?", map[string]string{key: "bool"})
		}
	}
	c := mustBuild(t, flow.New("twice").
		Stage("seed", set("host", "db-1")).
		Decide("route", []decide.Rule{{When: filter("host", rules.OpStartsWith, "db"), Then: "db", Label: "A database"}},
			decide.Default{Branch: "other"}, []flow.Branch{
				{Name: "db", Steps: flow.Seq().Stage("first", asker("a")).Stage("second", asker("b")).Stage("act", set("acted", true))},
				{Name: "other"},
			}).
		Stage("done", set("finished", true)))
	res := run(t, c)
	res, err := c.Resume(context.Background(), res.Checkpoint, map[string]any{"a": true})
	if err != nil || res.Checkpoint == nil {
		t.Fatalf("first resume: %v %v", res.Status, err)
	}
	want := []flow.Step{{Node: "route", Branch: "db"}, {Node: "second"}}
	if !reflect.DeepEqual(res.Checkpoint.At, want) {
		t.Fatalf("paused again at %+v, want %+v", res.Checkpoint.At, want)
	}
	res, err = c.Resume(context.Background(), res.Checkpoint, map[string]any{"b": true})
	if err != nil || res.State()["acted"] != true || res.State()["finished"] != true {
		t.Fatalf("second resume: %v %v %v", res.Status, err, res.State())
	}
}

// A host's yield that ends the run's context (its clock says the deadline
// passed before its timer fired: Temporal's) stops the run at that
// boundary, the next node not started, as a context ended before it would.
func TestYieldThatEndsTheContextStopsBeforeTheNextNode(t *testing.T) {
	ran := 0
	stage := func(ctx context.Context, s *flow.Scope) error { ran++; return nil }
	c, err := flow.New("deadline").Stage("a", stage).Stage("b", stage).Stage("c", stage).Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	calls := 0
	yield := func() bool {
		calls++
		cancel(context.DeadlineExceeded) // before b: the host's clock is past the deadline
		return false
	}
	res, err := c.Run(ctx, flow.WithYield(yield))
	if err == nil {
		t.Fatalf("the run ended %s, want an error", res.Status)
	}
	var re *flow.RunError
	if !errors.As(err, &re) || re.Stage != "b" || !re.Cancelled || !strings.Contains(re.Message, "before this stage started") {
		t.Fatalf("error %v, want the run stopped before b started", err)
	}
	if ran != 1 || calls != 1 {
		t.Errorf("%d stages ran, the yield was asked %d times; want a alone, asked once", ran, calls)
	}
}
