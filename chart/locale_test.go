package chart

import (
	"strings"
	"testing"
)

// TestInheritedLocaleIsNoted: inheritEnv: [LC_ALL] passes the runner's
// LC_ALL on over the LC_NUMERIC=C and LC_TIME=C runbook pins, and under a
// runner's de_DE.UTF-8 `printf "%'d" 1234567` said 1.234.567 to the chart
// again, in silence; plan notes it (a run warns of it, when the runner's
// value is not C: runbook TestInheritedLocaleIsWarned).
func TestInheritedLocaleIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		inherit []string
		names   string
	}{
		{[]string{"LOCPATH", "LC_ALL"}, "names LC_ALL,"},
		{[]string{"LC_NUMERIC", "LC_TIME"}, "names LC_NUMERIC, LC_TIME,"},
		{[]string{"LANG", "LOCPATH"}, ""},
	} {
		note := (&ExecSpec{Shell: "date", InheritEnv: tc.inherit}).InheritedLocaleNote()
		if tc.names == "" {
			if note != "" {
				t.Errorf("%v: noted %q, want none", tc.inherit, note)
			}
			continue
		}
		if !strings.Contains(note, tc.names) || !strings.Contains(note, "env: {LC_ALL: C.UTF-8}") {
			t.Errorf("%v: note %q, want one saying %q and the fix", tc.inherit, note, tc.names)
		}
	}
}
