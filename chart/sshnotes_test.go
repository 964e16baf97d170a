package chart

import "testing"

// TestSSHWithNoHostKeyCheckIsNoted: `ssh -o StrictHostKeyChecking=no
// HOST 'pgrep -x sshd'` runs on whatever machine answers at the address;
// under LogLevel QUIET a changed key is not even said on stderr, and a
// fleet check said `web1 ok`, OK, Consistent, over another machine's
// answer (testdata/wave-fleet/service). The loader notes an ssh told not
// to check the host's key, in a command or a shell script.
func TestSSHWithNoHostKeyCheckIsNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"ssh", "-o", "StrictHostKeyChecking=no", "web1", "uptime"}, want: true},
		{cmd: []string{"/usr/bin/ssh", "-oStrictHostKeyChecking=off", "web1", "uptime"}, want: true},
		{cmd: []string{"ssh", "-o", "StrictHostKeyChecking no", "web1", "uptime"}, want: true},
		{cmd: []string{"ssh", "-o", "UserKnownHostsFile=/dev/null", "web1", "uptime"}, want: true},
		{shell: `for h in $HOSTS; do ssh -o stricthostkeychecking=no "$h" uptime; done`, want: true},
		{cmd: []string{"ssh", "-o", "StrictHostKeyChecking=accept-new", "web1", "uptime"}, want: false},
		{cmd: []string{"ssh", "-o", "BatchMode=yes", "web1", "uptime"}, want: false},
		{cmd: []string{"echo", "StrictHostKeyChecking=no"}, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).SSHHostUnchecked() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
