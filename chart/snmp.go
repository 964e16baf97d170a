package chart

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// snmpClients are Net-SNMP's query commands, which print an agent's
// exception (noSuchObject, noSuchInstance, endOfMibView) on stdout in
// place of the value asked for, and exit 0.
var snmpClients = []string{"snmpget", "snmpgetnext", "snmpbulkget", "snmpwalk", "snmpbulkwalk", "snmptable"}

// snmpClientInShell is a shell line running one of snmpClients.
var snmpClientInShell = regexp.MustCompile(`(^|[\s;&|(/])snmp(get|getnext|bulkget|walk|bulkwalk|table)(\s|$|[;&|)])`)

// SNMPClient says whether the exec runs a Net-SNMP query command
// (snmpClients, in a command or a shell: line), whose output may be the
// agent's exception though it exited 0 (runbook's errorReply):
//
//	[snmpget, -v2c, -Oqv, HOST, 1.3.6.1.2.1.2.2.1.8.3]    yes
//	shell: snmpwalk -v2c -On HOST 1.3.6.1.2.1.2 | grep …  yes
//	[snmpd, -v]                                           no
func (e *ExecSpec) SNMPClient() bool { return e.runs(snmpClientInShell, snmpClients...) }

// snmpCommands are the Net-SNMP commands that take the common SNMPv3
// options (snmpd's -A, append to the log, is not one).
var snmpCommands = []string{"snmpget", "snmpgetnext", "snmpbulkget", "snmpwalk", "snmpbulkwalk", "snmptable", "snmpset", "snmpdelta", "snmpdf", "snmpnetstat", "snmpstatus", "snmptest", "snmptrap", "snmpinform", "snmpusm", "snmpvacm"}

// snmpPassphraseInShell is a shell line giving one of snmpCommands an
// SNMPv3 passphrase or key in its argv: -A PASS, -X PASS (or joined,
// -APASS), or a localized or master key (-3m, -3x, -3k, -3K), or a
// community read from a variable (-c "$COMMUNITY": the chart handed it
// by envFrom:, as a secret, and the shell put it back in argv).
var snmpPassphraseInShell = regexp.MustCompile(`(^|[\s;&|(/])snmp(get|getnext|bulkget|walk|bulkwalk|table|set|delta|df|netstat|status|test|trap|inform|usm|vacm)\s([^|;&\n]*\s)?(-[AX]|-3[mxkK]|-c\s*"?\$\{?[A-Za-z_])`)

// snmpPassphraseFlag is an argv item that is (or begins) such an option.
var snmpPassphraseFlag = regexp.MustCompile(`^(-[AX]|-3[mxkK])`)

// SNMPPassphraseInArgv is the note for an exec that gives a Net-SNMP
// command (snmpget, snmpwalk, …) an SNMPv3 passphrase or key in its argv
// ("" otherwise). argv is what ps shows every user of the host while the
// walk runs, and an envFrom: secret expanded by a shell line into
// `-A "$AUTHPASS"` is in it as much as a literal one; Net-SNMP reads
// defAuthPassphrase and defPrivPassphrase from a snmp.conf in the folder
// SNMPCONFPATH names, which no argv shows:
//
//	shell: snmpget -v3 -l authPriv -u ops -A "$AUTHPASS" -X "$PRIVPASS" …   noted
//	[snmpwalk, -v3, -u, ops, -Asecret12, HOST, 1.3.6.1.2.1.2]                noted
//	shell: snmpwalk -v2c -c "$COMMUNITY" HOST 1.3.6.1.2.1.2                noted
//	shell: SNMPCONFPATH=$d snmpget -v3 -l authPriv -u ops HOST …             not noted
//	[snmpget, -v2c, -c, public, HOST, 1.3.6.1.2.1.1.3.0]                     not noted
func (e *ExecSpec) SNMPPassphraseInArgv() string {
	if e == nil {
		return ""
	}
	given := false
	if e.commandIs(snmpCommands...) {
		for _, a := range e.Command[1:] {
			if snmpPassphraseFlag.MatchString(a) {
				given = true
			}
		}
	}
	if !given && (e.Shell == "" || !snmpPassphraseInShell.MatchString(e.Shell)) {
		return ""
	}
	return `it gives an SNMP command an SNMPv3 passphrase or key (-A, -X, -3m, -3x, -3k), or a community read from a variable (-c "$COMMUNITY"), in its argv, where ps shows it to every user of the host while it runs, whether written there or expanded from an envFrom: variable; write it to a snmp.conf only the run can read (printf 'defAuthPassphrase %s\ndefPrivPassphrase %s\n' "$AUTHPASS" "$PRIVPASS" > "$d/snmp.conf", or defCommunity, printf being bash's own) and run the command with SNMPCONFPATH=$d, which Net-SNMP reads and no argv shows`
}

