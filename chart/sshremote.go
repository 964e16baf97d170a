package chart

import (
	"path/filepath"
	"strings"
)

// sshArgOptions are ssh's one-letter options that take an argument
// (OpenSSH 9): in a group such as -p2222 the rest of the word is it, and
// after a group ending in one the next word is.
const sshArgOptions = "BbcDEeFIiJLlmOoPpQRSWw"

// RemoteScript is the command an ssh stage runs on the host, as ssh sends
// it: the words after the destination joined by spaces, which the remote
// user's shell runs as `sh -c` would, with no -e and no pipefail. "" when
// the stage runs no ssh, or ssh is given no command. Read from the chart's
// words (a ${…} item as written).
//
//	[ssh, -o, BatchMode=yes, web1, "cat app.log | grep -c ERROR"]   "cat app.log | grep -c ERROR"
//	[ssh, -p2222, -l, ops, --, web1, uptime]                        "uptime"
func (e *ExecSpec) RemoteScript() string {
	if e == nil || len(e.Command) < 2 || filepath.Base(e.Command[0]) != "ssh" {
		return ""
	}
	for i := 1; i < len(e.Command); i++ {
		a := e.Command[i]
		switch {
		case a == "--":
			if i+2 < len(e.Command) {
				return strings.Join(e.Command[i+2:], " ")
			}
			return ""
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j, c := range a[1:] {
				if strings.ContainsRune(sshArgOptions, c) {
					if j == len(a)-2 {
						i++ // its argument is the next word
					}
					break
				}
			}
		default:
			return strings.Join(e.Command[i+1:], " ")
		}
	}
	return ""
}

// RemoteRunsManyCommands says whether an ssh stage's remote command
// (RemoteScript) runs more than one command, counted as a shell: script's
// are (ShellRunsManyCommands): the remote shell exits with its last
// command's code, so a code exitCodes: declares an answer is not known to
// be the answering command's (record.RemotePipedAnswerEntry).
func (e *ExecSpec) RemoteRunsManyCommands() bool {
	script := e.RemoteScript()
	if script == "" {
		return false
	}
	return (&ExecSpec{Shell: script}).ShellRunsManyCommands()
}
