package record

import "testing"

// TestKeaErrorReplyIsTheRefusal: which of Kea's control channel replies
// (Kea 2.2.0's, captured from kea-ctrl-agent and the kea-dhcp4 control
// socket) are a refusal, and what is said of one; an answer (0) and an
// answer of none (3) are not, nor JSON of another shape.
func TestKeaErrorReplyIsTheRefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ out, want string }{
		{`[ { "result": 1, "text": "unable to forward command to the dhcp4 service: No such file or directory. The server is likely to be offline" } ]`,
			"result 1 (error): unable to forward command to the dhcp4 service: No such file or directory. The server is likely to be offline"},
		{`[ { "result": 2, "text": "'statistic-get-al' command not supported." } ]`, "result 2 (unsupported): 'statistic-get-al' command not supported."},
		{`{ "result": 2, "text": "'lease4-get-all' command not supported." }`, "result 2 (unsupported): 'lease4-get-all' command not supported."},
		{`[ { "result": 0, "arguments": {} }, { "result": 1, "text": "unable to forward command to the dhcp6 service" } ]`, "result 1 (error): unable to forward command to the dhcp6 service"},
		{`[ { "arguments": { "leases": [  ] }, "result": 3, "text": "0 IPv4 lease(s) found." } ]`, ""},
		{`[ { "arguments": {  }, "result": 0 } ]`, ""},
		{`{ "arguments": { "pkt4-received": [ [ 0, "2026-12-08 01:19:59.742547" ] ] }, "result": 0 }`, ""},
		{`{"result": 1, "text": "x", "status": "failed"}`, ""}, // another API's shape
		{`{"result": "1"}`, ""},
		{`[]`, ""},
		{`result 1`, ""},
	} {
		if got := KeaErrorReply(tc.out); got != tc.want {
			t.Errorf("KeaErrorReply(%s) = %q, want %q", tc.out, got, tc.want)
		}
	}
}
