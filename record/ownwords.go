package record

import "strings"

// OwnWords is what a script that gave no answer said of why, in its own
// words: the end of its stderr, or, when it wrote nothing there, the end
// of its stdout, and which (onStdout). smartctl, ipmitool and many
// monitoring plugins say their errors on stdout: `smartctl -H` that
// could not open its disk printed `Smartctl open device: /dev/vda
// failed: Operation not permitted` there, exit 2, and its failure's line
// quoted nothing (wave-bits' design question 4). Every place that quotes
// a failed script (the Scripts part of every format, the Nagios line)
// asks here.
func OwnWords(stderr, stdout string) (words string, onStdout bool) {
	if strings.TrimSpace(stderr) != "" || strings.TrimSpace(stdout) == "" {
		return stderr, false
	}
	return stdout, true
}
