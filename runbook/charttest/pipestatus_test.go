package charttest

import (
	"strings"
	"testing"
)

// TestStubPipeStatusIsAScriptsEnd: a stub's pipeStatus is a shell
// script's last pipeline's codes, the last its exit code; one that says
// otherwise, or a process that did not exit, is a load error at its place.
func TestStubPipeStatusIsAScriptsEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "chart.yaml", "version: 1\nrunbook: p\nstages:\n  - id: h\n    exec: {shell: 'a | grep -q X', exitCodes: {0: bad, 1: good}}\n")
	if _, err := Load(writeFile(t, dir, "ok_test.yaml", "version: 1\nchart: chart.yaml\ncases:\n  - name: ok\n    stubs:\n      h: {exitCode: 1, pipeStatus: [2, 1]}\n")); err != nil {
		t.Fatalf("a pipeline's codes: %v", err)
	}
	_, err := Load(writeFile(t, dir, "bad_test.yaml", `version: 1
chart: chart.yaml
cases:
  - name: last
    stubs:
      h: {exitCode: 1, pipeStatus: [2, 0]}
  - name: ended
    stubs:
      h: {timedOut: true, pipeStatus: [2, 1]}
  - name: one
    stubs:
      h: {exitCode: 1, pipeStatus: [1]}
  - name: range
    stubs:
      h: {exitCode: 1, pipeStatus: [300, 1]}
`))
	if err == nil {
		t.Fatal("loaded")
	}
	for _, want := range []string{
		`bad_test.yaml:6:36: case "last": stub h: pipeStatus's last code (0) is the script's exit code, and exitCode is 1`,
		`bad_test.yaml:9:39: case "ended": stub h: pipeStatus is the codes of a script that exited, and this one did not`,
		`bad_test.yaml:12:36: case "one": stub h: pipeStatus is a pipeline's exit codes, one a command`,
		`bad_test.yaml:15:37: case "range": stub h: pipeStatus 1 is 300, and a process exits with 0 to 255`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error:\n%v\nwant it to hold %q", err, want)
		}
	}
}
