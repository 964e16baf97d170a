package chart

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/flow"
)

// issue13Refused are the charts under testdata/issue13 written to be
// refused by the name check.
var issue13Refused = map[string]bool{
	"../testdata/issue13/typo-ident/chart.yaml":       true,
	"../testdata/issue13/unquoted-verdict/chart.yaml": true,
	"../testdata/issue13/dash-key/chart.yaml":         true,
	"../testdata/issue14/secret-argv/chart.yaml":      true, // a secret in a template
	"../testdata/issue13/later-writer/chart.yaml":     true,
	"../testdata/issue13/filter-root-typo/chart.yaml": true,
}

// TestIssue13EveryChartStillLoads: the name check refuses only what no run
// could read. Every chart of the repository outside the bad-input
// catalogue (and the charts written to be refused) still loads.
func TestIssue13EveryChartStillLoads(t *testing.T) {
	t.Parallel()
	var files []string
	for _, root := range []string{"../examples", "../testdata", "testdata/load/good", "../runbook/testdata"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (p == "../testdata/bad" || p == "../testdata/records") {
				return filepath.SkipDir
			}
			// A *_test.yaml is a chart's test file (testing.md), not a chart.
			if !d.IsDir() && strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, "_test.yaml") && !issue13Refused[p] {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("found %d charts; the walk is wrong", len(files))
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("%s does not load:\n%v", f, err)
		}
	}
}

// The loader's foreach index word is flow's (chart does not import flow).
func TestIndexKeyIsFlows(t *testing.T) {
	t.Parallel()
	if indexKey != flow.IndexKey {
		t.Errorf("chart's index key %q, flow's %q", indexKey, flow.IndexKey)
	}
}

func TestVarsLoad(t *testing.T) {
	t.Parallel()
	spec := mustLoad(t, "../testdata/issue13/vars/chart.yaml")
	var keys []string
	for _, v := range spec.Vars {
		keys = append(keys, v.Key)
	}
	if strings.Join(keys, ",") != "margin,warnAt,levels" {
		t.Errorf("vars = %v, want margin, warnAt, levels in the order written", keys)
	}
	if sch := compileChartSchema(t); sch.Validate(chartAsJSON(t, "../testdata/issue13/vars/chart.yaml")) != nil {
		t.Error("the schema refuses a chart with vars")
	}
}

// A mounted chart's vars would never be evaluated (only the chart run
// names its vars), so they are refused rather than ignored.
func TestMountedVarsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("sub.yaml", "version: 1\nrunbook: sub\nvars: {k: 1}\nstages:\n  - {id: s, set: {x: k}}\n")
	root := write("root.yaml", "version: 1\nrunbook: root\nstages:\n  - id: m\n    subflow: {chart: sub.yaml}\n")
	_, err := Load(root)
	var les LoadErrors
	if !errors.As(err, &les) || !strings.Contains(err.Error(), "sub.yaml:3:1: vars: a mounted chart's constants are never evaluated") {
		t.Errorf("Load = %v; want the mounted chart's vars refused at sub.yaml:3:1", err)
	}
}

