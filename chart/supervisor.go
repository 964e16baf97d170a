package chart

import "regexp"

// svInShell finds runit's sv in a shell: script.
var svInShell = regexp.MustCompile(`(?:^|[\s;&|(/])sv(?:$|[\s;&|)])`)

// RunsSv says whether the exec runs runit's sv, which prints on stdout
// that it could not ask a service's runsv (`warning: DIR: unable to open
// supervise/ok: access denied`, `… file does not exist`; `fail: DIR:
// unable to change to service directory: …`) and exits with the count of
// such services (RefusesOnStdout, record.SvRefusal).
func (e *ExecSpec) RunsSv() bool {
	return e.runs(svInShell, "sv")
}

// supervisorctlInShell finds supervisorctl in a shell: script.
var supervisorctlInShell = regexp.MustCompile(`(?:^|[\s;&|(/])supervisorctl(?:$|[\s;&|)])`)

// RunsSupervisorctl says whether the exec runs supervisorctl, which
// prints its own failures on stdout, not stderr: `unix:///run/supervisor.sock
// refused connection` (a socket file a killed supervisord left behind),
// `unix:///… no such file`, `http://HOST:PORT refused connection`, and
// exits 4 over each, its code for a program name no section gives (`no
// such process`). A run reads its stdout for them under a code the chart
// declared an answer (runbook's unreached, record.UnreachedAnswerEntry).
func (e *ExecSpec) RunsSupervisorctl() bool {
	return e.runs(supervisorctlInShell, "supervisorctl")
}
