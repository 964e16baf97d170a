package record

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemFsckUnchecked is the kind of the not-checked item filed for an exec
// stage whose filesystem checker said, in its own words, that it did not
// check the filesystem, or that its check is not valid, while its exit
// code read as an answer (0, or a code exitCodes: declares):
//
//   - e2fsck without -f over a filesystem its superblock calls clean
//     checks nothing: it prints `DEV: clean, 13/16384 files, 9515/65536
//     blocks` and exits 0, and `e2fsck -n` under `exitCodes: {0: clean,
//     4: errors}` said clean, OK, Consistent, over an image with an inode
//     cleared (debugfs clri) that `e2fsck -fn` finds errors in, exit 4;
//   - e2fsck over a mounted filesystem says `Warning!  DEV is mounted.`
//     and checks it, and e2fsck(8) says the results it prints then are
//     not valid; `Warning: skipping journal recovery because doing a
//     read-only filesystem check.` is a check of the filesystem without
//     what its journal holds;
//   - xfs_repair -n and btrfs check refuse a mounted filesystem, and find
//     none of their kind on a device that holds another or nothing, with
//     exit 1, the code they give corruption found: `xfs_repair: DEV
//     contains a mounted and writable filesystem`, `ERROR: DEV is
//     currently mounted, use --force …`, `No valid Btrfs found on DEV`,
//     `Sorry, could not find valid secondary superblock`; `exitCodes: {0:
//     clean, 1: corrupt}` said corrupt, Consistent, of filesystems
//     nothing checked; xfs_repair -n over a log not replayed (a crash)
//     exits 1 with `ALERT: The filesystem has valuable metadata changes
//     in a log which is being ignored …  Expect spurious
//     inconsistencies`, and listed none;
//   - `fsck -n DEV` runs fsck.xfs or fsck.btrfs over an XFS or a btrfs,
//     which check nothing and exit 0 (`If you wish to check the
//     consistency of an XFS filesystem …`); `fsck -n disk.img`, a name
//     not starting with /, is no device to fsck but an option for the
//     checkers of what /etc/fstab lists, and over nothing listed fsck
//     prints its banner alone and exits 0;
//   - btrfs scrub status over a filesystem never scrubbed prints `no
//     stats available` beside `Error summary:    no errors found`, exit
//     0, and so over a scrub running, aborted or interrupted;
//   - fsck.fat exits 1 for errors found and for its own failure (`Logical
//     sector size is zero.` over a device that holds no FAT): it prints
//     what it found on stdout and dies on stderr, its banner alone on
//     stdout.
//
// cmd/runbook TestFsckThatDidNotCheckIsNoAnswer, testdata/wave-fsck.
const ItemFsckUnchecked = "fsck-unchecked"

// fsckLine is one of the checkers' lines that says their check is none
// (FsckUnchecked), and why, in the words the ledger gives it.
type fsckLine struct {
	match *regexp.Regexp
	why   string
}

