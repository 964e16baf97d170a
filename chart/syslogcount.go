package chart

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// syslogFile is the name of a file a syslog daemon writes, rotated or not
// (auth.log, auth.log.1, secure-20261207, messages.2.gz).
var syslogFile = regexp.MustCompile(`^(?:auth\.log|secure|syslog|messages|maillog|mail\.log|daemon\.log|kern\.log|user\.log)(?:[.-][0-9]+)*(?:\.gz)?$`)

// pipedToWc finds a pipe into wc -l, which counts the lines before it.
var pipedToWc = regexp.MustCompile(`\|\s*wc\s+-l\s*(?:$|[;&|)\n])`)

// greps are the programs that count lines with -c.
var greps = []string{"grep", "egrep", "fgrep", "zgrep", "zegrep"}

// SyslogCount is the note for an exec stage that counts the lines of a
// file a syslog daemon writes with grep -c (or grep … | wc -l in a shell:
// script), "" otherwise: rsyslog with RepeatedMsgReduction on (Ubuntu's
// rsyslog.conf), BSD syslogd and sysklogd write a message sent again as
// one line with a count (`message repeated 5 times: [ Failed password
// …]`, `last message repeated 5 times`), and a count of lines counts it
// once, so sshd's six failed passwords of one connection were one and a
// check of failures per hour said ok, Consistent. The count is the
// tool's, so no parse sees the line (parse's foldedRepeats is where one
// does).
//
//	[grep, -c, "Failed password", /var/log/auth.log]          noted
//	shell: grep "Failed password" /var/log/auth.log | wc -l   noted
//	[grep, "Failed password", /var/log/auth.log]              not noted (the lines are the chart's to read)
//	[grep, -c, ERROR, /var/log/app/app.log]                   not noted
func (e *ExecSpec) SyslogCount() string {
	if e == nil {
		return ""
	}
	wc := e.Shell != "" && pipedToWc.MatchString(e.Shell)
	file := ""
	e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || !slices.Contains(greps, filepath.Base(argv[0])) {
			return ""
		}
		count := wc
		for _, a := range argv[1:] {
			if a == "--count" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') && onlyLetters(a[1:]) {
				count = true
			}
		}
		for _, a := range argv[1:] {
			if count && strings.HasPrefix(a, "/var/log/") && syslogFile.MatchString(filepath.Base(a)) {
				file = a
				return a
			}
		}
		return ""
	})
	if file == "" {
		return ""
	}
	return "it counts lines of " + file + ", which a syslog daemon writes, and one that folds a message sent again (rsyslog's RepeatedMsgReduction, on in Ubuntu's rsyslog.conf; BSD syslogd) writes sshd's five failed passwords after the first of a connection as one line, \"message repeated 5 times: [ … ]\", which a count of lines counts once; read the lines with parse: regex and a group that reads the count (PARSE.md, regex), or count them in the journal (journalctl), which folds none"
}
