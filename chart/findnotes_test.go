package chart

import (
	"testing"

	"github.com/openrunbook/runbook/internal/parse"
)

// TestFindNamesByLineIsNoted: find's names read a line each let a file
// name holding a newline forge a row (testdata/wave-drift/modes); names
// ended by a NUL and read with records: nul are not noted.
func TestFindNamesByLineIsNoted(t *testing.T) {
	cols := parse.Spec{Mode: "columns", Options: map[string]any{"header": false, "names": []any{"t", "p"}, "last": "rest"}}
	nul := parse.Spec{Mode: "columns", Options: map[string]any{"header": false, "names": []any{"t", "p"}, "last": "rest", "records": "nul"}}
	lines := parse.Spec{Mode: "lines"}
	for _, tc := range []struct {
		name string
		e    ExecSpec
		want bool
	}{
		{"argv -printf with a newline", ExecSpec{Command: []string{"find", "/tmp", "-perm", "-o+w", "-printf", `%y %p\n`}, Parse: cols}, true},
		{"argv, find's own -print", ExecSpec{Command: []string{"/usr/bin/find", "/etc", "-newer", "/var/run/x"}, Parse: lines}, true},
		{"shell", ExecSpec{Shell: `find / -xdev -nouser 2>/dev/null`, Parse: lines}, true},
		{"shell, in a substitution", ExecSpec{Shell: `for f in $(find /etc -name '*.conf'); do stat -c '%a %n' "$f"; done`, Parse: cols}, true},
		{"argv -printf with a NUL, records: nul", ExecSpec{Command: []string{"find", "/tmp", "-printf", `%y %p\0`}, Parse: nul}, false},
		{"-print0 read by records: nul", ExecSpec{Command: []string{"find", "/tmp", "-print0"}, Parse: parse.Spec{Mode: "lines", Options: map[string]any{"records": "nul"}}}, false},
		{"-print0 | xargs -0", ExecSpec{Shell: `find /srv -type f -print0 | xargs -0 sha256sum`, Parse: cols}, false},
		{"-maxdepth 0: the chart's own paths", ExecSpec{Command: []string{"find", "/etc/passwd", "/etc/shadow", "-maxdepth", "0", "-printf", `%m %p\n`}, Parse: cols}, false},
		{"counted as text", ExecSpec{Command: []string{"find", "/tmp", "-newer", "x"}, Parse: parse.Spec{Mode: "text"}}, false},
		{"no find", ExecSpec{Shell: `ls -1 /etc | grep -v findutils`, Parse: lines}, false},
	} {
		if got := tc.e.FindNamesByLine() != ""; got != tc.want {
			t.Errorf("%s: noted %v, want %v", tc.name, got, tc.want)
		}
	}
}
