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
		{"a raw scrub aborted", "UUID: x\nStatus:           aborted\n\tread_errors: 0\n\tcsum_errors: 0\n\tuncorrectable_errors: 0\n", "", 0, "Status:           aborted"},
		{"a raw scrub never run", "UUID: x\n\tno stats available\n\tcsum_errors: 0\n", "", 0, "no stats available"},
		{"a raw scrub finished", "Status:           finished\n\tcsum_errors: 0\n\tuncorrectable_errors: 0\n", "", 0, ""},
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

// TestE2fsckThatCouldNotOpenCheckedNothing: e2fsck exits 8 (an
// operational error) over a device it could not open, the 8 a chart
// lists under exitBits: to read 12 (errors found, then stopped):
// testdata/wave-fsck/e2fsck-bits said `incomplete`, WARNING, Consistent,
// of a device misspelt (`e2fsck: No such file or directory while trying
// to open /tmp/typo.img`), and of one holding no ext filesystem (`Bad
// magic number in super-block while trying to open`). It opened nothing:
// its own words say it checked nothing (ItemFsckUnchecked).
func TestE2fsckThatCouldNotOpenCheckedNothing(t *testing.T) {
	for _, tc := range []struct {
		name, stdout, stderr string
		want                 string
	}{
		{"no such device", "Possibly non-existent device?\n", "e2fsck 1.47.0 (5-Feb-2023)\ne2fsck: No such file or directory while trying to open /tmp/typo.img\n", "e2fsck: No such file or directory while trying to open /tmp/typo.img"},
		{"no ext filesystem", "\nThe superblock could not be read or does not describe a valid ext2/ext3/ext4\nfilesystem.\n", "e2fsck 1.47.0 (5-Feb-2023)\next2fs_open2: Bad magic number in super-block\ne2fsck: Superblock invalid, trying backup blocks....\ne2fsck: Bad magic number in super-block while trying to open /dev/sdb1\n", "e2fsck: Bad magic number in super-block while trying to open /dev/sdb1"},
		{"errors found, then stopped", "Pass 1: Checking inodes, blocks, and sizes\nRoot inode is not a directory.  Clear? no\n", "e2fsck 1.47.0 (5-Feb-2023)\ne2fsck: aborted\n", ""},
	} {
		got, why := FsckUnchecked(tc.stdout, tc.stderr, 8)
		if got != tc.want {
			t.Errorf("%s: FsckUnchecked = %q, want %q", tc.name, got, tc.want)
		}
		if got != "" && why == "" {
			t.Errorf("%s: no reason given", tc.name)
		}
	}
}
