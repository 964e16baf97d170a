package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemStderrOnly is the kind of the not-checked item filed for an exec
// stage whose command ended with an exit code that is no failure (0, or a
// code exitCodes: declares an answer), printed nothing on stdout, which
// the chart parses as data (a parse: mode, an explicit text among them),
// and wrote on stderr. `journalctl -o json` without read access to the journal, a
// collector whose backend is down: the tool says why on stderr and exits
// 0, and the parse makes an empty list of its stdout, which every rule
// over it reads as "none found". What the chart decided rests on no
// answer of the command, so the standing cannot be Consistent over it,
// and a Nagios check is no better than UNKNOWN.
const ItemStderrOnly = "stderr-only"

// StderrOnlyEntry is the ledger's entry for such a stage, filed under its
// path: mode is the parse mode, exit the exit code, stderr what it wrote
// there (masked already); the item holds stderr's first line that is
// neither blank nor a routine notice (FirstSaid).
// mode "" is a stage with no parse: whose stdout an expression reads:
// some tools (nginx -V, nginx -t) write their answer on stderr alone.
func StderrOnlyEntry(path, mode string, exit int, stderr string) coverage.Entry {
	first := cutLine(FirstSaid(stderr))
	why := fmt.Sprintf("it printed nothing on stdout and wrote on stderr though it exited %d, so what parse: %s made of the empty stdout may be a failure the command did not report, not an answer of none; stderr's first line: %q", exit, mode, first)
	if mode == "" {
		why = fmt.Sprintf("it printed nothing on stdout and wrote on stderr though it exited %d, and the chart reads its stdout (it has no parse:): the empty text is no answer of none, it may be a failure the command did not report, or an answer the tool writes on stderr (nginx -V does; read .stderr then); stderr's first line: %q", exit, first)
	}
	return outputEntry(path, why, ItemStderrOnly)
}
