package record

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemSearchedNothing is the kind of the not-checked item filed for an
// exec stage whose command ended as no failure (exit 0, or a code the
// chart declared an answer) while it said on stderr that its search could
// find nothing, whatever there is to find: it had nothing to search, or
// what it was asked for can match nothing. Its "none found" says nothing
// of whether there is such a thing.
//
// procps' pgrep (and pkill, pidwait) matches its pattern against a
// process's name, which the kernel cuts to 15 bytes (comm): a longer
// pattern matches no process, and pgrep says `pattern that searches for
// process name longer than 15 characters will result in zero matches`,
// then exits 1, its code for no process found. `pgrep -x
// systemd-journald` under `exitCodes: {0: running, 1: missing}` said
// missing, CRITICAL, Consistent, over a journald that was running
// (TestPgrepLongNameIsNoAnswerOfMissing).
//
// journalctl over no journal it can read (none kept on the host, or none
// this user may open) says `No journal files were found.` or `No journal
// files were opened due to insufficient permissions.` on stderr, prints
// `-- No entries --` and exits 0, or 1 under --grep, as over a journal
// that holds no such entry: `journalctl -k -g "Out of memory"` under
// `exitCodes: {0: found, 1: none}` said none, OK, Consistent, over a host
// whose kernel messages nobody read (TestJournalNotReadIsNoAnswerOfNone).
// Under -o json it says neither, and is not seen here.
//
// A checksum tool's check (`sha256sum -c`, md5sum, b2sum, cksum) over a
// list with no line it can read (an empty manifest, md5sum's digests
// checked with sha256sum) says `no properly formatted checksum lines
// found`, and with --ignore-missing over a list whose every file is
// missing `no file was verified`; it prints nothing and exits 1, its code
// for a mismatch: `sha256sum --quiet -c SUMS` under `exitCodes: {0:
// all-ok, 1: some-failed}` and `result.empty: answer` said `OK - no
// verdict rows`, Consistent, over no file checked
// (TestChecksumListThatCheckedNothingIsNoAnswer).
//
// AIDE's check over a database of no entry (its config selects no path
// that exists: a path misspelt, a rule line never matching) prints `AIDE
// found NO differences between database and filesystem. Looks okay!!` and
// `Number of entries: 0` in its report, on stdout, and exits 0: `aide
// --check` under `exitCodes: {0: clean, …}` said clean, OK, Consistent,
// over no file checked (TestAideOverNoEntryIsNoAnswer,
// testdata/wave-integrity/aide).
//
// nmap exits 0 over a host it did not scan: a name it could not resolve
// (`Failed to resolve "localhots".`, then `WARNING: No targets were
// specified, so 0 hosts scanned.` when it was the only one, on stderr),
// an address it found no route to (`setup_target: failed to determine
// route to 127.0.0.1`, in a network namespace whose loopback is down), an
// IPv6 address given without -6 (`::1 looks like an IPv6 target
// specification -- you have to use the -6 option.`, the IPv4 address
// beside it scanned: port 19448 read closed while [::1]:19448 listened),
// and a host that answered none of its probes (`Note: Host seems down.`
// and `1 IP address (0 hosts up)` in its report, on stdout, -oG's and
// -oX's too), or one it gave up on at --host-timeout (`Status: Timeout`,
// counted up): it prints no port of any of them. `nmap -n -p 1-65535 -oG -
// HOST` read into a row per unexpected port under `result.empty: answer`
// said `OK - no verdict rows`, Consistent, over no port scanned
// (TestNmapHostNotScannedIsNoAnswerOfNone, testdata/wave-scan/unexpected).
const ItemSearchedNothing = "searched-nothing"

