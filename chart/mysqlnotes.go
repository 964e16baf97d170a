package chart

import (
	"regexp"
	"slices"
)

// mysqladminPingInShell finds `mysqladmin … ping` (or MariaDB's
// mariadb-admin) in a shell: script, ping among the words of the same
// command.
var mysqladminPingInShell = regexp.MustCompile(`\b(?:mysqladmin|mariadb-admin)\b[^|;&\n]*\sping\b`)

// MySQLAdminPing says whether the exec runs `mysqladmin … ping`, whose
// exit 0 is said of a server that answered at all: one that refused the
// login or had too many connections as much as one alive. Only its
// stdout's `mysqld is alive` says the server let it in; with --silent
// (a Docker health check's `mysqladmin ping -s`) nothing else is said at
// all (runbook's pingNotAlive, record.PingNotAliveEntry).
func (e *ExecSpec) MySQLAdminPing() bool {
	if e.commandIs("mysqladmin", "mariadb-admin") {
		return slices.Contains(e.Command[1:], "ping")
	}
	return e != nil && e.Shell != "" && mysqladminPingInShell.MatchString(e.Shell)
}
