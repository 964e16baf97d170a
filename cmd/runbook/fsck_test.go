package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFsckThatDidNotCheckIsNoAnswer: a filesystem checker's code read as
// its answer where its own words say it checked nothing, or nothing
// validly (record.ItemFsckUnchecked; testdata/wave-fsck). Each output is
// the real tool's, on loop images on Debian 12:
//
//   - `e2fsck -n` (no -f) over an image with an inode cleared by debugfs
//     clri printed its skip line and exited 0, and `exitCodes: {0: clean,
//     4: errors}` said clean, OK, Consistent; `e2fsck -fn` exits 4 there;
//   - e2fsck over a mounted filesystem warns it is mounted, and its
//     results are not valid (e2fsck(8));
//   - xfs_repair -n and btrfs check refuse a mounted filesystem, and find
//     none on a device that holds none, with exit 1, the code a chart
//     declares corrupt: said corrupt, Consistent, of what nobody checked;
//   - `fsck -n DEV` over an XFS or a btrfs runs fsck.xfs or fsck.btrfs,
//     which check nothing and exit 0; `fsck -n disk.img` (no leading /)
//     is no device to fsck, and over an empty /etc/fstab it printed its
//     banner alone and exited 0: said clean, OK, Consistent;
//   - btrfs scrub status over a filesystem never scrubbed prints `no
//     stats available` beside `Error summary: no errors found`, exit 0:
//     read as clean, OK, Consistent;
//   - fsck.fat dies on stderr with exit 1, its code for errors found.
//
// A check that ran and found errors stays the answer it is.
func TestFsckThatDidNotCheckIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const e2fsckRun = "Pass 1: Checking inodes, blocks, and sizes\nPass 2: Checking directory structure\nPass 3: Checking directory connectivity\nPass 4: Checking reference counts\nPass 5: Checking group summary information\n"
	for _, tc := range []struct {
		name, tool, stdout, stderr string
		exit                       int
		status                     string
		code                       int
		says                       string
	}{
		{"e2fsck skipped the check", "e2fsck", "ext4-bad.img: clean, 13/16384 files, 9515/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "this is its line for a check it skipped"},
		{"e2fsck skipped the check, deferred", "fsck.ext4", "/dev/sda1: clean, 11/16384 files, 9513/65536 blocks (check in 3 mounts)\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "this is its line for a check it skipped"},
		{"e2fsck forced, clean", "e2fsck", e2fsckRun + "ext4-clean.img: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 0,
			"fs OK - 1 clean", 0, ""},
		{"e2fsck forced, errors", "e2fsck", e2fsckRun + "\next4-bad.img: ********** WARNING: Filesystem still has errors **********\n\next4-bad.img: 13/16384 files (0.0% non-contiguous), 9515/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 4,
			"fs CRITICAL - 1 corrupt", 2, ""},
		{"e2fsck over a mounted filesystem", "e2fsck", "Warning!  /dev/loop0 is mounted.\nWarning: skipping journal recovery because doing a read-only filesystem check.\n" + e2fsckRun + "/dev/loop0: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "results it prints then are not valid"},
		{"e2fsck over a device in use", "e2fsck", "Warning!  /dev/mapper/vg0-data is in use.\n" + e2fsckRun + "/dev/mapper/vg0-data: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "results it prints then are not valid"},
		{"e2fsck without the journal", "e2fsck", "Warning: skipping journal recovery because doing a read-only filesystem check.\n" + e2fsckRun + "/dev/vdb1: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "without its journal"},
		{"xfs_repair over a mounted filesystem", "xfs_repair", "", "xfs_repair: /dev/loop1 contains a mounted and writable filesystem\n\nfatal error -- couldn't initialize XFS library\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "xfs_repair refused a mounted filesystem"},
		{"xfs_repair over no XFS", "xfs_repair", "", "Phase 1 - find and verify superblock...\nbad primary superblock - bad magic number !!!\n\nattempting to find secondary superblock...\n..Sorry, could not find valid secondary superblock\nExiting now.\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "found no filesystem of its kind"},
		{"xfs_repair over a log not replayed", "xfs_repair", "No modify flag set, skipping phase 5\n", "Phase 1 - find and verify superblock...\nPhase 2 - using internal log\n        - zero log...\nALERT: The filesystem has valuable metadata changes in a log which is being\nignored because the -n option was used.  Expect spurious inconsistencies\nwhich may be resolved by first mounting the filesystem to replay the log.\n        - scan filesystem freespace and inode maps...\nNo modify flag set, skipping filesystem flush and exiting.\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "xfs_repair -n ignored the filesystem's log"},
		{"xfs_repair found corruption", "xfs_repair", "No modify flag set, skipping phase 5\n", "Phase 1 - find and verify superblock...\nMetadata corruption detected at 0x562fb01fd548, xfs_agf block 0x25801/0x200\nagf_freeblks 7, counted 19190 in ag 1\nsb_fdblocks 1, counted 60384\nNo modify flag set, skipping filesystem flush and exiting.\n", 1,
			"fs CRITICAL - 1 corrupt", 2, ""},
		{"btrfs check over a mounted filesystem", "btrfs", "Opening filesystem to check...\n", "ERROR: /dev/loop2 is currently mounted, use --force if you really intend to check the filesystem\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "btrfs check refused a mounted filesystem"},
		{"btrfs check over no btrfs", "btrfs", "Opening filesystem to check...\n", "No valid Btrfs found on garbage.img\nERROR: cannot open file system\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "found no filesystem of its kind"},
		{"btrfs check over a tree it cannot read", "btrfs", "Opening filesystem to check...\n", "checksum verify failed on 30425088 wanted 0xb843571f found 0x709350be\nCsum didn't match\nERROR: cannot open file system\n", 1,
			"fs CRITICAL - 1 corrupt", 2, ""},
		{"fsck over an XFS", "fsck", "fsck from util-linux 2.38.1\nIf you wish to check the consistency of an XFS filesystem or\nrepair a damaged filesystem, see xfs_repair(8).\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "fsck ran fsck.xfs or fsck.btrfs, which check nothing"},
		{"fsck over a btrfs", "fsck", "fsck from util-linux 2.38.1\nIf you wish to check the consistency of a BTRFS filesystem or\nrepair a damaged filesystem, see btrfs(8) subcommand 'check'.\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "fsck ran fsck.xfs or fsck.btrfs, which check nothing"},
		{"fsck given no device", "fsck", "fsck from util-linux 2.38.1\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "so it ran no checker"},
		{"fsck given no device, verbose", "fsck", "fsck from util-linux 2.38.1\nChecking all file systems.\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "so it ran no checker"},
		{"fsck over a skipped ext4", "fsck", "fsck from util-linux 2.38.1\n/tmp/ext4-bad.img: clean, 13/16384 files, 9515/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "this is its line for a check it skipped"},
		{"fsck over a forced ext4", "fsck", "fsck from util-linux 2.38.1\n" + e2fsckRun + "/tmp/ext4-clean.img: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "e2fsck 1.47.0 (5-Feb-2023)\n", 0,
			"fs OK - 1 clean", 0, ""},
		{"btrfs never scrubbed", "btrfs", "UUID:             b059c362-d0bb-4cc5-8f0c-1f76e74bf916\n\tno stats available\nTotal to scrub:   288.00KiB\nRate:             0.00B/s\nError summary:    no errors found\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "btrfs scrub status (and scrub start -B, at its end) prints its error summary"},
		{"btrfs scrub aborted", "btrfs", "UUID:             b059c362-d0bb-4cc5-8f0c-1f76e74bf916\nScrub started:    Mon Dec  7 14:35:20 2026\nStatus:           aborted\nDuration:         0:00:07\nError summary:    no errors found\n", "", 0,
			"fs UNKNOWN - 1 stage did not check everything (fs), 1 clean", 3, "btrfs scrub status (and scrub start -B, at its end) prints its error summary"},
		{"btrfs scrub finished", "btrfs", "UUID:             b059c362-d0bb-4cc5-8f0c-1f76e74bf916\nScrub started:    Mon Dec  7 14:35:20 2026\nStatus:           finished\nDuration:         0:00:00\nError summary:    no errors found\n", "", 0,
			"fs OK - 1 clean", 0, ""},
		{"fsck.fat over no FAT", "fsck.vfat", "fsck.fat 4.2 (2021-01-31)\n", "Logical sector size is zero.\n", 1,
			"fs CRITICAL - 1 stage did not check everything (fs), 1 corrupt", 2, "fsck.fat exits 1 for errors found and for its own failure"},
		{"fsck.fat found errors", "fsck.vfat", "fsck.fat 4.2 (2021-01-31)\nFATs differ but appear to be intact.\n  Using first FAT.\nCluster 9218 out of range (61449 > 32696). Setting to EOF.\n", "", 1,
			"fs CRITICAL - 1 corrupt", 2, ""},
	} {
		name := strings.NewReplacer(" ", "-", ",", "").Replace(tc.name)
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(dir, name, tc.tool)
		out, errs := filepath.Join(dir, name, "out"), filepath.Join(dir, name, "err")
		script := fmt.Sprintf("#!/bin/sh\ncat '%s'\ncat '%s' >&2\nexit %d\n", out, errs, tc.exit)
		for f, text := range map[string]string{out: tc.stdout, errs: tc.stderr, tool: script} {
			if err := writeExec(f, []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: fs
result: {kind: verdict/fsck, decider: Check, nagios: {ok: [clean], critical: [corrupt]}}
stages:
  - id: fs
    exec: {command: ['`+tool+`', -n, disk.img], exitCodes: {0: clean, `+fmt.Sprint(max(tc.exit, 1))+`: corrupt}}
  - id: check
    name: Check
    decide:
      rules:
        - {when: fs.status == "corrupt", then: corrupt, label: corrupt}
      default: {branch: clean, label: clean}
    branches:
      corrupt: [{id: x, verdict: {subject: '"disk.img"', verdict: '"corrupt"'}}]
      clean: [{id: c, verdict: {subject: '"disk.img"', verdict: '"clean"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.says != "" && !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: does not say why (%q):\n%s", tc.name, tc.says, r.stdout)
		}
	}
}