// searchedNothing is the rule, one line at a time, in any case: what the
// line holds, what it says, and what to do instead.
//
//	"will result in zero matches"     pgrep, pkill, pidwait: a name past 15 bytes
//	"no journal files were found"     journalctl: no journal on the host
//	"no journal files were opened"    journalctl: none this user may read
//	"no properly formatted checksum"  sha256sum -c, md5sum -c: no line of its list read
//	"no file was verified"            sha256sum -c --ignore-missing: every file missing
//	"number of entries:" 0            aide --check: a database of no entry (count; on stdout too)
//	`failed to resolve "`             nmap: a host name it could not resolve
//	"failed to determine route to"    nmap: a host it found no route to
//	"looks like an ipv6 target spec…" nmap: an IPv6 address given without -6
//	"no targets were specified"       nmap: no host left to scan
//	"N IP addresses (M hosts up)" M<N  nmap: a host down to its probes (hosts, port scan; on stdout too)
//	"status: timeout"                 nmap -oG: a host given up at --host-timeout (port scan; on stdout too)
//	"due to host timeout"             nmap: the same, in its normal report (port scan; on stdout too)
//	`timedout="true"`                 nmap -oX: the same (port scan; on stdout too)
//
// A rule marked count reads so only where the mark is followed by the
// count 0 alone (aide's `Number of entries:	0`, not its 6); one marked
// stdout is read on stdout too, where the tool prints its report (aide's
// report_url=stdout, Debian's default), the others on stderr alone, since
// stdout is the data a chart reads (a log holding pgrep's words).
//
// A rule marked hosts reads so only where its line counts fewer hosts up
// than addresses scanned; one marked port scan only over a command that
// scans hosts' ports (chart.ExecSpec.NmapPortScan): a ping sweep (nmap
// -sn) prints the same lines, and there the hosts down are its answer.
//
// A rule marked silent reads so only over a command that printed nothing:
// coreutils 9.1 says `no file was verified` under --ignore-missing when no
// file matched, over a file whose digest differs too, which it prints
// (`/etc/app.conf: FAILED`), and that row is an answer.
var searchedNothing = []struct {
	mark, cause, fix                       string
	silent, count, stdout, hosts, portScan bool
}{
	{"will result in zero matches", "what it was asked to look for can match nothing",
		`a process's name (comm) is cut to 15 bytes: give pgrep those 15 (pgrep -x "${NAME:0:15}" in a shell), or match the whole command line (pgrep -f)`, false, false, false, false, false},
	{"no journal files were found", "it found no journal to read",
		"this host keeps no journal (or it is elsewhere: journalctl -D, --file): read the kernel's messages where they are kept (dmesg, /var/log/kern.log)", false, false, false, false, false},
	{"no journal files were opened", "it could open no journal",
		"run it as root or as a user of the group systemd-journal or adm", false, false, false, false, false},
	{"no properly formatted checksum", "it found no line of its list it could read",
		"the list is empty, or written by another tool (md5sum's digests checked with sha256sum, BSD tags): check it with the tool that wrote it, and make an empty list a failure of its own (test -s LIST)", false, false, false, false, false},
	{"no file was verified", "it checked no file",
		"every file its list names is missing and --ignore-missing left them all out: run it in the folder the list's paths are relative to, or without --ignore-missing, where a missing file is FAILED open or read", true, false, false, false, false},
	{"number of entries:", "its database holds no entry, so it compared no file",
		"its config selects no path there is (a path misspelt, a selection line that matches nothing): mend the config, run aide --init again and put the new database in place", false, true, true, false, false},
	{`failed to resolve "`, "it could not resolve a host name it was given and scanned no port of that host",
		"give it the address, or a name this host resolves (getent hosts NAME): nmap exits 0 over a name it could not resolve and prints no line of it", false, false, false, false, false},
	{"failed to determine route to", "it found no route to a host it was given and scanned no port of that host",
		"scan it from where it is reached (a network namespace without it, a family this host has no route for: -6 over IPv6); nmap exits 0 over a host it could not route to and prints no line of it", false, false, false, false, false},
	{"looks like an ipv6 target specification", "it was given an IPv6 address without -6 and scanned no port of it",
		"scan IPv6 addresses in a run of their own with -6 (nmap scans one family a run): nmap exits 0 having passed over it, and prints no line of it", false, false, false, false, false},
	{"no targets were specified", "it had no host left to scan",
		"give it a host it can scan (an address, or a name this host resolves); nmap exits 0 having scanned none", false, false, false, false, false},
	{"up)", "a host it was asked to scan answered none of its probes (down, or dropping them) and it scanned no port of that host",
		"a host that drops nmap's probes but is up is scanned with -Pn (nmap then reports its ports filtered, not none); one that is down has no port to report: make that a failure of its own", false, false, true, true, true},
	{"status: timeout", timedOutCause, timedOutFix, false, false, true, false, true},
	{"due to host timeout", timedOutCause, timedOutFix, false, false, true, false, true},
	{`timedout="true"`, timedOutCause, timedOutFix, false, false, true, false, true},
}

// timedOutCause and timedOutFix are said of a host nmap gave up on at its
// --host-timeout: -oG's `Status: Timeout`, the normal report's `Skipping
// host 127.0.0.1 due to host timeout`, -oX's `timedout="true"`; its count
// of hosts up counts that host up.
const (
	timedOutCause = "it gave up on a host at its --host-timeout before it had scanned its ports, and listed none of them"
	timedOutFix   = "give it a longer --host-timeout (or none), or fewer ports (-p), and make a host timed out a failure of its own"
)

