package chart

import "regexp"

// mosquittoSubInShell finds Mosquitto's subscribing clients in a shell:
// script.
var mosquittoSubInShell = regexp.MustCompile(`(?:^|[\s;&|(/])mosquitto_(?:sub|rr)(?:\s|$)`)

// MosquittoTimeoutCode is the code mosquitto_sub and mosquitto_rr exit
// with when -W's time runs out (saying `Timed out` on stderr), whether
// they heard messages before it or none.
const MosquittoTimeoutCode = 27

// MosquittoSubscriber says whether the exec runs mosquitto_sub or
// mosquitto_rr, as its command or in its shell: script: a client that
// prints each message it hears on stdout and, under -W, exits 27 when
// the time runs out, whatever it heard (runbook's mqttHeardNothing,
// record.MQTTHeardNothingEntry).
func (e *ExecSpec) MosquittoSubscriber() bool {
	return e.runs(mosquittoSubInShell, "mosquitto_sub", "mosquitto_rr")
}
