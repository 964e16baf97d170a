package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemGitStderr is the kind of the not-checked item filed for an exec
// stage that runs git, exited 0 (or with a code the chart declared an
// answer: GitStderrEntry), and said on stderr that what it printed is
// not the answer to what it was asked: git goes on past a name it could
// not tell apart, a ref it could not read and a failure of a program it
// runs, prints what it has, and exits 0.
//
//   - `git rev-list --count HEAD..origin/main` beside a local branch
//     named `origin/main` (a `git branch origin/main` typed for `git
//     checkout -b`, or a tag of that name) counts against that branch,
//     which git ranks before the remote-tracking one, says `warning:
//     refname 'origin/main' is ambiguous.` and prints 0: a checkout a
//     commit behind read as up to date, Consistent
//     (cmd/runbook TestGitAmbiguousRefIsNoAnswer).
//   - `git for-each-ref refs/heads` over a ref file it cannot read says
//     `warning: ignoring broken ref refs/heads/…` and lists the others:
//     a branch nobody dated was no stale branch.
//   - `git log --format=%G?` prints N, no signature, for a commit whose
//     signature it could not check, and says why on stderr: `error:
//     gpg.ssh.allowedSignersFile needs to be configured and exist for ssh
//     signature verification` for an SSH signature, `fatal: cannot run
//     gpg: No such file or directory` where gpg is missing (a child's
//     die, not git's own exit): a signed commit read as unsigned, and a
//     bad signature as none.
const ItemGitStderr = "git-stderr"

// gitStderrCause is what a line of git's stderr says of its answer, ""
// when it says nothing that voids it. The rule, one line at a time:
//
//	"warning: refname '…' is ambiguous."   git chose one of several refs a name names
//	"warning: ignoring broken ref …",      a ref left out of a listing
//	"warning: ignoring ref with broken name …",
//	"warning: ignoring dangling symref …"
//	"error: …", "fatal: …"                 a failure git went on past (git exits
//	                                       128 over its own fatal); not gc --auto's
//	                                       "error: The last gc run reported …",
//	                                       which fetch prints over its own success
//
// Any other warning (`warning: could not open directory …: Permission
// denied` is a refusal, said by Denied) is not judged here.
func gitStderrCause(line string) string {
	l := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(l, "warning: refname '") && strings.HasSuffix(l, "' is ambiguous."):
		return causeGitAmbiguous
	case strings.HasPrefix(l, "warning: ignoring broken ref") ||
		strings.HasPrefix(l, "warning: ignoring ref with broken name") ||
		strings.HasPrefix(l, "warning: ignoring dangling symref"):
		return causeGitBrokenRef
	case strings.HasPrefix(l, "error: The last gc run reported"):
		// gc --auto, run by fetch, merge or commit in the background,
		// over an earlier gc's gc.log: the command itself was done.
		return ""
	case strings.HasPrefix(l, "error: ") || strings.HasPrefix(l, "fatal: "):
		return causeGitError
	}
	return ""
}

const (
	causeGitAmbiguous = "was given a name that names more than one ref, and answered of the one it ranks first"
	causeGitBrokenRef = "left out a ref it could not read"
	causeGitError     = "met an error it went on past"
)

// GitStderr is the first line of git's stderr that says its answer is
// not the one asked for (gitStderrCause), "" when none does. Judged over
// a stage that runs git and exited 0, or with a code the chart declared
// an answer without its stderr (runbook's gitStderr).
func GitStderr(stderr string) string {
	return firstLine(stderr, func(l string) bool { return gitStderrCause(l) != "" })
}

// GitStderrEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it
// ("" under exit 0), line stderr's first such line (masked already;
// GitStderr). Under a declared code the code is no answer either: git
// verify-commit exits 1 over a commit with no signature and over one it
// could not check (`error: gpg.ssh.allowedSignersFile needs to be
// configured …`, `fatal: cannot run gpg`), and `{1: unsigned}` called an
// SSH-signed commit unsigned, Consistent.
func GitStderrEntry(path string, exit int, word, line string) coverage.Entry {
	cause := gitStderrCause(line)
	var out, code, fix string
	switch cause {
	case causeGitAmbiguous:
		out = "what it printed may be of another ref than the chart meant (a local branch or a tag named origin/main is ranked before the remote-tracking branch, and rev-list --count HEAD..origin/main counted against it)"
		code = "the code may be of another ref than the chart meant"
		fix = "write the ref whole (refs/remotes/origin/main, or @{upstream}), or rename the ref that shadows it"
	case causeGitBrokenRef:
		out = "its listing holds only the refs it could read, and one it left out is not known to be absent (a branch it left out was dated by no one, stale or not)"
		code = "the code leaves out a ref it could not read"
		fix = "mend or delete the ref it names (git update-ref -d REF)"
	default:
		cause = causeGitError
		out = "what it printed holds what it had, not what it was asked: git log's %G? prints N, no signature, for a commit whose signature it could not check (gpg not found, gpg.ssh.allowedSignersFile unset), and a signed commit reads as unsigned, a bad signature as none"
		code = "git exits with that code over its own failure too (symbolic-ref's 128 over a detached HEAD and over a path that is no repository, verify-commit's 1 over a commit with no signature and over a signature it could not check)"
		fix = "make the error go (install what it runs, set what it asks for: gpg.ssh.allowedSignersFile for SSH signatures) and run it again"
	}
	if word != "" {
		if cause == causeGitError {
			cause = "failed"
		}
		if cause == "failed" {
			fix = "say which stderr the answer goes with, {" + fmt.Sprint(exit) + ": {word: " + word + ", stderr: TEXT}}, and the other is a failure (symbolic-ref's 128 says \"is not a symbolic ref\" over a detached HEAD, \"not a git repository\" over a path that is none), or make the error go (gpg.ssh.allowedSignersFile for SSH signatures) and run it again"
		}
		return answerEntry(path, fmt.Sprintf("git said on stderr that it %s, though it exited %d, which exitCodes: declares the answer %q, so %q is not known: %s; %s; stderr's first such line: %q", cause, exit, word, word, code, fix, cutLine(line)), ItemGitStderr)
	}
	return outputEntry(path, fmt.Sprintf("git said on stderr, though it exited %d, that it %s, so %s; %s; stderr's first such line: %q", exit, cause, out, fix, cutLine(line)), ItemGitStderr)
}
