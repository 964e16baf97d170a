package chart

import (
	"regexp"
)

// socketClients are the commands a chart talks to HAProxy's stats socket
// (the Runtime API) with: HAProxy answers a command it cannot carry out
// with a sentence on the same stream, and they exit 0 whatever it says.
var socketClients = []string{"socat", "nc", "ncat", "netcat"}

// socketClientInShell is a shell line running one of socketClients.
var socketClientInShell = regexp.MustCompile(`(^|[\s;&|(/])(socat|nc|ncat|netcat)(\s|$|[;&|)])`)

// SocketClient says whether the exec runs a command that writes to a
// socket and prints its answer (socketClients, in a command or a shell:
// line), whose output may be HAProxy's error reply though it exited 0
// (runbook's errorReply):
//
//	shell: echo 'show stat' | socat stdio UNIX:/run/haproxy/admin.sock   yes
//	[socat, stdio, "UNIX:/run/haproxy/admin.sock"] with stdin:            yes
//	[haproxy, -c, -f, /etc/haproxy/haproxy.cfg]                           no
func (e *ExecSpec) SocketClient() bool { return e.runs(socketClientInShell, socketClients...) }
