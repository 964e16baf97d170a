package chart

import (
	"path/filepath"
	"strings"
)

// DebsumsSilentOverNoDatabase notes a debsums given another root or dpkg
// database (-r/--root, -d/--admindir): over one that holds no dpkg
// database (a path misspelt; --admindir given as the full path beside
// --root, which debsums reads under the root) it lists no package, prints
// nothing, says nothing on stderr and exits 0, which under -s or -c is
// also what it does when every file matches. `debsums -ca --root
// /srv/chroot/bookwrom` said `OK - no verdict rows`, Consistent, over no
// file checked (testdata/wave-integrity/debsums;
// TestDebsumsOverAnotherRootIsNoted). "" for none.
//
//	[debsums, -ca, --root, /srv/chroot/x]        noted
//	[debsums, -s, -d, /srv/x/var/lib/dpkg]      noted
//	[debsums, -ca]                              not noted (the host's own database)
//	shell: test -s "$R/var/lib/dpkg/status" && debsums -ca --root "$R"
//	                                            not noted (it looks first)
func (e *ExecSpec) DebsumsSilentOverNoDatabase() string {
	if e != nil && strings.Contains(e.Shell, "var/lib/dpkg/status") {
		// the script looks for the database itself (test -s …)
		return ""
	}
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "debsums" {
			return ""
		}
		for _, a := range argv[1:] {
			if debsumsElsewhere(a) {
				return "it runs debsums with --root or --admindir, and over a root or database that holds no dpkg database (a path misspelt, or --admindir given as the full path beside --root: debsums reads it under the root) debsums checks no package, prints nothing and exits 0, as it does under -s or -c when every file matches; check the database is there first in the same script (test -s \"$ROOT/var/lib/dpkg/status\" && debsums -ca --root \"$ROOT\"), and give --root alone"
			}
		}
		return ""
	})
}

// debsumsElsewhere says whether one of debsums' words points it at
// another root or dpkg database: --root, --admindir (with = or apart), or
// a cluster of short options holding -r or -d before any option that
// takes a value (-m, -p, -g), whose value may follow in the same word.
func debsumsElsewhere(a string) bool {
	switch {
	case a == "--root" || a == "--admindir" || strings.HasPrefix(a, "--root=") || strings.HasPrefix(a, "--admindir="):
		return true
	case len(a) < 2 || a[0] != '-' || a[1] == '-':
		return false
	}
	for _, c := range a[1:] {
		switch c {
		case 'r', 'd':
			return true
		case 'm', 'p', 'g':
			return false
		}
	}
	return false
}
