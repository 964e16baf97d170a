package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemPipedAnswer is the kind of the not-checked item filed for a shell:
// stage whose script runs more than one command (a pipeline, a list),
// that exited with a non-zero code the chart declared an answer
// (exitCodes:), and that wrote on stderr, or whose last pipeline had a
// command before the last fail (EarlierInPipeFailed). Under bash -e -o pipefail a
// script exits with the code of its first command to fail (a pipeline,
// with that of its last command to fail), and any of them may exit so
// (`cd /var/log/app && grep -c ERROR app.log`: cd's 1 is grep's "none"): `zcat -f app.log.9.gz app.log
// | grep -c ERROR` under `exitCodes: {0: found, 1: none}`, with the .gz
// rotated away, exits with zcat's 1 while grep counted 1 and exited 0,
// and the chart read "none", a Nagios check OK, Consistent, over a count
// of 1 (TestPipelineDeclaredExitWithStderrIsNoAnswer). Its stderr is the
// evidence that the code may be another command's; one that wrote
// nothing there (grep's own 1 on no match) is read as its answer.
const ItemPipedAnswer = "piped-answer"

// EarlierInPipeFailed says whether codes, a script's last pipeline's exit
// codes (bash's PIPESTATUS), hold a failure before the last command's:
// `smartctl -H /dev/sda | grep -q FAILED` under `exitCodes: {0: failing,
// 1: passed}` exited with grep's 1, "passed", when smartctl could not open
// the disk (exit 2) and printed that on stdout, into grep, with nothing on
// stderr: the chart read a disk nobody read as passed, Consistent
// (TestPipelineEarlierFailureIsNoAnswer). Such codes are an item of this
// kind whether or not the script wrote on stderr.
func EarlierInPipeFailed(codes []int) bool {
	for _, c := range codes[:max(len(codes)-1, 0)] {
		if c != 0 {
			return true
		}
	}
	return false
}

// PipedAnswerEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it,
// line stderr's first non-blank line (masked already), codes its last
// pipeline's exit codes when known, inSubshell whether the script ends in
// a subshell whose last command is a pipeline
// (chart.ExecSpec.AnswerFromASubshellPipeline).
func PipedAnswerEntry(path string, exit int, word, line string, codes []int, inSubshell bool) coverage.Entry {
	if inSubshell && len(codes) <= 1 {
		return answerEntry(path, fmt.Sprintf("it exited %d, which the chart declares the answer %q, but its script ends in a subshell, ( … ), whose last command is a pipeline, and runbook reads the codes of the script's own last pipeline (bash's PIPESTATUS), not a subshell's: an earlier command of that pipeline may have failed behind the last one's %d, and the last command read what it printed; run the pipeline outside the parentheses, where its codes are read (cd DIR && CMD | grep -q X, or CMD's own path option)",
			exit, word, exit), ItemPipedAnswer)
	}
	if EarlierInPipeFailed(codes) {
		return answerEntry(path, fmt.Sprintf("it exited %d, which the chart declares the answer %q, but that is the last command's code of a pipeline whose commands exited %s: under bash -e -o pipefail an earlier command's failure is hidden behind a later one's non-zero code, and the last command read what the failing one printed, so the %d may be that failure's, not the answer; run the command whose failure matters on its own, where its failure fails the stage, then answer from what it printed: out=$(CMD) (a plain assignment), then grep -q X <<<\"$out\"",
			exit, word, pipeCodes(codes), exit), ItemPipedAnswer)
	}
	return answerEntry(path, fmt.Sprintf("it exited %d, which the chart declares the answer %q, but its script runs more than one command, which under bash -e -o pipefail exits with the code of the first to fail (in a pipeline, the last to fail), and it wrote on stderr, so the %d may be another command's failure, not the answer; stderr's first line: %q; let through only the code the answering command gave, and judge what it printed: zcat -f FILES | grep -c ERROR || [ \"${PIPESTATUS[*]}\" = \"0 1\" ] exits 0 when grep alone found no line, and fails the stage when zcat failed",
		exit, word, exit, FirstLine(line)), ItemPipedAnswer)
}

// pipeCodes is a pipeline's exit codes as bash prints PIPESTATUS: "2 1".
func pipeCodes(codes []int) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, " ")
}

// RemotePipedAnswerEntry is the ledger's entry for an ssh stage whose
// remote command runs more than one command, that exited with a code the
// chart declared an answer (word) and wrote on stderr (line, masked
// already): the remote user's shell runs it with no -e and no pipefail and
// exits with its last command's code, so a command before it may have
// failed behind it. `ssh web1 'cat app.log | grep -c ERROR'` under `{0:
// found, 1: none}` over a log not there said none, OK, Consistent.
func RemotePipedAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which the chart declares the answer %q, but its ssh command runs more than one command on the host, in the remote user's shell with no pipefail, which exits with its last command's code, and it wrote on stderr, so an earlier command may have failed behind the %d; stderr's first line: %q; let the answering command read its input itself (grep -c ERROR FILE, whose missing file is its own exit 2), or begin the remote command with set -o pipefail; (bash)",
		exit, word, exit, FirstLine(line)), ItemPipedAnswer)
}
