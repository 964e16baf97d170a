package record

import (
	"strings"
	"testing"
)

// TestRabbitMQNodeUnreachedIsNoAnswer: rabbitmq-diagnostics
// check_local_alarms exits 69 over a memory alarm and over a node it
// could not reach (not running, or refusing the CLI's Erlang cookie),
// and `{0: clear, 69: alarmed}` said a stopped node reported an alarm,
// Consistent. The CLI's own line for no node reached (3.10, real output)
// is Unreached's now, and its entry says why and what would answer; the
// alarm's own stderr is no such line.
func TestRabbitMQNodeUnreachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	down := "Error: unable to perform an operation on node 'nope@localhost'. Please see diagnostics information and suggestions below.\n\nMost common reasons for this are:\n\n * Target node is unreachable (e.g. due to hostname resolution, TCP connection or firewall issues)\n"
	line := Unreached(down)
	if !strings.HasPrefix(line, "Error: unable to perform an operation on node 'nope@localhost'") {
		t.Fatalf("Unreached = %q; want the CLI's line", line)
	}
	if got := Unreached("Error: unable to connect to node rabbit@db1: nodedown\n"); got == "" {
		t.Error("the older CLI's nodedown line is no node reached too")
	}
	if got := Unreached("Error:\nMemory alarm on node mq@localhost\n"); got != "" {
		t.Errorf("the alarm itself was read as no node reached: %q", got)
	}
	e := UnreachedAnswerEntry("per~0/check", 69, "alarmed", line)
	why := e.Declaration.NotChecked[0].Why
	for _, want := range []string{`declares the answer "alarmed"`, "could not reach the RabbitMQ node it asks", "Erlang cookie", "{69: {word: alarmed, stderr: TEXT}}"} {
		if !strings.Contains(why, want) {
			t.Errorf("entry %q does not say %q", why, want)
		}
	}
}
