package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// keaRefusals are the result codes of Kea's control channel (Kea 1.x,
// 2.x; its Control Agent and each server's control socket) that say the
// command was not carried out: 1 an error (the server behind the agent
// is down, an argument it could not read), 2 a command it does not
// support (a misspelt command, a hook library not loaded: lease4-get-all
// without lease_cmds, or no "service" given to the agent), 4 a conflict.
// 0 is the answer, and 3 an answer of none (`0 IPv4 lease(s) found.`).
var keaRefusals = map[int]string{1: "error", 2: "unsupported", 4: "conflict"}

// KeaErrorReply is what Kea answered in place of what a command asks
// ("" when it did not): stdout whole is the control channel's JSON reply
// — one object, as a control socket answers, or a list of them, one for
// each service the Control Agent forwarded the command to — each object
// holding an integer "result" and no member but "result", "text" and
// "arguments", and some object's result is a refusal (keaRefusals). It is
// said as `result 1 (error): TEXT`. The agent answers HTTP 200 whatever
// the server said, so curl -f exits 0, and socat too: with kea-dhcp4
// stopped behind the agent, statistic-get-all got `[{"result": 1, "text":
// "unable to forward command to the dhcp4 service: … The server is likely
// to be offline"}]`, and a pool check reading each statistic with ?? 0
// said every pool had none assigned, OK, Consistent
// (cmd/runbook TestKeaErrorReplyIsNoAnswer).
func KeaErrorReply(stdout string) string {
	b := bytes.TrimSpace([]byte(stdout))
	if len(b) == 0 || !bytes.Contains(b, []byte(`"result"`)) {
		return ""
	}
	var replies []map[string]json.RawMessage
	if b[0] == '{' {
		var one map[string]json.RawMessage
		if json.Unmarshal(b, &one) != nil {
			return ""
		}
		replies = append(replies, one)
	} else if b[0] != '[' || json.Unmarshal(b, &replies) != nil || len(replies) == 0 {
		return ""
	}
	said := ""
	for _, r := range replies {
		code, ok := keaResult(r)
		if !ok {
			return "" // not Kea's reply: a shape of its own
		}
		kind, refused := keaRefusals[code]
		if !refused || said != "" {
			continue
		}
		var text string
		_ = json.Unmarshal(r["text"], &text)
		said = fmt.Sprintf("result %d (%s): %s", code, kind, strings.TrimSpace(text))
	}
	return said
}

// keaResult is a reply object's integer result, false when the object is
// no reply of Kea's control channel (no integer result, or a member
// beside result, text and arguments).
func keaResult(r map[string]json.RawMessage) (int, bool) {
	var code int
	if json.Unmarshal(r["result"], &code) != nil {
		return 0, false
	}
	for k := range r {
		if k != "result" && k != "text" && k != "arguments" {
			return 0, false
		}
	}
	return code, true
}
