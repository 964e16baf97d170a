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
            big: [{id: b, verdict: {subject: 'string(item)', verdict: '"at-" + "risk"'}}]
            small: [{id: s, verdict: {subject: 'string(item)', verdict: '"ok"'}}]
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

// TestVerdictWordsOfAnExecStagesAnswer: a verdict column `d.status`, where
// d is written by one exec stage alone and that stage declares exitCodes:,
// has that stage's words, so --fail-on refuses a word outside them; a key
// another place writes too (a set:, an input, a foreach's item), a stage
// with no exitCodes:, or another member leaves the list unknown. Before,
// `--fail-on verdict=dirtty` over `git diff --quiet` under {0: clean, 1:
// dirty} was taken, and the gate passed every run.
func TestVerdictWordsOfAnExecStagesAnswer(t *testing.T) {
	t.Parallel()
	head := "version: 1\nrunbook: w\nresult: {kind: verdict/x}\n"
	diff := "  - {id: d, exec: {command: [git, diff, --quiet], exitCodes: {0: clean, 1: dirty}}}\n"
	verdict := "  - {id: v, verdict: {subject: '\"repo\"', verdict: d.status}}\n"
	cases := []struct {
		name     string
		chart    string
		words    []string
		complete bool
	}{
		{"the stage's answers", "stages:\n" + diff + verdict, []string{"clean", "dirty"}, true},
		{"nagios", "stages:\n  - {id: d, exec: {command: [check_load], exitCodes: nagios}}\n" + verdict, []string{"critical", "ok", "unknown", "warning"}, true},
		{"beside a constant", "stages:\n" + diff + verdict + "  - {id: w, verdict: {subject: '\"x\"', verdict: '\"stale\"'}}\n", []string{"clean", "dirty", "stale"}, true},
		{"no exitCodes", "stages:\n  - {id: d, exec: {command: [git, diff, --quiet]}}\n" + verdict, nil, false},
		{"a set writes d too", "stages:\n" + diff + verdict + "  - {id: s, set: {d: '{\"status\": \"weird\"}'}}\n", []string{}, false},
		{"an input named d", "inputs: {d: {type: object, default: {}}}\nstages:\n  - {id: given, set: {given: d}}\n" + diff + verdict, nil, false},
		{"another member", "stages:\n" + diff + "  - {id: v, verdict: {subject: '\"repo\"', verdict: d.stderr}}\n", nil, false},
	}
	for _, tc := range cases {
		spec, err := Parse("chart.yaml", []byte(head+tc.chart))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		words, complete := spec.VerdictWords()
		if len(words) == 0 {
			words = nil
		}
		want := tc.words
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(words, want) || complete != tc.complete {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, words, complete, want, tc.complete)
		}
	}
}