// Names a mounted chart writes are defined in the chart that mounts it
// (its scope joins the parent's), and a chart mounted without inputs reads
// the parent's keys: neither is refused.
func TestNamesAcrossMounts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sub.yaml"), []byte("version: 1\nrunbook: sub\nstages:\n  - {id: s, set: {fromSub: fromRoot + 1}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root.yaml")
	body := "version: 1\nrunbook: root\nstages:\n  - {id: a, set: {fromRoot: 1}}\n  - id: m\n    subflow: {chart: sub.yaml}\n  - {id: b, set: {both: fromSub + fromRoot}}\n"
	if err := os.WriteFile(root, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(root); err != nil {
		t.Errorf("Load: %v", err)
	}
}

// A subtraction written with spaces between names that are all defined is
// a subtraction, even when the joined word is a key too; a spaced one whose
// parts are not defined reads the key and is refused.
func TestDashedKeySpaced(t *testing.T) {
	t.Parallel()
	ok := "version: 1\nrunbook: d\nstages:\n  - {id: s, set: {a: 3, b: 1, a-b: 0}}\n  - {id: t, set: {d: a - b}}\n"
	if _, err := Parse("ok.yaml", []byte(ok)); err != nil {
		t.Errorf("a - b with a, b defined: %v", err)
	}
	bad := "version: 1\nrunbook: d\nstages:\n  - {id: s, set: {a-b: 0}}\n  - {id: t, set: {d: a - b}}\n"
	_, err := Parse("bad.yaml", []byte(bad))
	if err == nil || !strings.Contains(err.Error(), `bad.yaml:5:22: stage "t": set "d": expression "a - b" reads the key a-b as a minus b`) {
		t.Errorf("a - b with only a-b defined: %v", err)
	}
}

// TestIssue13LaterWriterIsALoadError: a stage that reads a key only a
// later stage writes, with no loop leading back, read nothing on every
// run, and the loader said nothing (the key is "defined" somewhere). Now
// it is a load error naming the stage that writes it. Filter-form rules
// (and their keys' root names) go through the same check as expressions.
func TestIssue13LaterWriterIsALoadError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"set reads a later set", `
stages:
  - {id: report, set: {summary: total + 1}}
  - {id: count, set: {total: 3}}
`, `x.yaml:4:33: stage "report": set "summary": expression "total + 1" reads total, which only stage "count" (line 5) writes, and it runs after this stage on every path`},
		{"decider reads a key its own branch writes", `
stages:
  - id: d
    decide:
      rules: [{when: seen == 1, then: a}]
      default: b
    branches:
      a: [{id: sa, set: {seen: 1}}]
      b: [{id: sb, set: {other: 2}}]
`, `stage "d": rule 1 when: expression "seen == 1" reads seen, which only stage "sa" (line 9) writes`},
		{"foreach items from its own body", `
stages:
  - id: fe
    foreach:
      items: found
      maxBranches: 3
      stages: [{id: s, set: {found: '[1]'}}]
`, `stage "fe": foreach items: expression "found" reads found, which only stage "s" (line 8) writes`},
		{"a body stage reads a later body stage", `
stages:
  - id: fe
    foreach:
      items: '[1, 2]'
      maxBranches: 3
      stages:
        - {id: first, set: {y: x + item}}
        - {id: second, set: {x: 1}}
`, `stage "first": set "y": expression "x + item" reads x, which only stage "second" (line 10) writes`},
		{"several later writers", `
stages:
  - {id: r, set: {y: x}}
  - {id: w1, set: {x: 1}}
  - {id: w2, set: {x: 2}}
`, `reads x, which only stage "w1" (line 5) and stage "w2" (line 6) write, and they run after this stage`},
		{"filter key defined nowhere", `
stages:
  - {id: v, set: {volume: '{"used": 95}'}}
  - id: d
    decide:
      rules: [{when: {volum.used: {gt: 90}}, then: a}]
      default: a
    branches: {a: [{id: m, set: {z: 1}}]}
`, `x.yaml:7:16: stage "d": rule 1 when: filter key "volum.used" reads volum, which no input, var, stage key, foreach as or index defines; did you mean "volume"?`},
		{"filter key in brackets, written later", `
stages:
  - id: d
    select:
      rules: [{when: {'["per-vol"].n': {exists: true}}, then: a}]
    branches: {a: [{id: m, set: {z: 1}}]}
  - {id: w, set: {per-vol: '{"n": 1}'}}
`, `stage "d": rule 1 when: filter key "[\"per-vol\"].n" reads per-vol, which only stage "w" (line 8) writes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("x.yaml", []byte("version: 1\nrunbook: x"+tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v\nwant an error saying %s", err, tc.want)
			}
		})
	}
}

// TestIssue13LaterWriterNoFalseErrors: where a run can reach the writer
// before the reader, or the order is not the loader's to know, nothing is
// refused.
func TestIssue13LaterWriterNoFalseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body string }{
		{"a loop leads back", `
stages:
  - {id: start, set: {n: 'next ?? 0'}}
  - {id: bump, set: {next: n + 1}}
  - {id: again, loop: {to: start, while: n < 3, max: 5}}
`},
		{"a loop in a branch leads back", `
stages:
  - {id: start, set: {n: 'next ?? 0'}}
  - id: d
    decide:
      rules: [{when: n < 3, then: more}]
      default: done
    branches:
      more:
        - {id: bump, set: {next: n + 1}}
        - {id: again, loop: {to: start, max: 5}}
      done: [{id: fin, set: {z: 1}}]
`},
		{"written in an earlier branch", `
stages:
  - id: d
    decide:
      rules: [{when: 'true', then: a}]
      default: b
    branches:
      a: [{id: sa, set: {k: 1}}]
      b: [{id: sb, set: {k: 2}}]
  - {id: r, set: {y: k}}
`},
		{"parallel branches beside each other", `
stages:
  - id: p
    parallel:
      one: [{id: r, set: {y: 'x ?? 0'}}]
      two: [{id: w, set: {x: 1}}]
`},
		{"a select's branches beside each other", `
stages:
  - id: s
    select:
      rules: [{when: 'true', then: one}, {when: 'true', then: two}]
    branches:
      one: [{id: r, set: {y: 'x ?? 0'}}]
      two: [{id: w, set: {x: 1}}]
`},
		{"a foreach body reads its item and index, and the foreach's into after it", `
stages:
  - id: fe
    foreach:
      items: '[1, 2]'
      maxBranches: 3
      into: results
      stages: [{id: s, set: {y: item + index}}]
  - {id: after, set: {n: len(results)}}
`},
		{"an inline subflow writes what a stage before it reads", `
stages:
  - {id: r, set: {y: 'x ?? 0'}}
  - id: sf
    subflow:
      stages: [{id: w, set: {x: 1}}]
`},
		{"result checks read what the last stage writes", `
result:
  kind: status/x
  checks: [done == true]
stages:
  - {id: w, set: {done: 'true'}}
`},
		{"an id written twice in one file (a body reuses a root id)", `
stages:
  - id: fe
    foreach:
      items: '[1]'
      maxBranches: 3
      stages: [{id: s, set: {y: 'x ?? 0'}}]
  - {id: s, set: {x: 1}}
`},
		{"an input read before a stage writes the same key", `
inputs:
  k: {type: number, default: 1}
stages:
  - {id: r, set: {y: k}}
  - {id: w, set: {k: 2}}
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse("x.yaml", []byte("version: 1\nrunbook: x"+tc.body)); err != nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}
