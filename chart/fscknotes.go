package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// e2fsckNames are the names e2fsck runs under, and fsck, util-linux's
// front end, which hands the options it does not know (-n, -f) to the
// checker of each filesystem.
var e2fsckNames = []string{"e2fsck", "fsck.ext2", "fsck.ext3", "fsck.ext4", "fsck"}

// e2fsckArgOptions are e2fsck's short options that take an argument
// (its getopt string "panyrcC:B:dE:fvtFVM:b:I:j:P:l:L:N:SsDkz:").
const e2fsckArgOptions = "CBEMbIjPlLNz"

// E2fsckWithoutForce notes e2fsck (or fsck) run read-only (-n) without
// -f: over a filesystem its superblock calls clean it checks nothing,
// prints `DEV: clean, 13/16384 files, 9515/65536 blocks` and exits 0, so
// an image with an inode cleared read clean, where `e2fsck -fn` exits 4
// (testdata/wave-fsck/e2fsck-noforce; TestE2fsckWithoutForceIsNoted). A
// run files that skip line as a not-checked item too
// (record.ItemFsckUnchecked). "" for none.
func (e *ExecSpec) E2fsckWithoutForce() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if !slices.Contains(e2fsckNames, filepath.Base(argv[0])) {
			return ""
		}
		readOnly, force := false, false
		for _, a := range argv[1:] {
			if len(a) < 2 || a[0] != '-' || a[1] == '-' {
				continue
			}
			for _, c := range a[1:] {
				if strings.ContainsRune(e2fsckArgOptions, c) {
					break
				}
				readOnly = readOnly || c == 'n'
				force = force || c == 'f'
			}
		}
		if !readOnly || force {
			return ""
		}
		return "it runs " + filepath.Base(argv[0]) + " -n without -f: over an ext filesystem its superblock calls clean e2fsck checks nothing, prints its skip line (DEV: clean, N/M files, …) and exits 0, so its clean is the superblock's flag, not a check; add -f (e2fsck -fn)"
	})
}
