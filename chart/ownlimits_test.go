package chart

import "testing"

// TestOwnLimitsAreNoted: ulimit, and prlimit of no process, print the
// limits of the shell the stage starts, runbook's own, not a service's:
// a check that postgres may open 65536 files said ok over runbook's
// limit while postgres.service had LimitNOFILE=1024
// (testdata/wave-cgroup/nofile). runbook plan notes such a read, in a
// command or a shell: line, and a run warns of it once; a ulimit that
// sets a limit, and prlimit --pid, are not noted.
func TestOwnLimitsAreNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{shell: "ulimit -n", want: true},
		{shell: "ulimit -a", want: true},
		{shell: "ulimit -Hn; ulimit -Sn", want: true},
		{shell: "ulimit", want: true},
		{cmd: []string{"prlimit"}, want: true},
		{cmd: []string{"prlimit", "--nofile", "--raw", "-o", "SOFT,HARD", "--noheadings"}, want: true},
		{cmd: []string{"/usr/bin/prlimit", "-n"}, want: true},
		{cmd: []string{"prlimit", "--pid", "${pid}", "--nofile"}, want: false},
		{cmd: []string{"prlimit", "-p", "1234"}, want: false},
		{cmd: []string{"prlimit", "--pid=1234", "-n"}, want: false},
		{cmd: []string{"prlimit", "-p1234"}, want: false},
		{cmd: []string{"prlimit", "--nofile=4096", "./app", "--check"}, want: false},
		{shell: `prlimit --pid "$PID" --nofile --raw --noheadings`, want: false},
		{shell: "ulimit -n 4096 && ./app --check", want: false},
		{shell: `ulimit -n "$N"; exec app`, want: false},
		{shell: "cat /proc/$PID/limits", want: false},
		{cmd: []string{"sudo", "-n", "prlimit", "-n"}, want: true},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).OwnLimits() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	if n := (&ExecSpec{Shell: "ulimit -n"}).RunWarnings(); len(n) != 1 {
		t.Errorf("RunWarnings of ulimit -n: %q, want the own-limits note", n)
	}
}

// TestOneFrameIsNoted: systemd-cgtop measures %CPU between two
// iterations, so with one it prints - for every group, and a check that
// passed over the - a group without CPU accounting shows read every
// group as not busy (testdata/wave-cgroup/cgtop); top's first frame
// said 100.0 id over busy CPUs. runbook plan notes one frame of either
// and a run warns of it once.
func TestOneFrameIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"systemd-cgtop", "-b", "-n", "1", "--raw"}, want: true},
		{cmd: []string{"systemd-cgtop", "-b", "-n1"}, want: true},
		{cmd: []string{"systemd-cgtop", "-bn", "1"}, want: true},
		{cmd: []string{"systemd-cgtop", "-rbn1"}, want: true},
		{cmd: []string{"systemd-cgtop", "--batch", "--iterations=1"}, want: true},
		{shell: "systemd-cgtop -b --iterations 1 --raw | sort -k3 -n", want: true},
		{cmd: []string{"systemd-cgtop", "-b", "-n", "2", "-d", "1", "--raw"}, want: false},
		{cmd: []string{"systemd-cgtop", "-b", "-d", "1", "-n", "3"}, want: false},
		{cmd: []string{"systemd-cgtop", "-b", "-n", "${n}"}, want: false},
		{cmd: []string{"systemd-cgtop", "-b", "-M", "n1"}, want: false},
		{cmd: []string{"top", "-b", "-n", "1"}, want: true},
		{shell: "top -bn1 | grep '^%Cpu'", want: true},
		{shell: "LC_ALL=C top -b -n1 -o %CPU | head -n 20", want: true},
		{shell: "top -bn2 -d 0.5 | grep '^%Cpu' | tail -n 1", want: false},
		{cmd: []string{"top", "-b", "-d", "1", "-n", "3"}, want: false},
		{cmd: []string{"top", "-b", "-u", "n1"}, want: false},
		{cmd: []string{"htop"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).OneFrame() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
