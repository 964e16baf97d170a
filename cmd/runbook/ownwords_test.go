package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFailureSaidOnStdoutIsQuoted: a tool that says its error on stdout
// and nothing on stderr (smartctl that could not open its disk, exit 2)
// had its failure quoted by nothing: `per~0/health: completed with
// failure, exit 2` and no reason in the Scripts part or the Nagios line
// (wave-bits' design question 4). Its stdout's last lines are quoted
// now, said as stdout's; a failure that wrote on stderr quotes stderr
// alone, as before. A real process.
func TestFailureSaidOnStdoutIsQuoted(t *testing.T) {
	dir := t.TempDir()
	tool := fakeTool(t, filepath.Join(dir, "bin", "smartctl"),
		"smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\nCopyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\nSmartctl open device: /dev/vda failed: Operation not permitted\n", "", 2)
	loud := fakeTool(t, filepath.Join(dir, "bin", "loud"), "some output\n", "loud: cannot read the disk\n", 2)
	chart := func(cmd string) string {
		return `version: 1
runbook: smart
result: {kind: verdict/disk}
stages:
  - id: health
    exec:
      command: [` + cmd + `, -H, /dev/vda]
      exitCodes: {0: ok}
  - id: mark
    verdict: {subject: '"vda"', verdict: 'health.status ?? "unread"'}
`
	}
	for _, tc := range []struct {
		name, tool, text, nagios string
		stdout                   bool
	}{
		{"nothing on stderr", tool, "Smartctl open device: /dev/vda failed: Operation not permitted",
			`nothing on stderr, its stdout's last line: "Smartctl open device: /dev/vda failed: Operation not permitted"`, true},
		{"something on stderr", loud, "loud: cannot read the disk", `its stderr's last line: "loud: cannot read the disk"`, false},
	} {
		path := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(path, []byte(chart(tc.tool)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, dir, "exec", path)
		if !strings.Contains(r.stdout, "| "+tc.text) || strings.Contains(r.stdout, "its stdout ended:") != tc.stdout {
			t.Errorf("%s: the Scripts part does not quote %q as it should (from stdout: %v):\n%s", tc.name, tc.text, tc.stdout, r.stdout)
		}
		if tc.stdout && strings.Contains(r.stdout, "| some output") {
			t.Errorf("%s: stdout quoted beside stderr:\n%s", tc.name, r.stdout)
		}
		nagiosSays(t, dir, tc.name, "smart UNKNOWN", 3, tc.nagios, "exec", "--format", "nagios", path)
	}
}
