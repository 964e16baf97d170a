package rules

import (
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestFilterKeyAbsentFromItsObjectIsUnjudged: Kubernetes leaves a
// Deployment's status.availableReplicas out when no replica is available
// (omitempty), so {d.status.availableReplicas: {lt: 1}} over the one
// deployment that was down read "key not present", a plain no match,
// and the default's ok row stood Consistent (a Nagios OK, exit 0) while
// the expression d.status.availableReplicas < 1 was a rule-error. A
// filter condition whose key is absent is no judgement either, save
// exists, which asks about presence, and the reserved af_ keys a result
// lacks by design.
func TestFilterKeyAbsentFromItsObjectIsUnjudged(t *testing.T) {
	t.Parallel()
	down := mapEnv{"d": map[string]any{
		"metadata": map[string]any{"name": "worker", "labels": map[string]any{"app.kubernetes.io/name": "worker"}},
		"status":   map[string]any{"conditions": []any{}, "replicas": 2, "unavailableReplicas": 2},
		"spec":     map[string]any{"replicas": 2, "containers": []any{map[string]any{"name": "w"}}},
		"result":   map[string]any{"ok": true},
	}}
	tests := []struct {
		name      string
		key       string
		op        Op
		expected  any
		unjudged  bool
		reasonHas []string
	}{
		{"omitempty member", "d.status.availableReplicas", OpLt, 1, true, []string{
			`d.status has no member "availableReplicas"`,
			"its members: conditions, replicas, unavailableReplicas",
			`{d.status.availableReplicas: {exists: false}}`,
			`or write this rule as an expression with d.status.availableReplicas ?? a default`}},
		{"member a typo away", "d.spec.replica", OpGte, 1, true, []string{`d.spec has no member "replica"; did you mean "replicas"?`}},
		{"label key with dots read as a path", "d.metadata.labels.app.kubernetes.io/name", OpEq, "worker", true, []string{
			`d.metadata.labels has no member "app", but has "app.kubernetes.io/name": a key holding dots is written in brackets, d.metadata.labels["app.kubernetes.io/name"]`}},
		{"a member of a label key's first word", "d.metadata.labels.app", OpEq, "worker", true, []string{
			`d.metadata.labels has no member "app" (its members: app.kubernetes.io/name)`}},
		{"index past the end", "d.spec.containers.3.name", OpEq, "w", true, []string{`d.spec.containers has no item 3 (it holds 1)`, `{d.spec.containers.3.name: {exists: false}}`, `d.spec.containers[3].name ?? a default`}},
		{"a key that is no name", `d.metadata.labels["app.kubernetes.io/part-of"]`, OpEq, "shop", true, []string{
			`{'d.metadata.labels["app.kubernetes.io/part-of"]': {exists: false}}`, `d.metadata.labels["app.kubernetes.io/part-of"] ?? a default`}},
		{"step into a number", "d.status.replicas.ready", OpEq, true, true, []string{`d.status.replicas is a number, which has no member "ready"`}},
		{"root key not in scope", "e.status", OpEq, "x", true, []string{`the scope has no key "e"`}},
		{"ne is no judgement either", "d.status.availableReplicas", OpNe, 2, true, []string{`no member "availableReplicas"`}},
		{"exists false is the answer", "d.status.availableReplicas", OpExists, false, false, nil},
		{"exists true is the answer", "d.status.availableReplicas", OpExists, true, false, nil},
		{"reserved af_ key", "d.result.af_absent", OpEq, true, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := MustFilter(Where(tc.key, tc.op, tc.expected)).Eval(down)
			c := out.Conditions[0]
			if out.Matched && tc.op != OpExists {
				t.Fatalf("matched over an absent key: %+v", c)
			}
			if got := c.Unjudged(); got != tc.unjudged {
				t.Fatalf("Unjudged = %v, want %v (reason %q)", got, tc.unjudged, c.Reason)
			}
			if out.Errored() != tc.unjudged {
				t.Fatalf("Errored = %v, want %v", out.Errored(), tc.unjudged)
			}
			for _, w := range tc.reasonHas {
				if !strings.Contains(c.Reason, w) {
					t.Errorf("reason %q does not say %q", c.Reason, w)
				}
			}
		})
	}
}

// TestFilterJudgedFalseAnswersWhateverTheOthersRead: a filter holds when
// all its conditions do, so one judged false is its answer even where
// another could not read or judge its value; the rule is a plain no, not
// a rule error. A scaled-to-zero deployment lacks availableReplicas too.
func TestFilterJudgedFalseAnswersWhateverTheOthersRead(t *testing.T) {
	t.Parallel()
	zero := mapEnv{"d": map[string]any{
		"spec":   map[string]any{"replicas": 0},
		"status": map[string]any{"observedGeneration": 5},
		"used":   "95%",
	}}
	tests := []struct {
		name    string
		conds   []Condition
		errored bool
	}{
		{"absent, the other false", []Condition{Where("d.status.availableReplicas", OpLt, 1), Where("d.spec.replicas", OpGte, 1)}, false},
		{"the other false first", []Condition{Where("d.spec.replicas", OpGte, 1), Where("d.status.availableReplicas", OpLt, 1)}, false},
		{"absent, the other true", []Condition{Where("d.status.availableReplicas", OpLt, 1), Where("d.spec.replicas", OpEq, 0)}, true},
		{"incomparable, the other false", []Condition{Where("d.used", OpGte, 90), Where("d.spec.replicas", OpGte, 1)}, false},
		{"incomparable alone", []Condition{Where("d.used", OpGte, 90)}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := MustFilter(tc.conds...).Eval(zero)
			if out.Matched || out.Errored() != tc.errored {
				t.Fatalf("matched=%v errored=%v, want errored=%v: %+v", out.Matched, out.Errored(), tc.errored, out.Conditions)
			}
		})
	}
}

// TestFilterAbsentHintIsYAMLAChartCanHold: the rule a filter's
// absent-key error tells a chart to write before this one must load. For
// a key written in brackets (sysctl's "net.ipv4.ip_forward" under
// parse: kv) it said {s.stdout["net.ipv4.ip_forward"]: {exists: false}},
// which YAML refuses ("found an invalid key for this map"): a bracket
// ends a plain key in a flow map. The hinted rule is read back here as
// YAML and must give the condition's own key.
func TestFilterAbsentHintIsYAMLAChartCanHold(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": map[string]any{"stdout": map[string]any{"net.ipv4.ip_forward": 1}}}
	for _, key := range []string{`s.stdout["net.ipv4.ip_forwardX"]`, `s.stdout.forward`, `s.stdout["it's"]`} {
		reason := MustFilter(Where(key, OpEq, 1)).Eval(env).Conditions[0].Reason
		_, hint, ok := strings.Cut(reason, "a rule before this one: ")
		hint, _, _ = strings.Cut(hint, ", or write")
		if !ok {
			t.Fatalf("%s: reason %q gives no rule to write", key, reason)
		}
		var rule map[string]map[string]bool
		if err := yaml.Unmarshal([]byte(hint), &rule); err != nil {
			t.Errorf("%s: the hinted rule %s is not YAML: %v", key, hint, err)
			continue
		}
		if _, ok := rule[key]; !ok || len(rule) != 1 {
			t.Errorf("%s: the hinted rule %s reads as %v, not a condition on the key", key, hint, rule)
		}
	}
}
