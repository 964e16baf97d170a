package record

import "testing"

// TestFsckUncheckedReadsOnlyTheCheckersWords: the lines that say a
// filesystem checker checked nothing are its own; an output that merely
// says clean, mounted or running, or a check that ran, is not one.
func TestFsckUncheckedReadsOnlyTheCheckersWords(t *testing.T) {
	for _, tc := range []struct {
		name, stdout, stderr string
		exit                 int
		want                 string
	}{
		{"e2fsck's skip line", "disk.img: clean, 11/16384 files, 9513/65536 blocks\n", "", 0, "disk.img: clean, 11/16384 files, 9513/65536 blocks"},
		{"a forced check", "disk.img: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "", 0, ""},
		{"git's clean tree", "On branch main\nnothing to commit, working tree clean\n", "", 0, ""},
		{"a mount listed", "/dev/sda1 is mounted on /boot\n", "", 0, ""},
		{"a service running", "Status: running\n", "", 0, ""},
		{"a scrub finished", "Status:           finished\nError summary:    no errors found\n", "", 0, ""},
		{"a scrub never run", "UUID: x\n\tno stats available\nError summary:    no errors found\n", "", 0, "no stats available"},
		{"a journal line quoting xfs_repair", "Dec 07 14:20:01 web1 cron[311]: xfs_repair: /dev/sdb contains a mounted filesystem\n", "", 0, ""},
		{"xfs_repair's refusal", "", "xfs_repair: /dev/sdb contains a mounted filesystem\n", 1, "xfs_repair: /dev/sdb contains a mounted filesystem"},
		{"xfs_repair over no XFS", "", "attempting to find secondary superblock...\n..Sorry, could not find valid secondary superblock\nExiting now.\n", 1, "..Sorry, could not find valid secondary superblock"},
		{"fsck's banner and a check", "fsck from util-linux 2.38.1\n/dev/sdb1: 11/16384 files (0.0% non-contiguous), 9513/65536 blocks\n", "", 0, ""},
		{"fsck's banner alone", "fsck from util-linux 2.38.1\n", "", 0, "fsck from util-linux 2.38.1"},
		{"fsck.fat's finding", "fsck.fat 4.2 (2021-01-31)\n/dev/sdb1: 0 files, 0/32695 clusters\n", "", 1, ""},
		{"fsck.fat's death", "fsck.fat 4.2 (2021-01-31)\n", "Logical sector size is zero.\n", 1, "Logical sector size is zero."},
	} {
		if got, _ := FsckUnchecked(tc.stdout, tc.stderr, tc.exit); got != tc.want {
			t.Errorf("%s: FsckUnchecked = %q, want %q", tc.name, got, tc.want)
		}
	}
}
