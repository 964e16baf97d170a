package chart

import (
	"strings"
	"testing"
)

// TestUnclosedHereDocIsALoadError: bash reads a here-document that is
// never closed to the end of the script, saying only a warning, and runs
// it; the runner internal/proc wraps a script in was read into it too,
// and `cat <<EOF` printed its text as the script's output. Such a script
// is refused at its place now, and so is one ending in `&&`, `||` or `|`
// (a syntax error bash said only after running every line before it,
// which would take the runner's line as its command); one closed, or
// closed by `<<-` with tabs, loads, and so does `&&` at a line's end with
// the command on the next.
func TestUnclosedHereDocIsALoadError(t *testing.T) {
	t.Parallel()
	const chart = "version: 1\nrunbook: t\nstages:\n  - id: h\n    exec:\n      shell: %s\n"
	for _, tc := range []struct{ shell, err string }{
		{`"cat <<EOF\nhi\n"`, "c.yaml:6:14: stage \"h\": exec shell: its unclosed here-document `EOF`, opened at line 1, column 5 of the script: bash would read every line after it into the document"},
		{`"cat <<EOF\nhi\nEOF"`, ""},
		{`"cat <<-EOF\n\thi\n\tEOF\n"`, ""},
		{`"echo ok"`, ""},
		{`"test -s /var/run/app.pid &&"`, "c.yaml:6:14: stage \"h\": exec shell: it ends with `&&` at line 1, column 26 of the script and no command after it"},
		{`"ps -eo pid,comm |\n"`, "exec shell: it ends with `|` at line 1"},
		{`"test -s /var/run/app.pid &&\n  pgrep -F /var/run/app.pid"`, ""},
		{`"echo a \\"`, ""},
	} {
		_, err := Parse("c.yaml", []byte(strings.Replace(chart, "%s", tc.shell, 1)))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want it to load", tc.shell, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v\nwant an error containing %s", tc.shell, err, tc.err)
		}
	}
}
