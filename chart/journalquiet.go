package chart

import (
	"regexp"
	"strings"
)

// journalQuietShell finds a journalctl given -q or --quiet in a shell:
// script, up to the end of its command.
var journalQuietShell = regexp.MustCompile(`(?:^|[\s;&|(])journalctl(?:\s+[^;&|\n]*)?\s(?:-[A-Za-z]*q[A-Za-z]*|--quiet)(?:\s|$)`)

// JournalQuiet is the note for an exec stage that runs journalctl with
// -q (--quiet), "" otherwise: -q turns off the hint journalctl prints when
// the user may read only part of the journal (`Hint: You are currently
// not seeing messages from other users and the system.`), the one sign a
// run has that the entries are that user's alone (record.Denied). A
// scan for errors run as a user outside adm and systemd-journal then
// reads a system journal nobody read as one with no errors, and nothing
// says so.
//
//	[journalctl, -q, -p, err, --since, -1h]             noted
//	shell: journalctl --quiet -u nginx | grep -c error  noted
//	[journalctl, -p, err, --since, -1h]                 not noted
func (e *ExecSpec) JournalQuiet() string {
	if e == nil {
		return ""
	}
	quiet := false
	if e.commandIs("journalctl") {
		for _, a := range e.Command[1:] {
			if a == "--quiet" || a == "-q" || (len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'q') && onlyLetters(a[1:])) {
				quiet = true
			}
		}
	} else if e.Shell != "" {
		quiet = journalQuietShell.MatchString(e.Shell)
	}
	if !quiet {
		return ""
	}
	return "journalctl -q (--quiet) turns off the hint it prints when this user may read only part of the journal (not root, not in adm or systemd-journal), the one sign a run has that the entries are that user's alone: such a run would judge a system journal nobody read as one with nothing in it; leave -q out, and a run files the hint as not checked"
}

// onlyLetters says whether s is letters alone: a cluster of short flags.
func onlyLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return s != ""
}
