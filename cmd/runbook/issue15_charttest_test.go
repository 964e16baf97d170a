package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// Issue 15, `runbook test`: each test runs the real binary from the
// repository's root, so the paths in the output are the ones a person
// types; times are masked before a golden compare.

var (
	caseTimes  = regexp.MustCompile(`\([0-9.]+s\)`)
	jsonTimes  = regexp.MustCompile(`"seconds":[0-9.e+-]+`)
	junitTimes = regexp.MustCompile(`time="[0-9.]+"`)
)

func maskTimes(s string) string {
	s = caseTimes.ReplaceAllString(s, "(0.00s)")
	s = jsonTimes.ReplaceAllString(s, `"seconds":0`)
	return junitTimes.ReplaceAllString(s, `time="0.000"`)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

const svc = "testdata/charttest/svc/"

func TestIssue15TestPasses(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"pass_test.yaml")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden.Check(t, "testdata/charttest/pass.txt", []byte(maskTimes(r.stdout)))
}

// A failing case prints each mismatch at the expect key's file:line:col,
// expected against actual, a row diff for verdicts; an exec stage reached
// with no stub fails the case naming it.
func TestIssue15TestFailureDiff(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"fail_test.yaml")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"FAIL  " + svc + "fail_test.yaml  wrong rows",
		"    - {subject: db, verdict: flapping}\n        + {subject: db, verdict: steady, restarts: 1}",
		`stage "probe" was reached with no stub`,
		"ok    " + svc + "fail_test.yaml  passes",
		"1 passed, 2 failed\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	golden.Check(t, "testdata/charttest/fail.txt", []byte(maskTimes(r.stdout)))
}

// The plugin stage is refused unstubbed too, and a plugin stub's assumed
// argument reaches the standing as a plugin default would.
func TestIssue15TestPluginStubs(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", "testdata/charttest/plugin")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"ok    testdata/charttest/plugin/plugin_test.yaml  answers 200, timeout assumed",
		"ok    testdata/charttest/plugin/plugin_test.yaml  the plugin fails",
		"FAIL  testdata/charttest/plugin/plugin_test.yaml  not stubbed",
		`stage "health" was reached with no stub`,
		"2 passed, 1 failed",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestIssue15TestJSON(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"fail_test.yaml", "-o", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 case objects and a summary, got %d lines:\n%s", len(lines), r.stdout)
	}
	var sum struct{ Passed, Failed int }
	if err := json.Unmarshal([]byte(lines[3]), &sum); err != nil || sum.Passed != 1 || sum.Failed != 2 {
		t.Errorf("summary %s: %+v %v", lines[3], sum, err)
	}
	golden.Check(t, "testdata/charttest/fail.json", []byte(maskTimes(r.stdout)))
}

// JUnit XML parses back with a testcase per case and a failure per failed
// case.
func TestIssue15TestJUnit(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"fail_test.yaml", svc+"pass_test.yaml", "-o", "junit")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	var got junitSuites
	if err := xml.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not XML: %v\n%s", err, r.stdout)
	}
	if got.Tests != 5 || got.Failures != 2 || len(got.Suites) != 2 {
		t.Errorf("tests %d failures %d suites %d, want 5 2 2", got.Tests, got.Failures, len(got.Suites))
	}
	failed := 0
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failed++
				if c.Failure.Text == "" {
					t.Errorf("case %q: a failure with no text", c.Name)
				}
			}
		}
	}
	if failed != 2 {
		t.Errorf("%d testcases carry a failure, want 2", failed)
	}
	golden.Check(t, "testdata/charttest/fail.junit.xml", []byte(maskTimes(r.stdout)))
}

func TestIssue15TestRunSelects(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"fail_test.yaml", "--run", "^pass")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (only the passing case runs)\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "wrong rows") || !strings.Contains(r.stdout, "1 passed, 0 failed") {
		t.Errorf("--run ran other cases:\n%s", r.stdout)
	}
	if r := runCLI(t, repoRoot(t), "test", svc, "--run", "("); r.code != 2 {
		t.Errorf("a bad --run: exit %d, want 2", r.code)
	}
}

// --update rewrites each expect from the run, keeping comments and order;
// the file then passes, and a second --update changes nothing.
func TestIssue15TestUpdate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for from, to := range map[string]string{"chart.yaml": "chart.yaml", "update_test.yaml.in": "update_test.yaml"} {
		b, err := os.ReadFile(filepath.Join("../..", svc, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := runCLI(t, dir, "test", "update_test.yaml"); r.code != 1 {
		t.Fatalf("before --update: exit %d, want 1\n%s", r.code, r.stdout)
	}
	r := runCLI(t, dir, "test", "--update", "update_test.yaml")
	if r.code != 0 {
		t.Fatalf("--update: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "updated update_test.yaml") {
		t.Errorf("stderr does not say the file was updated: %q", r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "update_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"# --update rewrites what the run produced; this comment stays.", "# the status comment stays", "# decisions are not rewritten"} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("the comment %q was lost", kept)
		}
	}
	golden.Check(t, "testdata/charttest/updated_test.yaml", got)
	if r := runCLI(t, dir, "test", "update_test.yaml"); r.code != 0 {
		t.Errorf("after --update: exit %d, want 0\n%s", r.code, r.stdout)
	}
	runCLI(t, dir, "test", "--update", "update_test.yaml")
	again, _ := os.ReadFile(filepath.Join(dir, "update_test.yaml"))
	if string(again) != string(got) {
		t.Errorf("a second --update changed the file:\n%s", again)
	}
}

func TestIssue15TestCoverage(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"pass_test.yaml", svc+"fail_test.yaml", "--coverage")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	i := strings.Index(r.stdout, "coverage of ")
	if i < 0 {
		t.Fatalf("no coverage:\n%s", r.stdout)
	}
	golden.Check(t, "testdata/charttest/coverage.txt", []byte(r.stdout[i:]))

	r = runCLI(t, repoRoot(t), "test", svc+"pass_test.yaml", "--coverage", "-o", "json")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	golden.Check(t, "testdata/charttest/coverage.json", []byte(lines[len(lines)-1]+"\n"))
}

// pass_test.yaml matches 2 of the 4 rules and defaults (rule 3 is never
// reached by any case there).
func TestIssue15TestCoverageMin(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"pass_test.yaml", "--coverage-min", "90")
	if r.code != 1 || !strings.Contains(r.stderr, "rule coverage 50.0% is below --coverage-min 90%") {
		t.Errorf("exit %d, stderr %q; want 1 naming the coverage", r.code, r.stderr)
	}
	if r := runCLI(t, repoRoot(t), "test", svc+"pass_test.yaml", "--coverage-min", "50"); r.code != 0 {
		t.Errorf("--coverage-min 50 at 50%%: exit %d, want 0\n%s", r.code, r.stderr)
	}
}

// Unknown keys, a stub for a stage the chart lacks, and an unknown expect
// key are errors at file:line:col, with "did you mean"; exit 2.
func TestIssue15TestBadFile(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", svc+"bad_test.yaml")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden.Check(t, "testdata/charttest/bad.stderr", []byte(r.stderr))
}

// Every example's test file passes on its stubs (CI runs this through go
// test: no real df, find or plugin).
func TestIssue15ExampleTestsPass(t *testing.T) {
	t.Parallel()
	r := runCLI(t, repoRoot(t), "test", "./examples/...")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "examples/disk/disk_test.yaml") || !strings.Contains(r.stdout, " 0 failed") {
		t.Errorf("the disk example's tests did not run:\n%s", r.stdout)
	}
}
