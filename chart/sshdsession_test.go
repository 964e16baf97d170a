package chart

import "testing"

// TestJournalOfSshdAloneIsNoted: OpenSSH 9.8 split sshd into a listener
// and a program per connection, sshd-session, which writes the failed
// passwords (`sshd-session[4242]: Failed password for root …`), so
// `journalctl -t sshd` reads none of them and a count of failures over it
// is 0, ok, Consistent, on Debian 13, Arch and every host of
// OpenSSH 9.8 or later. Plan notes a journalctl that picks sshd's own
// entries by identifier or command name, and a run warns of it once.
func TestJournalOfSshdAloneIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-t sshd", ExecSpec{Command: []string{"journalctl", "-t", "sshd", "--since", "-1h", "-o", "json"}}, true},
		{"--identifier=sshd", ExecSpec{Command: []string{"journalctl", "--identifier=sshd"}}, true},
		{"a match", ExecSpec{Command: []string{"journalctl", "SYSLOG_IDENTIFIER=sshd", "--since", "-1h"}}, true},
		{"_COMM", ExecSpec{Command: []string{"journalctl", "_COMM=sshd"}}, true},
		{"shell", ExecSpec{Shell: `journalctl -t sshd --since -1h -o cat | grep -c "Failed password"`}, true},
		{"-t sshd and sshd-session", ExecSpec{Command: []string{"journalctl", "-t", "sshd", "-t", "sshd-session"}}, false},
		{"the unit", ExecSpec{Command: []string{"journalctl", "-u", "ssh", "--since", "-1h"}}, false},
		{"another identifier", ExecSpec{Command: []string{"journalctl", "-t", "sudo"}}, false},
		{"grep", ExecSpec{Command: []string{"grep", "-t", "sshd"}}, false},
	} {
		note := tc.e.JournalOfSshdAlone()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
