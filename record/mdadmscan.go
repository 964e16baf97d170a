package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemMdadmScanBlank is the kind of the not-checked item filed for an
// exec stage that runs `mdadm --detail --scan` (chart.ExecSpec.
// MdadmDetailScan), ended as no failure and printed nothing on stdout:
// mdadm prints the detail of each array it scans, and over none (the md
// driver not loaded, no array assembled, a container) prints nothing and
// exits 0, --test's code for every array working. A check under
// `exitCodes: {0: clean, 1: degraded, 2: failed}` said clean, OK,
// Consistent, over no array tested (cmd/runbook
// TestMdadmScanOfNoArrayIsNoAnswer, testdata/wave-lvm/md-test).
const ItemMdadmScanBlank = "md-scan-blank"

// MdadmScanBlankEntry is the ledger's entry for such a stage, filed under
// its path: exit is its exit code, word the answer the chart declared for
// it ("" when none).
func MdadmScanBlankEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it runs mdadm --detail --scan and printed nothing %s: mdadm prints each array it scans, so its silence is no array scanned: over none at all (the md driver not loaded, an array not assembled, a container) it prints nothing and exits 0, --test's code for every array working, so its code is no answer of the arrays; name the arrays that must be there (mdadm --detail --test /dev/md0 exits 4 over one it cannot open), or judge what it printed",
		exitedThough(exit, word)), ItemMdadmScanBlank)
}
