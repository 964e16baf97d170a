package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemDenied is the kind of the not-checked item filed for an exec stage
// whose command exited 0 and said on stderr that it was refused
// access to something (EACCES's "Permission denied", EPERM's "Operation
// not permitted", in any case). `sysctl -a` run as a user prints every
// key it can read, says `sysctl: permission denied on key
// 'net.core.bpf_jit_harden'` for the ones it cannot, and exits 0: its
// output is not what the kernel holds, and a rule over every key it
// printed judges the ones it left out as absent, not as unread
// (TestDeniedOnStderrIsNoWholeAnswer). What it printed is kept; what the
// chart decided rests on part of it only, so the standing cannot be
// Consistent, and a Nagios check is no better than UNKNOWN.
//
// A file it was given and could not find (ENOENT's "No such file or
// directory") is the same kind of gap: `grep -c ERROR app.log || echo 0`
// over a log rotated away prints 0, says `grep: app.log: No such file or
// directory` and exits 0, and a chart read it as no errors, a Nagios
// check OK, Consistent, over a log nobody read
// (TestMissingFileOnStderrIsNoWholeAnswer). So is grep's "binary file
// matches": a log with NUL bytes in it (blocks a crash left zeroed) is
// binary to grep 3.5 and later, which prints none of its matching lines,
// says so on stderr and exits 0, and `grep ERROR app.log | wc -l` said 0,
// OK, over 14 ERROR lines (TestGrepBinaryFileMatchesIsNoCount). So is a
// tool that says its output may be incomplete: lshw run as a user reads
// no DMI table, lists no memory bank, says `WARNING: you should run this
// program as super-user.` and exits 0, and a chart of empty DIMM slots
// said OK, Consistent, over slots nobody listed; lsusb -v says `Couldn't
// open device, some information will be missing`
// (TestIncompleteOutputWarningIsNoWholeAnswer). So is sensors over a
// subfeature its driver could not read: `ERROR: Can't get value of
// subfeature temp1_input: Can't read` on stderr, exit 0, the feature
// empty in sensors -j, and a chart of hot sensors said OK over a
// temperature nobody read (TestSensorReadErrorIsNoWholeAnswer). And so,
// under a non-zero exit code the chart declared an answer, is a refusal
// alone (RefusedAnswerEntry): the code may be the refusal.
const ItemDenied = "denied"

// Denied is stderr's first line that says access was refused, that a
// file it was given is not there, or that the tool's output is not whole
// (a value it could not read, a warning that it may be incomplete), ""
// when none does. The rule, read line by line in any case:
//
//	"permission denied", "operation not permitted",  refused access
//	"must be privileged", "are not allowed to use
//	this program", "is not allowed to view the
//	mail queue", "do not have permission to use"
//	(crontab, postqueue, at), "must be
//	super-user" (mdadm), "access denied",
//	"command denied to user" (MySQL, MariaDB),
//	"must be the root user", "needs root privileges"
//	(rkhunter, chkrootkit: on stdout)
//	"a password is required", "incorrect password
//	attempt", "is not allowed to execute", "is not
//	in the sudoers file", … (sudo), "may not be used
//	by non-root users" (runuser), "su: authentication
//	failure" (userSwitchRefusal)
//	"could not connect to clamd"                      clamdscan reached no clamd (its
//	                                                  --version its own alone)
//	"no such file or directory"                       a file not there
//	"connect to server at '…' failed" (and the        mysqladmin could not connect
//	line after it, which says why)                     (ping exits 0 over it)
//	"failed to show create table" (and the line        mysqlcheck passed over a table
//	after it, which says why)                          (MariaDB)
//	"is a directory"                                  a folder where a file was meant
//	"binary file matches"                             grep left a file's lines out
//	"can't get value of"                              lm-sensors could not read a subfeature
//	"name or service not known", "could not resolve", … (Unresolved)
//	                                                  a host it was given not found
//	"not seeing messages from",                       journalctl could read only
//	"due to insufficient permissions"                 this user's part of the journal
//	"may be incomplete", "will be missing",           the tool says its output
//	"as super-user", "as superuser",                  is not whole (lshw, lsusb -v,
//	"would have to be root", "could not be identified" netstat -p)
//	"improperly formatted"                            sha256sum -c skipped lines of its list
//	"debsums: no md5sums for"                         debsums skipped a package it was given
//	"gpg: keybox '…' created"                         gpg made the keyring it was to read
//	(gpg 1: "gpg: keyring `…' created")
//	"size limit exceeded", "time limit exceeded",     an LDAP search stopped at a
//	"administrative limit exceeded" (ldapsearch's     limit and printed the entries
//	own words)                                        before it (ldapLimit)
//	"failed to connect to bus",                       systemctl & co. asked no
//	"has not been booted with systemd"                manager (noManager)
//	"couldn't find device with uuid", "is missing     vgs, lvs, pvs over a VG one of
//	pv", "device for pv … not found", "couldn't       whose PVs is gone (lvmMissingPV)
//	find all devices for lv"
//	"/dev/mapper/control: open failed", "failure to   lvs, dmsetup reached no
//	communicate with kernel device-mapper driver"     device-mapper (lvmNoDeviceMapper)
//	"qgroup data inconsistent", "qgroup data may be   btrfs qgroup show's numbers are
//	incorrect", "qgroup data may be out of date"      not the usage (btrfsQgroupStale)
//	"can't load … - run testparm to debug it"          smbstatus, smbclient went on without
//	                                                  the smb.conf given (sambaConfigUnloaded)
//	"invalid option -- ", "unrecognized option '",    getopt's words for an option the
//	"option requires an argument -- "                 command went on without (optionRefused)
//	"failed to get the status of endpoint …", "…      etcdctl had no answer from an
//	is unhealthy: failed to commit proposal"          endpoint and left it out of its
//	                                                  rows (etcdEndpointUnreached)
//	"error: …" with "ignoring" in it (logrotate's      it read its configuration without
//	"-- ignoring line", "Ignoring FILE because …")    a line or a file (configIgnored)
//	"referenced but not defined" (visudo -c, sudo)    a rule names an alias no line defines
//	"MonitorException:", "AttachNotSupportedException:", jstat, jcmd reached no JVM
//	"IOException: No such process", "well-known file  (jvmUnreached)
//	… is not secure", "Could not find any processes
//	matching :", "Unknown diagnostic command"
func Denied(stderr string) string {
	line := firstLine(stderr, func(l string) bool { return deniedCause(l) != "" })
	if c := deniedCause(line); c == causeSkippedTable || c == causeNotConnected {
		return withNextLine(stderr, line)
	}
	return line
}

// withNextLine is line, the first of text's lines that is it (trimmed),
// followed by ": " and the next line that is not blank, which says why
// (mysqlcheck's "Failed to SHOW CREATE TABLE `crash`" and the server's
// error after it); line alone when none follows.
func withNextLine(text, line string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != line {
			continue
		}
		for _, next := range lines[i+1:] {
			if next = strings.TrimSpace(next); next != "" {
				return line + ": " + next
			}
		}
		break
	}
	return line
}

// firstLine is text's first line for which holds says true, its blanks
// trimmed; "" when none does. How every rule over a tool's words finds
// the line it quotes.
func firstLine(text string, holds func(line string) bool) string {
	for _, l := range strings.Split(text, "\n") {
		if holds(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// answerEntry is the ledger's entry saying the stage at path did not
// check its answer, why, filed as kind: how each rule that finds a
// declared exit code's word rests on no answer says so.
func answerEntry(path, why, kind string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind:       coverage.KindLedger,
		NotChecked: []coverage.Item{{What: "its answer", Why: why, Kind: kind}},
	}}
}

// outputEntry is the ledger's entry of a stage whose output is not a
// whole answer, in why's words, of the kind given: the one shape every
// judgement of a command's output files (as answerEntry is of its code).
func outputEntry(path, why, kind string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind:       coverage.KindLedger,
		NotChecked: []coverage.Item{{What: "its output", Why: why, Kind: kind}},
	}}
}

// exitedThough is how a ledger entry says the exit a stage's answer stood
// on: "though it exited 1", and the word the chart declared for that code
// when it declared one.
func exitedThough(exit int, word string) string {
	if word == "" {
		return fmt.Sprintf("though it exited %d", exit)
	}
	return fmt.Sprintf("though it exited %d, which the chart declares the answer %q", exit, word)
}

