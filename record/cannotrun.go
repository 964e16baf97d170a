package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// CannotRun is stderr's first line on which a daemon asked to test its
// configuration says it could not start for a cause outside that
// configuration, "" when none does. sshd exits 255 over a bad keyword in
// sshd_config and as much where its privilege separation directory is
// not there (a container, a host where the service never ran), and
// `sshd -t` with `exitCodes: {0: valid, 255: invalid}` said invalid,
// Nagios CRITICAL, Consistent, of a configuration sshd accepts
// (cmd/runbook TestSshdThatCouldNotRunIsNoAnswer,
// testdata/wave-sudo/sshd-config). The rule, read line by line in any
// case:
//
//	"missing privilege separation directory"   sshd -t, -T without /run/sshd (255)
//	"no hostkeys available"                    sshd with no host key it may read:
//	                                           run as a user, or none made yet (1)
//
// Judged under a non-zero code the chart declared an answer without the
// stderr it goes with (runbook's codeMayBeAFailure), as a refusal is.
func CannotRun(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		low := strings.ToLower(l)
		return strings.Contains(low, "missing privilege separation directory") || strings.Contains(low, "no hostkeys available")
	})
}

// CannotRunAnswerEntry is the ledger's entry for a stage whose exit code
// the chart declared the answer word, when stderr said the daemon could
// not start for a cause outside its configuration (CannotRun; line masked
// already): the code is that failure's, and the configuration was never
// judged.
func CannotRunAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it could not start for a cause outside the configuration it was to judge, and it exits with the same code then as over a configuration it refuses (sshd's 255 over a bad keyword and over no /run/sshd), so %q is not known; stderr's first such line: %q; run it where the daemon can start (mkdir -p /run/sshd; as root, with its host keys made: ssh-keygen -A), or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, word, cutLine(line), exit, word), ItemDenied)
}
