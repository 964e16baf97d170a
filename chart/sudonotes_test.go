package chart

import "testing"

// TestSshdTestOutsideMatchIsNoted: sshd -T alone prints the settings
// outside every Match block, and a check of PasswordAuthentication said
// pass, Consistent, over a `Match User wsudo.dot` block that lets that
// account in with a password (testdata/wave-sudo/sshd-match); -C that
// leaves out addr passed over a `Match Address` block in silence. A -C
// naming user, host and addr is not noted, nor one whose keys are not
// known here.
func TestSshdTestOutsideMatchIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-T", ExecSpec{Command: []string{"sshd", "-T"}}, true},
		{"path and -f", ExecSpec{Command: []string{"/usr/sbin/sshd", "-f", "/etc/ssh/sshd_config", "-T"}}, true},
		{"shell", ExecSpec{Shell: "sshd -T | grep -i permitrootlogin"}, true},
		{"-C user alone", ExecSpec{Command: []string{"sshd", "-T", "-C", "user=deploy"}}, true},
		{"-C templated user alone", ExecSpec{Command: []string{"sshd", "-T", "-C", "user=${u}"}}, true},
		{"-C all three", ExecSpec{Command: []string{"sshd", "-T", "-C", "user=${u},host=${host},addr=${addr}"}}, false},
		{"-C three times", ExecSpec{Command: []string{"sshd", "-T", "-C", "user=root", "-C", "host=h", "-C", "addr=192.0.2.1"}}, false},
		{"-C glued", ExecSpec{Command: []string{"sshd", "-T", "-Cuser=root,host=h,addr=192.0.2.1"}}, false},
		{"-C not known", ExecSpec{Command: []string{"sshd", "-T", "-C", "${spec}"}}, false},
		{"shell -C not known", ExecSpec{Shell: `sshd -T -C "$SPEC"`}, false},
		{"-t", ExecSpec{Command: []string{"sshd", "-t"}}, false},
		{"ssh -G", ExecSpec{Command: []string{"ssh", "-G", "host"}}, false},
	} {
		note := tc.e.SshdTestOutsideMatch()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}

// TestVisudoCheckFileSkipsModesIsNoted: visudo -c -f /etc/sudoers checks
// no file's owner or mode, and said parsed OK, exit 0, over a
// world-writable drop-in sudo refuses to read, where visudo -c exits 1; a
// check of the installed policy under {0: valid, 1: invalid} said valid,
// Consistent (testdata/wave-sudo/sudoers-valid). visudo -c, -O -P, and
// -cf of a candidate file elsewhere are not noted.
func TestVisudoCheckFileSkipsModesIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		e     ExecSpec
		noted bool
	}{
		{"-c -f /etc/sudoers", ExecSpec{Command: []string{"visudo", "-c", "-f", "/etc/sudoers"}}, true},
		{"-cf drop-in", ExecSpec{Command: []string{"/usr/sbin/visudo", "-cf", "/etc/sudoers.d/ops"}}, true},
		{"--check --file=", ExecSpec{Command: []string{"visudo", "--check", "--file=/etc/sudoers"}}, true},
		{"-c positional", ExecSpec{Command: []string{"visudo", "-c", "/etc/sudoers"}}, true},
		{"-cqf", ExecSpec{Command: []string{"visudo", "-cqf/etc/sudoers"}}, true},
		{"template", ExecSpec{Command: []string{"visudo", "-c", "-f", "${file}"}}, true},
		{"shell", ExecSpec{Shell: "visudo -cf /etc/sudoers >/dev/null"}, true},
		{"-c", ExecSpec{Command: []string{"visudo", "-c"}}, false},
		{"-c -q", ExecSpec{Command: []string{"visudo", "-c", "-q"}}, false},
		{"-O -P", ExecSpec{Command: []string{"visudo", "-c", "-O", "-P", "-f", "/etc/sudoers"}}, false},
		{"-cOPf", ExecSpec{Command: []string{"visudo", "-cOPf", "/etc/sudoers"}}, false},
		{"-P alone", ExecSpec{Command: []string{"visudo", "-c", "-P", "-f", "/etc/sudoers"}}, true},
		{"candidate", ExecSpec{Command: []string{"visudo", "-cf", "/tmp/candidate"}}, false},
		{"no -c", ExecSpec{Command: []string{"visudo", "-f", "/etc/sudoers"}}, false},
	} {
		note := tc.e.VisudoCheckFileSkipsModes()
		if (note != "") != tc.noted {
			t.Errorf("%s: note %q, want noted %v", tc.name, note, tc.noted)
		}
	}
}