// Refused is stderr's first line that says access was refused
// (EACCES's "Permission denied", EPERM's "Operation not permitted", in
// any case), "" when none does: of Denied's lines, the ones that say the
// command could not look at all. Under an exit code the chart declared an
// answer, only these are judged (RefusedAnswerEntry): a file not there is
// what `stat` with `{1: missing}` asks about, a refusal never is, unless
// the chart says so (chart.ExecSpec.AnswerNeedsStderr).
func Refused(stderr string) string {
	return firstLine(stderr, func(l string) bool { return deniedCause(l) == causeRefused })
}

// SkippedLines is stderr's first line saying the command skipped lines
// of the list it was given (a checksum tool's `WARNING: 1 line is
// improperly formatted`) or a package it was given (debsums' `no md5sums
// for PKG`: `debsums -ca nginx openssh-server` exits 2 over the one's
// changed files and checked none of the other's), "" when none does. Unlike Denied's other lines
// it is judged under every code the chart declared an answer, not only
// exit 0: `sha256sum -c` exits 0 over it, 1 under --strict and 1 over a
// mismatch beside it, and under each the file the skipped line names was
// not checked (TestChecksumLineNotReadIsNoWholeAnswer).
func SkippedLines(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		c := deniedCause(l)
		return c == causeSkippedLines || c == causeNoDigests
	})
}

// RefusedAnswerEntry is the ledger's entry for a stage whose exit code
// the chart declared the answer word, when stderr said the command was
// refused access (Refused; line masked already). `stat -c %a
// /srv/app/.env` with `exitCodes: {0: present, 1: missing}` exits 1 for
// a file that is not there and as much for one behind a folder it may not
// search (`stat: cannot statx '/srv/app/.env': Permission denied`), and
// the chart called a file nobody could look at missing, Consistent
// (TestRefusalUnderDeclaredCodeIsNoAnswer); `ssh -o BatchMode=yes host
// true` with `{255: unreachable}` exits 255 over a key refused as over a
// host down. The code may be the refusal, not the answer.
//
// keyed is the stderr text the chart gave the answer (exitCodes' {word,
// stderr}), "" when none: a text that names no refusal vouches for none,
// and Apache says `Syntax error on line 225 of …: Could not open
// configuration file …: Permission denied` of a site it may not read.
func RefusedAnswerEntry(path string, exit int, word, line, keyed string) coverage.Entry {
	if keyed != "" {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q where stderr says %q, and it did, but it said on stderr too that it was refused access, and a refusal is no answer: the line that holds the refusal may hold that text as well (apache2ctl configtest says \"Syntax error on line 225 …: Could not open configuration file …: Permission denied\" of a file it may not read), so %q is not known; stderr's first such line: %q; run it with the privilege to read everything it reads", exit, word, keyed, word, cutLine(line)), ItemDenied)
	}
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it was refused access, and a command exits with the same code over a refusal as over the answer (stat's 1 over a file not there and over one it may not look at), so %q is not known; stderr's first such line: %q; run it with the privilege to look, or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, word, cutLine(line), exit, word), ItemDenied)
}

// RefusedMergedAnswerEntry is RefusedAnswerEntry for a shell: script that
// sends stderr into stdout (2>&1, |&), where the refusal was read: a
// stderr text the answer goes with cannot be given there, so it says to
// keep stderr apart.
func RefusedMergedAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said it was refused access, on the stderr its script sends into stdout (2>&1), and a command exits with the same code over a refusal as over the answer (nginx -t's 1 over a config it may not read and over one it refuses), so %q is not known; the first such line: %q; run it with the privilege to read everything, or keep its stderr apart (drop 2>&1) and say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}", exit, word, word, cutLine(line), exit, word), ItemDenied)
}

// RefusedOnStdoutAnswerEntry is RefusedAnswerEntry for a tool that
// prints its refusal on stdout (chart.ExecSpec.RefusesOnStdout: rkhunter,
// chkrootkit), where it was read. rkhunter run as a user prints `You must
// be the root user to run this program.` and exits 1, its code for
// warnings found, and a check of its warnings under `{0: clean, 1:
// warnings}` with `result.empty: answer` said `OK - no verdict rows`,
// Consistent, over a scan that never ran (cmd/runbook
// TestRootkitHunterAsAUserIsNoAnswer, testdata/wave-av/rkhunter); `sv
// status DIR` as a user under `{1: not-supervised}` called a running
// service not supervised (TestRunitSvRefusalOnStdoutIsNoAnswer).
func RefusedOnStdoutAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stdout that it was refused (rkhunter and chkrootkit print their refusal there, and exit 1 over it, rkhunter's code for warnings found; runit's sv prints there that it may not open a service's supervise/ok, and exits 1 over it as over a directory no runsv serves), so it checked nothing and %q is not known; the first such line: %q; run it as root", exit, word, word, cutLine(line)), ItemDenied)
}

// deniedCause is what the line says the command could not do, "" when it
// says neither (Denied).
func deniedCause(line string) string {
	low := strings.ToLower(line)
	switch {
	case noManager(low):
		// before the refusal and the missing file: systemctl --user from
		// cron says `Failed to connect to bus: No such file or directory`
		return causeNoManager
	case kdcUnreached(low):
		// before the missing file: a krb5.conf naming no KDC for the
		// realm is no file the command was given
		return causeNoKDC
	case strings.Contains(low, "clock skew too great"):
		return causeKDCSkew
	case strings.Contains(low, "could not connect to clamd"):
		// before the missing file and the refusal: clamdscan's socket
		// not there (`…: No such file or directory`) or not its to open
		return causeDaemonUnreached
	case haproxyStateFile(low):
		// before the refusal and the missing file: no ground of a
		// config check (TestHAProxyStateFileIsNoGapOfItsCheck)
		return ""
	case jvmUnreached(low):
		// before the refusal and the missing file: jcmd's attach over
		// another user's JVM may end in `Permission denied`, and its
		// advice is the JVM's own
		return causeJVMUnreached
	case monitUnreached(low):
		// before the refusal: a daemon not reached is no access refused
		return causeMonitUnreached
	case supervisordUnreached(low):
		// before the missing file: supervisorctl's `unix:///… no such
		// file` is the socket of the daemon it asks, no file it was given
		return causeSupervisordUnreached
	case rabbitmqNodeUnreached(low):
		// before the refusal: the line names no access, and its causes
		// (a node down, a cookie refused) are the lines after it
		return causeNodeUnreached
	case mysqladminNotConnected(low):
		// before the refusal: quoted with the line after it (Denied),
		// which may say `Access denied`
		return causeNotConnected
	case strings.Contains(low, "permission denied") || strings.Contains(low, "operation not permitted") || refusedPrivilege(low):
		return causeRefused
	case strings.Contains(low, "no such file or directory"):
		return causeNotThere
	case strings.Contains(low, "config files missing '"):
		// keepalived -t's words for a -f path or an include not there,
		// under its exit 0 (TestKeepalivedConfigMissingIsNotThere)
		return causeNotThere
	case strings.HasPrefix(strings.TrimSpace(low), "failed to show create table"):
		// mysqlcheck DB TABLE… over a table it could not check: the
		// others' OK, this line and the server's error after it, exit 0.
		return causeSkippedTable
	case strings.Contains(low, "is a directory"):
		// grep -c ERROR /var/log/app prints 0 for the folder, says so on
		// stderr and exits 2, which `|| true` makes 0.
		return causeFolder
	case strings.Contains(low, "binary file matches"):
		// GNU grep 3.5 on: a log with a NUL in it (a crash's zeroed
		// blocks) is binary to it, and its matching lines are not printed.
		return "took a file for binary and printed none of its matching lines"
	case strings.Contains(low, "can't get value of"):
		// lm-sensors: a subfeature the driver could not read is left out
		// of sensors -j (an empty feature) and printed as +0.0 in text.
		return causeUnread
	case Unresolved(line) != "":
		// for h in $HOSTS; do ssh "$h" uptime || true; done over a host
		// misspelt: the others' rows, exit 0 (TestUnresolvedHostOnStderrIsNoWholeAnswer).
		return causeUnresolved
	case strings.Contains(low, "not seeing messages from") || strings.Contains(low, "due to insufficient permissions"):
		// journalctl as a user outside adm/systemd-journal: its own
		// entries only, exit 0 (TestPartialJournalIsNoWholeAnswer).
		return causePartialJournal
	case strings.Contains(low, "improperly formatted"):
		// sha256sum -c, md5sum -c: a line of the list it cannot read is
		// skipped, the others checked, exit 0 (1 under --strict).
		return causeSkippedLines
	case strings.HasPrefix(strings.TrimSpace(low), "debsums: no md5sums for "):
		// debsums given a package with no md5sums file: the package is
		// skipped, the others checked, exit 0 (2 over their findings).
		return causeNoDigests
	case madeEmpty(low):
		return causeMadeEmpty
	case lvmMissingPV(low):
		return causeMissingPV
	case lvmNoDeviceMapper(low):
		return causeNoDeviceMapper
	case btrfsQgroupStale(low):
		return causeQgroupStale
	case ldapLimit(low):
		return causeLDAPLimit
	case sambaConfigUnloaded(low):
		return causeSambaConfigUnloaded
	case etcdEndpointUnreached(low):
		return causeEndpointUnreached
	case optionRefused(low):
		return causeOptionRefused
	case configIgnored(low):
		return causeConfigIgnored
	case strings.Contains(low, "referenced but not defined"):
		// visudo -c: `User_Alias "OPSX" referenced but not defined`,
		// exit 0 (1 under -s): the rule naming it matches no one.
		return causeAliasUndefined
	case strings.Contains(low, "may be incomplete") || strings.Contains(low, "will be missing") ||
		strings.Contains(low, "as super-user") || strings.Contains(low, "as superuser") ||
		strings.Contains(low, "would have to be root") || strings.Contains(low, "could not be identified"):
		// lshw as a user: no DMI table read, no memory bank listed.
		// netstat -p as a user: "(Not all processes could be
		// identified, non-owned process info will not be shown, you
		// would have to be root to see it all.)", exit 0, its PID/Program
		// column "-" for every socket another user owns.
		return causeIncomplete
	}
	return ""
}

