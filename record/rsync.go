package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemRsyncOwners is the kind of the not-checked item filed for an rsync
// dry run that asked to compare owners and ran as a user who is not
// root (chart.ExecSpec.RsyncOwnersLocally): rsync compares owners only
// when its receiving side runs as root, and as a user it lists nothing
// for a file whose owner differs, exits 0 and says nothing, so a drift
// check said in sync, Consistent, of an owner changed
// (runbook TestRsyncDryRunAsAUserComparesNoOwners, testdata/wave-rsync).
const ItemRsyncOwners = "rsync-owners"

// RsyncOwnersEntry is the ledger's entry for such a stage: uid is the
// user it ran as.
func RsyncOwnersEntry(path string, uid int) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("rsync compares owners only when it runs as root, and it ran as uid %d: a file whose owner differs is listed as no difference; run the check as root, or ask it for what it can compare (-rlptgD, or --no-owner after -a)", uid), ItemRsyncOwners)
}
