package chart

import (
	"strings"
)

// SSHHostUnchecked is the note for an exec that runs ssh told not to
// check the host's key ("" otherwise): StrictHostKeyChecking no (or off),
// or a known_hosts of /dev/null, which knows no key. ssh then runs the
// command on whatever machine answers at the address (a reinstalled host,
// an address given to another machine), and what it prints is said of the
// host the chart named. A key that changed is said on stderr only, where
// the run reads it (record.HostUnverified); under LogLevel QUIET, or with
// no known_hosts to compare with, it is not said at all, and a fleet check
// said `web1 ok` over another machine's answer. Read in a command: and in
// a shell: script alike, in any case, `=` or a space between.
//
//	[ssh, -o, StrictHostKeyChecking=no, HOST, CMD]               noted
//	[ssh, -o, UserKnownHostsFile=/dev/null, HOST, CMD]           noted
//	[ssh, -o, StrictHostKeyChecking=accept-new, HOST, CMD]       not noted
func (e *ExecSpec) SSHHostUnchecked() string {
	if e == nil {
		return ""
	}
	var text string
	switch {
	case e.Shell != "":
		text = e.Shell
	case e.commandIs("ssh"):
		text = strings.Join(e.Command, " ")
	default:
		return ""
	}
	low := strings.ToLower(text)
	if e.Shell != "" && !strings.Contains(low, "ssh") {
		return ""
	}
	norm := strings.NewReplacer("\"", "", "'", "", " =", "=", "= ", "=").Replace(low)
	unchecked := false
	for _, f := range []string{"stricthostkeychecking=no", "stricthostkeychecking no", "stricthostkeychecking=off", "stricthostkeychecking off",
		"userknownhostsfile=/dev/null", "userknownhostsfile /dev/null"} {
		if strings.Contains(norm, f) {
			unchecked = true
			break
		}
	}
	if !unchecked {
		return ""
	}
	return "ssh here does not check the host's key (StrictHostKeyChecking no, or a known_hosts of /dev/null): it runs the command on whatever machine answers at the address, and what that prints is said of the host the chart names; a changed key is said on stderr only, which the run reads, and not at all under LogLevel QUIET or with no known_hosts to compare; keep a known_hosts and StrictHostKeyChecking yes (accept-new for a first contact), where ssh refuses a host whose key changed with exit 255"
}
