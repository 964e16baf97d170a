package chart

import "testing"

// A shell -c script with a pipe and no pipefail is noted; one without a
// pipe, with pipefail, with only || or a quoted |, or a shell: stage is
// not.
func TestUnguardedPipeline(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want bool
	}{
		{[]string{"sh", "-c", "systemctl list-units --failed | wc -l"}, true},
		{[]string{"/bin/bash", "-c", "ps aux|grep -c Z"}, true},
		{[]string{"sh", "-c", "set -o pipefail; a | b"}, false},
		{[]string{"sh", "-c", "a || b"}, false},
		{[]string{"sh", "-c", "echo 'a | b'"}, false},
		{[]string{"sh", "-c", `echo "x|y" >| f`}, false},
		{[]string{"sh", "-c", "date"}, false},
		{[]string{"python3", "-c", "print(1 | 2)"}, false},
		{[]string{"sh", "script.sh"}, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd}).UnguardedPipeline() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.cmd, got, tc.want)
		}
	}
	if (&ExecSpec{Shell: "a | b"}).UnguardedPipeline() != "" {
		t.Error("a shell: stage (bash -o pipefail) noted")
	}
}
