package chart

import (
	"regexp"
	"strings"
)

// findInShell finds a find command in a shell: script: the word find where
// a command begins.
var findInShell = regexp.MustCompile(`(?:^|[;&|(\n]|\$\()\s*(?:\S*/)?find\s`)

// FindNamesByLine notes a find whose names are read line by line: a
// file name may hold a newline, and under find -printf '%y %m %u %p\n' a
// file named x<newline>f 666 root forged, made by whoever may write the
// tree, was two rows, /tmp/x and "forged", Consistent — a file that does
// not exist, world-writable (TestFindNamesByLineIsNoted). A find that
// ends its names with a NUL (-print0, -printf '…\0'), read with
// records: nul, or counted by a tool that reads NULs (xargs -0, sort -z),
// is not noted, nor one of -maxdepth 0, which lists the paths the chart
// gave it and no name found. "" for none.
func (e *ExecSpec) FindNamesByLine() string {
	if e == nil || e.Parse.Options["records"] == "nul" {
		return ""
	}
	switch e.Parse.Mode {
	case "lines", "columns", "regex", "kv":
	default:
		return ""
	}
	byLine := false
	if e.commandIs("find") {
		byLine = !findEndsInNUL(strings.Join(e.Command[1:], " "))
	}
	if e.Shell != "" && findInShell.MatchString(e.Shell) {
		byLine = byLine || !findEndsInNUL(e.Shell)
	}
	if !byLine {
		return ""
	}
	return "it reads find's names a line each, and a file name may hold a newline: a name made to hold one and a line of its own (x<newline>f 666 root forged) is read as two records, the second a row for a file that does not exist; end each name with a NUL (-print0, or -printf '…\\0') and read them with parse: {as: …, records: nul}"
}

// findEndsInNUL says whether find's arguments (or the script holding it)
// end its names with a NUL.
func findEndsInNUL(args string) bool {
	return strings.Contains(args, "-print0") || strings.Contains(args, `\0`) || strings.Contains(args, `\x00`) || maxDepthZero.MatchString(args)
}

// maxDepthZero finds -maxdepth 0, quoted or not.
var maxDepthZero = regexp.MustCompile(`-maxdepth\s+['"]?0['"]?(\s|$)`)
