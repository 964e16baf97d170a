package flow

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/rules"
)

// staticNop is a stage that does nothing; static tests never run it.
func staticNop(context.Context, *Scope) error { return nil }

// staticPred is a test-only predicate: its source text, never a match.
type staticPred string

func (p staticPred) Eval(rules.Env) rules.Outcome { return rules.Outcome{} }
func (p staticPred) String() string               { return string(p) }

// staticValuer is a test-only valuer: its source text, no value.
type staticValuer string

func (v staticValuer) Value(rules.Env) (any, []rules.Input, error) { return nil, nil, nil }
func (v staticValuer) String() string                              { return string(v) }

func staticItems(context.Context, *Scope) ([]any, error) { return nil, nil }

func staticDecideFn(context.Context, *Scope) (decide.Evidence, error) {
	return decide.Evidence{}, nil
}

func mustBuild(t testing.TB, b *Builder) *Chart {
	t.Helper()
	c, err := b.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return c
}

// staticChart builds a chart with every node kind, nested subflows, a
// foreach body with its own decider, loops, and labels that need escaping.
func staticChart(t testing.TB) *Chart {
	t.Helper()
	inner := mustBuild(t, New("inner-check", ChartDescription("checks one thing")).
		Stage("probe", staticNop, Description("probes the thing")).
		Decide("inner-posture",
			[]decide.Rule{{When: staticPred("probe.failed"), Then: "bad", Label: "The probe failed"}},
			decide.Default{Branch: "ok", Label: "Nothing wrong"},
			[]Branch{{Name: "ok"}, {Name: "bad", Description: `Something "bad" happened`}},
			Name("Inner posture")))
	outer := mustBuild(t, New("outer-check").
		Decide("outer-decide",
			[]decide.Rule{{When: staticPred("x > 1"), Then: "big"}},
			decide.Default{Branch: "small"},
			[]Branch{{Name: "big"}, {Name: "small"}},
			Name("Outer decide")).
		Subflow("inner", inner, Mount{}))
	b := New(`main "chart"`, ChartDescription("every node kind")).
		Stage("collect", staticNop,
			Name(`Collect <df> & "stats"`), Type("exec"),
			Timeout(10*time.Second),
			WithRetry(RetryPolicy{Attempts: 3, Backoff: 200 * time.Millisecond, MaxBackoff: 2 * time.Second, Jitter: true})).
		Stage("tick", staticNop, Name(`tick \ # | `+"`x`")).
		Decide("posture",
			[]decide.Rule{
				{When: staticPred("usedPct > 90"), Then: "at-risk", Label: "Nearly full"},
				{When: staticPred(`state == "degraded"`), Then: "degraded", Label: "Degraded | slow"},
			},
			decide.Default{Branch: "fine", Label: "No rule matched"},
			[]Branch{
				{Name: "at-risk", Description: "Less than a tenth is free", Steps: Seq().Stage("mark-risk", staticNop)},
				{Name: "degraded", Steps: Seq().Stage("mark-degraded", staticNop).Loop("retry-tick", Loop{To: "tick", Max: 3})},
				{Name: "fine"},
			},
			Name("Protection posture"), Description("how well the volume is protected")).
		Select("notify",
			[]decide.Rule{
				{When: staticPred("page"), Then: "pager", Label: "Page someone"},
				{When: staticPred("mail"), Then: "email"},
			},
			[]Branch{
				{Name: "pager", Steps: Seq().Stage("send-page", staticNop, Type("plugin"))},
				{Name: "email", Steps: Seq().Stage("send-mail", staticNop)},
			}).
		Parallel("gather", []Branch{
			{Name: "left", Steps: Seq().Stage("gather-left", staticNop)},
			{Name: "right", Steps: Seq().Stage("gather-right", staticNop)},
		}).
		ForEach("per-volume", ForEach{
			Items: staticItems, As: "volume", MaxBranches: 8, Into: "results",
			Body: Seq().
				Stage("inspect", staticNop).
				Decide("vol-posture",
					[]decide.Rule{{When: staticPred("volume.replicas < 1"), Then: "unprotected", Label: "No replica"}},
					decide.Default{Branch: "declined"},
					[]Branch{{Name: "unprotected"}, {Name: "declined"}},
					Name("Volume posture")),
		}).
		Subflow("check", outer, Mount{
			Inputs:  []Binding{{Key: "x", From: staticValuer("volume.size")}},
			Outputs: []Binding{{Key: "checked", From: staticValuer("ok")}},
		}).
		DecideFunc("go-decider", staticDecideFn, []Branch{{Name: "yes", Description: "Go said yes"}, {Name: "no"}}).
		Loop("again", Loop{To: "collect", Max: 2, While: staticPred("retries < 2")}).
		Stage("report", staticNop, Description("line one\nline two"))
	return mustBuild(t, b)
}

func TestDescribeGolden(t *testing.T) {
	t.Parallel()
	c := staticChart(t)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c.Describe()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "static/describe.json", buf.Bytes())
}

