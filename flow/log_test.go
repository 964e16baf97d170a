package flow_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// TestReplayEqualsStateAtEveryCommit is property-style: random charts of
// writes and deletes, with parallel branches and subflows; the state rebuilt
// from the log at each root commit equals the state the run saw there.
func TestReplayEqualsStateAtEveryCommit(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			snap := func(id string) flow.StageFunc {
				ops := make([][3]int, 1+rng.IntN(4))
				for i := range ops {
					ops[i] = [3]int{rng.IntN(6), rng.IntN(3), rng.IntN(5)} // key, op, value
				}
				return func(ctx context.Context, s *flow.Scope) error {
					for _, op := range ops {
						k := fmt.Sprintf("k%d", op[0])
						switch op[1] {
						case 0:
							s.Delete(k)
						default:
							s.Set(k, op[2])
						}
					}
					return nil
				}
			}
			b := flow.New("prop")
			for i := 0; i < 12; i++ {
				id := fmt.Sprintf("s%d", i)
				switch rng.IntN(4) {
				case 0:
					b.Parallel(id, []flow.Branch{
						{Name: "a", Steps: flow.Seq().Stage(id+"a", setKey(fmt.Sprintf("pa%d", i), i))},
						{Name: "b", Steps: flow.Seq().Stage(id+"b", setKey(fmt.Sprintf("pb%d", i), i))},
					})
				case 1:
					inner := mustBuild(t, flow.New("inner").Stage("w", snap("w")))
					b.Subflow(id, inner, flow.Mount{})
				default:
					b.Stage(id, snap(id))
				}
			}
			b.Stage("end", func(ctx context.Context, s *flow.Scope) error { return nil })
			c := mustBuild(t, b)
			res := run(t, c, flow.WithInputs(map[string]any{"k0": "in"}))
			last := len(res.Log.Commits()) - 1
			if got := res.Log.StateAt(last); !reflect.DeepEqual(got, res.State()) {
				t.Fatalf("replayed final state %v != %v", got, res.State())
			}
			// At every root commit, the state rebuilt from the log just before
			// it equals what that commit's reads saw.
			for i, cm := range res.Log.Commits() {
				st := res.Log.StateAt(i - 1)
				for _, r := range cm.Reads {
					if flow.ScopeOf(cm.Path) != "" {
						continue
					}
					v, ok := st[r.Key]
					if ok == r.Missing || (ok && !reflect.DeepEqual(v, r.Value)) {
						t.Fatalf("commit %d (%s) read %s = %v (missing %v); replay says %v, %v", i, cm.Path, r.Key, r.Value, r.Missing, v, ok)
					}
				}
			}
		})
	}
}

func setKey(k string, v any) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) error {
		s.Get("k1") // a read, so chains have something to follow
		s.Set(k, v)
		return nil
	}
}

func TestChainAndLastWriter(t *testing.T) {
	c := mustBuild(t, flow.New("chain").
		Stage("a", set("x", 1)).
		Stage("b", func(ctx context.Context, s *flow.Scope) error {
			s.Set("y", s.Value("x").(int)+1)
			return nil
		}).
		Stage("noise", set("z", 9)).
		Stage("c", func(ctx context.Context, s *flow.Scope) error {
			s.Set("w", s.Value("y").(int)+s.Value("input").(int))
			return nil
		}))
	res := run(t, c, flow.WithInputs(map[string]any{"input": 5}))
	chain, err := res.Log.Chain("c#3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cs := range chain {
		got = append(got, fmt.Sprintf("%s<-%s:%s@%d", cs.By, cs.Path, cs.Key, cs.Depth))
	}
	want := []string{"c#3<-b#1:y@1", "b#1<-a#0:x@2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chain = %v, want %v", got, want)
	}
	if i, ok := res.Log.LastWriter("y", 3); !ok || i != 1 {
		t.Errorf("LastWriter(y, 3) = %d, %v", i, ok)
	}
	if _, ok := res.Log.LastWriter("input", 3); ok {
		t.Error("an input has a writer")
	}
	if _, err := res.Log.Chain("nope#9"); err == nil {
		t.Error("chain of a missing path")
	}
}

