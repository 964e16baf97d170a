package chart

import "testing"

// TestJournalQuietIsNoted: journalctl -q turns off the hint that says a
// user may read only part of the journal, which a run files as not
// checked (cmd/runbook TestPartialJournalIsNoWholeAnswer); plan notes -q
// and a run warns of it.
func TestJournalQuietIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-q", ExecSpec{Command: []string{"journalctl", "-q", "-p", "err"}}, true},
		{"--quiet", ExecSpec{Command: []string{"/usr/bin/journalctl", "--quiet"}}, true},
		{"a cluster", ExecSpec{Command: []string{"journalctl", "-qk"}}, true},
		{"shell", ExecSpec{Shell: "journalctl --quiet -u nginx | grep -c error"}, true},
		{"shell -q later", ExecSpec{Shell: "journalctl -u nginx -q -o json"}, true},
		{"no -q", ExecSpec{Command: []string{"journalctl", "-p", "err", "--since", "-1h"}}, false},
		{"an argument with a q", ExecSpec{Command: []string{"journalctl", "-u", "quota.service"}}, false},
		{"shell grep -q after", ExecSpec{Shell: "journalctl -u nginx | grep -q error"}, false},
		{"another program", ExecSpec{Command: []string{"grep", "-q", "x"}}, false},
	} {
		note := tc.e.JournalQuiet()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
