package rules

import (
	"strings"
	"testing"
)

// TestTextsThatDifferOnlyInTheirInnerBlanksAreNoEquality: a sysctl
// baseline wants net.ipv4.tcp_rmem "4096 131072 33554432", as sysctl.conf
// writes it; sysctl -n prints the numbers between tabs, and
// `trim(v.stdout) == w.want` was a plain no, so the check said fail over
// the very value wanted. Two texts with the same words and other blanks
// between them are an error now, naming the pattern to write; the
// pattern it names matches.
func TestTextsThatDifferOnlyInTheirInnerBlanksAreNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"v": map[string]any{"rmem": "4096\t131072\t33554432", "one": "4096"}}
	const why = `differ only in the blanks between their words`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`v.rmem == "4096 131072 33554432"`, why, false},
		{`v.rmem != "4096 131072 33554432"`, why, false},
		{`v.rmem in ["4096 131072 33554432"]`, why, false},
		{`v.rmem == "4096  131072 33554432"`, why, false},
		{`v.rmem matches "^\\s*4096\\s+131072\\s+33554432\\s*$"`, "", true},
		{`v.rmem == "4096\t131072\t33554432"`, "", true},
		{`v.rmem == "4096 131072 6291456"`, "", false},
		{`v.rmem == "4096131072 33554432"`, "", false},
		{`v.one == "4096"`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	out := MustCompile(`v.rmem == "4096 131072 33554432"`).Eval(env)
	if !strings.Contains(out.Err, `x matches "^\\s*4096\\s+131072\\s+33554432\\s*$"`) {
		t.Errorf("want the pattern to write: %q", out.Err)
	}
}
