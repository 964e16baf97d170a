package chart

import "testing"

// TestSinceBootReportIsNoted: iostat's first report is the averages since
// boot, and the 60-second checklist's `iostat -x -o JSON 1 1` printed
// only that one: 2.85% util for a disk at 83.6% while it ran, `disk vda
// ok`, Known. runbook plan notes a sampling tool (vmstat, iostat, mpstat,
// pidstat, sar) whose output holds no report of the last seconds, in a
// command or a shell: line, and a run warns of it once; a chart that
// leaves the first report out (-y) or reads the reports after it does
// not.
func TestSinceBootReportIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"iostat", "-x", "-o", "JSON", "1", "1"}, want: true},
		{cmd: []string{"iostat", "-xz"}, want: true},
		{cmd: []string{"/usr/bin/iostat", "-p", "ALL", "1", "1"}, want: true},
		{cmd: []string{"iostat", "-x", "-y", "-o", "JSON", "1", "1"}, want: false},
		{cmd: []string{"iostat", "-xyz", "3", "1"}, want: false},
		{cmd: []string{"iostat", "-x", "1", "3"}, want: false},
		{cmd: []string{"vmstat"}, want: true},
		{cmd: []string{"vmstat", "1", "1"}, want: true},
		{cmd: []string{"vmstat", "-S", "M", "1", "1"}, want: true},
		{cmd: []string{"vmstat", "1", "5"}, want: false},
		{cmd: []string{"vmstat", "-y", "1", "1"}, want: false},
		{cmd: []string{"vmstat", "-s"}, want: false},
		{cmd: []string{"mpstat", "-P", "ALL"}, want: true},
		{cmd: []string{"mpstat", "-P", "0"}, want: true},
		{cmd: []string{"mpstat", "-P", "ALL", "-o", "JSON", "1", "1"}, want: false},
		{cmd: []string{"pidstat", "-p", "1234"}, want: true},
		{cmd: []string{"pidstat", "1", "3"}, want: false},
		{cmd: []string{"sar", "-n", "DEV"}, want: true},
		{cmd: []string{"sar", "-u", "ALL"}, want: true},
		{cmd: []string{"sar", "-u", "1", "3"}, want: false},
		{cmd: []string{"sar", "-n", "DEV", "-f", "/var/log/sysstat/sa06"}, want: false},
		{cmd: []string{"iostat", "-x", "${interval}", "1"}, want: true},
		{shell: "mpstat -P ALL | tail -n 3", want: true},
		{shell: "set -e\nLC_ALL=C iostat -dx 1 1 | grep -v '^$'", want: true},
		{shell: "iostat -y -dx 1 1 | grep -v '^$'", want: false},
		{shell: "vmstat 1 5 | tail -n 4", want: false},
		{shell: "iostat -x $N 1", want: true},
		{shell: "iostat -x '1' \"1\"", want: true}, // quoted, bash expands nothing: one report
		{shell: "echo iostat", want: false},
		{cmd: []string{"top", "-b", "-n", "1"}, want: false},
		{cmd: []string{"env", "LC_ALL=C", "iostat", "-x", "1", "1"}, want: true},
		{shell: "timeout 5 vmstat 1 1", want: true},
		{shell: "sudo -n mpstat -P ALL", want: true},
		{shell: "timeout 10 sar -n DEV 1 3", want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).SinceBootReport() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	if n := (&ExecSpec{Command: []string{"iostat", "-x", "1", "1"}}).RunWarnings(); len(n) != 1 {
		t.Errorf("RunWarnings of iostat -x 1 1: %q, want the since-boot note", n)
	}
}
