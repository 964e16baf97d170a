package chart

import "regexp"

// rootkitHunterInShell finds rkhunter or chkrootkit in a shell: script.
var rootkitHunterInShell = regexp.MustCompile(`(?:^|[\s;&|(/])(?:rkhunter|chkrootkit)(?:$|[\s;&|)])`)

// RefusesOnStdout says whether the exec runs a tool that prints its
// refusal to run on stdout, not stderr, and exits 1 over it: rkhunter
// (`You must be the root user to run this program.`, 1 its code for
// warnings found) and chkrootkit (`… needs root privileges`). A run reads
// its stdout for a refusal under a code the chart declared an answer
// (runbook's denied, record.RefusedOnStdoutAnswerEntry).
func (e *ExecSpec) RefusesOnStdout() bool {
	return e.runs(rootkitHunterInShell, "rkhunter", "chkrootkit")
}
