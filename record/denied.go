package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemDenied is the kind of the not-checked item filed for an exec stage
// whose command exited 0 and said on stderr that it was refused
// access to something (EACCES's "Permission denied", EPERM's "Operation
// not permitted", in any case). `sysctl -a` run as a user prints every
// key it can read, says `sysctl: permission denied on key
// 'net.core.bpf_jit_harden'` for the ones it cannot, and exits 0: its
// output is not what the kernel holds, and a rule over every key it
// printed judges the ones it left out as absent, not as unread
// (TestDeniedOnStderrIsNoWholeAnswer). What it printed is kept; what the
// chart decided rests on part of it only, so the standing cannot be
// Consistent, and a Nagios check is no better than UNKNOWN.
const ItemDenied = "denied"

// Denied is stderr's first line that says access was refused, "" when
// none does.
func Denied(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		low := strings.ToLower(l)
		if strings.Contains(low, "permission denied") || strings.Contains(low, "operation not permitted") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// DeniedEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, line stderr's first line that says so
// (masked already; Denied).
func DeniedEntry(path string, exit int, line string) coverage.Entry {
	line = cutLine(line)
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its output",
			Why:  fmt.Sprintf("it said on stderr that it was refused access though it exited %d, so its output holds only what it could read, and what it left out is not known to be absent; stderr's first such line: %q; run it with the privilege to read it all", exit, line),
			Kind: ItemDenied,
		}},
	}}
}
