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

// TestRedisPasswordInArgvIsNoted: a chart gave redis-cli its password by
// -a "${password}" (with --no-auth-warning, which hides redis-cli's own
// warning), and the password stood in argv, where ps shows it, and 5
// times in the record; runbook plan notes it, and a run warns of it once.
func TestRedisPasswordInArgvIsNoted(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"redis-cli", "-p", "6379", "-a", "${password}", "--no-auth-warning", "PING"}, want: true},
		{cmd: []string{"redis-cli", "--user", "ops", "--pass", "${pw}", "INFO"}, want: true},
		{cmd: []string{"redis-cli", "-u", "redis://ops:${pw}@db1:6379", "INFO"}, want: true},
		{shell: "redis-cli -h db1 -a \"$PW\" INFO replication", want: true},
		{shell: "redis-cli -u redis://:hunter2@db1:6379/0 PING", want: true},
		{cmd: []string{"redis-cli", "-u", "redis://db1:6379", "INFO"}, want: false},
		{cmd: []string{"redis-cli", "-p", "6379", "PING"}, want: false},
		{shell: "redis-cli --scan --pattern 'a:*' | wc -l", want: false},
		{cmd: []string{"grep", "-a", "x"}, want: false},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell}
		if got := e.RedisPasswordInArgv() != ""; got != tc.want {
			t.Errorf("RedisPasswordInArgv(%q, %q) noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
		if got := len(e.RunWarnings()) > 0; got != tc.want {
			t.Errorf("RunWarnings(%q, %q) = %q, want a note %v", tc.cmd, tc.shell, e.RunWarnings(), tc.want)
		}
	}
}