func TestChainFollowsJoinsIntoBranches(t *testing.T) {
	res := run(t, mustBuild(t, perSubject(3)), flow.WithInputs(map[string]any{"subjects": subjects(3)}))
	// The foreach commit wrote the verdicts; parallel joins name their origins.
	i, ok := res.Log.LastWriter(verdicts, len(res.Log.Commits()))
	if !ok || res.Log.Commits()[i].Stage != "per-subject" {
		t.Fatalf("verdicts writer = %d %v", i, ok)
	}
	c2 := mustBuild(t, flow.New("p").Parallel("fork", []flow.Branch{
		{Name: "a", Steps: flow.Seq().Stage("wa", set("a", 1))},
	}).Stage("use", func(ctx context.Context, s *flow.Scope) error {
		s.Set("b", s.Value("a"))
		return nil
	}))
	res = run(t, c2)
	chain, _ := res.Log.Chain("use#3")
	if len(chain) != 2 || chain[0].Path != "fork#2" || chain[1].Path != "fork~a/wa#1" {
		t.Errorf("chain = %+v", chain)
	}
}

// TestChainLastWriterAndExplainerAgree: Log.Chain and Log.LastWriter ask
// the explainer's walk, so on a chart with a foreach, a subflow and a loop
// they name the same writers the explainer does. For every commit, the
// chain's first level is the explainer's read and join causes (a foreach
// item, which the explainer leaves as a leaf, counted as the foreach
// commit the chain follows; a chain names each commit once), and LastWriter of every key it read names the
// commit the read itself names.
func TestChainLastWriterAndExplainerAgree(t *testing.T) {
	t.Parallel()
	inner := mustBuild(t, flow.New("inner").Stage("bump", func(ctx context.Context, s *flow.Scope) error {
		s.Set("total", s.Value("total").(int)+s.Value("n").(int))
		return nil
	}))
	c := mustBuild(t, perSubject(10).
		Stage("start", set("total", 0, "n", 0)).
		Stage("tick", func(ctx context.Context, s *flow.Scope) error {
			s.Set("n", s.Value("n").(int)+1)
			return nil
		}).
		Subflow("add", inner, flow.Mount{}).
		Loop("again", flow.Loop{To: "tick", While: filter("n", rules.OpLt, 3)}).
		Stage("report", func(ctx context.Context, s *flow.Scope) error {
			s.Set("summary", fmt.Sprint(len(s.Value(verdicts).([]any)), s.Value("total")))
			return nil
		}))
	res := run(t, c, flow.WithInputs(map[string]any{"subjects": subjects(3)}))
	ex := explainer(t, c, res)
	kinds := map[string]bool{}
	for i, cm := range res.Log.Commits() {
		kinds[cm.Stage] = true
		chain, err := res.Log.Chain(cm.Path)
		if err != nil {
			t.Fatal(err)
		}
		var fromChain []int
		for _, cs := range chain {
			if cs.Depth == 1 {
				fromChain = append(fromChain, cs.Index)
			}
		}
		e, err := ex.Stage(cm.Path)
		if err != nil {
			t.Fatal(err)
		}
		var fromExplainer []int
		for _, n := range e.Root.Causes {
			switch {
			case n.Kind == flow.NodeCommit && (n.Rel == flow.RelRead || n.Rel == flow.RelJoined):
				fromExplainer = append(fromExplainer, n.Index)
			case n.Kind == flow.NodeItem:
				j, _ := res.Log.Find(n.ItemOf)
				fromExplainer = append(fromExplainer, j)
			}
		}
		slices.Sort(fromChain)
		slices.Sort(fromExplainer)
		fromChain, fromExplainer = slices.Compact(fromChain), slices.Compact(fromExplainer)
		if !reflect.DeepEqual(fromChain, fromExplainer) {
			t.Errorf("commit %d (%s): chain's causes %v, explainer's %v", i, cm.Path, fromChain, fromExplainer)
		}
		for _, r := range cm.Reads {
			w, ok := res.Log.LastWriter(r.Key, i)
			if r.Writer == "" {
				if ok {
					t.Errorf("commit %d (%s) read %s from the inputs; LastWriter says %d", i, cm.Path, r.Key, w)
				}
				continue
			}
			if j, _ := res.Log.Find(r.Writer); j > i {
				continue // a foreach item: its writer commits after its branches
			}
			if !ok || res.Log.Commits()[w].Path != r.Writer {
				t.Errorf("commit %d (%s) read %s written by %s; LastWriter says %d %v", i, cm.Path, r.Key, r.Writer, w, ok)
			}
		}
	}
	for _, k := range []string{"summary", "total", verdicts} {
		e, err := ex.Key(k, -1)
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := res.Log.LastWriter(k, len(res.Log.Commits())); !ok || w != e.Root.Index {
			t.Errorf("%s: LastWriter %d %v, explainer's writer %d", k, w, ok, e.Root.Index)
		}
	}
	for _, k := range []string{"per-subject", "bump", "again", "p"} {
		if !kinds[k] {
			t.Errorf("the chart ran no %s: the test covers less than it says", k)
		}
	}
}
