package rules

import (
	"strings"
	"testing"
)

// TestRemainderOfAFractionSaysIntOrBitand: `taint / 4096 % 2 == 1`, bit 12
// of /proc/sys/kernel/tainted tested without bit operators, compiles where
// expr cannot know taint's kind and fails at run time with `invalid
// operation: float64 % int`, naming neither / nor what to write. The
// error says / gives a fraction and names int(x / 4096) and bitand.
func TestRemainderOfAFractionSaysIntOrBitand(t *testing.T) {
	t.Parallel()
	out := MustCompile(`taint / 4096 % 2 == 1`).Eval(mapEnv{"taint": 12289})
	if out.Matched || !strings.Contains(out.Err, "write int(x / 4096) % 2") || !strings.Contains(out.Err, "bitand(x, 4096) != 0") {
		t.Errorf("matched %v err %q, want an error naming int(x / 4096) and bitand", out.Matched, out.Err)
	}
	if out := MustCompile(`int(taint / 4096) % 2 == 1`).Eval(mapEnv{"taint": 12289}); out.Err != "" || !out.Matched {
		t.Errorf("int(taint / 4096) %% 2: matched %v err %q", out.Matched, out.Err)
	}
	if out := MustCompile(`bitand(taint, 4096) != 0`).Eval(mapEnv{"taint": 12289}); out.Err != "" || !out.Matched {
		t.Errorf("bitand: matched %v err %q", out.Matched, out.Err)
	}
}
