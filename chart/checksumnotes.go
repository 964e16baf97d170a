package chart

import (
	"regexp"
	"slices"
	"strings"
)

// checksumTools are coreutils' checksum commands, whose -c reads a list.
var checksumTools = []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum"}

// checksumStatusInShell is a shell line running a checksum tool with
// --status before the line or the pipeline ends.
var checksumStatusInShell = regexp.MustCompile(`(^|[\s;&|(/])(md5|sha1|sha224|sha256|sha384|sha512|b2|ck)sum\s[^|;&\n]*--status\b[^|;&\n]*`)

// checksumCheckInShell is a shell line running a checksum tool with -c
// (--check): it reads a list.
var checksumCheckInShell = regexp.MustCompile(`(^|[\s;&|(/])(md5|sha1|sha224|sha256|sha384|sha512|b2|ck)sum\s+([^|;&\n]*\s)?(-c|--check)\b`)

// ChecksumCheck says whether the exec runs a checksum tool's check of a
// list (`sha256sum -c LIST`, in a command or a shell: line), whose exit 1
// is said over a file that differs and over a list it could not open
// alike (runbook's checksumListUnopened).
func (e *ExecSpec) ChecksumCheck() bool {
	if e == nil {
		return false
	}
	if e.commandIs(checksumTools...) &&
		(slices.Contains(e.Command[1:], "-c") || slices.Contains(e.Command[1:], "--check")) {
		return true
	}
	return e.Shell != "" && checksumCheckInShell.MatchString(e.Shell)
}

// ChecksumStatusSilence is the note for an exec that runs a checksum tool
// with --status and without --strict ("" otherwise): --status prints
// nothing, not even the warning that a line of the list could not be
// read, and such a line is skipped with exit 0, so the file it names is
// never checked and nothing says so (a run reads that warning where it is
// printed: record.SkippedLines). --strict makes it exit 1.
//
//	[sha256sum, --status, -c, SUMS]             noted
//	shell: cd "$D" && sha256sum --status -c S   noted
//	[sha256sum, --status, --strict, -c, SUMS]   not noted
func (e *ExecSpec) ChecksumStatusSilence() string {
	if e == nil {
		return ""
	}
	status := false
	if e.commandIs(checksumTools...) {
		status = slices.Contains(e.Command[1:], "--status") && !slices.Contains(e.Command[1:], "--strict")
	}
	if !status && e.Shell != "" {
		for _, m := range checksumStatusInShell.FindAllString(e.Shell, -1) {
			if !strings.Contains(m, "--strict") {
				status = true
			}
		}
	}
	if status {
		return "it runs a checksum tool with --status and without --strict: --status prints nothing, not even that a line of the list could not be read, and such a line is skipped with exit 0, so the file it names is never checked and its exit says all match; add --strict, which exits 1 over it, or leave --status out and judge the lines it prints"
	}
	return e.checksumStatusIgnoringMissing()
}

// checksumStatusIgnoringMissing is the note for a checksum tool run with
// --status and --ignore-missing ("" otherwise): over a list whose every
// file is missing, --ignore-missing's `no file was verified` (which a run
// reads: record.SearchedNothing) is not printed under --status, and the
// tool exits 1, silent, as over a file that differs: coreutils 9.1's
// `sha256sum --status --strict --ignore-missing -c LIST` under `{0:
// all-match, 1: drift}` said drift over no file checked, and --strict
// does not change it (TestChecksumStatusSilenceIsNoted).
func (e *ExecSpec) checksumStatusIgnoringMissing() string {
	both := func(words string) bool {
		return strings.Contains(words, "--status") && strings.Contains(words, "--ignore-missing")
	}
	found := e.commandIs(checksumTools...) && slices.Contains(e.Command[1:], "--status") && slices.Contains(e.Command[1:], "--ignore-missing")
	if !found && e.Shell != "" {
		for _, m := range checksumStatusInShell.FindAllString(e.Shell, -1) {
			if both(m) {
				found = true
			}
		}
	}
	if !found {
		return ""
	}
	return "it runs a checksum tool with --status and --ignore-missing: over a list whose every file is missing (a list run in the wrong folder) it checks no file, and --status keeps it from saying so (no file was verified): it exits 1, silent, as over a file that differs; leave --status out (--quiet prints only the failures, and runbook reads that line), or --ignore-missing, where a missing file is a failure of its own"
}