func TestDescribeLoopRef(t *testing.T) {
	t.Parallel()
	s := staticChart(t).Describe()
	var loops []NodeInfo
	var walk func(ns []NodeInfo)
	walk = func(ns []NodeInfo) {
		for _, n := range ns {
			if n.Kind == KindLoop {
				loops = append(loops, n)
			}
			for _, br := range n.Branches {
				walk(br.Nodes)
			}
		}
	}
	walk(s.Nodes)
	if len(loops) != 2 {
		t.Fatalf("found %d loops, want 2", len(loops))
	}
	for _, l := range loops {
		if !l.LoopRef || l.LoopTo == "" {
			t.Errorf("loop %q: LoopRef=%v LoopTo=%q, want a marked reference", l.ID, l.LoopRef, l.LoopTo)
		}
	}
}

func TestFindDecider(t *testing.T) {
	t.Parallel()
	c := staticChart(t)
	tests := []struct {
		name, query  string
		wantID, path string
	}{
		{"root by id", "posture", "posture", "posture"},
		{"root by name", "Protection posture", "posture", "posture"},
		{"subflow by id", "outer-decide", "outer-decide", "check/outer-decide"},
		{"subflow by name", "Outer decide", "outer-decide", "check/outer-decide"},
		{"nested subflow by id", "inner-posture", "inner-posture", "check/inner/inner-posture"},
		{"nested subflow by name", "Inner posture", "inner-posture", "check/inner/inner-posture"},
		{"foreach body", "Volume posture", "vol-posture", "per-volume~*/vol-posture"},
		{"go decider", "go-decider", "go-decider", "go-decider"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, ok := c.FindDecider(tc.query)
			if !ok {
				t.Fatalf("FindDecider(%q) found nothing", tc.query)
			}
			if d.ID != tc.wantID || d.Path != tc.path {
				t.Errorf("FindDecider(%q) = id %q path %q, want id %q path %q", tc.query, d.ID, d.Path, tc.wantID, tc.path)
			}
		})
	}
	for _, q := range []string{"notify", "collect", "again", "nobody"} {
		if d, ok := c.FindDecider(q); ok {
			t.Errorf("FindDecider(%q) = %+v, want nothing (not a decide node)", q, d)
		}
	}
}

func TestFindDeciderSkipsLoopReferences(t *testing.T) {
	t.Parallel()
	// The loop is named like the decider it sits after and jumps back over
	// the first decider: the walk skips it and never follows its target.
	c := mustBuild(t, New("loops").
		Stage("tick", staticNop).
		Decide("first",
			[]decide.Rule{{When: staticPred("a"), Then: "again"}},
			decide.Default{Branch: "on"},
			[]Branch{
				{Name: "again", Steps: Seq().Loop("back", Loop{To: "tick"}, Name("Posture"))},
				{Name: "on"},
			}).
		Decide("second", nil, decide.Default{Branch: "only"}, []Branch{{Name: "only"}}, Name("Posture")))
	d, ok := c.FindDecider("Posture")
	if !ok || d.ID != "second" || d.Path != "second" {
		t.Fatalf("FindDecider(Posture) = %+v, %v; want the decider \"second\", not the loop", d, ok)
	}
	if _, ok := c.FindDecider("back"); ok {
		t.Errorf("FindDecider(back) matched a loop reference")
	}
}

func TestFindDeciderForEachBodiesLast(t *testing.T) {
	t.Parallel()
	c := mustBuild(t, New("order").
		ForEach("each", ForEach{Items: staticItems, MaxBranches: 1, Body: Seq().
			Decide("in-body", nil, decide.Default{Branch: "b"}, []Branch{{Name: "b"}}, Name("Posture"))}).
		Decide("at-root", nil, decide.Default{Branch: "r"}, []Branch{{Name: "r"}}, Name("Posture")))
	d, ok := c.FindDecider("Posture")
	if !ok || d.ID != "at-root" {
		t.Fatalf("FindDecider(Posture) = %+v, %v; want the root's decider before the foreach body's", d, ok)
	}
}

func TestFindDeciderDeclared(t *testing.T) {
	t.Parallel()
	c := staticChart(t)
	tests := []struct {
		query string
		want  map[string]string
	}{
		{"posture", map[string]string{"at-risk": "Less than a tenth is free", "degraded": "degraded", "fine": "fine"}},
		{"inner-posture", map[string]string{"ok": "ok", "bad": `Something "bad" happened`}},
		{"go-decider", map[string]string{"yes": "Go said yes", "no": "no"}},
	}
	for _, tc := range tests {
		d, ok := c.FindDecider(tc.query)
		if !ok {
			t.Fatalf("FindDecider(%q) found nothing", tc.query)
		}
		got := d.Declared()
		if len(got) != len(tc.want) {
			t.Errorf("%s: Declared() = %v, want %v", tc.query, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: Declared()[%q] = %q, want %q", tc.query, k, got[k], v)
			}
		}
	}
}
