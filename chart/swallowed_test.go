package chart

import "testing"

// TestSwallowedFailureIsNoted: stderr to /dev/null and || true together
// leave a failure no trace (testdata/wave-jq/design/swallowed.yaml);
// either alone leaves one and is not noted.
func TestSwallowedFailureIsNoted(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{`findmnt -J -l -o TARGET,OPTIONS --no-such-flag 2>/dev/null | jq -r '.filesystems[].target' || true`, true},
		{`find / -xdev -perm -o+w 2>/dev/null || :`, true},
		{`grep -c ERROR /var/log/app.log &>/dev/null || true`, true},
		{`cat /etc/app.conf 2>&- || true`, true},
		{`for f in /etc/*.conf; do stat -c '%a %n' "$f" 2>/dev/null || true; done`, true},
		{`{ curl -s "$url" 2>>/dev/null | grep x; } || true`, true},
		// either half alone leaves a trace
		{`grep -c ERROR /var/log/app.log || true`, false},
		{`findmnt -J 2>/dev/null | jq .`, false},
		{`ls /nope 2>/dev/null || echo none`, false},
		{`cmd 2>/tmp/err || true`, false},
		{`cmd >/dev/null || true`, false},
	} {
		if got := (&ExecSpec{Shell: tc.script}).SwallowedFailure() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.script, got, tc.want)
		}
	}
}