// refusedPrivilege says whether a line (lower case) is a tool's own
// words for refusing the runner, with no errno behind them: cron's
// crontab run as a user with -u (`must be privileged to use -u`) or by
// one left out of cron.allow (`You (nobody) are not allowed to use this
// program (crontab)`), and postqueue -p by one left out of
// authorized_mailq_users (`User nobody(65534) is not allowed to view the
// mail queue`), and at's atq by one at.deny names (`You do not have
// permission to use atq.`). crontab exits 1 over each, as over `no
// crontab for backup`, so `{1: none}` called a crontab nobody could read
// none (TestPrivilegeRefusalUnderDeclaredCodeIsNoAnswer). MySQL's and
// MariaDB's words too: `Access denied for user 'monitor'@'localhost'`
// (1045, 1044), `Access denied; you need (at least one of) the PROCESS
// privilege(s)` (1227), `SHOW command denied to user 'lim'@'localhost'
// for table …` (1142, 1143): mysqlcheck prints the other tables' OK over
// one it may not see and exits 0, and `mysqladmin ping` exits 0 over a
// refused login (cmd/runbook TestMySQLRefusalIsNoWholeAnswer). mdadm's
// too: `mdadm: must be super-user to perform this action`, exit 1, which
// is --detail --test's code for an array degraded (cmd/runbook
// TestMdadmAsAUserIsNoAnswerOfDegraded). The rootkit hunters' too, which
// say it on stdout (chart.ExecSpec.RefusesOnStdout): rkhunter's `You must
// be the root user to run this program.` and chkrootkit's
// `/usr/sbin/chkrootkit needs root privileges`, exit 1, rkhunter's code
// for warnings found (cmd/runbook TestRootkitHunterAsAUserIsNoAnswer).
// MIT Kerberos's `Credentials cache permissions incorrect` (klist, kvno
// over a cache another user owns, mode 600) is its EACCES, exit 1, its
// code for no ticket (cmd/runbook TestKlistSilentExitIsNoAnswer).
func refusedPrivilege(low string) bool {
	return strings.Contains(low, "access denied") ||
		strings.Contains(low, "command denied to user") ||
		strings.Contains(low, "must be privileged") ||
		strings.Contains(low, "must be super-user") || strings.Contains(low, "must be superuser") ||
		strings.Contains(low, "are not allowed to use this program") ||
		strings.Contains(low, "is not allowed to view the mail queue") ||
		strings.Contains(low, "do not have permission to use") ||
		strings.Contains(low, "credentials cache permissions incorrect") ||
		monitRefusal(low) ||
		rootRefusal(low) || userSwitchRefusal(low)
}

// monitRefusal says whether a line (lower case) is monit 5.x refusing
// the runner: its control file not readable by this user (`The control
// file '/etc/monit/monitrc' is not readable`: monit -t exits 1 over it as
// over a syntax error, and `{1: invalid}` called a monitrc nobody read
// invalid), or its daemon refusing the client's credentials (`You are not
// authorized to access monit. …`, the allow line's user:password not the
// one the client's control file gives), exit 1 as over a service not
// found (cmd/runbook TestMonitDaemonUnreachedIsNoAnswer).
func monitRefusal(low string) bool {
	t := strings.TrimSpace(low)
	return (strings.HasPrefix(t, "the control file '") && strings.HasSuffix(t, "' is not readable")) ||
		strings.HasPrefix(t, "you are not authorized to access monit")
}

// userSwitchRefusal says whether a line (lower case) is the words of sudo,
// su or runuser for not running the command it was given as another
// user: `sudo -n` with no password to give (`sudo: a password is
// required`), sudo with no terminal to ask on (`a terminal is required
// to read the password`, `you must have a tty to run sudo` under
// requiretty), a password not given or wrong (`no password was
// provided`, `1 incorrect password attempt`), a command the sudoers do
// not allow (`Sorry, user nagios is not allowed to execute
// '/usr/bin/grep …' as root on db1.`, `nagios is not in the sudoers
// file`). sudo exits 1 over each, grep's code for none found, so a check
// run by a monitoring account through `sudo -n grep …` with `{0: found,
// 1: none}` said `OK - no verdict rows`, Consistent, over a grep that
// never ran (cmd/runbook TestSudoRefusalUnderDeclaredCodeIsNoAnswer,
// testdata/wave-sudo/nopasswd-via-sudo). runuser run by a user says
// `runuser: may not be used by non-root users`, and su with no password
// to read `su: Authentication failure`, each exit 1 too.
func userSwitchRefusal(low string) bool {
	return strings.Contains(low, "a password is required") ||
		strings.Contains(low, "may not be used by non-root users") ||
		strings.Contains(low, "su: authentication failure") ||
		strings.Contains(low, "a terminal is required to read the password") ||
		strings.Contains(low, "must have a tty to run sudo") ||
		strings.Contains(low, "no password was provided") ||
		strings.Contains(low, "incorrect password attempt") ||
		strings.Contains(low, "is not allowed to execute") ||
		strings.Contains(low, "is not in the sudoers file")
}

// rootRefusal says whether a line (lower case) is rkhunter's or
// chkrootkit's refusal to run as a user.
func rootRefusal(low string) bool {
	return strings.Contains(low, "must be the root user") || strings.HasSuffix(strings.TrimSpace(low), " needs root privileges")
}

// SvRefusal is stdout's first line on which runit's sv says it was
// refused a service's control files (`warning: /etc/service/web: unable
// to open supervise/ok: access denied`, run as a user who may not open
// them), "" when none does: only its own warning and fail lines are read,
// never a status line. It exits 1 over it, as over a directory no runsv
// serves (`… file does not exist`), so `{1: not-supervised}` called a
// running service not supervised (cmd/runbook
// TestRunitSvRefusalOnStdoutIsNoAnswer).
func SvRefusal(stdout string) string {
	return firstLine(stdout, func(l string) bool {
		t := strings.TrimSpace(l)
		return (strings.HasPrefix(t, "warning: ") || strings.HasPrefix(t, "fail: ")) && deniedCause(t) == causeRefused
	})
}

