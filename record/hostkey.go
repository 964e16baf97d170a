package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemHostUnverified is the kind of the not-checked item filed for an
// exec stage whose command ended as no failure (exit 0, or a code the
// chart declared an answer) while it said on stderr that the host it
// reached is not the one it knows by its key: what it printed came from a
// machine it could not name, so no row of the host it was given rests on
// it.
//
// OpenSSH with `StrictHostKeyChecking no` (common in fleet scripts, so a
// new host does not stop the loop) connects to a host whose key differs
// from the one its known_hosts holds, prints `WARNING: REMOTE HOST
// IDENTIFICATION HAS CHANGED!` on stderr, disables password logins and
// runs the command with a key: `ssh -o StrictHostKeyChecking=no web1
// 'pgrep -x sshd'` under `exitCodes: {0: running, 1: stopped}` said web1
// running, OK, Consistent, over the answer of whatever machine holds
// web1's address now (a reinstalled host, a reused IP, a man in the
// middle) (TestHostKeyChangedIsNoAnswerOfTheHost,
// testdata/wave-fleet/service). Its `POSSIBLE DNS SPOOFING DETECTED!`
// (the name's key is known under another address) is the same.
const ItemHostUnverified = "host-unverified"

// hostUnverifiedMarks are the lines, in any case, that say so.
var hostUnverifiedMarks = []string{
	"remote host identification has changed",
	"possible dns spoofing detected",
}

// HostUnverified is stderr's first line saying the host reached is not
// the one the command knows by its key (hostUnverifiedMarks), "" when
// none does.
func HostUnverified(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		low := strings.ToLower(l)
		for _, m := range hostUnverifiedMarks {
			if strings.Contains(low, m) {
				return true
			}
		}
		return false
	})
}

// HostUnverifiedEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared for
// it ("" when none), line stderr's first line saying so (masked already).
func HostUnverifiedEntry(path string, exit int, word, line string) coverage.Entry {
	ended := exitedThough(exit, word)
	return answerEntry(path, fmt.Sprintf("it said on stderr that the host it reached is not the one it knows by its key %s, so what it printed came from a machine it could not name and is no answer of the host it was given; stderr's first such line: %q; find why the key changed (a reinstalled host, an address given to another machine), put the right key in known_hosts (ssh-keygen -R HOST, then ssh-keyscan), and leave StrictHostKeyChecking at yes (or accept-new), where ssh refuses such a host with exit 255",
		ended, cutLine(line)), ItemHostUnverified)
}
