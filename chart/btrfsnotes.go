package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// BtrfsScrubWithoutWait notes a `btrfs scrub start` (or `resume`)
// without -B: it starts the scrub in the background and exits 0 at once,
// printing `scrub started on MNT, fsid … (pid=N)`, so its code says the
// scrub started, not what it found; `exitCodes: {0: clean, 3:
// uncorrectable}` said clean, OK, Consistent, of a scrub that had read
// nothing yet (testdata/wave-btrfs/scrub-start; TestBtrfsScrubWithoutWaitIsNoted).
// A run files that line as a not-checked item too
// (record.BtrfsScrubBackground). "" for none.
func (e *ExecSpec) BtrfsScrubWithoutWait() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "btrfs" {
			return ""
		}
		i := slices.Index(argv, "scrub")
		if i < 0 || i+1 >= len(argv) || (argv[i+1] != "start" && argv[i+1] != "resume") {
			return ""
		}
		for _, a := range argv[i+2:] {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 'B') {
				return ""
			}
		}
		return "it runs btrfs scrub " + argv[i+1] + " without -B: the scrub goes on in the background and btrfs exits 0 as it starts (scrub started on MNT, … (pid=N)), so its code says nothing of what the scrub finds; add -B, which waits and exits 3 over uncorrectable errors, or read btrfs scrub status after it finished"
	})
}
