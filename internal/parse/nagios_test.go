package parse

import (
	"strings"
	"testing"
)

// TestNagiosEmptyOutputIsAProblem: the plugin API's one required output is
// its status line. A plugin that exited 0 and printed nothing (a wrapper
// whose plugin was never run, output sent to /dev/null) parsed to an
// object with no status and no problem, so its stage was Consistent and a
// check over it said OK: the emptiness is now a problem of the output.
func TestNagiosEmptyOutputIsAProblem(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "\n", "   \n", "\r\n\n \t\n"} {
		r, err := Parse(in, Spec{Mode: "nagios"})
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		if r.Problems != 1 || !strings.Contains(r.FirstProblem, "printed nothing") {
			t.Errorf("Parse(%q): %d problems (%q), want 1 saying the plugin printed nothing", in, r.Problems, r.FirstProblem)
		}
		v := r.Value.(map[string]any)
		if _, ok := v["status"]; ok {
			t.Errorf("Parse(%q): status %q, want none", in, v["status"])
		}
	}
	// Output that says something is no problem, even when its status
	// line is blank: that is what it said.
	for _, in := range []string{"OK\n", "| a=1\n", "\nlong\n"} {
		if r, _ := Parse(in, Spec{Mode: "nagios"}); r.Problems != 0 {
			t.Errorf("Parse(%q): %d problems (%q), want none", in, r.Problems, r.FirstProblem)
		}
	}
}

// TestNagiosUndeterminedValueTakesNoUnit: "U" is the plugin API's "the
// value could not be determined", a literal on its own. "status=Up" was
// read as U with the unit "p", so a value that is no number at all became
// the plugin's considered "could not tell".
func TestNagiosUndeterminedValueTakesNoUnit(t *testing.T) {
	t.Parallel()
	r, _ := Parse("OK | status=Up load=Us a=U\n", Spec{Mode: "nagios"})
	if r.Problems != 1 || !strings.Contains(r.FirstProblem, `"Up"`) {
		t.Errorf("problems %d (%q), want 1 line, the first naming \"Up\"", r.Problems, r.FirstProblem)
	}
	perf := r.Value.(map[string]any)["perfdata"].([]any)
	if len(perf) != 1 || perf[0].(map[string]any)["label"] != "a" || perf[0].(map[string]any)["value"] != "U" {
		t.Errorf("perfdata %v, want only a=U", perf)
	}
}

// TestNagiosProblemsCountLines: Problems counts the lines a mode could not
// read, but nagios counted each perfdata item it could not read, so a
// plugin whose one-line status text held a "|" ("CRITICAL - backend a|b
// down": the items "b" and "down") was said as "did not check 2 lines of
// its output". Items on one line are one line; each line still counts.
func TestNagiosProblemsCountLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"CRITICAL - backend a|b down\n", 1},
		{"OK | a=x b=y\nlong | c=z\nd=w e=v\n", 3},
	} {
		r, _ := Parse(tc.in, Spec{Mode: "nagios"})
		if r.Problems != tc.want {
			t.Errorf("Parse(%q): %d problems, want %d (lines)", tc.in, r.Problems, tc.want)
		}
	}
}