// fsckLines are the checkers' own words, read on stdout and stderr alike
// (e2fsck writes its warnings on stdout, xfs_repair and btrfs check
// theirs on stderr), each from the start of its line: a log scan that
// prints a journal line quoting one (a time stamp, a host, then the
// words) is no checker's output.
var fsckLines = []fsckLine{
	// e2fsck's line when it skipped the check (unit/e2fsck.c: "clean,
	// %u/%u files, %llu/%llu blocks", and after it "(check deferred; on
	// battery)", "(check after next mount)", "(check in N mounts)"); a
	// check run prints "(N% non-contiguous)" after the files
	{regexp.MustCompile(`^\S.*: clean, \d+/\d+ files, \d+/\d+ blocks`),
		"e2fsck without -f (as at boot, where systemd-fsck logs this line) checks nothing over a filesystem its superblock calls clean: this is its line for a check it skipped, so its clean is the superblock's flag, not a check (an image with an inode cleared read clean so, and e2fsck -fn found its errors, exit 4); force the check: e2fsck -fn"},
	// "is in use." where another holder has the device open
	// exclusively (a mount in another namespace, device-mapper)
	{regexp.MustCompile(`^Warning!\s+\S.* is (mounted|in use)\.$`),
		"e2fsck checked a mounted filesystem (or one another holder has open), and e2fsck(8) says the results it prints then are not valid (the kernel changes it under the check): its code is no answer of the filesystem; check it unmounted, or a snapshot of it"},
	{regexp.MustCompile(`^Warning: skipping journal recovery because doing a read-only filesystem check\.$`),
		"e2fsck -n checked the filesystem without its journal, whose recovery it skipped (a filesystem mounted, or not cleanly unmounted): what it checked is not the filesystem the journal would leave, so its code is no answer of it; check it unmounted, after a mount has replayed the journal, or a copy of it with e2fsck -fy"},
	// xfs_repair -n over a log not replayed (a crash, a filesystem shut
	// down) exits 1 with no inconsistency listed, or with spurious ones
	{regexp.MustCompile(`^ALERT: The filesystem has valuable metadata changes in a log`),
		"xfs_repair -n ignored the filesystem's log, which holds changes not yet written to it (a crash, a filesystem shut down or not cleanly unmounted), and says to expect spurious inconsistencies: its code is the log's, no known corruption; mount and unmount the filesystem to replay its log, then check it again"},
	{regexp.MustCompile(`^xfs_repair: .* contains a mounted (and writable )?filesystem$|^fatal error -- couldn't initialize XFS library$`),
		"xfs_repair refused a mounted filesystem and checked nothing, exiting with the code it gives corruption found; check it unmounted (or xfs_scrub, which checks a mounted XFS)"},
	{regexp.MustCompile(`^ERROR: .* is currently mounted, use --force`),
		"btrfs check refused a mounted filesystem and checked nothing, exiting with the code it gives errors found; check it unmounted (or btrfs scrub, which checks a mounted btrfs)"},
	// fsck.xfs and fsck.btrfs are there for fsck at boot and check
	// nothing: `fsck -n DEV` over an XFS or a btrfs runs one, which
	// prints this and exits 0
	{regexp.MustCompile(`^If you wish to check the consistency of an? (XFS|BTRFS) filesystem`),
		"fsck ran fsck.xfs or fsck.btrfs, which check nothing (they are there for fsck at boot) and exit 0: its clean is no check of the filesystem; check an XFS with xfs_repair -n, a btrfs with btrfs check --readonly"},
	// e2fsck could not open the device (unix.c: "while trying to open
	// %s"): one misspelt, not there, holding no ext filesystem, refused
	// or busy; it exits 8, which a chart lists under exitBits: to read 12
	// (errors found, then stopped): testdata/wave-fsck/e2fsck-bits said
	// incomplete, WARNING, Consistent, of a device misspelt
	// (TestE2fsckThatCouldNotOpenCheckedNothing)
	{regexp.MustCompile(`^e2fsck: .+ while trying to open `),
		"e2fsck could not open the device (one misspelt or not there, one holding no ext filesystem, refused or busy) and checked nothing: its 8 is no finding of the filesystem; give the device's path, and blkid DEV says what it holds"},
	{regexp.MustCompile(`^No valid Btrfs found on |^\.*Sorry, could not find valid secondary superblock$`),
		"the checker found no filesystem of its kind on the device (another kind, nothing, or a superblock gone) and checked nothing, exiting with the code it gives corruption found; blkid DEV says what the device holds"},
}

// fsckFatBanner is the first line fsck.fat (dosfsck, fsck.vfat, fsck.msdos)
// prints on stdout.
var fsckFatBanner = regexp.MustCompile(`^(fsck\.fat|dosfsck) \d`)

// fsckBanner is the first line util-linux's fsck prints on stdout (not
// under -T), and fsckAll the line -V adds when it was given no device.
var (
	fsckBanner = regexp.MustCompile(`^fsck from util-linux `)
	fsckAll    = "Checking all file systems."
)

// fsckRanNothing says why: fsck takes an operand as a device only when it
// starts with / or names a LABEL= or UUID=, and passes any other to the
// checkers as an option; given no device it checks what /etc/fstab
// lists, and over nothing to check it prints its banner alone and exits
// 0. `fsck -n disk.img` and `fsck -n sdb1` ran no checker at all.
const fsckRanNothing = "fsck printed its banner and nothing else, so it ran no checker: it takes an operand as a device only when it starts with / (or is LABEL=… or UUID=…), passes any other (disk.img, sdb1, ./disk.img) to the checkers as an option, and with no device checks what /etc/fstab lists, here nothing; give the device's whole path (/dev/sdb1)"