// RootRefusal is stdout's first line on which rkhunter or chkrootkit
// refuses to run as a user (chart.ExecSpec.RefusesOnStdout), "" when
// none does: only these words are read on their stdout, where a warning
// may quote any other.
func RootRefusal(stdout string) string {
	return firstLine(stdout, func(l string) bool { return rootRefusal(strings.ToLower(l)) })
}

// noManager says whether a line (lower case) is systemd's tools saying
// they could not reach the manager they ask: systemctl, loginctl,
// timedatectl where systemd is not PID 1 (a container, a chroot: `System
// has not been booted with systemd as init system (PID 1). Can't
// operate.`, `Failed to connect to bus: Host is down`), or `systemctl
// --user` with no session bus (cron's environment: `Failed to connect to
// bus: No medium found`).
//
// systemd 254 and later name the bus: `Failed to connect to user scope bus
// via local transport: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not
// defined (…)`, `Failed to connect to system scope bus via local
// transport: Host is down`.
func noManager(low string) bool {
	return strings.Contains(low, "failed to connect to bus") ||
		(strings.Contains(low, "failed to connect to") && strings.Contains(low, "scope bus")) ||
		strings.Contains(low, "has not been booted with systemd")
}

// causeNoManager is what a line says when the command could not reach
// the service manager it asks (noManager).
const causeNoManager = "could not reach the service manager it asks (systemd)"

// kdcUnreached says whether a line (lower case) is MIT Kerberos's
// library (kinit, kvno, kpasswd, any GSSAPI client) saying it asked no
// KDC of the realm: `Cannot contact any KDC for realm 'TEST.LAN'` (the
// KDC stopped, a firewall), `Cannot find KDC for realm "TEST.LAN"`
// (krb5.conf names no KDC for it: the realm misspelt there or in the
// principal) and `Cannot resolve network address for KDC in realm
// "TEST.LAN"` (its name unresolved). kinit exits 1 over each, as over a
// key the KDC refused.
func kdcUnreached(low string) bool {
	return strings.Contains(low, "cannot contact any kdc for realm") ||
		strings.Contains(low, "cannot find kdc for realm") ||
		strings.Contains(low, "cannot resolve network address for kdc in realm")
}

// causeNoKDC is what a line says when a Kerberos client asked no KDC of
// the realm (kdcUnreached).
const causeNoKDC = "could not reach a KDC of the realm it asks (Kerberos)"

// causeKDCSkew is what a line says when the KDC refused a Kerberos
// client's request for its time, not its key: `Clock skew too great in
// KDC reply` (kinit, with kdc_timesync off, or a clock that moved after
// the client last synced), `Clock skew too great while getting initial
// credentials`. kinit exits 1 over it as over a key refused, and a keytab
// that was fine read as rejected.
const causeKDCSkew = "was refused by the KDC for its request's time (this host's clock and the KDC's more than the realm's clockskew apart), not its key (Kerberos)"

// Unreached is stderr's first line saying the command could not reach
// the service manager it asks (noManager), the RabbitMQ node it asks
// (rabbitmqNodeUnreached) or a KDC of its realm (kdcUnreached), or that
// the KDC refused its request's time (causeKDCSkew), "" when none does.
// Judged under an exit code the chart declared an answer as a refusal is
// (UnreachedAnswerEntry): `systemctl is-failed` exits 1 for a unit that
// has not failed and as much when it could ask no manager,
// rabbitmq-diagnostics check_local_alarms 69 over an alarm and over no
// node reached, kinit 1 over a key the KDC refused and over no KDC
// reached.
func Unreached(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		c := deniedCause(l)
		return c == causeNoManager || c == causeNodeUnreached || c == causeNoKDC || c == causeKDCSkew || c == causeSupervisordUnreached || c == causeMonitUnreached
	})
}

