package assessment

import (
	"slices"
	"testing"
)

// TestIssue13DeclaredAnswerIsNotAFailure: a script whose exit code the
// chart declared an answer (a Nagios check's 2) is that answer, not a
// broken script; an undeclared failure still fires script-failed.
func TestIssue13DeclaredAnswerIsNotAFailure(t *testing.T) {
	t.Parallel()
	checks := []Check{{Expr: "state.ok", Passed: true}}
	tests := []struct {
		name     string
		script   Script
		standing Standing
		reasons  []Reason
		line     string
	}{
		{"declared exit 2 is an answer",
			Script{Stage: "check_disk", Label: "completed-with-failure", Words: "completed with failure, exit 2", Answer: "critical"},
			Known, []Reason{}, `Known — the 1 declared answer check passed.`},
		{"a declared reported failure is an answer too",
			Script{Stage: "probe", Label: "reported-failure", Words: "reported failure", Answer: "down"},
			Known, []Reason{}, `Known — the 1 declared answer check passed.`},
		{"an undeclared exit code still fails",
			Script{Stage: "check_disk", Label: "completed-with-failure", Words: "completed with failure, exit 3"},
			NotSure, []Reason{ScriptFailed}, `Not sure — script "check_disk" completed with failure, exit 3.`},
		// Found by a new user's trial: check_disk -p /nonexistent exits 3,
		// "DISK UNKNOWN", and the run said Known over a check that never ran.
		{"the answer unknown (Nagios exit 3) is no ground for Known",
			Script{Stage: "disk", Label: "completed-with-failure", Words: "completed with failure, exit 3", Answer: "unknown"},
			NotSure, []Reason{ScriptUnknown}, `Not sure — script "disk" answered unknown (completed with failure, exit 3): it could not determine what it checks.`},
		{"an answer never hides an unknown outcome",
			Script{Stage: "check_disk", Label: "outcome-unknown", Words: "outcome unknown", Answer: "critical"},
			NotSure, []Reason{ScriptUnknown}, `Not sure — the run recorded no outcome for script "check_disk" (outcome unknown).`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := Assess(Summary{Scripts: []Script{tc.script}, Checks: checks})
			if a.Standing != tc.standing || !slices.Equal(a.Reasons, tc.reasons) || a.Line != tc.line {
				t.Errorf("got %s %q %q\nwant %s %q %q", a.Standing, a.Reasons, a.Line, tc.standing, tc.reasons, tc.line)
			}
		})
	}
}

// TestIssue13UnknownOutcomeSaysWhy: the script-unknown clause adds the
// cause the record holds; without one it is the version-2 words.
func TestIssue13UnknownOutcomeSaysWhy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script Script
		line   string
	}{
		{Script{Stage: "collect", Label: "outcome-unknown", Words: "outcome unknown", Cause: "timed out after 2s"},
			`Not sure — the run recorded no outcome for script "collect" (outcome unknown: timed out after 2s).`},
		{Script{Stage: "collect", Label: "outcome-unknown", Words: "outcome unknown", Cause: "could not be started: not found"},
			`Not sure — the run recorded no outcome for script "collect" (outcome unknown: could not be started: not found).`},
		{Script{Stage: "collect", Label: "submitted", Words: "submitted", Cause: "cancelled"},
			`Not sure — the run recorded no outcome for script "collect" (submitted: cancelled).`},
		{Script{Stage: "collect", Label: "outcome-unknown", Words: "outcome unknown", Cause: "timed\nout"},
			`Not sure — the run recorded no outcome for script "collect" (outcome unknown: timed out).`},
		{Script{Stage: "collect", Label: "outcome-unknown", Words: "outcome unknown"},
			`Not sure — the run recorded no outcome for script "collect" (outcome unknown).`},
		{Script{Stage: "collect", Label: "completed-with-failure", Words: "completed with failure, exit 1", Cause: "ignored"},
			`Not sure — script "collect" completed with failure, exit 1.`},
	}
	for _, tc := range tests {
		a := Assess(Summary{Scripts: []Script{tc.script}})
		if a.Line != tc.line {
			t.Errorf("%+v:\n got %s\nwant %s", tc.script, a.Line, tc.line)
		}
	}
}
