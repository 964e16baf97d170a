package rules

import (
	"strings"
	"testing"
)

// evalWants evaluates the expression src over env and checks the case:
// with err "", that it matched as matched says and erred not; else that
// it did not match and its error says err (a rule error counts as no
// match). The table tests of what an expression makes of a value share it.
func evalWants(t *testing.T, env Env, src, err string, matched bool) {
	t.Helper()
	out := MustCompile(src).Eval(env)
	if err == "" {
		if out.Err != "" || out.Matched != matched {
			t.Errorf("%s: matched %v err %q, want matched %v and no error", src, out.Matched, out.Err, matched)
		}
		return
	}
	if out.Matched || !strings.Contains(out.Err, err) {
		t.Errorf("%s: matched %v err %q, want a non-match saying %q", src, out.Matched, out.Err, err)
	}
}
