package record

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemUnseenFailure is the kind of the not-checked item filed for a
// shell: stage whose script holds a command substitution bash does not
// see fail (chart.ExecSpec.HiddenSubstitutions: `echo "{\"conf\":
// \"$(cat /etc/ssh/sshd_config)\"}"`, inside a word of a command) and
// that wrote on stderr though it exited as no failure. bash -e fails the
// script on `v=$(cat f)`, not on `echo "$(cat f)"`, whose status is
// echo's: a missing file printed `{"conf": ""}`, exit 0, and a hardening
// rule over it said pass, Consistent. Its stderr is the evidence that
// something inside may have failed; what the chart decided may rest on
// the empty or partial text such a failure left.
const ItemUnseenFailure = "unseen-failure"

// UnseenFailureEntry is the ledger's entry for such a stage, filed under
// its path: exit is its exit code, sub the first such substitution as
// written and where it is in the script (chart.Substitution.Where), both
// masked already, n how many such substitutions the script holds, stderr
// what it wrote there (masked already).
func UnseenFailureEntry(path string, exit int, sub, where string, n int, stderr string) coverage.Entry {
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more such)", n-1)
	}
	return outputEntry(path, fmt.Sprintf("it wrote on stderr though it exited %d, and bash does not see a command inside %s (%s)%s fail, so what it printed may hold the empty or partial text of a command that failed; stderr's first line: %q; assign it first, v=%s, which fails the stage under bash -e when it fails (v=$(… || true) where a failure is an answer), and use \"$v\"",
		exit, sub, where, more, FirstLine(stderr), sub), ItemUnseenFailure)
}

// FirstLine is a text's first non-blank line, trimmed and cut at 200
// bytes, never inside a character: how a ledger item quotes what a
// command wrote on stderr.
func FirstLine(s string) string {
	first := ""
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			first = l
			break
		}
	}
	return cutLine(first)
}

// cutLine is line cut at 200 bytes with "…", never inside a character.
func cutLine(line string) string {
	if cut := 200; len(line) > cut {
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}