// SNMPWalk says whether the exec's command (not a shell: line, whose
// output may be a filter's) is a Net-SNMP walk, snmpwalk or snmpbulkwalk,
// whose blank output under exit 0 is a walk of nothing (runbook's
// errorReply).
func (e *ExecSpec) SNMPWalk() bool {
	return e.commandIs([]string{"snmpwalk", "snmpbulkwalk"}...)
}

// snmpArgOptions are the Net-SNMP options that take a value, given in
// the next item when not joined to the letter (-c public, -cpublic).
const snmpArgOptions = "cvrtaAxXluEenZmMOCIPLTyYsS3"

// SNMPWalkManyOIDs is the note for an exec whose command is snmpwalk or
// snmpbulkwalk given more than one OID ("" otherwise): Net-SNMP 5.9
// walks the first and ignores the others without a word, exit 0, so
// `snmpbulkwalk … HOST ifInErrors ifOutErrors` printed no ifOutErrors,
// and a filter for interfaces with output errors found none (a list of
// findings said none). A command of a shell: line is not read.
//
//	[snmpbulkwalk, -v2c, -c, public, HOST, 1.3.6.1.2.1.2.2.1.14, 1.3.6.1.2.1.2.2.1.20]   noted
//	[snmpwalk, -v2c, -c, public, -On, HOST, 1.3.6.1.2.1.2.2.1]                          not noted
func (e *ExecSpec) SNMPWalkManyOIDs() string {
	if !e.SNMPWalk() {
		return ""
	}
	var positional []string
	args := e.Command[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			if len(a) == 2 && strings.ContainsRune(snmpArgOptions, rune(a[1])) {
				i++ // its value is the next item
			}
			continue
		}
		positional = append(positional, a)
	}
	// the agent, then the OIDs
	if len(positional) <= 2 {
		return ""
	}
	return fmt.Sprintf("it gives %s %d OIDs (%s), but Net-SNMP's walk walks one: it walks %s and ignores the others without a word, so a value of theirs is absent, not none; walk each OID in a stage of its own, or walk the table they are columns of", filepath.Base(e.Command[0]), len(positional)-1, strings.Join(positional[1:], ", "), positional[1])
}

// snmpNextValueOnlyInShell is a shell line running snmpgetnext or
// snmpbulkget with -Ov (its letters joined: -Oqv) or -O v.
var snmpNextValueOnlyInShell = regexp.MustCompile(`(^|[\s;&|(/])snmp(getnext|bulkget)\s([^|;&\n]*\s)?-O\s*[a-zA-Z]*v`)

// SNMPNextValueOnly is the note for an exec that runs snmpgetnext or
// snmpbulkget printing values alone (-Ov, -Oqv; "" otherwise). A getnext
// answers the object after the one asked, whatever it is: past the last
// row of a column it is the next column's first (ifLastChange.1 after
// ifOperStatus.4), and snmpbulkget -Cr3 of ifOperStatus.3 printed `1`,
// `0:0:00:00.00`, `0:0:00:00.00`, exit 0: two of the three values were
// no interface's status, and -Ov hid the OIDs that said so; a rule for
// down(2) called them up.
//
//	[snmpbulkget, -v2c, -c, public, -Oqv, -Cr3, HOST, 1.3.6.1.2.1.2.2.1.8.3]   noted
//	shell: snmpgetnext -v2c -c public -On HOST 1.3.6.1.2.1.2.2.1.8              not noted
func (e *ExecSpec) SNMPNextValueOnly() string {
	if e == nil {
		return ""
	}
	given := false
	if e.commandIs("snmpgetnext", "snmpbulkget") {
		args := e.Command[1:]
		for i, a := range args {
			if strings.HasPrefix(a, "-O") && strings.Contains(a[2:], "v") || a == "-O" && i+1 < len(args) && strings.Contains(args[i+1], "v") {
				given = true
			}
		}
	}
	if !given && (e.Shell == "" || !snmpNextValueOnlyInShell.MatchString(e.Shell)) {
		return ""
	}
	return "it prints the values of a getnext (snmpgetnext, snmpbulkget) without their OIDs (-Ov): a getnext answers the object after the one asked, whatever it is, past a column's last row the next column's first, so a value may be of another object than the chart reads it as; print the OIDs (-On) and read only those under the column, or snmpget the instances, whose absence the agent says (No Such Instance)"
}
