package chart

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAskWhereARunCannotPauseIsALoadError: an ask: inside a foreach, a
// parallel or select branch, or a subflow (inline or a mounted chart) is
// refused when the chart loads, at the ask's line, so runbook validate
// says it; before, validate passed and the run failed on reaching the ask,
// after the stages before it had run (trial: exec of a foreach asking per
// host ran its scans, then "run failed at each~0/q").
func TestAskWhereARunCannotPauseIsALoadError(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nrunbook: asks\nstages:\n"
	const ask = "{id: q, ask: {question: '\"go?\"', expects: {ok: bool}}}"
	tests := []struct {
		name, stages, want string
	}{
		{"foreach", "  - id: each\n    foreach:\n      items: '[1, 2]'\n      maxBranches: 5\n      stages:\n        - " + ask + "\n", `inside foreach "each"`},
		{"parallel", "  - id: both\n    parallel:\n      left:\n        - " + ask + "\n      right:\n        - {id: s, set: {y: 1}}\n", `inside a branch of parallel "both"`},
		{"select", "  - id: pick\n    select:\n      rules:\n        - {when: 'true', then: a}\n    branches:\n      a:\n        - " + ask + "\n", `inside a branch of select "pick"`},
		{"inline subflow", "  - id: sub\n    subflow:\n      stages:\n        - " + ask + "\n", `inside subflow "sub"`},
		{"decide inside foreach", "  - id: each\n    foreach:\n      items: '[1]'\n      maxBranches: 5\n      stages:\n        - id: d\n          decide:\n            rules:\n              - {when: 'true', then: a, label: yes}\n            default: {branch: b, label: no}\n          branches:\n            a:\n              - " + ask + "\n            b: []\n", `inside foreach "each"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(head+tc.stages))
			var les LoadErrors
			if !errors.As(err, &les) || len(les) != 1 {
				t.Fatalf("err %v: want one load error", err)
			}
			msg := les[0].Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "ask cannot pause the run here") || !strings.HasPrefix(msg, "c.yaml:") {
				t.Errorf("error %q: want it at c.yaml:line:col, saying the ask is %s", msg, tc.want)
			}
		})
	}
	t.Run("mounted chart", func(t *testing.T) {
		dir := t.TempDir()
		write := func(name, text string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write("child.yaml", "version: 1\nrunbook: child\nstages:\n  - "+ask+"\n")
		write("root.yaml", head+"  - {id: sub, subflow: {chart: child.yaml}}\n")
		_, err := Load(filepath.Join(dir, "root.yaml"))
		if err == nil || !strings.Contains(err.Error(), "child.yaml:4:") || !strings.Contains(err.Error(), "inside a subflow chart") {
			t.Errorf("err %v: want the ask in child.yaml refused as inside a subflow chart", err)
		}
		if _, err := Load(filepath.Join(dir, "child.yaml")); err != nil {
			t.Errorf("the child chart on its own: %v (its ask is at its top level)", err)
		}
	})
	t.Run("allowed", func(t *testing.T) {
		text := head + "  - " + ask + "\n  - id: d\n    decide:\n      rules:\n        - {when: ok, then: a, label: yes}\n      default: {branch: b, label: no}\n    branches:\n      a:\n        - {id: q2, ask: {question: '\"sure?\"', expects: {sure: bool}}}\n      b: []\n"
		if _, err := Parse("c.yaml", []byte(text)); err != nil {
			t.Errorf("an ask at the top level and in a decide branch: %v", err)
		}
	})
}
