package record

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemBtrfsDeviceMissing is the kind of the not-checked item filed for an
// exec stage whose btrfs output says a device of the filesystem is
// missing (a RAID1 mounted -o degraded), while it ended as no failure:
// its rows and its code speak of a filesystem short of a device.
//
// It owns one rule, read on stdout, each line from its start (a log scan
// quoting one is no btrfs output), in btrfs-progs 6.2's words:
//
//	[devid:2].write_io_errs    0            btrfs device stats
//	 2    devid:2            0   0 …        btrfs device stats -T
//	"device": "devid:2",                    btrfs --format json device stats
//	Device missing:   314572800             btrfs filesystem usage (-b or not), not zero
//	devid    2 size 0 used 0 path  MISSING  btrfs filesystem show
//	*** Some devices missing                btrfs filesystem show
//	missing, ID: 2                          btrfs device usage
//	 2 missing    128.00MiB  32.00MiB …     btrfs filesystem usage -T
//
// btrfs device stats names a device it has no path for by its devid: a
// device missing. Its counters are the ones last written to the
// filesystem, frozen, and `-c` exits 0 when they are zero: a check of
// each device's error counters said `devid:2 clean`, OK, Consistent,
// over a RAID1 running degraded with its second disk gone
// (TestBtrfsMissingDeviceIsNoAnswer, testdata/wave-btrfs/device-stats).
// btrfs filesystem usage counts the missing device's unallocated space
// in its free estimate, space a RAID1 short of a disk cannot allocate.
const ItemBtrfsDeviceMissing = "btrfs-device-missing"

// btrfsMissing is every line of ItemBtrfsDeviceMissing's table but usage's.
var btrfsMissing = regexp.MustCompile(`^(\[devid:\d+\]\.\w+\s|\s*\d+\s+devid:\d+(\s|$)|\s*"device":\s*"devid:\d+"|\s*devid\s+\d+\s.*\spath\s+MISSING$|\s*\*\*\* Some devices missing$|missing, ID: \d+$|\s*\d+\s+missing\s+([0-9.]+[KMGTPE]?i?B|-)\s)`)

// btrfsDeviceMissingSize is btrfs filesystem usage's line of the size of
// the devices missing; a value with a digit other than 0 is some.
var btrfsDeviceMissingSize = regexp.MustCompile(`^\s*Device missing:\s+(\S+)`)

// BtrfsDeviceMissing is stdout's first line on which btrfs says a device
// of the filesystem is missing (ItemBtrfsDeviceMissing), "" when none
// does.
func BtrfsDeviceMissing(stdout string) string {
	if !strings.Contains(stdout, "devid") && !strings.Contains(stdout, "missing") {
		return ""
	}
	return firstLine(stdout, func(l string) bool {
		l = strings.TrimRight(l, "\r")
		if btrfsMissing.MatchString(l) {
			return true
		}
		m := btrfsDeviceMissingSize.FindStringSubmatch(l)
		return m != nil && strings.ContainsAny(m[1], "123456789")
	})
}

// BtrfsDeviceMissingEntry is the ledger's entry for such a stage, filed
// under its path: exit its code, word the answer the chart declared for
// it ("" when none), line the line that says so (masked already).
func BtrfsDeviceMissingEntry(path string, exit int, word, line string) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("it says a device of the btrfs filesystem is missing (mounted degraded) %s: %q; what it printed of that device is what was last written of it, not read from it (btrfs device stats prints a missing device's frozen counters as devid:N, and -c exits 0 over them), and a RAID profile short of a device cannot allocate what its free estimate counts; bring the device back or replace it (btrfs replace start), then check again",
		exitedThough(exit, word), cutLine(line)), ItemBtrfsDeviceMissing)
}

// btrfsScrubCorrected is btrfs scrub start's warning, on stderr, for a
// scrub that found errors and corrected them all; it exits 0, as over a
// scrub that found none.
var btrfsScrubCorrected = regexp.MustCompile(`^WARNING: errors detected during scrubbing, corrected`)

