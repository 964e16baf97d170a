package record

import (
	"fmt"
	"regexp"
	"strings"

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

// snmpException is a line a Net-SNMP query command (snmpget, snmpwalk,
// …) prints for an agent's exception in place of a value, exit 0: after
// the OID's `= ` (or its blank under -Oq), or the whole line under -Oqv,
// and at the line's end, so a STRING value holding the words (printed
// in its quotes) is read as the value it is:
//
//	noSuchObject    No Such Object available on this agent at this OID
//	noSuchInstance  No Such Instance currently exists at this OID
var snmpException = regexp.MustCompile(`(^|\s)(No Such Object available on this agent at this OID|No Such Instance currently exists at this OID)\r?$`)

// snmpEndOfMIB is the line a walk prints past the agent's last object
// (v2c's endOfMibView; v1's walk prints `End of MIB` alone). After the
// rows of a walk of the last subtree a view shows it is the walk's end,
// not a value missing: it is an exception only where the output holds
// nothing else (a getnext past the end, a walk of nothing there).
var snmpEndOfMIB = regexp.MustCompile(`(^|\s)No more variables left in this MIB View \(It is past the end of the MIB tree\)\r?$|^End of MIB\r?$`)

// SNMPException is stdout's first line that is an SNMP agent's exception
// (snmpException), or its end-of-MIB line where every line it printed is
// one (snmpEndOfMIB); "" when none is.
func SNMPException(stdout string) string {
	if line := firstLine(stdout, snmpException.MatchString); line != "" {
		return line
	}
	end := firstLine(stdout, snmpEndOfMIB.MatchString)
	if end == "" || firstLine(stdout, func(l string) bool { return strings.TrimSpace(l) != "" && !snmpEndOfMIB.MatchString(l) }) != "" {
		return ""
	}
	return end
}

// haproxyErrorReply is a line HAProxy's stats socket (the Runtime API)
// prints in place of an answer (haproxy 2.6), which socat and nc print
// and exit 0 over; each at the line's start, where no line of `show
// stat`'s CSV, `show info` or `show servers state` begins so:
//
//	No such proxy.        show stat NAME … of a proxy it does not have (names match whole)
//	Can't find backend.   show servers state NAME, the same
//	No such backend. / No such server. / Require 'backend/server'.
//	Unknown command…      a command it does not know, then its help lines
//	Permission denied     a command the socket's level does not allow
var haproxyErrorReply = regexp.MustCompile(`^(No such (proxy|backend|frontend|server|table|session)\b|Can't find backend\.|Require 'backend/server'\.|Unknown command\b|Permission denied!?\r?$|Invalid statistics domain\.)`)

// HAProxyErrorReply is stdout's first line that is HAProxy's error reply
// (haproxyErrorReply), "" when none is.
func HAProxyErrorReply(stdout string) string {
	return firstLine(stdout, haproxyErrorReply.MatchString)
}

// zookeeperErrorReply is a line ZooKeeper (3.5 to 3.9) answers a
// four-letter word with in place of what it asks, on the client port,
// which nc, socat and bash's /dev/tcp print and exit 0 over; each the
// whole line, where no line of mntr, srvr, stat, cons, conf or envi is:
//
//	mntr is not executed because it is not in the whitelist.   4lw.commands.whitelist leaves it out (3.5's default lists srvr alone)
//	This ZooKeeper instance is not currently serving requests  up but in no quorum: an election, a lost majority
//
// `cons` read as lines counted the sentence as one client, and a chart
// of connections said ok, Consistent, of a server that answered nothing.
var zookeeperErrorReply = regexp.MustCompile(`^([a-z]{4} is not executed because it is not in the whitelist\.|This ZooKeeper instance is not currently serving requests)\r?$`)

// ZooKeeperErrorReply is stdout's first line that is ZooKeeper's refusal
// of a four-letter word (zookeeperErrorReply), "" when none is. asksIsro
// says the client sent `isro`, which a server serving no requests
// answers with `null` alone (no line end), neither `ro` nor `rw`: a
// rule `== "ro"` read it as read-write.
func ZooKeeperErrorReply(stdout string, asksIsro bool) string {
	if asksIsro && strings.TrimSpace(stdout) == "null" {
		return "null"
	}
	return firstLine(stdout, zookeeperErrorReply.MatchString)
}

// memcachedErrorReply is a line memcached's text protocol answers a
// command it cannot carry out with, in place of its STAT lines and END,
// which nc, socat and /dev/tcp print and exit 0 over:
//
//	ERROR                 a command it does not know (stast, stats nosuch)
//	ERROR Too many open connections   at its connection limit (-c), before it closes the connection (1.6)
//	CLIENT_ERROR message  a command it could not read (a bad argument, a line too long)
//	SERVER_ERROR message  it could not carry it out (out of memory)
var memcachedErrorReply = regexp.MustCompile(`^(ERROR|(CLIENT|SERVER)_ERROR)( .*)?\r?$`)

// MemcachedErrorReply is stdout's first line that is memcached's error
// reply (memcachedErrorReply), "" when none is.
func MemcachedErrorReply(stdout string) string {
	return firstLine(stdout, memcachedErrorReply.MatchString)
}

// nutErrorReply is a line upsd (Network UPS Tools 2.7, 2.8) answers a
// command of its network protocol with in place of what it asks, which
// nc, socat and /dev/tcp print and exit 0 over (upsc exits 1 over each):
// `ERR`, one of upsd's codes, then the line's end or words after a space;
// each at the line's start, where its answers begin `VAR`, `BEGIN LIST`,
// `END LIST` or `OK`:
//
//	ERR DATA-STALE, ERR DRIVER-NOT-CONNECTED   the UPS's driver is not answering upsd
//	ERR UNKNOWN-UPS                            a UPS name upsd does not have (misspelt)
//	ERR VAR-NOT-SUPPORTED, ERR CMD-NOT-SUPPORTED  a variable or command this UPS has not
//	ERR ACCESS-DENIED, ERR USERNAME-REQUIRED, …   a command the login may not give
//
// `GET VAR rack2 ups.status` read as lines, its flags looked for OB and
// LB, said a UPS whose driver had gone stale was on line, OK.
var nutErrorReply = regexp.MustCompile(`^ERR (ACCESS-DENIED|UNKNOWN-UPS|VAR-NOT-SUPPORTED|CMD-NOT-SUPPORTED|INVALID-ARGUMENT|INSTCMD-FAILED|SET-FAILED|READONLY|TOO-LONG|FEATURE-NOT-SUPPORTED|FEATURE-NOT-CONFIGURED|ALREADY-SSL-MODE|DRIVER-NOT-CONNECTED|DATA-STALE|ALREADY-LOGGED-IN|INVALID-PASSWORD|ALREADY-SET-PASSWORD|INVALID-USERNAME|ALREADY-SET-USERNAME|USERNAME-REQUIRED|PASSWORD-REQUIRED|UNKNOWN-COMMAND|INVALID-VALUE|UNKNOWN|FAILED)( .*)?\r?$`)

// NUTErrorReply is stdout's first line that is upsd's error reply
// (nutErrorReply), "" when none is.
func NUTErrorReply(stdout string) string {
	return firstLine(stdout, nutErrorReply.MatchString)
}

// openvpnBanner begins the line OpenVPN's management interface greets a
// client with (`>INFO:OpenVPN Management Interface Version 5 -- type
// 'help' for more info`), and openvpnPrompt is its password prompt, which
// it writes with no line end, again for each line it refuses.
const (
	openvpnBanner = ">INFO:OpenVPN Management Interface"
	openvpnPrompt = "ENTER PASSWORD:"
	openvpnPassed = "SUCCESS: password is correct"
)

// OpenVPNManagementReply is stdout's line that is OpenVPN's management
// interface (2.4 to 2.6) answering a command with no answer of it, which
// nc, socat and /dev/tcp print and exit 0 over; "" when none is, or the
// output is not the interface's (no banner, no prompt):
//
//	ENTER PASSWORD:ENTER PASSWORD:     a password asked (a management directive's file), none or a wrong one given
//	ERROR: unknown command, enter …    a command it does not know, or refused
//	>INFO:OpenVPN Management … alone   the banner with nothing after it but notifications (>LOG:, >HOLD:, …):
//	                                   the command was never answered (printf 'status 3\nquit\n' | nc sends
//	                                   it with quit, and the interface dropped it as the client closed)
//
// `status 3` read as lines, its CLIENT_LIST lines looked for the clients
// expected, said every one `not-connected`, Consistent, over each.
func OpenVPNManagementReply(stdout string) string {
	lead := strings.TrimLeft(stdout, " \r\n")
	asked := strings.HasPrefix(lead, openvpnPrompt)
	if !asked && !strings.Contains(stdout, openvpnBanner) {
		return ""
	}
	if asked && !strings.Contains(stdout, openvpnPassed) {
		return firstLine(lead, func(string) bool { return true })
	}
	if line := firstLine(stdout, func(l string) bool { return strings.HasPrefix(l, "ERROR: ") }); line != "" {
		return line
	}
	answered := firstLine(stdout, func(l string) bool {
		l = strings.TrimSpace(strings.ReplaceAll(l, openvpnPrompt, ""))
		return l != "" && !strings.HasPrefix(l, ">") && !strings.HasPrefix(l, openvpnPassed)
	})
	if answered != "" {
		return ""
	}
	return firstLine(stdout, func(l string) bool { return strings.Contains(l, openvpnBanner) })
}

// Whose error reply an ErrorReplyEntry says: the server's (Redis), the
// SNMP agent's exception, HAProxy's stats socket's, or an SNMP walk's
// blank output (SNMPv1's walk
// of an OID the agent has nothing under prints nothing and exits 0).
const (
	ReplyRedis       = "redis"
	ReplySNMP        = "snmp"
	ReplySNMPNothing = "snmp-nothing"
	ReplyHAProxy     = "haproxy"
	ReplyZooKeeper   = "zookeeper"
	ReplyMemcached   = "memcached"
	ReplyNUT         = "nut"
	ReplyOpenVPN     = "openvpn"
	// ReplySocketNothing: a socket client (nc, socat, /dev/tcp) whose
	// server closed the connection having said nothing.
	ReplySocketNothing = "socket-nothing"
	// ReplyFastCGI: cgi-fcgi, over php-fpm's word that it served no
	// script (FastCGIErrorReply).
	ReplyFastCGI = "fastcgi"
	// ReplyMemcstatNothing: memcstat, that printed nothing under exit 0.
	ReplyMemcstatNothing = "memcstat-nothing"
	// ReplyKea: Kea's control channel's refusal (KeaErrorReply), which
	// curl, kea-shell and socat print and exit 0 over.
	ReplyKea = "kea"
)

// ErrorReplyEntry is the ledger's entry for such a stage, filed under its
// path: whose is ReplyRedis, ReplySNMP, ReplyHAProxy, ReplyZooKeeper,
// ReplyMemcached, ReplyNUT, ReplyOpenVPN, ReplyFastCGI, ReplyKea, ReplySNMPNothing,
// ReplySocketNothing or ReplyMemcstatNothing (line ""), exit the exit
// code, line the output's first error reply (masked already;
// RedisErrorReply, SNMPException, HAProxyErrorReply, ZooKeeperErrorReply,
// MemcachedErrorReply, NUTErrorReply, OpenVPNManagementReply,
// FastCGIErrorReply, which is a line of stderr; KeaErrorReply).
func ErrorReplyEntry(path, whose string, exit int, line string) coverage.Entry {
	why := fmt.Sprintf("it printed the server's error reply as its output though it exited %d, so what it printed is the server's refusal, not the value asked for, and a rule over it judges no value the server holds; its first such line: %q; give it what the server asks (a password in REDISCLI_AUTH, through envFrom:), or add -e, which makes redis-cli exit 1 on an error reply", exit, cutLine(line))
	switch whose {
	case ReplySNMPNothing:
		why = fmt.Sprintf("it walked nothing: it printed no object though it exited %d, as an SNMPv1 walk does under an OID the agent has no object under, or none the community's view shows (SNMPv2c's prints No Such Object), so an empty list from it is no answer of none; ask for an OID the agent has, or walk with -v2c, which says so", exit)
	case ReplyHAProxy:
		why = fmt.Sprintf("it printed HAProxy's error reply as its output though it exited %d, as socat and nc do whatever the stats socket answers, so what it printed is HAProxy's refusal, not the table or values asked for, and a rule over it judges no server or proxy; its first such line: %q; name a proxy or backend HAProxy has (names match whole: a prefix of one is none; show stat lists them), spell the command as help lists it, and give the socket the level the command needs (stats socket … level admin)", exit, cutLine(line))
	case ReplySocketNothing:
		why = fmt.Sprintf("it printed nothing though it exited %d: the server closed the connection without a word, as ZooKeeper does over a four-letter word it does not know (a typo: cnos for cons, mtnr for mntr), or a filter after the client (sed, awk) kept none of what it said, and nc, socat and /dev/tcp exit 0 whatever the server said, so an empty value from it is no answer of none; spell the command as the server knows it, give nc time to read the answer (nc -q 0 may quit before it comes: -q 2 -w 3), and parse the server's reply whole (a filter in a rule, not in the script, sees what it said)", exit)
	case ReplyFastCGI:
		why = fmt.Sprintf("it printed php-fpm's refusal though it exited %d, as cgi-fcgi exits 0 whatever php-fpm answers, so what it printed is php-fpm's own page, not the status, ping or script asked for; it said %q: %s", exit, cutLine(line), fastCGIHint(line))
	case ReplyMemcstatNothing:
		why = fmt.Sprintf("it printed nothing though memcstat exited %d: memcstat prints Server: HOST (PORT) before any server's stats, and prints nothing, exit 0 or 1 as it happens, over a server that closed the connection at once, as memcached does at its connection limit (-c; its rejected_connections counts them), so an empty value from it is no answer of none; ask again, or ask with printf 'stats\\r\\nquit\\r\\n' | nc, which prints the server's ERROR Too many open connections", exit)
	case ReplyMemcached:
		why = fmt.Sprintf("it printed memcached's error reply as its output though it exited %d, as nc, socat and /dev/tcp do whatever the server answers, so what it printed is memcached's refusal, not the stats asked for, and a rule over it judges nothing the server holds; its first such line: %q; spell the command as memcached knows it (stats, stats slabs, stats items, stats settings)", exit, cutLine(line))
	case ReplyKea:
		why = fmt.Sprintf("it printed Kea's error reply as its output though it exited %d, as curl (-f too: the Control Agent answers HTTP 200), kea-shell and socat do whatever Kea's control channel answers, so what it printed is Kea's refusal, not the statistics, leases or config asked for, and a rule over it (or a ?? default over what it lacks) judges nothing the server holds; it said %q; result 1 with \"unable to forward command to the dhcp4 service\" is a Control Agent whose DHCP server behind it is down (or its control socket another path), result 2 a command misspelt, one a hook library not loaded provides (lease4-get-all needs libdhcp_lease_cmds), or a command sent to the agent with no \"service\": [\"dhcp4\"]; judge the reply's result first (0 the answer, 3 an answer of none)", exit, cutLine(line))
	case ReplyNUT:
		why = fmt.Sprintf("it printed upsd's error reply as its output though it exited %d, as nc, socat and /dev/tcp do whatever Network UPS Tools' server answers, so what it printed is upsd's refusal, not the variable asked for, and a rule over it judges nothing of the UPS; its first such line: %q; ERR DATA-STALE and ERR DRIVER-NOT-CONNECTED say the UPS's driver is not answering upsd (its state is unknown: upsc exits 1 over them), ERR UNKNOWN-UPS names a UPS upsd does not have (LIST UPS lists them), ERR VAR-NOT-SUPPORTED a variable this UPS does not report", exit, cutLine(line))
	case ReplyOpenVPN:
		why = fmt.Sprintf("it printed OpenVPN's management interface reply as its output though it exited %d, as nc, socat and /dev/tcp do whatever the interface answers, so what it printed is no answer of the command sent, and a rule over it judges no client or state of the server; its first such line: %q; ENTER PASSWORD: asks the password of the management directive's file (send it as the first line, from a secret input through envFrom:, never on the command line), ERROR: names a command the interface does not know or refused (help lists them), and its >INFO: banner alone is a command never answered: the interface drops a command sent with quit as the client closes (printf 'status 3\\nquit\\n' | nc), so wait for the answer before quit: { printf 'status 3\\n'; sleep 1; printf 'quit\\n'; } | nc -q 2 HOST PORT", exit, cutLine(line))
	case ReplyZooKeeper:
		why = fmt.Sprintf("it printed ZooKeeper's refusal of a four-letter word as its output though it exited %d, as nc, socat and /dev/tcp do whatever the server answers, so what it printed is no answer of the word asked, and a rule over it judges nothing the server holds; its first such line: %q; a word left out of 4lw.commands.whitelist is refused (add it there, or ask the AdminServer: curl http://HOST:8080/commands/NAME), and a server in no quorum (an election, a lost majority) serves no request (isro answers null): that server is not serving, which ruok's imok does not tell", exit, cutLine(line))
	case ReplySNMP:
		why = fmt.Sprintf("it printed the SNMP agent's exception in place of a value though it exited %d: the agent holds no such object or instance (a wrong OID or index, an interface or disk it does not have, a view that hides it) or a walk ran past the end of its MIB, so a rule over that line judges no value the agent holds; its first such line: %q; ask for an OID the agent has (snmpwalk its table to list the indexes), or read only lines of the form OID = TYPE: VALUE", exit, cutLine(line))
	}
	return outputEntry(path, why, ItemErrorReply)
}

// fastCGIErrorReply is a line php-fpm (7.x, 8.x) sends on the FastCGI
// stderr stream when it served no script for the request, which cgi-fcgi
// prints on its stderr and exits 0 over, the body being fpm's own page
// (`File not found.`, `Access denied.`) or nothing:
//
//	Primary script unknown                        404: no file at SCRIPT_FILENAME, and the path is no pm.status_path or ping.path of the pool
//	Access to the script '…' has been denied …    403: security.limit_extensions refuses its extension
//	…; Unable to open primary script: … (…)       403: the pool's user may not read it
//	PHP message: PHP Fatal error:  …              500: the script died (a function it calls is not there: opcache not loaded)
//	PHP message: PHP Parse error:  …              500: the script does not parse
//
// A warning of a script that ran on (`PHP message: PHP Warning:  …`) is
// none: its page was served. Where display_errors is On (php.ini's
// development default, and php-fpm -n's), PHP writes a fatal error into
// the page instead, after headers the script already sent, so the status
// is 200 and nothing reaches stderr; fastCGIErrorInPage is that line.
var fastCGIErrorReply = regexp.MustCompile(`(^|; )(Primary script unknown|Access to the script '.*' has been denied \(see security\.limit_extensions\)|Unable to open primary script: )|^PHP message: PHP (Fatal|Parse) error: `)

// fastCGIHint is what a FastCGIErrorReply line says of the check.
func fastCGIHint(line string) string {
	switch {
	case strings.Contains(line, "Primary script unknown"):
		return "the pool serves nothing at that path: its pm.status_path or ping.path is unset or another (php-fpm -tt lists them), or no script is at SCRIPT_FILENAME"
	case strings.Contains(line, "Access to the script"):
		return "security.limit_extensions refuses a script of that name (a status page is asked at its pm.status_path, not as a file)"
	case strings.Contains(line, "Unable to open primary script"):
		return "the pool's user may not read the script"
	}
	return "the script died (a fatal error written into the page, where display_errors is On, comes with status 200); opcache_get_status() undefined is a pool with no opcache loaded"
}

// fastCGIErrorInPage is a fatal or parse error PHP wrote into the page,
// at a line's start, under html_errors On (`<b>Fatal error</b>:  …`,
// the line after a `<br />`) or Off (`Fatal error: …`, `PHP Fatal
// error:  …`).
var fastCGIErrorInPage = regexp.MustCompile(`^(<b>(Fatal|Parse) error</b>: |(PHP )?(Fatal|Parse) error: )`)

// FastCGIErrorReply is the first line of what cgi-fcgi wrote on stderr
// that is php-fpm's word that it served no script (fastCGIErrorReply),
// else the first line of its stdout that is a fatal error PHP wrote into
// the page (fastCGIErrorInPage); "" when none is.
func FastCGIErrorReply(stdout, stderr string) string {
	if line := firstLine(stderr, fastCGIErrorReply.MatchString); line != "" {
		return line
	}
	return firstLine(stdout, fastCGIErrorInPage.MatchString)
}
