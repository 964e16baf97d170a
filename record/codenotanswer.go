package record

import (
	"fmt"

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
