package record

import (
	"strings"
	"testing"
)

// TestDeniedLineLongerThanItsQuoteKeepsItsCause: pip list --outdated with
// no index it can reach prints [] and exits 0, and says why on stderr in
// a line whose words come past the 200 characters a quote keeps (`WARNING:
// Retrying (Retry(total=4, …)) after connection broken by
// 'NewConnectionError(…: Name or service not known')'`). The line was cut
// before its cause was read, and the item said its cause blank (`that
// it  though it exited 0`) and to give it the files that exist. The cause is read from the whole line now, and only the quote is
// cut.
func TestDeniedLineLongerThanItsQuoteKeepsItsCause(t *testing.T) {
	t.Parallel()
	line := `WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f4c9a576410>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/pip/`
	if Denied(line) == "" {
		t.Fatalf("Denied does not find the line")
	}
	why := DeniedEntry("outdated", 0, line).NotChecked[0].Why
	if !strings.Contains(why, "it said on stderr that it "+causeUnresolved+" though it exited 0") || strings.Contains(why, "give it the files that exist") {
		t.Errorf("why = %s; want the cause %q", why, causeUnresolved)
	}
	if !strings.Contains(why, "…") || strings.Contains(why, "Name or service not known") {
		t.Errorf("why = %s; want the quote cut at 200 characters", why)
	}
}