// scrubSummary is the line btrfs scrub status ends with (under -R, its
// raw counters, of which csum_errors and uncorrectable_errors are two),
// and scrubNotRun the lines it prints when no scrub it reports on ran to
// its end: no stats at all (a filesystem never scrubbed, its stats file
// gone), or a scrub running, aborted or interrupted.
var (
	scrubSummary = regexp.MustCompile(`^(Error summary:\s|(csum|uncorrectable)_errors:\s+\d+$)`)
	scrubNotRun  = regexp.MustCompile(`^(no stats available|Status:\s+(running|aborted|interrupted))$`)
)

// scrubUnfinished is btrfs scrub status's line saying no scrub ran to its
// end, and why its summary is then no answer; "" when stdout is not its
// output or a scrub finished. A btrfs never scrubbed prints `no stats
// available` and beside it `Error summary:    no errors found`, exit 0,
// which a check of the last scrub read as clean, OK, Consistent
// (testdata/wave-fsck/scrub); `btrfs scrub status -R` prints its raw
// counters, every one 0, beside `Status: aborted` of a scrub of a RAID1
// mounted degraded, and a check of them said clean, OK, Consistent
// (testdata/wave-btrfs/scrub-raw).
func scrubUnfinished(stdout string) (string, string) {
	if firstLine(stdout, func(l string) bool { return scrubSummary.MatchString(strings.TrimSpace(l)) }) == "" {
		return "", ""
	}
	l := firstLine(stdout, func(l string) bool { return scrubNotRun.MatchString(strings.TrimSpace(l)) })
	if l == "" {
		return "", ""
	}
	return l, "btrfs scrub status (and scrub start -B, at its end) prints its error summary (no errors found, or -R's counters of 0) of whatever it has, and no scrub it reports on ran to its end (never started, its stats gone, or running, aborted, interrupted), so its no errors found is said of data nobody read; run a scrub to its end (btrfs scrub start -B MNT) and judge its Status: finished beside the summary"
}

// fsckWords are words every line FsckUnchecked reads holds one of: a
// text with none is read no further (every exec stage's output passes
// here).
var fsckWords = []string{": clean, ", "Warning", "mounted", "XFS library", "Btrfs", "superblock", "consistency", "ALERT:", "Error summary:", "_errors:", "fsck"}

// mayBeFsck says whether text holds one of fsckWords.
func mayBeFsck(text string) bool {
	for _, w := range fsckWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// FsckUnchecked is the first line of a filesystem checker's output saying
// it did not check the filesystem, or that its check is not valid
// (ItemFsckUnchecked, fsckLines), and why; "" and "" when none does.
// exit is the code it ended with: fsck.fat's own failure is a line on
// stderr under a non-zero code, with nothing but its banner on stdout;
// util-linux's fsck that printed its banner alone ran no checker.
func FsckUnchecked(stdout, stderr string, exit int) (line, why string) {
	if !mayBeFsck(stdout) && !mayBeFsck(stderr) {
		return "", ""
	}
	for _, text := range []string{stdout, stderr} {
		var rule string
		l := firstLine(text, func(l string) bool {
			l = strings.TrimSpace(l)
			for _, f := range fsckLines {
				if f.match.MatchString(l) {
					rule = f.why
					return true
				}
			}
			return false
		})
		if l != "" {
			return l, rule
		}
	}
	if l, why := scrubUnfinished(stdout); l != "" {
		return l, why
	}
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if l = strings.TrimSpace(l); l != "" && l != fsckAll {
			out = append(out, l)
		}
	}
	if len(out) != 1 {
		return "", ""
	}
	if fsckBanner.MatchString(out[0]) {
		return out[0], fsckRanNothing
	}
	if exit != 0 && strings.TrimSpace(stderr) != "" && fsckFatBanner.MatchString(out[0]) {
		return firstLine(stderr, func(l string) bool { return strings.TrimSpace(l) != "" }),
			"fsck.fat exits 1 for errors found and for its own failure (a device that holds no FAT, one it could not read): it printed nothing but its banner and said why it stopped on stderr, so it checked nothing"
	}
	return "", ""
}

// FsckUncheckedEntry is the ledger's entry for such a stage, filed under
// its path: exit its code, word the answer the chart declared for it (""
// when none), line the checker's line (masked already) and why
// FsckUnchecked's reason.
func FsckUncheckedEntry(path string, exit int, word, line, why string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("its own words say it checked no filesystem, or none validly, %s: %q; %s",
		exitedThough(exit, word), cutLine(line), why), ItemFsckUnchecked)
}
