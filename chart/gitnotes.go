package chart

import (
	"path/filepath"
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

// gitRevParseInShell is a shell line running git rev-parse.
var gitRevParseInShell = regexp.MustCompile(`(^|[\s;&|(/])git(\s+-[Cc]\s+\S+|\s+--\S+)*\s+rev-parse\b`)

// gitInShell is a shell line running git.
var gitInShell = regexp.MustCompile(`(^|[\s;&|(/])git(\s|$)`)

// RunsGit says whether the exec runs git, as its command or in its
// shell: script: git's own words on stderr (`warning: refname … is
// ambiguous.`, `error: …` at exit 0) are then judged as git's
// (record.GitStderr).
func (e *ExecSpec) RunsGit() bool { return e.runs(gitInShell, "git") }

// GitConfigUnscoped notes a git config that reads a key (--get,
// --get-all, --get-regexp, git 2.46's get, or a key alone) without
// saying which file: outside a repository, and in one git refuses as
// another user's (safe.directory's dubious ownership), git reads the
// global and system files alone, says nothing on stderr and exits 1, as
// for a key set nowhere. `git -C /srv/app config --get core.hooksPath`
// with `exitCodes: {0: set, 1: unset}` said unset, Consistent, of a path
// misspelt and of a checkout owned by another user
// (testdata/wave-git/hooks-path; TestGitConfigWithoutAScopeIsNoted).
// With --local git says `fatal: --local can only be used inside a git
// repository` and exits 128 (but the global file's value, which git
// uses too, is then not read). "" for none, for a read that names its
// file (--local, --worktree, --file, --blob, --global, --system), and
// for a shell: script that runs git rev-parse, which fails outside a
// repository (git -C "$R" rev-parse --git-dir && git -C "$R" config …).
func (e *ExecSpec) GitConfigUnscoped() string {
	if e != nil && gitRevParseInShell.MatchString(e.Shell) {
		// the script asks git whether it is a repository first
		return ""
	}
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "git" {
			return ""
		}
		i := gitSubcommand(argv[1:])
		if i < 0 || argv[1+i] != "config" {
			return ""
		}
		args := argv[2+i:]
		read, operands := false, 0
		for j, a := range args {
			if j == 0 && (a == "set" || a == "unset" || a == "rename-section" || a == "remove-section" || a == "edit") {
				// git 2.46's subcommands that write
				return ""
			}
			switch {
			case a == "--local" || a == "--worktree" || a == "--global" || a == "--system" ||
				a == "-f" || strings.HasPrefix(a, "--file") || strings.HasPrefix(a, "--blob"):
				return ""
			case a == "--get" || a == "--get-all" || a == "--get-regexp" || j == 0 && (a == "get" || a == "list"):
				read = true
			case strings.HasPrefix(a, "-"):
				switch a {
				case "--list", "-l":
					read = true
				case "--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e":
					return ""
				}
			default:
				operands++
			}
		}
		if !read && operands != 1 {
			// git config KEY VALUE sets; git config KEY alone reads.
			return ""
		}
		return "it runs git config to read a key without --local (or --file): outside a repository, and in one git refuses as another user's (safe.directory, dubious ownership), git reads the global and system files alone, says nothing and exits 1 as for a key set nowhere, so a path misspelt or a checkout owned by another user reads as the key unset, and a key set in ~/.gitconfig as the repository's; ask git first whether it is one, in the same script (shell: 'git -C \"$R\" rev-parse --git-dir >/dev/null && git -C \"$R\" config --get KEY', which fails with 128 over both), or give --local where the repository's own file is the question (git says fatal: --local can only be used inside a git repository, exit 128)"
	})
}
