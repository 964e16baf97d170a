package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemBlkidBlank is the kind of the not-checked item filed for an exec
// stage that runs blkid over devices it names (chart.ExecSpec.
// BlkidOfDevices), ended as no failure and printed nothing: blkid prints
// each device it identified and exits 2 over one holding nothing it
// knows, but over one it could not open it prints nothing and exits 0:
// as a user, over a device its cache (/run/blkid/blkid.tab) does not
// hold; in a container whose device cgroup refuses it (`dd` says
// `Operation not permitted`). `blkid -s TYPE -o value /dev/loop5` run as
// nobody over an ext4 printed nothing, exit 0, and a chart read the
// device as holding no filesystem (cmd/runbook
// TestBlkidSilenceIsNoAnswer, testdata/wave-fsck/fstype).
const ItemBlkidBlank = "blkid-blank"

// BlkidBlankEntry is the ledger's entry for such a stage, filed under its
// path: exit is its exit code, word the answer the chart declared for it
// ("" when none).
func BlkidBlankEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it runs blkid over devices it names and printed nothing %s: blkid prints each device it identified and exits 2 over one that holds nothing it knows, but prints nothing and exits 0 over one it could not open (as a user, a device its cache does not hold; a container's device refused), so its silence is no answer of the device; run it as root with -p (blkid -p -s TYPE -o value DEV), which reads the device itself and says why it could not",
		exitedThough(exit, word)), ItemBlkidBlank)
}
