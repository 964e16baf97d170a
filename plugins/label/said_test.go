package label

import "testing"

// TestIssue13RowSaid: a declared answer is worded as the answer it is,
// never as a failure; an unknown outcome adds its cause; every other row
// is its label's Words.
func TestIssue13RowSaid(t *testing.T) {
	t.Parallel()
	two, zero := 2, 0
	f := false
	tests := []struct {
		name string
		row  Row
		want string
	}{
		{"declared answer", withAnswer(NewRow("load", Returned, &Facts{OK: &f, ExitCode: &two}, false), "critical"), "answered critical (exit 2)"},
		{"undeclared failure", NewRow("gone", Returned, &Facts{OK: &f, ExitCode: &two}, false), "completed with failure, exit 2"},
		{"declared ok", withAnswer(NewRow("fine", Returned, &Facts{ExitCode: &zero}, false), "ok"), "answered ok (exit 0)"},
		{"unknown with cause", withCause(NewRow("slow", Threw, nil, false), "timed out after 2s"), "outcome unknown: timed out after 2s"},
		{"killed by a signal", NewRow("oom", Returned, &Facts{OK: &f, TerminatedBy: "SIGKILL"}, false), "reported failure, killed by SIGKILL"},
		{"an answer without an exit code is not one", withAnswer(NewRow("odd", Threw, nil, false), "critical"), "outcome unknown"},
	}
	for _, tc := range tests {
		if got := tc.row.Said(); got != tc.want {
			t.Errorf("%s: Said() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func withAnswer(r Row, a string) Row { r.Answer = a; return r }
func withCause(r Row, c string) Row  { r.Cause = c; return r }
