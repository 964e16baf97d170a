package chart

import (
	"path/filepath"
	"regexp"
	"slices"
)

// redisCLIs are the command-line clients of Redis and its forks, which
// print a server's error reply on stdout and exit 0 (without -e).
var redisCLIs = []string{"redis-cli", "valkey-cli", "keydb-cli"}

// redisCLIInShell is a shell line running one of redisCLIs.
var redisCLIInShell = regexp.MustCompile(`(^|[\s;&|(/])(redis|valkey|keydb)-cli(\s|$|[;&|)])`)

// RedisCLI says whether the exec runs a Redis client (redisCLIs, in a
// command or a shell: line), whose output may be a server's error reply
// though it exited 0 (runbook's errorReply):
//
//	[redis-cli, -p, "6379", CONFIG, GET, maxmemory]    yes
//	shell: redis-cli INFO replication | tr -d '\r'     yes
//	[redis-server, --version]                          no
func (e *ExecSpec) RedisCLI() bool {
	if e == nil {
		return false
	}
	if len(e.Command) > 0 && slices.Contains(redisCLIs, filepath.Base(e.Command[0])) {
		return true
	}
	return e.Shell != "" && redisCLIInShell.MatchString(e.Shell)
}
