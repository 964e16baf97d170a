package chart

import (
	"strings"
	"testing"
)

// TestSNMPPassphraseInArgvIsNoted: a chart gave snmpget its SNMPv3
// passphrases from secret: true inputs through envFrom:, and a shell line
// `-A "$AUTHPASS" -X "$PRIVPASS"` put them in snmpget's argv, which ps
// shows every user of the host; nothing said so. A passphrase in argv is
// noted now; one read from a snmp.conf through SNMPCONFPATH is not, nor
// snmpd's -A (append to its log).
func TestSNMPPassphraseInArgvIsNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{shell: `snmpget -v3 -l authPriv -u ops -a SHA -A "$AUTHPASS" -x AES -X "$PRIVPASS" -Ov "$AGENT" 1.3.6.1.2.1.1.3.0`, want: true},
		{shell: `snmpbulkwalk -v3 -u ops -l authNoPriv -A"$AUTHPASS" host 1.3.6.1.2.1.2 | grep -c up`, want: true},
		{cmd: []string{"snmpwalk", "-v3", "-u", "ops", "-Asecret12", "host", "1.3.6.1.2.1.2"}, want: true},
		{cmd: []string{"/usr/bin/snmpget", "-v3", "-u", "ops", "-X", "secret12", "host", "1.3.6.1.2.1.1.3.0"}, want: true},
		{shell: `SNMPCONFPATH=$d snmpget -v3 -l authPriv -u ops -a SHA -x AES host 1.3.6.1.2.1.1.3.0`, want: false},
		{shell: `snmpwalk -v2c -c public -Ov host 1.3.6.1.2.1.2.2.1.8 | grep -A 2 down`, want: false},
		{cmd: []string{"snmpd", "-A", "-Lf", "/tmp/log"}, want: false},
		{shell: `snmpbulkwalk -v2c -c "$COMMUNITY" -On "$AGENT" 1.3.6.1.2.1.2.2.1.14 | sed "s/^/1 /"`, want: true},
		{shell: `snmpwalk -v2c -c${COMMUNITY} host 1.3.6.1.2.1.2`, want: true},
		{shell: `snmpwalk -v2c -c public host 1.3.6.1.2.1.2`, want: false},
		{cmd: []string{"snmpget", "-v2c", "-c", "public", "-Oqv", "host", "1.3.6.1.2.1.1.3.0"}, want: false},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell}
		got := strings.Contains(strings.Join(e.RunWarnings(), "\n"), "SNMPv3 passphrase or key (-A")
		if got != tc.want {
			t.Errorf("RunWarnings(%q, %q) noted a passphrase in argv: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}

// TestSNMPWalkOfManyOIDsIsNoted: snmpbulkwalk given ifInErrors and
// ifOutErrors walked ifInErrors alone and exited 0 (Net-SNMP 5.9.3
// ignores every OID after the first without a word): a chart's list of
// interfaces with output errors was empty over a walk that read none.
// A walk given more than one OID is noted now.
func TestSNMPWalkOfManyOIDsIsNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want bool
	}{
		{[]string{"snmpbulkwalk", "-v2c", "-c", "public", "-On", "-Oq", "host", "1.3.6.1.2.1.2.2.1.14", "1.3.6.1.2.1.2.2.1.20"}, true},
		{[]string{"/usr/bin/snmpwalk", "-v", "2c", "-cpublic", "-t", "2", "host", ".1.3.6.1.2.1.2.2.1.14", "IF-MIB::ifOutErrors"}, true},
		{[]string{"snmpwalk", "-v2c", "-c", "public", "-On", "-Oq", "-t", "2", "-r", "1", "host", "1.3.6.1.2.1.2.2.1"}, false},
		{[]string{"snmpwalk", "-v3", "-l", "authPriv", "-u", "ops", "-a", "SHA", "-x", "AES", "host", "1.3.6.1.2.1.2.2.1"}, false},
		{[]string{"snmpget", "-v2c", "-c", "public", "host", "1.3.6.1.2.1.1.3.0", "1.3.6.1.2.1.1.5.0"}, false},
	} {
		e := &ExecSpec{Command: tc.cmd}
		got := strings.Contains(strings.Join(e.RunWarnings(), "\n"), "Net-SNMP's walk walks one")
		if got != tc.want {
			t.Errorf("RunWarnings(%q) noted a walk of many OIDs: %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestSNMPNextValuesWithoutOIDsAreNoted: snmpbulkget -Oqv -Cr3 of
// ifOperStatus.3 on an agent with four interfaces printed `1`,
// `0:0:00:00.00`, `0:0:00:00.00`, exit 0: the two after ifOperStatus.4
// were ifLastChange's, and a rule for down(2) called them up. A getnext
// printing values without their OIDs is noted now.
func TestSNMPNextValuesWithoutOIDsAreNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"snmpbulkget", "-v2c", "-c", "public", "-Oqv", "-Cr3", "host", "1.3.6.1.2.1.2.2.1.8.3"}, want: true},
		{cmd: []string{"snmpgetnext", "-v2c", "-c", "public", "-O", "v", "host", "1.3.6.1.2.1.2.2.1.8"}, want: true},
		{shell: `snmpgetnext -v2c -c public -Oqv host 1.3.6.1.2.1.2.2.1.8.4 | tr -d '"'`, want: true},
		{shell: `snmpgetnext -v2c -c public -On host 1.3.6.1.2.1.2.2.1.8`, want: false},
		{cmd: []string{"snmpget", "-v2c", "-c", "public", "-Oqv", "host", "1.3.6.1.2.1.2.2.1.8.3"}, want: false},
		{cmd: []string{"snmpbulkwalk", "-v2c", "-c", "public", "-Oqv", "host", "1.3.6.1.2.1.2.2.1.8"}, want: false},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell}
		got := strings.Contains(strings.Join(e.RunWarnings(), "\n"), "values of a getnext")
		if got != tc.want {
			t.Errorf("RunWarnings(%q, %q) noted a getnext without OIDs: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
