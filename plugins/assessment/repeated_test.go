package assessment

import "testing"

// TestRepeatedScriptSaidOnce: a stage that ran several times (a retry's
// attempts, a loop's rounds) says each distinct outcome once, with how many
// of its runs had it, and how its last run ended when that run is the one
// that completed. Before, the line repeated one clause per run ("script
// "units" completed with failure, exit 127; script "units" completed with
// failure, exit 127") and said nothing of a retry that recovered, so a
// reader took the stage's value for a failed script's.
func TestRepeatedScriptSaidOnce(t *testing.T) {
	t.Parallel()
	failed := Script{Stage: "poll", Label: "completed-with-failure", Words: "completed with failure, exit 1"}
	done := Script{Stage: "poll", Label: "completed", Words: "completed"}
	timedOut := Script{Stage: "poll", Label: "outcome-unknown", Words: "outcome unknown", Cause: "timed out after 2s"}
	other := Script{Stage: "per~1/df", Label: "completed-with-failure", Words: "completed with failure, exit 1"}
	cases := []struct {
		name    string
		scripts []Script
		want    string
	}{
		{"once", []Script{failed}, `Not sure — script "poll" completed with failure, exit 1.`},
		{"each run", []Script{failed, failed, failed}, `Not sure — script "poll" completed with failure, exit 1 (each of its 3 runs).`},
		{"recovered", []Script{failed, done}, `Not sure — script "poll" completed with failure, exit 1 (1 of its 2 runs; the last completed).`},
		{"two outcomes", []Script{failed, timedOut, failed}, `Not sure — script "poll" completed with failure, exit 1 (2 of its 3 runs); the run recorded no outcome for script "poll" (outcome unknown: timed out after 2s) (1 of its 3 runs).`},
		{"other paths apart", []Script{failed, other, done}, `Not sure — script "poll" completed with failure, exit 1 (1 of its 2 runs; the last completed); script "per~1/df" completed with failure, exit 1.`},
	}
	for _, tc := range cases {
		s := Summary{Runbook: "r", Scripts: tc.scripts, HonestyRan: []string{"label"}}
		if got := Assess(s).Line; got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestStoppedRunNamesItsStage: a run that stopped names the stage it
// stopped at when the summary holds one; without one the words are as
// before.
func TestStoppedRunNamesItsStage(t *testing.T) {
	t.Parallel()
	cases := []struct{ stopped, at, want string }{
		{StoppedFailed, "facts", `Not sure — the run failed at stage "facts" before it finished.`},
		{StoppedFailed, "", `Not sure — the run failed at a stage before it finished.`},
		{StoppedTimedOut, "per~2/probe", `Not sure — the run timed out at stage "per~2/probe" before it finished.`},
		{StoppedCancelled, "wait", `Not sure — the run was cancelled at stage "wait" before it finished.`},
		{StoppedCancelled, "", `Not sure — the run was cancelled before it finished.`},
	}
	for _, tc := range cases {
		s := Summary{Runbook: "r", Stopped: tc.stopped, StoppedAt: tc.at, HonestyRan: []string{"label"}}
		if got := Assess(s).Line; got != tc.want {
			t.Errorf("%s at %q:\n got %s\nwant %s", tc.stopped, tc.at, got, tc.want)
		}
	}
}
