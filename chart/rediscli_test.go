package chart

import "testing"

// TestRedisCLIIsKnown: a run reads a Redis client's error reply on stdout
// as no answer (runbook's errorReply); which execs run one is RedisCLI's.
func TestRedisCLIIsKnown(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"redis-cli", "-p", "6379", "PING"}, want: true},
		{cmd: []string{"/usr/bin/valkey-cli", "INFO"}, want: true},
		{shell: "redis-cli INFO replication | tr -d '\\r'", want: true},
		{shell: "for p in 6379 6380; do /usr/local/bin/redis-cli -p $p PING; done", want: true},
		{cmd: []string{"redis-server", "--version"}, want: false},
		{shell: "cat redis-cli.log", want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).RedisCLI(); got != tc.want {
			t.Errorf("RedisCLI(%q, %q) = %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}
