package chart

import "testing"

// TestSysctlIgnoringMissingKeysIsNoted: sysctl -e prints nothing for a
// key the kernel lacks, and a rule read the blank as the key's value.
func TestSysctlIgnoringMissingKeysIsNoted(t *testing.T) {
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"sysctl", "-n", "-e", "kernel.unprivileged_bpf_disabled"}}, true},
		{ExecSpec{Command: []string{"/sbin/sysctl", "-ne", "net.core.bpf_jit_harden"}}, true},
		{ExecSpec{Shell: `sysctl --ignore -n "$key"`}, true},
		{ExecSpec{Shell: `for k in a b; do sysctl -en "$k"; done`}, true},
		{ExecSpec{Command: []string{"sysctl", "-n", "kernel.kptr_restrict"}}, false},
		{ExecSpec{Command: []string{"sysctl", "-a"}}, false},
		{ExecSpec{Command: []string{"grep", "-e", "x", "/etc/sysctl.conf"}}, false},
	} {
		if got := tc.e.SysctlIgnoresMissing() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
	}
}
