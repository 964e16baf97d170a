package chart

import "testing"

// TestMergesStderrFindsTheRedirect: 2>&1 and |& send stderr into stdout;
// 2>/dev/null, 1>&2 and a command with no shell do not.
func TestMergesStderrFindsTheRedirect(t *testing.T) {
	t.Parallel()
	for shell, want := range map[string]bool{
		`nginx -t 2>&1`:                     true,
		`nginx -t |& tail -n 3`:             true,
		`{ nginx -t; } 2>&1 | grep -v warn`: true,
		`nginx -t 2>/dev/null`:              false,
		`echo hi 1>&2`:                      false,
		`nginx -t`:                          false,
	} {
		if got := (&ExecSpec{Shell: shell}).MergesStderr(); got != want {
			t.Errorf("MergesStderr(%q) = %v, want %v", shell, got, want)
		}
	}
	if (&ExecSpec{Command: []string{"nginx", "-t", "2>&1"}}).MergesStderr() {
		t.Error("an argv's 2>&1 is an argument, not a redirect")
	}
}
