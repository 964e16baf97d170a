package record

import "testing"

// TestGetoptOptionRefusedLinesAreFound: glibc getopt's four lines for an
// option a command does not take or was given no value are found
// (varnishstat 7.1 prints them and goes on, exit 0); a log line that
// merely holds the word option is not.
func TestGetoptOptionRefusedLinesAreFound(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"varnishstat: invalid option -- 'q'",
		"varnishstat: option requires an argument -- 'f'",
		"tool: unrecognized option '--filter'",
		"tool: option '--format' requires an argument",
	} {
		if got := Denied("note\n" + line + "\n"); got != line {
			t.Errorf("Denied = %q; want %q", got, line)
		}
	}
	if got := Denied("the option was invalid in the last release\n"); got != "" {
		t.Errorf("Denied = %q; want none", got)
	}
}
