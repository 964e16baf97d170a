package chart

import (
	"regexp"
)

// socketClients are the commands a chart talks to a server's text
// protocol with (HAProxy's stats socket, the Runtime API; ZooKeeper's
// four-letter words; memcached): the server answers a command it cannot
// carry out with a sentence on the same stream, and they exit 0 whatever
// it says.
var socketClients = []string{"socat", "nc", "ncat", "netcat"}

// socketClientInShell is a shell line running one of socketClients, or
// opening a socket with bash's /dev/tcp (exec 3<>/dev/tcp/HOST/PORT),
// which is the same client written in the shell.
var socketClientInShell = regexp.MustCompile(`(^|[\s;&|(/])(socat|nc|ncat|netcat)(\s|$|[;&|)])|/dev/(tcp|udp)/`)

// SocketClient says whether the exec runs a command that writes to a
// socket and prints its answer (socketClients, in a command or a shell:
// line), whose output may be HAProxy's error reply though it exited 0
// (runbook's errorReply):
//
//	shell: echo 'show stat' | socat stdio UNIX:/run/haproxy/admin.sock   yes
//	[socat, stdio, "UNIX:/run/haproxy/admin.sock"] with stdin:            yes
//	exec 3<>/dev/tcp/127.0.0.1/2181; echo mntr >&3; cat <&3           yes
//	[haproxy, -c, -f, /etc/haproxy/haproxy.cfg]                           no
func (e *ExecSpec) SocketClient() bool { return e.runs(socketClientInShell, socketClients...) }

// Sends says whether word stands whole in what the exec writes: its
// shell: line, its command's arguments or its stdin: expression. It is
// how errorReply knows a socket client asked ZooKeeper `isro`, whose
// `null` is the answer of a server serving nothing.
func (e *ExecSpec) Sends(word string) bool {
	if e == nil {
		return false
	}
	whole := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(word) + `($|[^A-Za-z0-9_])`)
	if whole.MatchString(e.Shell) || e.Stdin != nil && whole.MatchString(e.Stdin.Src) {
		return true
	}
	for _, a := range e.Command {
		if whole.MatchString(a) {
			return true
		}
	}
	return false
}
