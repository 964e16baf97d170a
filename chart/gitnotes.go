package chart

import (
	"regexp"
	"strings"
)

// gitStatusInShell is a shell line running git status (after git's own
// -C DIR, -c KEY=VALUE and --long-options) up to the line's or the
// pipeline's end.
var gitStatusInShell = regexp.MustCompile(`(^|[\s;&|(/])git(\s+-[Cc]\s+\S+|\s+--\S+)*\s+status\b[^|;&\n]*`)

// GitStatusUntracked is the note for an exec that runs git status without
// saying which untracked files it lists ("" otherwise): git status then
// reads the repository's own status.showUntrackedFiles, and one that sets
// it to no lists no new file, so a file added to /etc under etckeeper is
// no row and the tree reads as unchanged. -u, --untracked-files (any
// value, -uno too) is the chart's own word.
//
//	[git, -C, /etc, status, --porcelain]            noted
//	shell: git -C "$D" status --porcelain | grep …  noted
//	[git, status, --porcelain, -uall]               not noted
func (e *ExecSpec) GitStatusUntracked() string {
	if e == nil {
		return ""
	}
	var runs []string
	if e.commandIs("git") && len(e.Command) > 1 {
		if i := gitSubcommand(e.Command[1:]); i >= 0 && e.Command[1+i] == "status" {
			runs = append(runs, strings.Join(e.Command[2+i:], " "))
		}
	}
	if e.Shell != "" {
		runs = append(runs, gitStatusInShell.FindAllString(e.Shell, -1)...)
	}
	for _, r := range runs {
		if !untrackedSaid(r) {
			return "it runs git status without --untracked-files, so which new files it lists is the repository's own status.showUntrackedFiles, and one that sets it to no lists none: a file added to the tree is no row; give --untracked-files=all (-uall)"
		}
	}
	return ""
}

// gitSubcommand is the index in args (git's arguments) of its subcommand,
// past git's own options, -1 when there is none.
func gitSubcommand(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// untrackedSaid says whether git status's arguments say which untracked
// files it lists.
func untrackedSaid(args string) bool {
	for _, a := range strings.Fields(args) {
		if strings.HasPrefix(a, "--untracked-files") || (strings.HasPrefix(a, "-u") && !strings.HasPrefix(a, "--")) {
			return true
		}
	}
	return false
}

// gitInShell is a shell line running git.
var gitInShell = regexp.MustCompile(`(^|[\s;&|(/])git(\s|$)`)

// RunsGit says whether the exec runs git, as its command or in its
// shell: script: git's own words on stderr (`warning: refname … is
// ambiguous.`, `error: …` at exit 0) are then judged as git's
// (record.GitStderr).
func (e *ExecSpec) RunsGit() bool { return e.runs(gitInShell, "git") }
