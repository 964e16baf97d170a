package record

import (
	"strings"
	"testing"
)

// TestUnreadGlobEntryAsksForPrivilegeOnlyOverARefusal: a folder a glob
// could not read for another cause (a name too long, an I/O error) is not
// told to run with more privilege.
func TestUnreadGlobEntryAsksForPrivilegeOnlyOverARefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, fix string
	}{
		{"permission denied", "run it with the privilege to read them all"},
		{"file name too long", "find why it could not be read"},
		{"input/output error", "find why it could not be read"},
	} {
		e := UnreadGlobEntry("files", "/srv/*/x", 1, 0, "/srv/a", tc.why)
		if got := e.Declaration.NotChecked[0].Why; !strings.HasSuffix(got, tc.fix) {
			t.Errorf("%s: %q does not end %q", tc.why, got, tc.fix)
		}
	}
}
