package chart

import "testing"

// TestSyslogCountIsNoted: rsyslog with RepeatedMsgReduction on (Ubuntu's
// rsyslog.conf) writes the five failed passwords after the first of one
// ssh connection as one line, `message repeated 5 times: [ Failed
// password …]`, which `grep -c "Failed password" /var/log/auth.log`
// counts once: a brute force of six tries a connection read as a sixth
// of itself, ok, Consistent. The count is the tool's, so no parse sees
// the line (internal/parse TestRegexLineOfFoldedRepeatsIsAProblem is the
// rule where one does): plan notes it, and a run warns of it once.
func TestSyslogCountIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"grep -c auth.log", ExecSpec{Command: []string{"grep", "-c", "Failed password", "/var/log/auth.log"}}, true},
		{"grep --count secure", ExecSpec{Command: []string{"/usr/bin/grep", "--count", "-E", "Failed|Invalid", "/var/log/secure"}}, true},
		{"a cluster, a rotated log", ExecSpec{Command: []string{"zgrep", "-ic", "failed password", "/var/log/auth.log.2.gz"}}, true},
		{"shell grep | wc -l", ExecSpec{Shell: `grep "Failed password" /var/log/auth.log | wc -l`}, true},
		{"shell grep -c syslog", ExecSpec{Shell: `grep -c 'authentication failure' /var/log/syslog || true`}, true},
		{"grep -c an app's own log", ExecSpec{Command: []string{"grep", "-c", "ERROR", "/var/log/app/app.log"}}, false},
		{"grep lines of auth.log", ExecSpec{Command: []string{"grep", "Failed password", "/var/log/auth.log"}}, false},
		{"journalctl | grep -c", ExecSpec{Shell: `journalctl -u ssh --since -1h | grep -c "Failed password"`}, false},
		{"wc -l of another file", ExecSpec{Shell: `grep x /var/log/auth.log > /tmp/x; wc -l /etc/passwd`}, false},
	} {
		note := tc.e.SyslogCount()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
