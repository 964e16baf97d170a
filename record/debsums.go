package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemFindingElsewhere is the kind of the not-checked item filed for an
// exec stage whose chart reads its stdout as data (a parse: given) while
// the command reported a finding of the kind that stdout lists elsewhere:
// on stderr (debsums), or in a report it wrote where its config sends it
// (aide's report_url, AideReportElsewhereEntry). The rows made from
// stdout leave that finding out.
//
// debsums -c (--changed) prints each changed file's path on stdout, but
// writes a file a package installed that is not there on stderr
// (`debsums: missing file /usr/sbin/sshd (from openssh-server package)`),
// and exits 2 over either; under -s (--silent) it writes every finding
// there (`debsums: changed file … (from … package)`). `debsums -ca` under
// `exitCodes: {0: clean, 2: changed}`, `parse: lines`, a row per line and
// `result.empty: answer`, said `OK - no verdict rows`, Consistent, over a
// package whose file was deleted (TestDebsumsMissingFileIsNoWholeAnswer,
// testdata/wave-integrity/debsums).
const ItemFindingElsewhere = "finding-elsewhere"

// FindingOnStderr is stderr's first line on which debsums reports a
// package's file missing or changed (`debsums: missing file …`,
// `debsums: changed file …`), "" when none does.
func FindingOnStderr(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		low := strings.ToLower(strings.TrimSpace(l))
		return strings.HasPrefix(low, "debsums: missing file ") || strings.HasPrefix(low, "debsums: changed file ")
	})
}

// FindingOnStderrEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared for
// it ("" when none), line stderr's first such line (masked already;
// FindingOnStderr).
func FindingOnStderrEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it reported a file on stderr %s, where what the chart parses (its stdout) does not hold it: debsums -c lists changed files on stdout but writes a missing file on stderr, and -s writes every finding there, so the rows made from its stdout leave that file out; stderr's first such line: %q; send its stderr to its stdout and parse both forms (shell: debsums -ca 2>&1, lines `debsums: missing file PATH (from PKG package)` beside bare paths), or judge dpkg --verify, which prints a missing file on stdout (`missing   c /etc/…`)",
		exitedThough(exit, word), cutLine(line)), ItemFindingElsewhere)
}

// AideReportElsewhereEntry is the ledger's entry for an aide check read
// by its stdout that exited with one of its codes for differences found
// (1 to 7: 1 added, 2 removed, 4 changed, summed; word the answer the
// chart declared for it) and printed no report on stdout: its config's
// report_url sent the report elsewhere (a file, syslog, mail), and the
// rows made from stdout hold none of what it found. `aide --check` with
// `report_url=file:/var/log/aide/aide.log` exited 7, printed nothing, and
// a chart of its summary lines said `OK - no verdict rows`, Consistent
// (TestAideReportElsewhereIsNoAnswerOfNone, testdata/wave-integrity/aide).
func AideReportElsewhereEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, aide's code for entries it found added (1), removed (2) or changed (4), but it printed no report on stdout (no \"found differences\" line): its config's report_url sends the report elsewhere (a file, syslog, mail), so the rows made of its stdout hold none of what it found; add report_url=stdout to its config (or give it on the command line: aide --check -B report_url=stdout), or read the report where it is written",
		exit, word), ItemFindingElsewhere)
}

// RkhunterWarningsElsewhereEntry is the ledger's entry for an rkhunter
// check read by its stdout that exited 1 (word the answer the chart
// declared for it), rkhunter's code for warnings found, and printed no
// `Warning:` line: with LANGUAGE=de in rkhunter.conf (or --lang de) each
// is `Warnung: …`, without --rwo each is a `[ Warning ]` beside its
// check and the text is in /var/log/rkhunter.log, and rkhunter's own
// errors exit 1 too (`Unknown enabled test name given: hidden_dirs`).
// A check of its `Warning:` lines under `{0: clean, 1: warnings}` and
// `result.empty: answer` said `OK - no verdict rows`, Consistent, over
// `Warnung: Die SSH-Konfigurationsvariable 'PermitRootLogin' has not been
// set.` (cmd/runbook TestRkhunterWarningsUnreadAreNoAnswerOfNone,
// testdata/wave-av/rkhunter). line is its stdout's first line that is
// not blank (masked already), "" when it printed nothing.
func RkhunterWarningsElsewhereEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, rkhunter's code for warnings found (and for its own errors), but it printed no \"Warning:\" line, so the rows made of its stdout hold none of them: its warnings are in another language (LANGUAGE= in rkhunter.conf, --lang), or only in its log (without --rwo each is \"[ Warning ]\" and its text is in /var/log/rkhunter.log), or the 1 is an error of its own; its output's first line: %q; run it with --rwo --lang en (or read its log's Warning: lines)",
		exit, word, cutLine(line)), ItemFindingElsewhere)
}
