package chart

import (
	"path/filepath"
	"strings"
)

// rsyncShortArgs are rsync's short options that take an argument: the
// rest of a bundle after one is that argument (-essh), or the next word
// is (-e ssh).
const rsyncShortArgs = "eBTfM@"

// RsyncOwnersLocally says whether the exec's command: is an rsync dry run
// (-n, --dry-run) that asks to compare owners (-a, -o, --archive,
// --owner, not undone by a later --no-owner) between two trees of this
// machine: no host:path or rsync:// operand, whose other side runs as a
// user this machine does not know, and no --fake-super, which compares
// owners kept in extended attributes. rsync compares owners only when its
// receiving side runs as root: run as a user, `rsync -a -n -i` lists
// nothing for a file whose owner differs, and a drift check said in sync
// of a changed owner (record.ItemRsyncOwners). A script's rsync is not
// read.
func (e *ExecSpec) RsyncOwnersLocally() bool {
	if e == nil || len(e.Command) == 0 || filepath.Base(e.Command[0]) != "rsync" {
		return false
	}
	owners, dry, ends := false, false, false
	args := e.Command[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case ends || a == "-" || !strings.HasPrefix(a, "-"):
			if strings.HasPrefix(a, "rsync://") || rsyncRemote(a) {
				return false
			}
		case a == "--":
			ends = true
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			switch name {
			case "archive", "owner":
				owners = true
			case "no-owner", "no-o":
				owners = false
			case "dry-run":
				dry = true
			case "fake-super":
				return false
			}
		default:
			for j, ch := range a[1:] {
				if strings.ContainsRune(rsyncShortArgs, ch) {
					if j == len(a)-2 {
						i++ // its argument is the next word
					}
					break
				}
				switch ch {
				case 'a', 'o':
					owners = true
				case 'n':
					dry = true
				}
			}
		}
	}
	return owners && dry
}

// rsyncRemote says whether an rsync operand names another host's path,
// HOST:PATH or USER@HOST:PATH: a colon before any slash.
func rsyncRemote(a string) bool {
	i := strings.IndexByte(a, ':')
	return i > 0 && !strings.Contains(a[:i], "/")
}
