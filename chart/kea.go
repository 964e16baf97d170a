package chart

import "regexp"

// keaClients are the commands a chart asks Kea's control channel with:
// curl and wget to the Control Agent's HTTP API, kea-shell (its own
// client of that API), and the socket clients (socat, nc) to a server's
// control socket.
var keaClients = []string{"curl", "wget", "kea-shell"}

// keaClientInShell is a shell line running one of keaClients.
var keaClientInShell = regexp.MustCompile(`(^|[\s;&|(/])(curl|wget|kea-shell)(\s|$|[;&|)])`)

// KeaClient says whether the exec may print a reply of Kea's control
// channel as its output: it runs curl, wget or kea-shell (keaClients), or
// a socket client (SocketClient). Kea answers HTTP 200 and exits its
// clients 0 whatever became of the command, its refusal inside the JSON
// (record.KeaErrorReply).
func (e *ExecSpec) KeaClient() bool {
	return e.runs(keaClientInShell, keaClients...) || e.SocketClient()
}
