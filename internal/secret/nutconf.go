package secret

import (
	"regexp"
	"strings"
)

// spacedAssignment is a config file's setting written with blanks around
// its "=" (upsd.users' `password = PW`, my.cnf's, any INI file's), one a
// line: its groups are what is kept (the blanks, the name, the "=" and
// the blanks after it), the name, and the value to the line's end. A
// setting with no blank beside its "=" is an environment's form
// (EnvAssignments).
var spacedAssignment = regexp.MustCompile(`(?m)^([ \t]*([A-Za-z_][A-Za-z0-9_.-]*)(?:[ \t]+=[ \t]*|[ \t]*=[ \t]+))([^\r\n]*)`)

// SpacedAssignments is t with the value of every such setting whose name
// says it holds a secret masked, its name kept, as an option's is
// (argvSecret: NamedSecret, its dots and dashes read as underscores, at
// least MinDerived bytes and no path). A chart auditing a NUT
// host read upsd.users and printed each user's password in its table and
// record (TestNUTPasswordsAreMaskedByForm). Idempotent.
//
//	  password = s3cretpw      password = ***
//	password = "pass word"     password = ***
//	keyfile = /etc/nut/k.pem   as it is (no secret's name)
func SpacedAssignments(t string) string {
	if !strings.Contains(t, "=") {
		return t
	}
	return spacedAssignment.ReplaceAllStringFunc(t, func(m string) string {
		sub := spacedAssignment.FindStringSubmatch(m)
		keep, name, value := sub[1], sub[2], strings.TrimRight(sub[3], " \t")
		if !argvSecret(name, value) {
			return m
		}
		return keep + Masked
	})
}

// nutMonitor is upsmon.conf's MONITOR line (`MONITOR UPS@HOST POWERVALUE
// USER PASSWORD primary`, `secondary`, or before NUT 2.8 `master`,
// `slave`): its groups are what is kept before the password, the
// password (a word, or a quoted text), and what is kept after it.
var nutMonitor = regexp.MustCompile(`(?m)^([ \t]*MONITOR[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+)("[^"\r\n]*"|\S+)([ \t]+(?:primary|secondary|master|slave)\b)`)

// NUTMonitorPasswords is t with the password of every upsmon.conf MONITOR
// line masked, the rest of the line kept: a chart listing the UPSes a
// host watches printed upsmon's login to upsd whole
// (TestNUTPasswordsAreMaskedByForm). Idempotent.
//
//	MONITOR ups@localhost 1 upsmon s3cretmonpw primary   MONITOR ups@localhost 1 upsmon *** primary
func NUTMonitorPasswords(t string) string {
	if !strings.Contains(t, "MONITOR") {
		return t
	}
	return nutMonitor.ReplaceAllString(t, "${1}"+Masked+"${3}")
}
