package runbook_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/internal/proc"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// open14 writes src as chart.yaml in a folder of its own and opens it from
// there, so relative paths in it are the folder's, not the test's.
func open14(t *testing.T, src string, files map[string]string) (*runbook.Runbook, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return rb, dir
}

func run14(t *testing.T, rb *runbook.Runbook, given map[string]any) *record.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := rb.Exec(ctx, given)
	if err != nil {
		t.Fatal(err)
	}
	return res.Record
}

// TestIssue14TemplatedArgvRuns: a real process gets the rendered argv —
// strings as they are (spaces kept in one argument), numbers in plain
// decimal, $${ a literal ${ — and the script row says what ran.
func TestIssue14TemplatedArgvRuns(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: argv
inputs:
  pattern: {type: string, default: "a b"}
  big: {type: number, default: 13700000000}
stages:
  - id: show
    exec: {command: [printf, "%s|", "${pattern}", "${big}", "${big / 4}", "$${HOME}", "-n${len(pattern)}"]}
`)
	rec := run14(t, rb, nil)
	out := rec.State["show"].(map[string]any)["stdout"]
	if want := "a b|13700000000|3425000000|${HOME}|-n3|"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	if len(rec.Scripts) != 1 || rec.Scripts[0].Ran == nil {
		t.Fatalf("scripts: %+v", rec.Scripts)
	}
	if got := strings.Join(rec.Scripts[0].Ran.Argv, " "); got != "printf %s| a b 13700000000 3425000000 ${HOME} -n3" {
		t.Errorf("the row's argv = %q", got)
	}
}

// TestIssue14TimeoutTemplate: `timeout: ${t}` bounds the process by the
// input's duration (a sleep past it is stopped, the row's cause says
// after how long); a template that renders to no duration fails the
// stage, naming the template and what it gave, and nothing runs.
func TestIssue14TimeoutTemplate(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: timeout
inputs:
  t: {type: string, default: 300ms}
stages:
  - id: nap
    exec: {command: [sleep, "5"], timeout: "${t}"}
`)
	start := time.Now()
	rec := run14(t, rb, nil)
	if time.Since(start) > 4*time.Second {
		t.Errorf("the run took %v: the template's 300ms did not bound the sleep", time.Since(start))
	}
	if len(rec.Scripts) != 1 || rec.Scripts[0].Label != "outcome-unknown" || rec.Scripts[0].Cause != "timed out after 300ms" {
		t.Fatalf("scripts %+v; want one outcome-unknown row timed out after 300ms", rec.Scripts)
	}
	rec = run14(t, rb, map[string]any{"t": "banana"})
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, `exec timeout "${t}" gave "banana", not a positive duration`) {
		t.Fatalf("status %s error %+v; want the stage failed naming the template", rec.Status, rec.Error)
	}
	if len(rec.Scripts) != 0 {
		t.Errorf("a process ran with a timeout nobody gave: %+v", rec.Scripts)
	}
}

// TestIssue14ReadStage: read: with a path relative to the chart's folder,
// a glob in path order, a missing file as exists: false, json parsed as
// exec's stdout is, a file over the output cap withheld, and a folder a
// failure of the stage.
func TestIssue14ReadStage(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", proc.DefaultMaxOutput+1)
	rb, _ := open14(t, `version: 1
runbook: reads
stages:
  - id: one
    read: {path: '"data/one.txt"'}
  - id: all
    read: {glob: '"data/*.txt"', parse: lines}
  - id: gone
    read: {path: '"data/none.txt"'}
  - id: conf
    read: {path: '"conf.json"', parse: json}
  - id: huge
    read: {path: '"big.txt"'}
`, map[string]string{"data/one.txt": "first\n", "data/b.txt": "b1\nb2\n", "data/a.txt": "a1\n", "conf.json": `{"limit": 90}`, "big.txt": big})
	rec := run14(t, rb, nil)
	if rec.Status != "completed" {
		t.Fatalf("status %s error %+v", rec.Status, rec.Error)
	}
	one := rec.State["one"].(map[string]any)
	if one["path"] != "data/one.txt" || one["exists"] != true || one["content"] != "first\n" {
		t.Errorf("one = %v", one)
	}
	all := rec.State["all"].([]any)
	var paths []string
	for _, f := range all {
		paths = append(paths, f.(map[string]any)["path"].(string))
	}
	if strings.Join(paths, " ") != "data/a.txt data/b.txt data/one.txt" {
		t.Errorf("glob paths = %v, want path order", paths)
	}
	if c := all[1].(map[string]any)["content"].([]any); len(c) != 2 || c[1] != "b2" {
		t.Errorf("b.txt lines = %v", c)
	}
	if gone := rec.State["gone"].(map[string]any); gone["exists"] != false || gone["content"] != nil {
		t.Errorf("gone = %v", gone)
	}
	if conf := rec.State["conf"].(map[string]any)["content"].(map[string]any); conf["limit"] != 90 && conf["limit"] != 90.0 {
		t.Errorf("conf = %v", conf)
	}
	huge := rec.State["huge"].(map[string]any)
	if huge["content"] != nil || !strings.Contains(huge["withheld"].(string), "cap") {
		t.Errorf("huge: content %.20v withheld %v", huge["content"], huge["withheld"])
	}

	rb, _ = open14(t, "version: 1\nrunbook: folder\nstages:\n  - {id: d, read: {path: '\"data\"'}}\n", map[string]string{"data/x": ""})
	if rec := run14(t, rb, nil); rec.Status != "failed" || !strings.Contains(rec.Error.Message, "it is a folder") {
		t.Errorf("a folder: status %s error %+v", rec.Status, rec.Error)
	}
}

