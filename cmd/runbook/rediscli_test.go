package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRedisErrorReplyIsNoAnswer: redis-cli prints a server's error reply
// on stdout and exits 0. Asked `CONFIG GET maxmemory` by a server that
// wants a password, it printed `NOAUTH Authentication required.`, and a
// chart reading the reply's last line as the limit said `OK 16390:
// limited (value: NOAUTH Authentication required.)`, Consistent, exit 0,
// over a limit nobody read. It is a not-checked item now (kind
// error-reply): UNKNOWN. The reply as a terminal shows it, `(error) …`,
// is one too; a value that begins with another upper-case word, and the
// same text from a command that is no Redis client, are not
// (testdata/wave-redis/maxmemory).
func TestRedisErrorReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli := filepath.Join(dir, "redis-cli")
	for _, tc := range []struct {
		name, command, out string
		flagged            bool
	}{
		{"no password given", cli, `NOAUTH Authentication required.\n`, true},
		{"a wrong password", cli, `WRONGPASS invalid username-password pair or user is disabled.\n`, true},
		{"CONFIG renamed away", cli, `ERR unknown command ''CONFIG'', with args beginning with: ''GET'' ''maxmemory'' \n`, true},
		{"as a terminal shows it", cli, `(error) LOADING Redis is loading the dataset in memory\n`, true},
		{"the limit", cli, `maxmemory\n2097152\n`, false},
		{"the same text from another tool", "/bin/sh", `maxmemory\nERR not a reply\n`, false},
	} {
		if err := writeExec(cli, []byte("#!/bin/sh\nprintf \"$OUT\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		command := `[` + tc.command + `]`
		if tc.command != cli {
			command = `[` + tc.command + `, -c, 'printf "$OUT"']`
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: maxmemory
result: {kind: verdict/maxmemory, decider: Limit, nagios: {ok: limited, critical: unlimited}}
stages:
  - id: cfg
    exec: {command: `+command+`, env: {OUT: '`+tc.out+`'}, parse: lines}
  - id: limit
    name: Limit
    decide:
      rules:
        - {when: 'len(cfg.stdout) >= 2 && cfg.stdout[1] == "0"', then: unlimited, label: no limit}
      default: {branch: limited, label: a limit is set}
    branches:
      unlimited: [{id: u, verdict: {subject: '"16390"', verdict: '"unlimited"'}}]
      limited: [{id: l, verdict: {subject: '"16390"', verdict: '"limited"', value: 'cfg.stdout[len(cfg.stdout)-1]'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "cfg" did not check its output (it printed the server's error reply as its output though it exited 0, so what it printed is the server's refusal, not the value asked for`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "maxmemory UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// TestRedisErrorReplyIsSaidOnce: `redis-cli INFO` under parse: kv over a
// server that wants a password printed NOAUTH, and the check said it
// twice, as a line kv could not read ("no separator") and as the
// server's error reply; the error reply, the more exact cause, says it
// alone now.
func TestRedisErrorReplyIsSaidOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli := filepath.Join(dir, "redis-cli")
	if err := writeExec(cli, []byte("#!/bin/sh\nprintf 'NOAUTH Authentication required.\\n'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "info.yaml", `version: 1
runbook: info
result: {kind: verdict/role, decider: Role, nagios: {ok: primary, critical: other}}
stages:
  - id: info
    exec: {command: [`+cli+`, INFO, replication], parse: kv}
  - id: role
    name: Role
    decide:
      rules:
        - {when: 'info.stdout?.role == "master"', then: primary, label: a primary}
      default: {branch: other, label: not a primary}
    branches:
      primary: [{id: p, verdict: {subject: '"6379"', verdict: '"primary"'}}]
      other: [{id: o, verdict: {subject: '"6379"', verdict: '"other"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if !strings.Contains(r.stdout, "it printed the server's error reply as its output") {
		t.Errorf("the error reply is not said:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout+r.stderr, "no separator") {
		t.Errorf("the error reply is said twice, as a line kv could not read too:\n%s\n%s", r.stdout, r.stderr)
	}
}
