package chart

import (
	"regexp"
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
func (e *ExecSpec) RedisCLI() bool { return e.runs(redisCLIInShell, redisCLIs...) }

// redisPasswordInShell is a shell line giving a Redis client a password
// in its argv: -a PW, --pass PW, or a -u URL that holds one
// (redis://user:PW@host).
var redisPasswordInShell = regexp.MustCompile(`(^|[\s;&|(/])(redis|valkey|keydb)-cli\s([^|;&\n]*\s)?((-a|--pass)(\s|$)|-u\s+\S*://[^\s@/]*:[^\s@/]+@)`)

// RedisPasswordInArgv is the note for an exec that gives a Redis client
// its password in argv ("" otherwise): -a PW, --pass PW, or -u with a URL
// that holds one. argv is what ps shows every user of the host, and the
// record keeps it as the run rendered it (a template may read only an
// input that is not secret: true, whose value nothing masks); redis-cli
// reads REDISCLI_AUTH, which no argv shows and whose value a run masks.
//
//	[redis-cli, -a, "${password}", PING]                noted
//	shell: redis-cli -u redis://:${pw}@db1:6379 INFO    noted
//	[redis-cli, PING] with envFrom: {REDISCLI_AUTH: pw} not noted
func (e *ExecSpec) RedisPasswordInArgv() string {
	if e == nil {
		return ""
	}
	given := false
	if e.commandIs(redisCLIs...) {
		for i, a := range e.Command[1:] {
			if a == "-a" || a == "--pass" {
				given = true
			}
			if a == "-u" && i+2 < len(e.Command) && urlPassword.MatchString(e.Command[i+2]) {
				given = true
			}
		}
	}
	if !given && (e.Shell == "" || !redisPasswordInShell.MatchString(e.Shell)) {
		return ""
	}
	return "it gives redis-cli the password in its argv (-a, --pass, or a -u URL that holds one), where ps shows it to every user of the host and the record keeps it as the run rendered it (--no-auth-warning only hides redis-cli's own warning of this); give it as envFrom: {REDISCLI_AUTH: password} from a secret: true input: redis-cli reads it there, and the run masks it"
}

// urlPassword is a URL whose userinfo holds a password (scheme://user:PW@).
var urlPassword = regexp.MustCompile(`^\S*://[^\s@/]*:[^\s@/]+@`)
