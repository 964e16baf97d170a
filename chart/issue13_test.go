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