// TestIssue14OnErrorContinueEveryKind: under onError: continue a failed
// stage of any kind lets the run go on; into, where the stage has one,
// holds {error}; the ledger names the stage and the error; without it the
// same chart fails at that stage.
func TestIssue14OnErrorContinueEveryKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stage, into string
	}{
		{"set", `{id: broken, ONERROR set: {x: 'missing.field'}}`, ""},
		{"exec", `{id: broken, ONERROR exec: {command: [echo, "${missing.field}"], into: out}}`, "out"},
		{"read", `{id: broken, ONERROR read: {path: 'missing.field', into: out}}`, "out"},
		{"fail", `{id: broken, ONERROR fail: '"stop here"'}`, ""},
		{"verdict", `{id: broken, ONERROR verdict: {subject: '"s"', verdict: '1'}}`, ""},
		{"decide branch", `{id: broken, ONERROR decide: {rules: [{when: 'true', then: b}], default: b}, branches: {b: [{id: inner, fail: '"inner failed"'}]}}`, ""},
		{"subflow", `{id: broken, ONERROR subflow: {stages: [{id: inner, fail: '"inner failed"'}]}}`, ""},
		{"loop bound", `{id: broken, ONERROR loop: {to: first, while: 'true', max: 2}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := func(onError string) string {
				return "version: 1\nrunbook: cont\nstages:\n  - {id: first, set: {missing: '\"text\"'}}\n  - " +
					strings.Replace(tc.stage, "ONERROR", onError, 1) + "\n  - {id: after, set: {ran: 'true'}}\n"
			}
			rec := run14(t, parse(t, src("onError: continue,")), nil)
			if rec.Status != "completed" || rec.State["ran"] != true {
				t.Fatalf("status %s error %+v ran %v; want the run to go on past the failure", rec.Status, rec.Error, rec.State["ran"])
			}
			if tc.into != "" {
				v, _ := rec.State[tc.into].(map[string]any)
				if msg, _ := v["error"].(string); msg == "" || len(v) != 1 {
					t.Errorf("%s = %v; want {error: …}", tc.into, rec.State[tc.into])
				}
			}
			var named bool
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					if e.Path == "broken" && it.Kind == record.ItemFailed && strings.Contains(it.Why, "onError: continue let the run go on") {
						named = true
					}
				}
			}
			if !named {
				t.Errorf("the ledger does not name the failed stage: %+v", rec.Coverage)
			}
			if rec.Assessment != nil && rec.Assessment.Standing == "known" {
				t.Errorf("a run with a failed stage stands as Known: %s", rec.Assessment.Line)
			}
			failed := run14(t, parse(t, src("")), nil)
			if failed.Status != "failed" || failed.State["ran"] == true {
				t.Errorf("without onError: status %s ran %v; want the run failed at the stage", failed.Status, failed.State["ran"])
			}
		})
	}
}

// TestIssue14InheritEnv: inheritEnv passes the named variables through
// from the runner's environment; an unnamed one is not passed, and env:
// wins over an inherited one.
func TestIssue14InheritEnv(t *testing.T) {
	t.Setenv("RB14_PASSED", "from-runner")
	t.Setenv("RB14_OTHER", "not-named")
	t.Setenv("RB14_OVER", "runner")
	rb := parse(t, `version: 1
runbook: inherit
stages:
  - id: show
    exec:
      command: [sh, -c, 'echo "$RB14_PASSED|$RB14_OTHER|$RB14_OVER|$RB14_UNSET"']
      inheritEnv: [RB14_PASSED, RB14_OVER, RB14_UNSET]
      env: {RB14_OVER: chart}
  - id: without
    exec: {command: [sh, -c, 'echo "$RB14_PASSED"']}
`)
	rec := run14(t, rb, nil)
	if got := rec.State["show"].(map[string]any)["stdout"]; got != "from-runner||chart|\n" {
		t.Errorf("with inheritEnv: %q", got)
	}
	if got := rec.State["without"].(map[string]any)["stdout"]; got != "\n" {
		t.Errorf("without inheritEnv the variable reached the command: %q", got)
	}
}
