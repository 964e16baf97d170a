package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHAProxyErrorReplyIsNoAnswer: HAProxy answers a command on its stats
// socket that it cannot carry out with a sentence on the same stream, and
// socat exits 0. `echo "show stat ap 4 -1" | socat stdio UNIX:…` over a
// backend named `app` printed `No such proxy.` (a name is matched whole,
// a prefix of one is none), which csv read as a header with no rows, and
// a chart listing the servers not UP said `OK - no verdict rows`,
// Consistent, exit 0 (testdata/wave-haproxy/servers). `show inf` printed
// `Unknown command, but maybe …` and its help lines, which kv read as
// keys, Consistent. Each is a not-checked item now (kind error-reply):
// UNKNOWN. The table itself, and the same sentence from a command that
// does not talk to a socket, are not.
func TestHAProxyErrorReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	socat := filepath.Join(dir, "socat")
	for _, tc := range []struct {
		name, command, parse, out string
		flagged                   bool
	}{
		{"a backend it does not have", socat, "csv", `No such proxy.\n\n`, true},
		{"show servers state of one it does not have", socat, "columns", `Can't find backend.\n\n`, true},
		{"a command it does not know", socat, "kv", `Unknown command, but maybe one of the following ones is a better match:\n  show info [desc|json|typed|float]*      : report information about the running process\n  quit                                    : disconnect\n\n`, true},
		{"a socket of too low a level", socat, "csv", `Permission denied\n\n`, true},
		{"the table", socat, "csv", `# pxname,svname,status,\napp,app1,UP,\n\n`, false},
		{"the same text from another tool", "/bin/sh", "csv", `No such proxy.\n`, false},
	} {
		if err := writeExec(socat, []byte("#!/bin/sh\nprintf \"$OUT\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		command := `[` + tc.command + `, stdio, "UNIX:/run/haproxy/admin.sock"]`
		if tc.command != socat {
			command = `[` + tc.command + `, -c, 'printf "$OUT"']`
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: servers
result: {kind: verdict/haproxy, decider: Server, empty: answer, nagios: {ok: [], critical: down}}
stages:
  - id: stat
    exec: {command: `+command+`, stdin: '"show stat ap 4 -1\n"', env: {OUT: '`+strings.ReplaceAll(tc.out, "'", "''")+`'}, parse: `+tc.parse+`}
  - id: each
    foreach:
      items: 'type(stat.stdout) == "array" ? filter(stat.stdout, #?.status != "UP") : []'
      as: s
      maxBranches: 10
      stages:
        - id: judge
          name: Server
          decide:
            rules: [{when: 's?.status != "UP"', then: down, label: not UP}]
            default: {branch: down, label: not UP either}
          branches:
            down: [{id: d, verdict: {subject: 'string(s?.svname)', verdict: '"down"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "stat" did not check its output (it printed HAProxy's error reply as its output though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "servers UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}