// BtrfsScrubCorrected is stderr's first line on which btrfs scrub start
// says it found errors and corrected them (exit 0), "" when none does.
// btrfs-scrub(8) gives 3 to uncorrectable errors and 0 to a scrub that
// succeeded, corrected errors or none, so `btrfs scrub start -B MNT`
// under `exitCodes: {0: clean, 3: uncorrectable}` said clean, OK,
// Consistent, over 16 checksum errors it repaired from a RAID1's good
// copy, a disk returning bad data (TestBtrfsScrubCorrectedIsNoAnswerOfClean,
// testdata/wave-btrfs/scrub-start). Its stdout's error summary says
// what it found (`Error summary:    csum=16`, `Corrected:      16`);
// a chart that parses it judges it.
func BtrfsScrubCorrected(stderr string) string {
	if !strings.Contains(stderr, "scrubbing") {
		return ""
	}
	return firstLine(stderr, func(l string) bool { return btrfsScrubCorrected.MatchString(strings.TrimSpace(l)) })
}

// causeQgroupStale is what a line says when btrfs qgroup show says its
// numbers may be wrong (btrfsQgroupStale).
const causeQgroupStale = "the qgroup numbers it printed may be wrong (btrfs marks its quota accounting inconsistent, rescanning, or off)"

// btrfsQgroupStale says whether a line (lower case) is btrfs qgroup show
// saying on stderr, exit 0, that the numbers it prints are not the
// usage: `WARNING: qgroup data inconsistent, rescan recommended`,
// `WARNING: rescan is running, qgroup data may be incorrect`, `WARNING:
// quota disabled, qgroup data may be out of date` (btrfs-progs 6.2).
// A qgroup marked inconsistent (a qgroup assigned to a parent without a
// rescan) stops counting: a subvolume holding 20 MiB under a 10 MiB limit
// read 16384 referenced bytes, and a check of qgroup limits said `sv2:
// ok`, Consistent; after `btrfs quota rescan -w` it read 20987904, over
// (cmd/runbook TestBtrfsQgroupInconsistentIsNoWholeAnswer,
// testdata/wave-btrfs/qgroup).
func btrfsQgroupStale(low string) bool {
	return strings.Contains(low, "qgroup data inconsistent") ||
		strings.Contains(low, "qgroup data may be incorrect") ||
		strings.Contains(low, "qgroup data may be out of date")
}

// btrfsScrubBackground is btrfs scrub start's (and resume's) line when
// it runs without -B: the scrub goes on in the background and btrfs
// exits 0 at once.
var btrfsScrubBackground = regexp.MustCompile(`^scrub (started|resumed) on .*, fsid \S+ \(pid=\d+\)$`)

// BtrfsScrubBackground is stdout's first line on which btrfs scrub start
// or resume says it left the scrub running in the background (no -B),
// "" when none does: its exit 0 says the scrub started, and `exitCodes:
// {0: clean, 3: uncorrectable}` said clean, OK, Consistent, of a scrub
// that had read nothing yet (TestBtrfsScrubCorrectedIsNoAnswerOfClean,
// testdata/wave-btrfs/scrub-start; runbook plan notes it:
// chart.ExecSpec.BtrfsScrubWithoutWait).
func BtrfsScrubBackground(stdout string) string {
	if !strings.Contains(stdout, "(pid=") {
		return ""
	}
	return firstLine(stdout, func(l string) bool { return btrfsScrubBackground.MatchString(strings.TrimSpace(l)) })
}

// BtrfsScrubBackgroundEntry is the ledger's entry for such a stage: exit
// its code, word the answer the chart declared for it ("" when none),
// line the line (masked already).
func BtrfsScrubBackgroundEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it started the scrub in the background and returned %s: %q; its code says the scrub started, not what it found; run btrfs scrub start -B, which waits and exits 3 over uncorrectable errors, or judge btrfs scrub status once it says Status: finished",
		exitedThough(exit, word), cutLine(line)), ItemCodeNotAnswer)
}