// UnreachedAnswerEntry is the ledger's entry for a stage whose exit code
// the chart declared the answer word, when stderr said the command could
// not reach the service manager it asks (Unreached; line masked already).
// `systemctl is-failed backup.service` with `exitCodes: {0: failed, 1:
// not-failed}`, where systemd is not PID 1, said not-failed, OK,
// Consistent, of a unit nobody asked about
// (cmd/runbook TestServiceManagerUnreachedIsNoAnswer).
//
// `kinit -k -t KEYTAB PRINCIPAL` with `exitCodes: {0: ok, 1: rejected}`
// said rejected, CRITICAL, of every keytab with the KDC stopped (cmd/runbook
// TestKDCUnreachedIsNoAnswer, testdata/wave-krb/keytab-kinit).
func UnreachedAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	if deniedCause(line) == causeMonitUnreached {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it %s, and monit exits 1 when it asks no daemon as over a service name its control file does not give (Service 'NAME' not found), so %q is not known; stderr's first such line: %q; start monit, and give its control file a set httpd statement the client can reach (an allow line it may use: its user:password, or localhost)", exit, word, causeMonitUnreached, word, cutLine(line)), ItemDenied)
	}
	if deniedCause(line) == causeSupervisordUnreached {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stdout that it %s, and supervisorctl exits 4 when it reaches no supervisord as over a program name no section gives (no such process), so %q is not known; the first such line: %q; start supervisord, or give supervisorctl the server it runs (-c the supervisord.conf whose [unix_http_server] or [inet_http_server] it serves, its serverurl)", exit, word, causeSupervisordUnreached, word, cutLine(line)), ItemDenied)
	}
	if deniedCause(line) == causeNodeUnreached {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it %s, and RabbitMQ's CLI tools exit 69 when they reach no node as when a check fails (check_local_alarms over an alarm and over a node not running, or one that refused this account's Erlang cookie), so %q is not known; stderr's first such line: %q; start the node, or run the check as an account holding the node's cookie (root or rabbitmq, ~/.erlang.cookie), or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, causeNodeUnreached, word, cutLine(line), exit, word), ItemDenied)
	}
	if deniedCause(line) == causeKDCSkew {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that the KDC refused its request's time (this host's clock and the KDC's more than the realm's clockskew apart), not its key, and it exits with the same code over a key refused, so %q is not known; stderr's first such line: %q; set this host's clock (chrony, systemd-timesyncd) or turn kdc_timesync on in krb5.conf, and run it again", exit, word, word, cutLine(line)), ItemDenied)
	}
	if deniedCause(line) == causeNoKDC {
		return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it %s, and it exits with the same code when no KDC judged what it sent (kinit's 1 over a key the KDC refused and over a KDC stopped, or a realm krb5.conf does not name), so %q is not known; stderr's first such line: %q; start the KDC or open its port (88), check the realm's name in krb5.conf's [realms] and in the principal (realms are upper case), or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, causeNoKDC, word, cutLine(line), exit, word), ItemDenied)
	}
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it %s, and it exits with the same code when it asked no one (systemctl is-failed's 1 over a unit that has not failed and over no manager), so %q is not known; stderr's first such line: %q; run it where systemd runs (systemctl --user needs the user's bus: XDG_RUNTIME_DIR=/run/user/UID), or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, causeNoManager, word, cutLine(line), exit, word), ItemDenied)
}

// causeNotThere and causeFolder are what a line says when a file the
// command was given is not there, or is a folder.
const (
	causeNotThere = "could not find a file it was given"
	causeFolder   = "was given a folder where it read a file"
)

// causeMonitUnreached is what a line says when monit, run as a client
// (monit status, summary, monitor, unmonitor), asked no daemon
// (monitUnreached).
const causeMonitUnreached = "could not reach the monit daemon it asks"

// monitUnreached says whether a line (lower case) is monit 5.x saying
// the client asked no daemon: `Monit: the monit daemon is not running`
// (no process at the control file's pidfile), `Monit: the monit HTTP
// interface is not enabled, …` (a daemon running without set httpd, the
// only way a client asks it), `Cannot connect to [127.0.0.1]:2812 --
// Connection refused` (another port, another address). It exits 1 over
// each, as over a service its control file does not give (`Service
// 'NAME' not found`), so a check of expected services under `{1:
// not-configured}` called every service not configured with the daemon
// stopped (cmd/runbook TestMonitDaemonUnreachedIsNoAnswer).
func monitUnreached(low string) bool {
	t := strings.TrimSpace(low)
	return strings.Contains(t, "the monit daemon is not running") ||
		strings.Contains(t, "the monit http interface is not enabled") ||
		(strings.HasPrefix(t, "cannot connect to [") && strings.Contains(t, "]:") && strings.Contains(t, " -- "))
}

// causeSupervisordUnreached is what a line says when supervisorctl
// reached no supervisord (supervisordUnreached).
const causeSupervisordUnreached = "could not reach the supervisord it asks"

// supervisordUnreached says whether a line (lower case) is supervisorctl
// 4.x saying it reached no supervisord at the server URL it was given:
// `unix:///run/supervisor.sock refused connection` (the socket file a
// killed supervisord left behind), `unix:///run/supervisor.sock no such
// file` (none: supervisord stopped, or another config's socket), `http://
// 127.0.0.1:9001 refused connection` (its inet_http_server). It prints it
// on stdout and exits 4, as over a program name no section gives
// (chart.ExecSpec.RunsSupervisorctl), so a check of expected programs under
// `{4: not-configured}` called every program not configured with
// supervisord stopped (cmd/runbook TestSupervisordUnreachedIsNoAnswer).
func supervisordUnreached(low string) bool {
	t := strings.TrimSpace(low)
	if !strings.HasPrefix(t, "unix://") && !strings.HasPrefix(t, "http://") && !strings.HasPrefix(t, "https://") {
		return false
	}
	return strings.HasSuffix(t, " refused connection") || strings.HasSuffix(t, " no such file")
}

// causeNodeUnreached is what a line says when a RabbitMQ CLI tool
// (rabbitmqctl, rabbitmq-diagnostics) reached no node: `Error: unable to
// perform an operation on node 'rabbit@db1'.` (3.7 on), `Error: unable
// to connect to node rabbit@db1: nodedown` (before), over a node not
// running and over one that refused the CLI's Erlang cookie alike. It
// exits 69 over it, and rabbitmq-diagnostics check_local_alarms exits
// 69 over an alarm too: `{0: clear, 69: alarmed}` said a stopped node,
// and a running one the check's account had no cookie for, reported a
// memory alarm, Consistent (TestRabbitMQNodeUnreachedIsNoAnswer,
// testdata/wave-mq/alarms).
const causeNodeUnreached = "could not reach the RabbitMQ node it asks"

// rabbitmqNodeUnreached says whether a line (lower case) is
// causeNodeUnreached's.
func rabbitmqNodeUnreached(low string) bool {
	return strings.Contains(low, "unable to perform an operation on node") ||
		strings.Contains(low, "unable to connect to node")
}

// causeNotConnected is what a line says when mysqladmin could not
// connect to the server it was to ask (mysqladminNotConnected).
const causeNotConnected = "could not connect to the server it asks"

// causeDaemonUnreached is what a line says when a client could not
// connect to the daemon it hands its work to: clamdscan's `ERROR: Could
// not connect to clamd on LocalSocket /var/run/clamav/clamd.ctl: No such
// file or directory` (clamd not running), under which `clamdscan
// --version` prints its own `ClamAV 1.4.6` alone, no database's number
// and date, and exits 0 (testdata/wave-av/db-age;
// TestDaemonUnreachedIsSaidSo). It was said as a file it was given and
// could not find, "a missing log is no log without errors".
const causeDaemonUnreached = "could not connect to the daemon it asks"

// mysqladminNotConnected says whether a line (lower case) is mysqladmin
// saying it could not connect (`mysqladmin: connect to server at
// 'localhost' failed`, the server's error on the line after). `mysqladmin
// ping` exits 0 over it whenever the server answered at all: a refused
// login (`Access denied for user …`), `Too many connections` — and a
// liveness check with `exitCodes: {0: up, 1: down}` said up, OK,
// Consistent, over a server refusing every new connection (cmd/runbook
// TestMySQLAdminPingRefusedIsNoAnswer). Its line is quoted with the line
// after, which says why (Denied).
func mysqladminNotConnected(low string) bool {
	return strings.Contains(low, "connect to server at '") && strings.Contains(low, "' failed")
}

// causeSkippedTable is what a line says when MariaDB's mysqlcheck passed
// over a table it was given ("Failed to SHOW CREATE TABLE `crash`", the
// server's error on the line after): a table misspelt (`Table
// 'shop.ordres' doesn't exist`), one the user may not see (`SHOW command
// denied`), one marked as crashed (`Table './shop/crash' is marked as
// crashed and last (automatic?) repair failed`). It prints the other
// tables' OK and exits 0, and a table check said OK, Consistent, over a
// crashed table nobody checked (cmd/runbook
// TestMySQLTableNotCheckedIsNoWholeAnswer). Its line is quoted with the
// line after, which says why (Denied).
const causeSkippedTable = "passed over a table it was given"

// Unopened is stderr's first line saying a file the command was given is
// not there or is a folder (of Denied's lines, those two), "" when none
// does.
func Unopened(stderr string) string {
	return firstLine(stderr, func(l string) bool { c := deniedCause(l); return c == causeNotThere || c == causeFolder })
}

// causeRefused is what a line says when the command was refused access.
const causeRefused = "was refused access"

// causeUnresolved is what a line says when the command found no address
// for a host it was given (Unresolved).
const causeUnresolved = "found no address for a host it was given"

// causePartialJournal is what a line says when journalctl (or systemctl
// status) could open only some of the journal's files: `Hint: You are
// currently not seeing messages from other users and the system.`,
// `Warning: some journal files were not opened due to insufficient
// permissions.`
const causePartialJournal = "could read only the part of the journal this user may see"

// causeUnread is what a line says when the tool could not read some of
// the values it reports: lm-sensors' `ERROR: Can't get value of
// subfeature temp1_input: Can't read` (TestSensorReadErrorIsNoWholeAnswer).
const causeUnread = "could not read some of the values it reports"

// causeSkippedLines is what a line says when a checksum tool skipped
// lines of its list (SkippedLines).
const causeSkippedLines = "skipped lines of its list it could not read"

// causeNoDigests is what a line says when debsums was given a package it
// holds no digests for (`debsums: no md5sums for PKG`): it checked none of
// that package's files.
const causeNoDigests = "has no digests for a package it was given"

// causeMadeEmpty is what a line says when the tool made the file it was
// given to read, which was not there: gpg's `gpg: keybox
// '/etc/apt/trusted.gpg.d/debian-archve.gpg' created` (`keyring `…'
// created` in gpg 1), exit 0, over a --keyring misspelt, after which it
// listed the new keyring's keys — none — and a chart of expired keys said
// nothing to report, Consistent (TestKeyringMadeForTheReadIsNoWholeAnswer).
const causeMadeEmpty = "made the keyring it was given, which was not there, and read it new and empty"

// madeEmpty says whether a line (lower case) is gpg saying it made the
// keyring it was asked to read. Its trustdb made on a first run (`gpg:
// /root/.gnupg/trustdb.gpg: trustdb created`) is no such line: the keys
// are in the keyring, not in it.
func madeEmpty(low string) bool {
	low = strings.TrimSpace(low)
	return strings.HasPrefix(low, "gpg: ") && strings.HasSuffix(low, " created") &&
		(strings.HasPrefix(low, "gpg: keybox ") || strings.HasPrefix(low, "gpg: keyring "))
}

// causeMissingPV is what a line says when LVM could not find a physical
// volume of a volume group it reports (lvmMissingPV).
const causeMissingPV = "could not find a device (PV) of a volume group it reports"

// lvmMissingPV says whether a line (lower case) is LVM saying a physical
// volume of a volume group is gone: lvm 2.03's `WARNING: Couldn't find
// device with uuid …`, `WARNING: VG vg0 is missing PV … (last written to
// /dev/sdb)` and `WARNING: Couldn't find all devices for LV vg0/data while
// checking used and assumed devices.`, lvm 2.02's `WARNING: Device for PV
// … not found or rejected by a filter.`. vgs, lvs and pvs print the
// partial VG as the metadata on the disks left describes it and exit 0:
// its size and free space count the missing disk's extents, and an LV
// on it reads inactive, its data_percent blank. A chart of VG free space
// said OK, Consistent, over a VG half gone (cmd/runbook
// TestLVMMissingPVIsNoWholeAnswer, testdata/wave-lvm/vg-free).
func lvmMissingPV(low string) bool {
	return strings.Contains(low, "couldn't find device with uuid") ||
		strings.Contains(low, "couldn't find all devices for lv") ||
		(strings.Contains(low, " vg ") && strings.Contains(low, " is missing pv ")) ||
		(strings.Contains(low, "device for pv ") && strings.Contains(low, " not found"))
}

// causeNoDeviceMapper is what a line says when LVM (or dmsetup) could
// not reach the kernel's device-mapper driver (lvmNoDeviceMapper).
const causeNoDeviceMapper = "could not reach the kernel's device-mapper driver"

// lvmNoDeviceMapper says whether a line (lower case) is LVM saying it
// could not reach the kernel's device-mapper driver: `/dev/mapper/control:
// open failed: No such device` and `Failure to communicate with kernel
// device-mapper driver.`, in a container without /dev/mapper/control or
// on a kernel without dm. lvs prints every LV from the VG metadata and
// exits 0, but nothing of their live state: the attr's state letters X,
// lv_health_status, a thin pool's data_percent and a snapshot's
// snap_percent blank. A chart of LV health said OK, Consistent, over LVs
// whose health nobody read (cmd/runbook
// TestLVMWithoutDeviceMapperIsNoWholeAnswer, testdata/wave-lvm/lv-health).
// As a user the open is refused (`Permission denied`), a refusal first.
func lvmNoDeviceMapper(low string) bool {
	return strings.Contains(low, "/dev/mapper/control: open failed") ||
		strings.Contains(low, "failure to communicate with kernel device-mapper driver")
}

// causeLDAPLimit is what a line says when an LDAP search stopped at a
// limit (ldapLimit).
const causeLDAPLimit = "stopped its search at a limit and printed only the entries found before it"

// ldapLimit says whether a line (lower case) is ldapsearch saying the
// server (or its own -z, -l) ended the search at a limit: `Size limit
// exceeded (4)`, `Time limit exceeded (3)`, `Administrative limit
// exceeded (11)`. It prints every entry it got before the limit, and
// exits 4, 3 or 11; `ssh ldap1 'ldapsearch … | grep ^uid:'` (the remote
// shell has no pipefail) or `ldapsearch … || true` make that 0, and a
// check of locked accounts said OK over the five entries of a directory's
// default anonymous size limit, the sixth locked (cmd/runbook
// TestLDAPSearchCutAtALimitIsNoWholeAnswer, testdata/wave-ldap/locked).
// ldap_err2string's words, the same in every OpenLDAP client.
func ldapLimit(low string) bool {
	return strings.Contains(low, "size limit exceeded") ||
		strings.Contains(low, "time limit exceeded") ||
		strings.Contains(low, "administrative limit exceeded")
}

// haproxyStateFile says whether a line (lower case) is HAProxy's warning
// that it could not open a server-state-file its config names (`Can't
// open global server state file '/var/lib/haproxy/server-state': No such
// file or directory`, or `Permission denied` as a user). The file seeds
// the servers' states at a reload from what the last `show servers
// state` wrote, and is not there until one has: `haproxy -c` checks the
// config whole without it and says `Configuration file is valid`, exit
// 0, and the line read as output left out made that check Not sure,
// UNKNOWN, on every fresh host (wave-haproxy's design question 2).
func haproxyStateFile(low string) bool {
	return strings.Contains(low, "can't open") && strings.Contains(low, "server state file")
}

// sambaConfigUnloaded says whether a line (lower case) is a Samba tool's
// own words for a configuration file it could not load: `Can't load
// /etc/samba/smb.cnf - run testparm to debug it` (smbstatus, smbclient:
// a path misspelt, a file it may not read). smbstatus goes on with the
// built-in defaults, reads the state of a server set up otherwise (the
// lock directory /run/samba), prints no open files and exits 0, and a
// chart of files locked too long said `OK - no verdict rows`,
// Consistent, over a lock held past the limit
// (cmd/runbook TestSambaConfigNotLoadedIsNoAnswer).
func sambaConfigUnloaded(low string) bool {
	return strings.HasPrefix(strings.TrimSpace(low), "can't load ") && strings.Contains(low, "run testparm to debug it")
}

// causeSambaConfigUnloaded is what sambaConfigUnloaded's line says.
const causeSambaConfigUnloaded = "could not load the configuration file it was given, and went on with its built-in defaults"

// etcdEndpointUnreached says whether a line (lower case) is etcdctl
// saying it had no answer from one of the endpoints it was given:
// `Failed to get the status of endpoint 127.0.0.1:33820 (context
// deadline exceeded)` (endpoint status), `Failed to get the hash of
// endpoint …` (endpoint hashkv), `127.0.0.1:33820 is unhealthy: failed
// to commit proposal: …` (endpoint health as text). etcdctl 3.4 and 3.5
// print the others' rows, leave that endpoint out of the list, and exit
// 1, which `|| true` makes 0: a status check over a three-member cluster
// with one member stopped said `OK - 2 ok`, Consistent (cmd/runbook
// TestEtcdEndpointUnreachedIsNoWholeAnswer, testdata/wave-etcd/status).
func etcdEndpointUnreached(low string) bool {
	return strings.HasPrefix(strings.TrimSpace(low), "failed to get the status of endpoint ") ||
		strings.HasPrefix(strings.TrimSpace(low), "failed to get the hash of endpoint ") ||
		strings.Contains(low, " is unhealthy: failed to commit proposal")
}

// causeEndpointUnreached is what a line says when etcdctl had no answer
// from an endpoint it was given (etcdEndpointUnreached).
const causeEndpointUnreached = "had no answer from an endpoint it was given"

// jvmUnreached says whether a line (lower case) is the JDK's attach
// tools (jcmd, jstat, jmap, jinfo, JDK 11 to 21) saying they reached no
// JVM for the PID or name they were given: jstat's
// `sun.jvmstat.monitor.MonitorException: 4242 not found` (a PID gone, or
// a JVM started with -XX:-UsePerfData or -XX:+PerfDisableSharedMem) and
// `… Could not attach to 4242` (another user's JVM); jcmd's
// `java.io.IOException: No such process`, `well-known file
// /tmp/.java_pid4242 is not secure` (another user's JVM),
// `com.sun.tools.attach.AttachNotSupportedException: …` (a JVM started
// with -XX:+DisableAttachMechanism, or one that did not answer: `Unable
// to open socket file …: target process 4242 doesn't respond`), `Could
// not find any processes matching : 'App'` (a main class no JVM runs)
// and `java.lang.IllegalArgumentException: Unknown diagnostic command`
// (a command misspelt, Thread.prnt). Each exits 1, and jcmd prints the
// PID's line `4242:` on stdout before it: `jcmd "$pid" Thread.print |
// grep -c '^"' || true` printed 0 and exited 0, and a thread check said
// OK, 0 threads, Consistent, over a PID no JVM held (cmd/runbook
// TestJVMUnreachedOnStderrIsNoWholeAnswer, testdata/wave-jvm).
func jvmUnreached(low string) bool {
	t := strings.TrimSpace(low)
	return strings.Contains(low, "sun.jvmstat.monitor.monitorexception:") ||
		strings.Contains(low, "com.sun.tools.attach.attachnotsupportedexception:") ||
		strings.HasPrefix(t, "java.io.ioexception: no such process") ||
		(strings.Contains(low, "well-known file ") && strings.Contains(low, " is not secure")) ||
		strings.HasPrefix(t, "could not find any processes matching :") ||
		strings.HasPrefix(t, "java.lang.illegalargumentexception: unknown diagnostic command")
}

// causeJVMUnreached is what jvmUnreached's line says.
const causeJVMUnreached = "could not reach the JVM it was given, or ask it what it was to ask"

// optionRefused says whether a line (lower case) is getopt's own words
// for an option the command does not take, or one given no value
// (glibc's `varnishstat: invalid option -- 'q'`, `option requires an
// argument -- 'f'`, `unrecognized option '--filter'`, `option '--x'
// requires an argument`). Varnish 7.1's varnishstat says so and goes on:
// `varnishstat -j -1 -f` (the filter's value left out) prints every
// counter and exits 0, as the filter had not been asked for
// (cmd/runbook TestOptionIgnoredOnStderrIsNoAnswer).
func optionRefused(low string) bool {
	return strings.Contains(low, ": invalid option -- ") ||
		strings.Contains(low, ": unrecognized option '") ||
		strings.Contains(low, ": option requires an argument -- ") ||
		(strings.Contains(low, ": option '-") && strings.Contains(low, "' requires an argument"))
}

// causeOptionRefused is what a line says when the command was given an
// option it does not take (optionRefused).
const causeOptionRefused = "was given an option it does not take, or one with no value"

// configIgnored says whether a line (lower case) is a tool saying it met
// an error in what it read and went on without that part: logrotate's
// `error: app:4 unknown option 'compres' -- ignoring line` and `error:
// Ignoring app because it is writable by group or others.` (or `because
// the file owner is wrong`), said by `logrotate -d` and by a real run,
// each exiting 0. The log that file or line was for is then rotated
// otherwise than its file says, or not at all, and a check of the
// configuration under {0: valid, 1: invalid} said valid, OK, Consistent
// (cmd/runbook TestConfigPartIgnoredIsNoAnswerOfValid,
// testdata/wave-sudo/logrotate-config). logrotate's own `Ignoring
// app.dpkg-old, because of *.dpkg-old pattern match` is no error and is
// not read so.
func configIgnored(low string) bool {
	return strings.HasPrefix(strings.TrimSpace(low), "error:") && strings.Contains(low, "ignoring")
}

// causeConfigIgnored is what configIgnored's line says.
const causeConfigIgnored = "met an error in what it read and went on without that part"

// causeAliasUndefined is what a line says when sudo's parser found a
// rule naming an alias that no line defines: `visudo -c` says
// `/etc/sudoers.d/ops:2:29: User_Alias "OPSX" referenced but not
// defined` and exits 0 (1 under -s, strict), and sudo reads that rule as
// matching no one, so a typo in an alias's name drops the grant it was
// written for; a check of the policy under {0: valid, 1: invalid} said
// valid, OK, Consistent (cmd/runbook TestConfigPartIgnoredIsNoAnswerOfValid,
// testdata/wave-sudo/sudoers-valid).
const causeAliasUndefined = "found a rule naming an alias that no line defines"

// causeIncomplete is what a line says when the tool itself says its
// output is not whole, as lshw and lsusb -v run as a user do.
const causeIncomplete = "its output may be incomplete"

// AccessDeniedMark is lspci's mark for what it was refused: run as a
// user it cannot read a device's configuration space past its header,
// and prints `Capabilities: <access denied>` on stdout in place of each
// device's capabilities (its LnkSta among them), with nothing on stderr
// and exit 0 (TestAccessDeniedInOutputIsNoWholeAnswer).
const AccessDeniedMark = "<access denied>"

// deniedMarks are the marks a tool prints on stdout in place of what it
// could not read, each with where on the line it stands and what to do
// instead. Only a mark where the tool writes it, never the words alone:
// an auth log's "access denied for user root" is what the log says, not
// what the tool was refused.
//
//	"<access denied>"        anywhere     lspci -vv as a user, for a device's capabilities
//	"(Permission denied)"    line's end   dpkg --verify, debsums: strerror after a path it
//	                                      could not reach (dpkg calls the file missing)
//	"?????????"              line's start dpkg --verify: no check of the file could be made
//	                                      (as a user, a file it may not read: /etc/sudoers)
//	"NON-PRIVILEGED SCAN MODE" anywhere   lynis audit run as a user: the tests that need root
//	                                      skipped, its report none the wiser
//
// dpkg --verify as a user exits 0 with nothing on stderr, and a check of
// changed package files said a polkit rule behind a folder it may not
// search was missing, and judged /etc/sudoers' digest by a line that held
// none, Consistent (TestDpkgVerifyAsAUserIsNoWholeAnswer).
var deniedMarks = []struct {
	mark string
	at   func(line, mark string) bool
	fix  string
}{
	{AccessDeniedMark, strings.Contains, "run it with the privilege to read it all (lspci -vv reads the capabilities as root)"},
	{"(Permission denied)", strings.HasSuffix, "run it as root: as a user it cannot reach every file (dpkg --verify calls a file behind a folder it may not search missing)"},
	{"?????????", func(line, mark string) bool { return strings.HasPrefix(line, mark+" ") }, "run it as root: as a user it cannot read every file (dpkg --verify prints ????????? for a file it may not read, and checks no digest of it)"},
	{LynisUnprivilegedMark, strings.Contains, "run it as root: as a user lynis skips the tests that need root (a firewall's rules, the packages' vulnerabilities) and its report says nothing of them, so a warning they would give is missing from it"},
}

// LynisUnprivilegedMark is lynis's banner for an audit run as a user:
// it skips every test that needs root, prints `NON-PRIVILEGED SCAN MODE`
// in a box of #s on stdout, exits 0, and its report (warning[]=) holds
// no word of the skipped tests. Lynis 3.0.8 as a user wrote 3 of the 5
// warnings root's run gave (no PKGS-7392, vulnerable packages; no
// FIRE-4512, a firewall with no rules), and a check of its report's
// warnings stood over them as the whole audit (cmd/runbook
// TestLynisAsAUserIsNoWholeAnswer, testdata/wave-av/lynis).
const LynisUnprivilegedMark = "NON-PRIVILEGED SCAN MODE"

// deniedMark is the index of the mark line holds where its tool writes
// it (deniedMarks), -1 when none.
func deniedMark(line string) int {
	line = strings.TrimRight(line, "\r")
	for i, m := range deniedMarks {
		if m.at(line, m.mark) {
			return i
		}
	}
	return -1
}

// DeniedInOutput is stdout's first line holding a mark a tool prints in
// place of what it could not read (deniedMarks), "" when none does.
func DeniedInOutput(stdout string) string {
	for _, l := range strings.Split(stdout, "\n") {
		if deniedMark(l) >= 0 {
			return strings.TrimRight(l, "\r")
		}
	}
	return ""
}

// DeniedInOutputEntry is the ledger's entry for a stage whose output
// holds a mark of deniedMarks: exit is the exit code, line the output's
// first line holding it (masked already; DeniedInOutput).
func DeniedInOutputEntry(path string, exit int, line string) coverage.Entry {
	mark, fix := AccessDeniedMark, deniedMarks[0].fix
	if i := deniedMark(line); i >= 0 {
		mark, fix = deniedMarks[i].mark, deniedMarks[i].fix
	}
	return outputEntry(path, fmt.Sprintf("it printed %q in its output where it was refused what it reads, though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent; its output's first such line: %q; %s", mark, exit, cutLine(line), fix), ItemDenied)
}

// DeniedEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, line stderr's first line that says so
// (masked already; Denied).
func DeniedEntry(path string, exit int, line string) coverage.Entry {
	return outputEntry(path, deniedWhy(exit, line), ItemDenied)
}

// deniedWhy says why the entry's output is part of an answer, by what its
// line says the command could not do: read from the whole line, whose
// words may come past the part a quote keeps (pip's `WARNING: Retrying
// (…) after connection broken by …: Name or service not known`), and
// only the quote cut (TestDeniedLineLongerThanItsQuoteKeepsItsCause).
func deniedWhy(exit int, line string) string {
	cause := deniedCause(line)
	line = cutLine(line)
	if strings.Contains(cause, "binary") {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only what it printed of the others, and the lines it left out are not known to be absent; stderr's first such line: %q; have grep read it as text (grep -a, or --binary-files=text)", cause, exit, line)
	}
	if cause == causeUnread {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: %q; a sensor nobody read is no cool sensor: find why its driver cannot read it, or leave it out where the tool is configured (sensors.conf's ignore)", cause, exit, line)
	}
	if cause == causeUnresolved {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only what it heard from the hosts it reached, and one it never reached is not known to be fine; stderr's first such line: %q; check the name (a name misspelt, or no name server answering)", cause, exit, line)
	}
	if cause == causeKDCSkew {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so no key was judged, and what it printed is no answer of one; stderr's first such line: %q; set this host's clock (chrony, systemd-timesyncd) or turn kdc_timesync on in krb5.conf", cause, exit, line)
	}
	if cause == causeNoKDC {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so no KDC judged what it sent, and what it printed (or a fallback such as `|| true` let stand) is no answer of the realm; stderr's first such line: %q; start the KDC or open its port (88), and check the realm's name in krb5.conf's [realms] and in the principal", cause, exit, line)
	}
	if cause == causeNoManager {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds nothing the manager said (the empty list a fallback such as `echo []` printed is no list of none); stderr's first such line: %q; run it where systemd runs, as PID 1 (systemctl --user needs the user's bus: XDG_RUNTIME_DIR=/run/user/UID)", cause, exit, line)
	}
	if cause == causePartialJournal {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only this user's entries (or none of the system's), and an entry it left out is not known to be absent; stderr's first such line: %q; run it as root or as a member of the adm or systemd-journal group", cause, exit, line)
	}
	if cause == causeSkippedLines {
		return fmt.Sprintf("it said on stderr that it %s (exit %d), so the files those lines name were not checked, and no row says so; stderr's first such line: %q; mend or remove the line in the list (sha256sum --warn names it, --strict fails on it)", cause, exit, line)
	}
	if cause == causeNoDigests {
		return fmt.Sprintf("it said on stderr that it %s (exit %d), so none of that package's files was checked, and no row says so; stderr's first such line: %q; give the package its digests (debsums --generate=missing, or apt-get install --reinstall PKG) and list the others that lack them (debsums -l): debsums run over every package passes over them saying nothing", cause, exit, line)
	}
	if cause == causeMadeEmpty {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds nothing of the keyring meant (a keyring just made lists no key, expired or not); stderr's first such line: %q; check the path, and remove the file gpg made there (the next run finds it and lists its no keys with nothing said); a chart whose rows are every key, not only the expired, reads an empty keyring as no subject judged", cause, exit, line)
	}
	if cause == causeDaemonUnreached {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so what it printed is its own, not the daemon's (clamdscan --version prints its own version alone, no database's, when clamd is not running); stderr's first such line: %q; start the daemon, or give the client the config that names its socket (clamdscan -c FILE)", cause, exit, line)
	}
	if cause == causeNotConnected {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d (mysqladmin ping exits 0 whenever the server answered at all, a refused login and too many connections among it), so the server answered and refused: that is no server up for its clients; stderr's first such line, with the one after it: %q; ask with mysql -e 'SELECT 1', which exits 1 over any refusal, or fix the account the check logs in as", cause, exit, line)
	}
	if cause == causeSkippedTable {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only the tables it checked, and that one was checked by no one (it may be misspelt, hidden from this user, or crashed); stderr's first such line, with the one after it: %q; read why, and check the whole database (mysqlcheck --databases DB), where a crashed table is listed with its errors", cause, exit, line)
	}
	if cause == causeMissingPV {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so the VG is partial and what it printed of it rests on the metadata of the disks left: its size and free space count the missing disk's extents, and an LV on that disk is not active, its usage not read; stderr's first such line: %q; find the PV (pvs prints it as [unknown], vg_attr's 4th letter is p) and bring it back, or vgreduce --removemissing once its data is given up", cause, exit, line)
	}
	if cause == causeNoDeviceMapper {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so what it printed comes from the VG metadata alone: no LV's live state was read (lvs prints the attr's state letters as X, and lv_health_status, data_percent, metadata_percent and snap_percent blank), and a blank is no health and no room; stderr's first such line: %q; run it where the kernel's device-mapper is reachable (on the host, or a container given /dev/mapper/control)", cause, exit, line)
	}
	if cause == causeQgroupStale {
		return fmt.Sprintf("it said on stderr that %s though it exited %d, so a qgroup's referenced and exclusive bytes it printed are not what the subvolume holds (an inconsistent qgroup stops counting: a subvolume holding 20 MiB read 16 KiB), and one under its limit there is not known to be; stderr's first such line: %q; rescan and wait (btrfs quota rescan -w MNT), then check again", cause, exit, line)
	}
	if cause == causeLDAPLimit {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so an entry past the limit is not known to be absent; stderr's first such line: %q; bind as an account the server's limits allow the whole search (slapd's limits, sizelimit), or narrow the search until it ends within them (ldapsearch exits 0 then)", cause, exit, line)
	}
	if cause == causeSambaConfigUnloaded {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so what it printed is the state of a server set up otherwise (its lock and state directories the defaults), not of the one the file sets up; stderr's first such line: %q; give it the smb.conf the server runs with (testparm -s FILE says why it cannot be loaded)", cause, exit, line)
	}
	if cause == causeJVMUnreached {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so what it printed holds nothing that JVM said (jcmd prints the PID's line alone, and a count over it is 0); stderr's first such line: %q; find the JVM's PID with jps -l, run the tool as the user the JVM runs as (sudo -u USER jcmd PID …), and judge the tool's own exit code, not a pipeline's: jstat sees no JVM started with -XX:-UsePerfData or -XX:+PerfDisableSharedMem, and jcmd none started with -XX:+DisableAttachMechanism", cause, exit, line)
	}
	if cause == causeEndpointUnreached {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only the endpoints that answered, and one left out of it is not known to be healthy (etcdctl prints the others, leaves that one out and exits 1, which `|| true` makes 0); stderr's first such line: %q; judge etcdctl's exit (exitCodes:), or compare the rows with the members the cluster has (etcdctl member list -w json)", cause, exit, line)
	}
	if cause == causeOptionRefused {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so it went on without it and what it printed is not what the command as written asks (varnishstat 7.1 prints every counter when its filter's -f has no value); stderr's first such line: %q; write the option as the tool's --help says", cause, exit, line)
	}
	if cause == causeConfigIgnored {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its answer is over what it kept, not over the whole it was given: a line or a file it ignored is not in force (logrotate passes over an option it does not know, and over a file of its configuration that is group- or world-writable or not root's, and rotates that log otherwise, or not at all); stderr's first such line: %q; mend the line, or the file's mode or owner (logrotate -d names each)", cause, exit, line)
	}
	if cause == causeAliasUndefined {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so a rule of the policy is not in force as written (sudo reads it as matching no one: an alias misspelt drops the grant it names), and the policy it passed is not the one written; stderr's first such line: %q; define the alias, or mend its name where the rule uses it (visudo -c -s, strict, exits 1 over it)", cause, exit, line)
	}
	if cause == causeIncomplete {
		return fmt.Sprintf("it said on stderr that %s though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: %q; run it with the privilege it asks for", cause, exit, line)
	}
	if cause != causeRefused {
		return fmt.Sprintf("it said on stderr that it %s though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent (a missing log is no log without errors); stderr's first such line: %q; give it the files that exist, or say in the chart what a missing one means (test -e first, or exitCodes: for the command's own code)", cause, exit, line)
	}
	return fmt.Sprintf("it said on stderr that it was refused access though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: %q; run it with the privilege to read it all", exit, line)
}

// UnreadGlobEntry is the ledger's entry for a read: glob that could not
// read a folder on its way or a file it matched (a permission refused):
// count of them, the first (shown as a match is, masked) and why. What it
// read is kept; a file in a folder nobody could read is not known to be
// absent: `/home/*/.ssh/authorized_keys` as a user who may not search
// /home/bob read alice's file alone, and an attacker's key in bob's stood
// OK, Consistent (cmd/runbook TestGlobOverAFolderItCannotReadIsNoWholeAnswer).
func UnreadGlobEntry(path, pattern string, count, read int, first, why string) coverage.Entry {
	more := ""
	if count > 1 {
		more = fmt.Sprintf(" and %d more", count-1)
	}
	// A refusal asks for privilege; any other error (a name too long, an
	// I/O error) for its own cause.
	fix := "find why it could not be read"
	if deniedCause(why) == causeRefused {
		fix = "run it with the privilege to read them all"
	}
	others := "it read none of them"
	switch {
	case read == 1:
		others = "it read the 1 file it could"
	case read > 1:
		others = fmt.Sprintf("it read the %d files it could", read)
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "files matching " + strconv.Quote(pattern),
			Why:  fmt.Sprintf("it could not read %q%s (%s), so the files the pattern names there are not known to be absent; %s; %s", cutLine(first), more, why, others, fix),
			Kind: ItemDenied,
		}},
	}}
}
