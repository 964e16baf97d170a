package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// shells are the programs a `command: [SHELL, -c, SCRIPT]` hands a script
// to without pipefail by default.
var shells = []string{"sh", "bash", "dash", "ash", "ksh", "zsh", "busybox"}

// UnguardedPipeline is the note for an exec whose command hands a shell a
// pipeline with -c and no pipefail ("" otherwise): such a pipeline's exit
// is its last command's, so a failing command before a `|` (a collector
// not installed, killed, refused) exits 0 through `| wc -l`. A `shell:`
// stage runs bash -o pipefail, whose exit is the pipeline's first failure.
func (e *ExecSpec) UnguardedPipeline() string {
	if e == nil || len(e.Command) < 3 || e.Command[1] != "-c" || !slices.Contains(shells, filepath.Base(e.Command[0])) {
		return ""
	}
	script := e.Command[2]
	if strings.Contains(script, "pipefail") || !hasPipe(script) {
		return ""
	}
	return "its command runs a pipeline with " + filepath.Base(e.Command[0]) + " -c and no pipefail: the pipeline exits with its last command's code, so a failing command before a | reads as a success; write the script as shell: (bash -o pipefail), or add set -o pipefail"
}

// hasPipe says whether script holds a pipe: a | that is not part of ||,
// outside single and double quotes.
func hasPipe(script string) bool {
	var quote byte
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '|':
			if i+1 < len(script) && script[i+1] == '|' {
				i++
				continue
			}
			if i > 0 && script[i-1] == '>' { // >| is a redirection
				continue
			}
			return true
		}
	}
	return false
}
