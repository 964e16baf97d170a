package chart

import (
	"strings"
	"testing"
)

// TestSSHInAReadLoopIsALoadError: `while read -r h; do l=$(ssh "$h"
// uptime); echo "$h $l"; done <<< "$HOSTS"` over three hosts: the first
// ssh read the other two lines as its stdin, the loop ended, exit 0,
// nothing on stderr, and the check said Consistent over one host of three
// (testdata/wave-fleet/loop). ssh with the loop's input as its stdin
// inside a while read loop is a load error; -n, an input redirect, -o
// StdinNull=yes, or a for loop load.
func TestSSHInAReadLoopIsALoadError(t *testing.T) {
	for _, tc := range []struct {
		script string
		bad    bool
	}{
		{"while read -r h; do\n  l=$(ssh -F \"$CFG\" -o BatchMode=yes \"$h\" uptime)\n  echo \"$h $l\"\ndone <<< \"$HOSTS\"", true},
		{"printf '%s\\n' $HOSTS | while read h; do ssh \"$h\" uptime; done", true},
		{"while read -r h; do\n  l=$(ssh -n -F \"$CFG\" \"$h\" uptime)\n  echo \"$h $l\"\ndone <<< \"$HOSTS\"", false},
		{"while read -r h; do ssh -nT \"$h\" uptime; done < hosts", false},
		{"while read -r h; do ssh \"$h\" uptime < /dev/null; done < hosts", false},
		{"while read -r h; do ssh -o StdinNull=yes \"$h\" uptime; done < hosts", false},
		{"while read -r h; do ssh \"$h\" cat -n /etc/motd; done < hosts", true},
		{"for h in $HOSTS; do ssh \"$h\" uptime; done", false},
		{"while true; do ssh web1 uptime; sleep 1; done", false},
	} {
		got := SSHReadsLoopInput(tc.script)
		if (got != "") != tc.bad {
			t.Errorf("%q: %q, want an error %v", tc.script, got, tc.bad)
		}
		if tc.bad && !strings.Contains(got, "give ssh -n") {
			t.Errorf("%q: %q does not say what to write", tc.script, got)
		}
	}
}
