package charttest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// svcCase is a case of testdata/charttest/svc's chart: a flapping web and
// a steady db, with the expect given.
func svcCase(name, expect string) string {
	return `  - name: ` + name + `
    stubs:
      list: {stdout: '[{"name":"web","restarts":7},{"name":"db","restarts":0}]'}
      probe: {exitCode: 0}
    expect:
` + expect
}

// expect.failOn is exec's --fail-on: the exit a case expects is the one
// exec would give with those conditions (3 when one holds), judged by gate.
func TestLoop15ExpectFailOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	text := "version: 1\nchart: chart.yaml\ncases:\n" +
		svcCase("flapping fails on", "      failOn: [verdict=flapping]\n      exit: 3\n") +
		svcCase("down does not", "      failOn: [verdict=down]\n      exit: 0\n") +
		svcCase("a failOn that holds, expected 0", "      failOn: ['verdict=steady|down']\n      exit: 0\n") +
		svcCase("no failOn", "      exit: 0\n")
	f, err := Load(writeFile(t, dir, "f_test.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	want := []struct {
		pass bool
		exit int
	}{{true, 3}, {true, 0}, {false, 3}, {true, 0}}
	for i, c := range res.Cases {
		if c.Passed() != want[i].pass || c.Exit != want[i].exit {
			t.Errorf("case %q: passed %v exit %d (failures %v); want passed %v exit %d", c.Case.Name, c.Passed(), c.Exit, c.Failures, want[i].pass, want[i].exit)
		}
	}
	if got := res.Cases[2].Failures[0].String(); !strings.Contains(got, "exit: expected 0, got 3") || !strings.Contains(got, "failOn held: verdict=steady|down") {
		t.Errorf("failure %q: want the exit and the condition that held", got)
	}
}

// A failOn condition that does not read is an error at its file:line:col,
// in gate's words.
func TestLoop15ExpectFailOnBadCondition(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	text := "version: 1\nchart: chart.yaml\ncases:\n" + svcCase("bad", "      failOn: [not-shure]\n")
	_, err := Load(writeFile(t, dir, "f_test.yaml", text))
	var les chart.LoadErrors
	if !errors.As(err, &les) {
		t.Fatalf("err %v: want load errors", err)
	}
	if got := les[0].Error(); !strings.Contains(got, "f_test.yaml:9:15:") || !strings.Contains(got, `did you mean "not-sure"`) {
		t.Errorf("error %q: want it at 9:15 with a suggestion", got)
	}
}

func copyChart(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile("../../testdata/charttest/svc/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "chart.yaml", string(b))
}

// files: stubs stand for read: stages as stubs: do for exec: a path read
// is the stubbed file (missing: true, exists false), a glob matches the
// stubbed paths, and a read with no stub fails the case naming the stage
// and what it read, never touching the real file system.
func TestLoop15ReadStubs(t *testing.T) {
	t.Parallel()
	f, err := Load("../../testdata/charttest/read/read_test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if len(res.Cases) != 3 {
		t.Fatalf("%d cases", len(res.Cases))
	}
	for _, c := range res.Cases[:2] {
		if !c.Passed() {
			t.Errorf("case %q: %v", c.Case.Name, c.Failures)
		}
	}
	c := res.Cases[2]
	if len(c.Failures) != 1 || c.Failures[0].Key != "stub" || !strings.Contains(c.Failures[0].Msg, `stage "confs" read glob "conf.d/*.json" with no stub`) {
		t.Errorf("case %q failures %v: want the unstubbed glob named", c.Case.Name, c.Failures)
	}
	if c.Record.Status != "failed" {
		t.Errorf("status %s: an unstubbed read fails its stage", c.Record.Status)
	}
}

// A path read with no stub is refused too (a real /proc/meminfo exists on
// Linux, so a read that went through would pass unseen).
func TestLoop15ReadUnstubbedPathRefused(t *testing.T) {
	t.Parallel()
	f, err := Load("../../testdata/charttest/read/read_test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f.Cases = f.Cases[:1]
	delete(f.Cases[0].Files, "/proc/meminfo")
	c := f.Run(context.Background()).Cases[0]
	if len(c.Failures) == 0 || !strings.Contains(c.Failures[0].Msg, `stage "meminfo" read "/proc/meminfo" with no stub`) {
		t.Errorf("failures %v: want the unstubbed read named", c.Failures)
	}
}

// missing: true with content is a contradiction, refused at load.
func TestLoop15FileStubMissingAndContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: r\nstages:\n  - id: m\n    read: {path: '\"/x\"'}\n")
	_, err := Load(writeFile(t, dir, "x_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    files:\n      /x: {missing: true, content: y}\n"))
	if err == nil || !strings.Contains(err.Error(), "x_test.yaml:6:12:") || !strings.Contains(err.Error(), "not both") {
		t.Errorf("err %v: want the contradiction at 6:12", err)
	}
}

// A read: stage under real: reads the real file (relative to the chart's
// folder), as a real run does; the same case without real: is refused.
func TestLoop15ReadReal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "data.txt", "hello\n")
	writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: r\nstages:\n  - id: m\n    read: {path: '\"data.txt\"'}\n")
	f, err := Load(writeFile(t, dir, "x_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n"+
		"  - name: real\n    real: [m]\n    expect: {status: completed, state: {m.exists: true, m.content: \"hello\\n\"}}\n"+
		"  - name: stubbed\n    expect: {status: completed}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := f.Run(context.Background())
	if !res.Cases[0].Passed() {
		t.Errorf("real: %v", res.Cases[0].Failures)
	}
	if res.Cases[1].Passed() || res.Cases[1].Failures[0].Key != "stub" {
		t.Errorf("no stub, not real: failures %v, want the read refused", res.Cases[1].Failures)
	}
}

// files: stubs for a chart with no read: stage can never be read: an
// error at the files key, not a stub silently ignored.
func TestLoop15FilesWithoutReadStage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyChart(t, dir)
	_, err := Load(writeFile(t, dir, "x_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    files:\n      /etc/x: {content: y}\n"))
	if err == nil || !strings.Contains(err.Error(), "x_test.yaml:5:5:") || !strings.Contains(err.Error(), "the chart has no read: stage") {
		t.Errorf("err %v: want it at 5:5", err)
	}
}

// unreadable: true stands for a file or folder the run may not read: a
// path read fails its stage as a real refusal does; a glob reads the
// others and the run files it as not checked (testdata/wave-refused/
// ssh-keys); with content it is a contradiction, refused at load.
func TestFileStubUnreadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: r\nstages:\n  - id: m\n    read: {path: '\"/x\"'}\n")
	f, err := Load(writeFile(t, dir, "x_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    files:\n      /x: {unreadable: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Run(context.Background()).Cases[0]
	if c.Record.Status != "failed" || c.Record.Error == nil || !strings.Contains(c.Record.Error.Message, "read /x: permission denied") {
		t.Errorf("status %s, error %q: want the path read failed, permission denied", c.Record.Status, c.Record.Error)
	}
	_, err = Load(writeFile(t, dir, "y_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    files:\n      /x: {unreadable: true, content: y}\n"))
	if err == nil || !strings.Contains(err.Error(), "y_test.yaml:6:12:") || !strings.Contains(err.Error(), "not both") {
		t.Errorf("err %v: want the contradiction at 6:12", err)
	}
}
