package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemMQTTHeardNothing is the kind of the not-checked item filed for an
// exec stage that runs mosquitto_sub or mosquitto_rr (chart.ExecSpec.
// MosquittoSubscriber), exited 27, -W's time run out, under a word the
// chart declared for it, and printed no message: it heard nothing from
// the broker. `mosquitto_sub -t '$SYS/broker/#' -v -W 4` exits 27 on
// every run, so a chart declares it an answer, and over a user whose ACL
// hid every $SYS topic (a subscription the broker refuses in silence
// under MQTT 3.1.1) its rules' `?? 0` read the counts that never came as
// none: `OK 127.0.0.1:18830: ok`, Consistent (TestMQTTHeardNothingIsNoAnswer,
// testdata/wave-mq/mqtt-sys). A chart whose answer is that silence says
// so with the stderr it goes with: {27: {word: silent, stderr: Timed out}}.
const ItemMQTTHeardNothing = "mqtt-heard-nothing"

// MQTTHeardNothingEntry is the ledger's entry for such a stage, filed
// under its path: word is the answer the chart declared for 27.
func MQTTHeardNothingEntry(path string, exit int, word string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, and printed no message: 27 is mosquitto_sub's code for -W's time running out whether it heard messages or none, and it heard none, so nothing the broker holds was read (an ACL that hides the topic from this user, which the broker does in silence; a topic misspelt; $SYS not published, sys_interval 0; a -W shorter than the interval); check the user's ACL and the topic, or, where that silence is the answer, say so: {%d: {word: %s, stderr: Timed out}}",
		exit, word, exit, word), ItemMQTTHeardNothing)
}