// nmapHosts reads nmap's count of the hosts it scanned, `2 IP addresses
// (1 host up)`, from its report's last line (normal, -oG and -oX's
// summary alike).
var nmapHosts = regexp.MustCompile(`(\d+) ip address(?:es)? \((\d+) hosts? up\)`)

// hostsDown says whether low (a line in lower case) counts fewer hosts up
// than the addresses nmap scanned.
func hostsDown(low string) bool {
	m := nmapHosts.FindStringSubmatch(low)
	if m == nil {
		return false
	}
	total, err1 := strconv.Atoi(m[1])
	up, err2 := strconv.Atoi(m[2])
	return err1 == nil && err2 == nil && up < total
}

// SearchedNothing is stderr's first line saying the command's search
// could find nothing (searchedNothing), "" when none does; printed says
// whether the command printed anything on stdout, which a silent rule's
// line needs it did not, and portScan whether the command scans hosts'
// ports, which a port scan rule's line needs (chart.ExecSpec.NmapPortScan).
func SearchedNothing(stderr string, printed, portScan bool) string {
	return firstLine(stderr, func(l string) bool {
		i := searchedNothingRule(l, portScan)
		return i >= 0 && !(printed && searchedNothing[i].silent)
	})
}

// SearchedNothingInOutput is stdout's first line saying the command's
// search could find nothing, of the rules read on stdout too (aide's
// `Number of entries:	0`, nmap's `1 IP address (0 hosts up)` where
// portScan), "" when none does.
func SearchedNothingInOutput(stdout string, portScan bool) string {
	return firstLine(stdout, func(l string) bool {
		return searchedNothingRuleOf(l, portScan, true) >= 0
	})
}

// searchedNothingRule is the index of the rule line holds the mark of,
// -1 when none; a port scan rule is read only where portScan.
func searchedNothingRule(line string, portScan bool) int {
	return searchedNothingRuleOf(line, portScan, false)
}

// searchedNothingRuleOf is searchedNothingRule of the rules read on
// stdout alone where onStdout.
func searchedNothingRuleOf(line string, portScan, onStdout bool) int {
	low := strings.ToLower(line)
	for i, r := range searchedNothing {
		if onStdout && !r.stdout {
			continue
		}
		at := strings.Index(low, r.mark)
		if at < 0 || r.count && strings.TrimSpace(low[at+len(r.mark):]) != "0" || r.portScan && !portScan || r.hosts && !hostsDown(low) {
			continue
		}
		return i
	}
	return -1
}

// SearchedNothingEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared for
// it ("" when none), line stderr's first line saying so (masked already;
// SearchedNothing).
func SearchedNothingEntry(path string, exit int, word, line string) coverage.Entry {
	ended := exitedThough(exit, word)
	cause, fix, where, whose := "its search could find nothing", "find why it searched nothing", "on stderr", "stderr"
	if i := searchedNothingRule(line, true); i >= 0 {
		cause, fix = searchedNothing[i].cause, searchedNothing[i].fix
		if searchedNothing[i].stdout {
			where, whose = "in its report", "its report"
		}
	}
	return answerEntry(path, fmt.Sprintf("it said %s that %s %s, so its answer of none found says nothing of whether there is such a thing; %s's first such line: %q; %s",
		where, cause, ended, whose, cutLine(line), fix), ItemSearchedNothing)
}

// UnopenedListEntry is the ledger's entry for a checksum tool's check
// (`sha256sum -c LIST`) that exited with a code the chart declared an
// answer (word), printed nothing, and said on stderr that a file it was
// given is not there or is a folder (line, masked already): the list
// itself, since a file the list names that is not there is a `FAILED open
// or read` line on stdout. `sha256sum --quiet -c` over a misspelt
// manifest path exits 1, its code for a mismatch, and under `result.empty:
// answer` the check said `OK - no verdict rows`, Consistent, over no list
// read (TestChecksumListNotThereIsNoAnswer). Under --status, which prints
// nothing, a missing listed file says the same: no answer either way.
func UnopenedListEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it said on stderr that it could not open a file it was given, printed nothing, and exited %d, which the chart declares the answer %q: a checksum check exits so over a list it could not open as over a file that differs, so neither %q nor its empty output says anything of the files the list names; stderr's first such line: %q; give it the list where it is, and make a missing list a failure of its own (test -s LIST)",
		exit, word, word, cutLine(line)), ItemSearchedNothing)
}
