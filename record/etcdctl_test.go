package record

import (
	"strings"
	"testing"
)

// TestEtcdctlEndpointUnansweredLinesAreFound: etcdctl 3.4's three lines
// for an endpoint that did not answer (endpoint status, endpoint hashkv,
// endpoint health as text), each after its JSON log line, are found and
// said as an endpoint left out; its log line alone, and the line that
// ends a health -w json run whose stdout lists the endpoint with health
// false, are not.
func TestEtcdctlEndpointUnansweredLinesAreFound(t *testing.T) {
	t.Parallel()
	const logLine = `{"level":"warn","ts":"2026-12-07T19:54:03.463Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \"transport: Error while dialing dial tcp 127.0.0.1:2379: connect: connection refused\""}`
	for _, line := range []string{
		"Failed to get the status of endpoint 127.0.0.1:33820 (context deadline exceeded)",
		"Failed to get the hash of endpoint 127.0.0.1:2379 (context deadline exceeded)",
		"127.0.0.1:33820 is unhealthy: failed to commit proposal: context deadline exceeded",
	} {
		if got := Denied(logLine + "\n" + line + "\nError: context deadline exceeded\n"); got != line {
			t.Errorf("Denied = %q; want %q", got, line)
			continue
		}
		why := DeniedEntry("status", 0, line).NotChecked[0].Why
		if !strings.Contains(why, causeEndpointUnreached) || !strings.Contains(why, "member list") {
			t.Errorf("why = %s; want the endpoint left out and member list", why)
		}
	}
	if got := Denied(logLine + "\nError: unhealthy cluster\n"); got != "" {
		t.Errorf("Denied of health -w json's stderr = %q; want none (its stdout lists the endpoint)", got)
	}
}
