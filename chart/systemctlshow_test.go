package chart

import "testing"

// TestSystemctlShowWithoutLoadStateIsNoted: systemctl show prints a unit
// systemd does not have with every property at its default, exit 0, so
// a memory check over `systemctl show -p MemoryCurrent,MemoryMax
// ngnix.service` said `unlimited`, OK, Consistent (testdata/wave-cgroup/
// unit-memory). runbook plan notes a show of a unit's properties that
// leaves LoadState out, in a command or a shell: line, and a run warns
// of it once.
func TestSystemctlShowWithoutLoadStateIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"systemctl", "show", "-p", "MemoryCurrent,MemoryMax", "nginx.service"}, want: true},
		{cmd: []string{"/usr/bin/systemctl", "show", "--property=TasksCurrent", "--property=TasksMax", "${unit}"}, want: true},
		{cmd: []string{"systemctl", "--user", "show", "-pNRestarts", "app.service"}, want: true},
		{cmd: []string{"systemctl", "show", "--value", "-P", "MemoryCurrent", "nginx.service"}, want: true},
		{cmd: []string{"systemctl", "-H", "web1", "show", "-p", "ActiveState", "nginx.service"}, want: true},
		{cmd: []string{"systemctl", "show", "-p", "LoadState,MemoryCurrent,MemoryMax", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "-p", "MemoryMax", "-p", "LoadState", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "-p", "Version"}, want: false},
		{cmd: []string{"systemctl", "status", "-p", "MemoryMax", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "-p", "${props}", "nginx.service"}, want: false},
		{cmd: []string{"sudo", "-n", "systemctl", "show", "-p", "MemoryCurrent", "db.service"}, want: true},
		{shell: `systemctl show --property=TasksCurrent "$U"`, want: true},
		{shell: `for u in nginx.service db.service; do systemctl show -p 'MemoryCurrent,MemoryMax' "$u"; done`, want: true},
		{shell: `systemctl show -p "LoadState,MemoryMax" "$U" | sort`, want: false},
		{shell: `systemctl show -p "$PROPS" "$U"`, want: false},
		{shell: `echo systemctl show -p MemoryMax x`, want: false},
		{cmd: []string{"systemd-cgtop", "-b", "-n", "1"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).SystemctlShowWithoutLoadState() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	if n := (&ExecSpec{Command: []string{"systemctl", "show", "-p", "MemoryMax", "nginx.service"}}).RunWarnings(); len(n) != 1 {
		t.Errorf("RunWarnings of systemctl show -p MemoryMax: %q, want the LoadState note", n)
	}
}

// TestSystemctlShowValuesByPositionIsNoted: systemctl show prints
// properties in its own order, not -p's (systemd#4907), and --value
// drops their names, so `systemctl show -P Id,MemoryMax "$u" | paste
// -sd' '` read by position (testdata/wave-jq/memlimit) takes MemoryMax's
// line for the unit's name. runbook plan notes --value (or -P) of more
// than one property, and a run warns of it once.
func TestSystemctlShowValuesByPositionIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"systemctl", "show", "--value", "-p", "MemoryMax,MemoryCurrent", "${u}"}, want: true},
		{cmd: []string{"systemctl", "show", "-P", "TasksCurrent,TasksMax", "nginx.service"}, want: true},
		{cmd: []string{"systemctl", "show", "--value", "-p", "MemoryMax", "-p", "MemoryCurrent", "nginx.service"}, want: true},
		{shell: `systemctl show -P Id,MemoryMax "$u" | paste -sd' '`, want: true},
		{cmd: []string{"systemctl", "show", "--value", "-p", "MemoryMax", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "-P", "MainPID", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "-p", "MemoryMax,MemoryCurrent", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "show", "--value", "-p", "${props}", "nginx.service"}, want: false},
		{cmd: []string{"systemctl", "status", "--value", "-p", "A,B", "nginx.service"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).SystemctlShowValuesByPosition() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
