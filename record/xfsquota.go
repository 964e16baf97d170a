package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemXFSQuotaBlank is the kind of the not-checked item filed for an exec
// stage that runs xfs_quota's report (chart.ExecSpec.XFSQuotaReport),
// ended as no failure and printed nothing on stdout: xfs_quota reports
// each filesystem whose quota accounting of the kind asked is on, and
// over one whose is off (mounted noquota, a kernel without quota
// support) prints nothing and exits 0; with it on, the report lists root
// at least. A check of users over their block limits, whose rows are
// findings only (result: {empty: answer}), said `OK - no verdict rows`,
// Consistent, over an XFS with no quota accounted (xfsprogs 6.1; cmd/runbook
// TestXFSQuotaReportOfNothingIsNoAnswer, testdata/wave-btrfs/xfs-quota).
const ItemXFSQuotaBlank = "xfs-quota-blank"

// XFSQuotaBlankEntry is the ledger's entry for such a stage, filed under
// its path: exit is its exit code, word the answer the chart declared for
// it ("" when none).
func XFSQuotaBlankEntry(path string, exit int, word string) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("it runs xfs_quota's report and printed nothing %s: xfs_quota prints nothing over a filesystem whose quota accounting of the kind asked is off (mounted without uquota, gquota or pquota, or a kernel without quota support), and with it on its report lists root at least, so its silence is no report of nobody over a limit; check the accounting is on (xfs_quota -x -c state MNT says Accounting: ON) and judge the report's rows",
		exitedThough(exit, word)), ItemXFSQuotaBlank)
}
