package parse

import (
	"strings"
	"testing"
)

// TestRegexLineOfFoldedRepeatsIsAProblem: rsyslog writes a message sent
// again and again as one line, "message repeated 5 times: [ Failed
// password for root …]" (RepeatedMsgReduction, on in Ubuntu's
// rsyslog.conf), and BSD syslogd and sysklogd write "last message
// repeated 5 times" after the first. A pattern for sshd's failures
// matched the rsyslog line as one row, so a chart counting failures per
// user read 2 for root's 6 and said ok, Consistent, Nagios OK. Such a
// line is a problem now, unless a named group reads its count (the
// chart then counts it itself); the line is still no row, as a line
// the pattern does not match is none.
func TestRegexLineOfFoldedRepeatsIsAProblem(t *testing.T) {
	t.Parallel()
	const failed = `Failed password for (?:invalid user )?(?P<user>\S+) from (?P<ip>\S+) port`
	for _, tc := range []struct {
		name, pattern, line string
		problem             bool
	}{
		{"rsyslog's fold, the count not read", failed,
			`Dec  7 17:21:50 web1 sshd[101]: message repeated 5 times: [ Failed password for root from 203.0.113.5 port 51234 ssh2]`, true},
		{"rsyslog's fold under an anchored pattern", `^(?P<stamp>\w{3} [ 0-9]\d \d\d:\d\d:\d\d) \S+ sshd\[\d+\]: .*` + failed,
			`Dec  7 17:21:50 web1 sshd[101]: message repeated 5 times: [ Failed password for root from 203.0.113.5 port 51234 ssh2]`, true},
		{"rsyslog's fold read by a pattern for the program alone", `^\S+ +\d+ \S+ \S+ (?P<prog>[^:\[ ]+)`,
			`Dec  7 17:21:50 web1 sshd[101]: message repeated 5 times: [ Failed password for root from 203.0.113.5 port 51234 ssh2]`, true},
		{"BSD syslogd's line after the first", `^\S+ +\d+ \S+ (?P<host>\S+) (?P<msg>.*)$`,
			`Dec  7 17:21:50 web1 last message repeated 5 times`, true},
		{"sshd's fold of PAM's failures after the first", `authentication failures?; .*rhost=(?P<rhost>\S+)\s+user=(?P<user>\S+)`,
			`Dec  7 17:21:50 web1 sshd[101]: PAM 2 more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.5  user=root`, true},
		{"sshd's fold of PAM's failures, its count read", `(?:PAM (?P<more>\d+) more )?authentication failures?; .*rhost=(?P<rhost>\S+)\s+user=(?P<user>\S+)`,
			`Dec  7 17:21:50 web1 sshd[101]: PAM 2 more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.5  user=root`, false},
		{"PAM's first failure", `authentication failures?; .*rhost=(?P<rhost>\S+)\s+user=(?P<user>\S+)`,
			`Dec  7 17:21:50 web1 sshd[101]: pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.5  user=root`, false},
		{"the count read by a group", `(?:message repeated (?P<times>\d+) times: \[ )?` + failed,
			`Dec  7 17:21:50 web1 sshd[101]: message repeated 5 times: [ Failed password for root from 203.0.113.5 port 51234 ssh2]`, false},
		{"a line sent once", failed,
			`Dec  7 17:21:50 web1 sshd[101]: Failed password for root from 203.0.113.5 port 51234 ssh2`, false},
		{"a user named so is no fold", failed,
			`Dec  7 17:21:50 web1 sshd[101]: Failed password for invalid user repeated from 203.0.113.5 port 51234 ssh2`, false},
	} {
		r, err := Parse(tc.line+"\n", Spec{Mode: "regex", Options: map[string]any{"pattern": tc.pattern}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := r.Problems == 1 && strings.Contains(r.FirstProblem, "it stands for")
		if got != tc.problem {
			t.Errorf("%s: problem %v (problems %d %q, value %v), want %v", tc.name, got, r.Problems, r.FirstProblem, r.Value, tc.problem)
		}
		if rows := r.Value.([]any); tc.problem && len(rows) != 0 {
			t.Errorf("%s: the fold was read as %d row(s) %v, want none", tc.name, len(rows), rows)
		}
	}
	r, _ := Parse("Dec  7 17:21:50 web1 sshd[101]: message repeated 5 times: [ Failed password for root from 203.0.113.5 port 51234 ssh2]\n",
		Spec{Mode: "regex", Options: map[string]any{"pattern": failed}})
	if want := `line 1: it stands for 5 messages the syslog daemon wrote as one`; !strings.HasPrefix(r.FirstProblem, want) {
		t.Errorf("problem %q, want it to begin %q", r.FirstProblem, want)
	}
}
