package record

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemCodeNotAnswer is the kind of the not-checked item filed for an exec
// stage whose chart reads a tool's exit code as its answer where the tool
// gives that code over its findings too, and it printed findings: the
// word the chart declared for the code is then no answer.
//
// dpkg --verify (1.21.22) exits 0 over the files it finds changed or
// missing, printing each (`??5??????   /usr/sbin/sshd`, `missing
// /usr/bin/ssh`), and 1 over a package not installed: `dpkg --verify
// openssh-server` under `exitCodes: {0: intact, 1: modified}`, with no
// parse:, said intact, OK, Consistent, over a changed sshd
// (TestDpkgVerifyFindingsUnderExitZeroAreNoAnswerOfIntact,
// testdata/wave-integrity/dpkg-verify-exit; runbook plan notes it:
// chart.ExecSpec.DpkgVerifyExitAnswer).
const ItemCodeNotAnswer = "code-not-answer"

// DpkgVerifyFoundEntry is the ledger's entry for a dpkg --verify stage
// read by its code that exited 0 (word, the answer the chart declared
// for it) and printed n lines, the first of them first (masked already).
func DpkgVerifyFoundEntry(path, word string, n int, first string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited 0, which exitCodes: declares the answer %q, but dpkg --verify exits 0 over the files it finds changed or missing too, and it printed %s of them, the first: %q; so %q is not known: judge the lines it prints (parse: {as: regex, …}: ??5?????? is a digest that differs, missing a file not there, c a conffile) and leave its non-zero codes failures",
		word, lineCount(n), cutLine(first), word), ItemCodeNotAnswer)
}

// lineCount is n lines in words: "1 line", "2 lines".
func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// ZeroBelied is stderr's first line on which a tool whose exit 0 the
// chart reads alone (a declared answer, no parse:) says it found what the
// chart's word for 0 says is not there, and what to judge instead ("",
// "" when none does): btrfs scrub's errors corrected (BtrfsScrubCorrected),
// testparm's parameter it did not know (TestparmUnknown). The one list of
// such tools; ZeroBeliedEntry files it.
func ZeroBelied(stderr string) (line, instead string) {
	if l := BtrfsScrubCorrected(stderr); l != "" {
		return l, "btrfs scrub exits 0 over errors it found and corrected too; judge the error summary it prints (parse: lines; Error summary: no errors found beside Status: finished), and btrfs device stats for the device the errors came from"
	}
	if l := TestparmUnknown(stderr); l != "" {
		return l, "testparm exits 0 over a parameter it does not know, which Samba then passes over (a misspelt `guest ok` gives no guest access), and 1 only over a file it cannot load; judge its stderr too: a rule that calls the file valid only where STAGE.stderr holds no `Unknown parameter` line"
	}
	return "", ""
}

// ZeroBeliedEntry is the ledger's entry for a stage read by its code that
// exited 0 (word, the answer the chart declared for it) and said on
// stderr what belies that word (line, masked already; instead, ZeroBelied's).
func ZeroBeliedEntry(path, word, line, instead string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited 0, which exitCodes: declares the answer %q, but it said on stderr what that code does not: %q; so %q is not known: %s",
		word, cutLine(line), word, instead), ItemCodeNotAnswer)
}

// testparmUnknown is testparm's (and every Samba tool's) line for a
// parameter of smb.conf it does not know (Samba 4.17), on stderr.
var testparmUnknown = regexp.MustCompile(`^(Unknown parameter encountered: "|Ignoring unknown parameter ")`)

// TestparmUnknown is stderr's first line on which testparm says smb.conf
// holds a parameter it does not know, "" when none does. `testparm -s`
// over a share written `guest okk = yes` printed `Ignoring unknown
// parameter "guest okk"` on stderr, then `Loaded services file OK.`, and
// exited 0, and a check of smb.conf under `exitCodes: {0: valid, 1:
// invalid}` said valid, OK, Consistent, over a share whose guests Samba
// refuses (cmd/runbook TestTestparmUnknownParameterIsNoAnswerOfValid;
// wave-samba's design question).
func TestparmUnknown(stderr string) string {
	if !strings.Contains(stderr, "nknown parameter") {
		return ""
	}
	return firstLine(stderr, func(l string) bool { return testparmUnknown.MatchString(strings.TrimSpace(l)) })
}
