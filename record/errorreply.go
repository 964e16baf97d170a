package record

import (
	"fmt"
	"regexp"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemErrorReply is the kind of the not-checked item filed for an exec
// stage whose client printed a server's error reply as its output and
// exited as no failure. redis-cli prints an error reply on stdout and
// exits 0 (only -e makes it exit 1): asked `CONFIG GET maxmemory` by a
// server that wants a password, it prints `NOAUTH Authentication
// required.`, and a chart reading the last line as the limit said
// `limited (value: NOAUTH Authentication required.)`, OK, Consistent,
// over a limit nobody read (TestRedisErrorReplyIsNoAnswer). What it
// printed is the server's refusal, not the value asked for.
const ItemErrorReply = "error-reply"

// redisErrorReply is a line redis-cli prints for a server's error reply:
// the reply's code at the line's start (behind `(error) ` where the
// output is a terminal's or --no-raw asks for it), then a space or the
// line's end. Only Redis's own codes, so a value that begins with
// another upper-case word is read as the value it is:
//
//	ERR, WRONGTYPE, NOAUTH, WRONGPASS, NOPERM       the command was refused
//	LOADING, BUSY, MASTERDOWN, MISCONF, READONLY, … the server could not answer
//	MOVED, ASK, CROSSSLOT, CLUSTERDOWN, TRYAGAIN    a cluster's node sent it elsewhere
var redisErrorReply = regexp.MustCompile(`^(\(error\) )?(ERR|WRONGTYPE|NOAUTH|WRONGPASS|NOPERM|LOADING|BUSY|BUSYKEY|BUSYGROUP|MASTERDOWN|MISCONF|READONLY|OOM|EXECABORT|NOSCRIPT|NOREPLICAS|NOTBUSY|UNKILLABLE|NOPROTO|NOMASTERLINK|CROSSSLOT|CLUSTERDOWN|TRYAGAIN|MOVED|ASK|UNBLOCKED|NOGOODSLAVE|DENIED)( |\r?$)`)

// RedisErrorReply is stdout's first line that is a Redis error reply
// (redisErrorReply), "" when none is.
func RedisErrorReply(stdout string) string {
	return firstLine(stdout, redisErrorReply.MatchString)
}

// ErrorReplyEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, line the output's first error reply
// (masked already; RedisErrorReply).
func ErrorReplyEntry(path string, exit int, line string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its output",
			Why:  fmt.Sprintf("it printed the server's error reply as its output though it exited %d, so what it printed is the server's refusal, not the value asked for, and a rule over it judges no value the server holds; its first such line: %q; give it what the server asks (a password in REDISCLI_AUTH, through envFrom:), or add -e, which makes redis-cli exit 1 on an error reply", exit, cutLine(line)),
			Kind: ItemErrorReply,
		}},
	}}
}
