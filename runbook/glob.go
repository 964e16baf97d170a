package runbook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// globFiles is the files pattern matches, as filepath.Glob's rule matches
// them (each path element by filepath.Match), and the folders on the way
// it could not read. filepath.Glob passes over a folder it cannot read in
// silence: `/home/*/.ssh/authorized_keys` run as a user who may not search
// /home/bob matched alice's file alone, and an attacker's key in bob's
// stood OK, Consistent (TestGlobOverAFolderItCannotReadIsNoWholeAnswer).
// A folder that is not there, or is not a folder, matches nothing, as
// there; any other error reading one is unread.
func globFiles(pattern string) (matches []string, unread []ReadUnread, err error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, nil, err
	}
	if !hasGlobMeta(pattern) {
		_, err := os.Lstat(pattern)
		switch {
		case err == nil:
			return []string{pattern}, nil, nil
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir):
			return nil, nil, nil
		}
		return nil, []ReadUnread{{pattern, unwrapPathErr(err).Error()}}, nil
	}
	dir, file := filepath.Split(pattern)
	dir = globDir(dir)
	dirs := []string{dir}
	if hasGlobMeta(dir) {
		if dir == pattern { // a pattern that splits into itself cannot recurse
			return nil, nil, filepath.ErrBadPattern
		}
		dirs, unread, err = globFiles(dir)
		if err != nil {
			return nil, nil, err
		}
	}
	for _, d := range dirs {
		m, u := globIn(d, file)
		matches = append(matches, m...)
		unread = append(unread, u...)
	}
	return matches, unread, nil
}

// globIn is the names in folder dir that match pattern, joined to dir,
// in name order.
func globIn(dir, pattern string) ([]string, []ReadUnread) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir):
		return nil, nil
	case err != nil:
		return nil, []ReadUnread{{dir, unwrapPathErr(err).Error()}}
	case !fi.IsDir():
		return nil, nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, []ReadUnread{{dir, unwrapPathErr(err).Error()}}
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	var unread []ReadUnread
	if err != nil {
		// the names it gave are matched; the folder is said unread
		unread = []ReadUnread{{dir, unwrapPathErr(err).Error()}}
	}
	slices.Sort(names)
	var out []string
	for _, n := range names {
		if ok, _ := filepath.Match(pattern, n); ok {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out, unread
}

// globDir is a pattern's folder part as filepath.Glob takes it: its
// trailing separator cut, "." for none, the root kept.
func globDir(dir string) string {
	switch dir {
	case "":
		return "."
	case string(filepath.Separator):
		return dir
	}
	return dir[:len(dir)-1]
}

// hasGlobMeta says whether a path holds a character a glob reads as a
// pattern.
func hasGlobMeta(path string) bool {
	return strings.ContainsAny(path, `*?[\`)
}

// errNotDir is ENOTDIR: a path element that is a file where a folder was
// meant, which matches nothing.
var errNotDir error = syscall.ENOTDIR
