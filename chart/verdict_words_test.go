package chart

import (
	"reflect"
	"testing"
)

// TestVerdictWordsKnownOnlyWhenConstant: a chart's verdict words are known
// when every verdict stage (in branches, foreach and inline subflows too)
// writes a constant word and nothing else writes the verdicts key; a word
// computed from the run, or the key written by set:, leaves them unknown.
// --fail-on refuses a word outside a known list (gate.CheckWords).
func TestVerdictWordsKnownOnlyWhenConstant(t *testing.T) {
	t.Parallel()
	head := "version: 1\nrunbook: w\nresult: {kind: verdict/x}\nstages:\n  - {id: seed, set: {xs: '[1]'}}\n"
	cases := []struct {
		name     string
		stages   string
		words    []string
		complete bool
	}{
		{"constants everywhere", `  - id: each
    foreach:
      items: xs
      maxBranches: 5
      stages:
        - id: pick
          decide: {rules: [{when: item > 0, then: big}], default: small}
          branches:
            big: [{id: b, verdict: {subject: '"s"', verdict: '"at-" + "risk"'}}]
            small: [{id: s, verdict: {subject: '"s"', verdict: '"ok"'}}]
  - id: inline
    subflow: {stages: [{id: v, verdict: {subject: '"t"', verdict: '"ok"'}}]}
`, []string{"at-risk", "ok"}, true},
		{"a word from the run", "  - {id: v, verdict: {subject: '\"s\"', verdict: 'string(xs[0])'}}\n", nil, false},
		{"set writes verdicts", "  - {id: v, verdict: {subject: '\"s\"', verdict: '\"ok\"'}}\n  - {id: more, set: {verdicts: '[]'}}\n", []string{"ok"}, false},
		{"an exec into verdicts", "  - {id: verdicts, exec: {command: ['true']}}\n", nil, false},
		{"no verdict stage", "  - {id: x, set: {y: 1}}\n", nil, true},
	}
	for _, tc := range cases {
		spec, err := Parse("chart.yaml", []byte(head+tc.stages))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		words, complete := spec.VerdictWords()
		if !reflect.DeepEqual(words, tc.words) || complete != tc.complete {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, words, complete, tc.words, tc.complete)
		}
	}
}
