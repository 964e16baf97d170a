package chart

import (
	"path/filepath"
	"regexp"
)

// rootkitHunterInShell finds rkhunter or chkrootkit in a shell: script.
var rootkitHunterInShell = regexp.MustCompile(`(?:^|[\s;&|(/])(?:rkhunter|chkrootkit)(?:$|[\s;&|)])`)

// RefusesOnStdout says whether the exec runs a tool that prints its
// refusal to run on stdout, not stderr, and exits 1 over it: rkhunter
// (`You must be the root user to run this program.`, 1 its code for
// warnings found), chkrootkit (`… needs root privileges`) and runit's sv
// (`warning: /etc/service/web: unable to open supervise/ok: access
// denied`, exiting with the count of services it could not ask; RunsSv).
// A run reads its stdout for a refusal under a code the chart declared an
// answer (runbook's denied, record.RefusedOnStdoutAnswerEntry).
func (e *ExecSpec) RefusesOnStdout() bool {
	return e.runs(rootkitHunterInShell, "rkhunter", "chkrootkit") || e.RunsSv()
}

// RkhunterCheck says whether the exec runs rkhunter's checks (-c,
// --check, --cronjob), whose exit 1 says warnings were found and whose
// report of each is a `Warning:` line under --rwo (--report-warnings-only)
// in English: a run reads an exit 1 with no such line as no answer of the
// warnings (runbook's rkhunterWarningsUnsaid,
// record.RkhunterWarningsElsewhereEntry).
func (e *ExecSpec) RkhunterCheck() bool {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "rkhunter" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "-c" || a == "--check" || a == "--cronjob" {
				return "rkhunter"
			}
		}
		return ""
	}) != ""
}
