package chart

import "testing"

// TestRemoteScriptIsWhatSSHSends: the words after ssh's destination,
// past its options and their arguments, are the command the host runs;
// its pipeline is noted (no pipefail in the remote shell).
func TestRemoteScriptIsWhatSSHSends(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		want  string
		noted bool
	}{
		{[]string{"ssh", "-o", "BatchMode=yes", "-F", "cfg", "${host}", "cat app.log | grep -c ERROR"}, "cat app.log | grep -c ERROR", true},
		{[]string{"ssh", "-p2222", "-l", "ops", "--", "web1", "uptime"}, "uptime", false},
		{[]string{"/usr/bin/ssh", "-tt", "-i", "key", "web1", "df", "-P", "/"}, "df -P /", false},
		{[]string{"ssh", "web1", "set -o pipefail; cat app.log | grep -c ERROR"}, "set -o pipefail; cat app.log | grep -c ERROR", false},
		{[]string{"ssh", "-o", "BatchMode=yes", "web1"}, "", false},
		{[]string{"scp", "a", "b"}, "", false},
	} {
		e := &ExecSpec{Command: tc.cmd}
		if got := e.RemoteScript(); got != tc.want {
			t.Errorf("%q: remote script %q, want %q", tc.cmd, got, tc.want)
		}
		if got := e.UnguardedPipeline() != ""; got != tc.noted {
			t.Errorf("%q: noted %v, want %v", tc.cmd, got, tc.noted)
		}
	}
}
