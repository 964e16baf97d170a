package main

import (
	"strings"
	"testing"
)

// TestNagiosQuotesTheCauseNotTheHint: git run over a repository another
// user owns (etckeeper's /etc, checked by a monitoring user) exits 128,
// says `fatal: detected dubious ownership in repository at '/etc'`, then
// `To add an exception for this directory, call:` and the command,
// indented. The check's line quoted stderr's last line, the command
// `git config --global --add safe.directory /etc`, as if that were why
// it failed. A line that is indented (a command, a hint's body) or ends
// with ':' (what introduces one) is passed over for the last line before
// it that is neither; stderr of such lines alone is quoted by its last
// (testdata/wave-drift/etc-git).
func TestNagiosQuotesTheCauseNotTheHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, stderr, want string }{
		{"git", `fatal: detected dubious ownership in repository at '"'"'/etc'"'"'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /etc\n`, `"fatal: detected dubious ownership in repository at '/etc'"`},
		{"indented alone", `\tonly an indented line\n`, `"only an indented line"`},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: etc-drift
result: {kind: verdict/tracked-file, empty: answer}
stages:
  - id: status
    exec:
      parse: lines
      shell: |
        printf '`+tc.stderr+`' >&2
        exit 128
  - id: v
    verdict: {subject: '"etc"', verdict: '"clean"'}
`)
		r := runCLI(t, dir, "exec", chart, "-o", "nagios")
		want := "UNKNOWN: script status completed with failure, exit 128: the rows rest on no answer of it; its stderr's last line: " + tc.want
		if want2 := strings.Replace(want, "its stderr's last line", "its stderr's last line before a hint", 1); !strings.Contains(r.stdout, want+"\n") && !strings.Contains(r.stdout, want2+"\n") {
			t.Errorf("%s: want the line %q:\n%s", tc.name, want, r.stdout)
		}
	}
}

// TestNagiosQuotesAJavaExceptionNotItsFrames: jstat over a PID gone
// (OpenJDK 17) writes `sun.jvmstat.monitor.MonitorException: 99999 not
// found`, its stack, `Caused by: java.lang.IllegalArgumentException:
// Process not found`, four more frames and `... 4 more`, and exits 1;
// the Nagios line quoted `... 4 more`, the last of the five lines the
// text shows, all of them frames. It quotes the cause now.
func TestNagiosQuotesAJavaExceptionNotItsFrames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "gc.yaml", `version: 1
runbook: jvm-heap
result: {kind: verdict/jvm, empty: answer}
stages:
  - id: gc
    exec:
      parse: lines
      shell: |
        printf 'sun.jvmstat.monitor.MonitorException: 99999 not found\n\tat jdk.internal.jvmstat/sun.jvmstat.perfdata.monitor.protocol.local.PerfDataBuffer.<init>(PerfDataBuffer.java:85)\n\tat jdk.jcmd/sun.tools.jstat.Jstat.main(Jstat.java:70)\nCaused by: java.lang.IllegalArgumentException: Process not found\n\tat java.base/jdk.internal.perf.Perf.attach(Native Method)\n\tat java.base/jdk.internal.perf.Perf.attachImpl(Perf.java:273)\n\tat java.base/jdk.internal.perf.Perf.attach(Perf.java:203)\n\tat jdk.internal.jvmstat/sun.jvmstat.perfdata.monitor.protocol.local.PerfDataBuffer.<init>(PerfDataBuffer.java:65)\n\t... 4 more\n' >&2
        exit 1
  - id: v
    verdict: {subject: '"99999"', verdict: '"ok"'}
`)
	r := runCLI(t, dir, "exec", chart, "-o", "nagios")
	const want = `its stderr's last line before a stack trace: "Caused by: java.lang.IllegalArgumentException: Process not found"`
	if !strings.Contains(r.stdout, want) {
		t.Errorf("want %q:\n%s", want, r.stdout)
	}
}
