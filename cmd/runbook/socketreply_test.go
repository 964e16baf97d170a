package main

import (
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestZooKeeperFourLetterRefusalIsNoAnswer: ZooKeeper answers a
// four-letter word it will not carry out with a sentence on the client
// port, and nc, socat and bash's /dev/tcp print it and exit 0.
// `echo cons | nc -q 2 127.0.0.1 2181` over a server whose
// 4lw.commands.whitelist leaves cons out (3.8's default lists srvr
// alone) printed `cons is not executed because it is not in the
// whitelist.`, which parse: lines counted as one client connection, and
// a chart of connections said `OK 127.0.0.1:22182: ok (connections: 1)`,
// Consistent; a server in no quorum printed `This ZooKeeper instance is
// not currently serving requests`, read alike; and its `isro` answered
// `null`, which a rule `== "ro"` read as read-write, OK
// (testdata/wave-zk). Each is a not-checked item now (kind error-reply):
// UNKNOWN. A real answer, and the same sentence from a command that does
// not talk to a socket, are not.
func TestZooKeeperFourLetterRefusalIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := echoClient(t, dir)
	// A server for /dev/tcp: it reads the word, answers OUT, closes.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	answers := make(chan string, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			out := <-answers
			buf := make([]byte, 4)
			_, _ = c.Read(buf)
			_, _ = c.Write([]byte(out))
			_ = c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		name, word, via, out string
		flagged              bool
	}{
		{"a word left out of the whitelist", "cons", "nc", `cons is not executed because it is not in the whitelist.\n`, true},
		{"a server in no quorum", "cons", "nc", `This ZooKeeper instance is not currently serving requests\n`, true},
		{"isro of a server in no quorum", "isro", "nc", `null`, true},
		{"over dev tcp", "cons", "tcp", "cons is not executed because it is not in the whitelist.\n", true},
		{"isro over dev tcp", "isro", "tcp", "null", true},
		{"the connections", "cons", "nc", ` /127.0.0.1:40380[0](queued=0,recved=1,sent=0)\n\n`, false},
		{"isro's answer", "isro", "tcp", "rw", false},
		{"null from another word", "cons", "nc", `null`, false},
		{"the same text from another tool", "cons", "sh", `This ZooKeeper instance is not currently serving requests\n`, false},
	} {
		shell := "echo " + tc.word + " | " + nc + " -q 2 127.0.0.1 2181"
		switch tc.via {
		case "tcp":
			shell = `exec 3<>/dev/tcp/127.0.0.1/` + port + `; printf ` + tc.word + ` >&3; cat <&3`
			answers <- tc.out
		case "sh":
			shell = `printf "$OUT"`
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: zk
result: {kind: verdict/zk, decider: Judge, nagios: {ok: ok, critical: bad}}
stages:
  - id: fourlw
    exec: {shell: '`+shell+`', env: {OUT: '`+tc.out+`'}, parse: lines}
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'fourlw.stdout == ["ro"] || len(fourlw.stdout) > 50', then: bad, label: read-only or busy}]
      default: {branch: ok, label: neither}
    branches:
      bad: [{id: b, verdict: {subject: '"zk"', verdict: '"bad"'}}]
      ok: [{id: o, verdict: {subject: '"zk"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "fourlw" did not check its output (it printed ZooKeeper's refusal of a four-letter word as its output though it exited 0`
		flaggedSays(t, tc.name, r, tc.flagged, "zk UNKNOWN", said)
	}
}

// TestSocketClientThatPrintedNothingIsNoAnswer: ZooKeeper closes the
// connection without a word over a four-letter word it does not know,
// and nc and socat exit 0: `echo cnos | nc -q 2 127.0.0.1 2181`, a typo
// of cons, printed nothing, parse: lines made an empty list, and a chart
// of connections said `OK … ok (connections: 0)`, Consistent. A socket
// client whose stdout is read as data and that printed nothing under
// exit 0 is a not-checked item now (error-reply): UNKNOWN. One whose
// stdout nobody reads (an action, a port probe) is not, nor one that
// printed an answer.
func TestSocketClientThatPrintedNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := echoClient(t, dir)
	for _, tc := range []struct {
		name, parse, out string
		flagged          bool
	}{
		{"a typo of cons read as lines", "parse: lines", ``, true},
		{"a typo of mntr read as kv", `parse: {as: kv, sep: "\t"}`, ``, true},
		{"a blank line read as text", "parse: text", `\n`, true},
		{"nothing nobody reads", "", ``, false},
		{"an answer", "parse: lines", ` /127.0.0.1:40380[0](queued=0,recved=1,sent=0)\n\n`, false},
	} {
		parse := ""
		if tc.parse != "" {
			parse = ", " + tc.parse
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: zk
result: {kind: verdict/zk, decider: Judge, nagios: {ok: ok}}
stages:
  - id: fourlw
    exec: {shell: 'echo cnos | `+nc+` -q 2 127.0.0.1 2181', env: {OUT: '`+tc.out+`'}`+parse+`}
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'fourlw.exitCode > 5', then: ok, label: odd}]
      default: {branch: ok, label: fine}
    branches:
      ok: [{id: o, verdict: {subject: '"zk"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "fourlw" did not check its output (it printed nothing though it exited 0: the server closed the connection without a word`
		flaggedSays(t, tc.name, r, tc.flagged, "zk UNKNOWN", said)
	}
}

// TestMemcachedErrorReplyIsNoAnswer: memcached answers a command it does
// not know with `ERROR` (a bad argument with `CLIENT_ERROR …`), and nc
// exits 0. `printf 'stats nosuch\r\n' | nc …` read as lines, its STAT
// lines counted, said ok, Consistent, over a server that listed nothing.
// It is a not-checked item now (error-reply): UNKNOWN. Its stats are not.
func TestMemcachedErrorReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := echoClient(t, dir)
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"a command it does not know", `ERROR\r\n`, true},
		{"an argument it cannot read", `CLIENT_ERROR bad command line format\r\n`, true},
		{"its stats", `STAT pid 4673\r\nSTAT evictions 0\r\nEND\r\n`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: mc
result: {kind: verdict/mc, decider: Judge, nagios: {ok: ok, warning: evicting}}
stages:
  - id: stats
    exec: {shell: 'printf "stats nosuch\r\nquit\r\n" | `+nc+` -N -w 3 127.0.0.1 11211', env: {OUT: '`+tc.out+`'}, parse: lines}
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'any(stats.stdout, # startsWith "STAT evictions " && # != "STAT evictions 0")', then: evicting, label: evicted}]
      default: {branch: ok, label: none evicted}
    branches:
      evicting: [{id: e, verdict: {subject: '"mc"', verdict: '"evicting"'}}]
      ok: [{id: o, verdict: {subject: '"mc"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "stats" did not check its output (it printed memcached's error reply as its output though it exited 0`
		flaggedSays(t, tc.name, r, tc.flagged, "mc UNKNOWN", said)
	}
}

// echoClient writes a stand-in for nc in dir: it reads what it is sent
// and prints $OUT, as a server's answer over the socket.
func echoClient(t *testing.T, dir string) string {
	t.Helper()
	nc := filepath.Join(dir, "nc")
	if err := writeExec(nc, []byte("#!/bin/sh\ncat >/dev/null\nprintf \"$OUT\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return nc
}

// flaggedSays checks a --format nagios run r of the case named name: when
// flagged, exit 3 with status first, saying said; otherwise exit 0 and
// nothing left unchecked.
func flaggedSays(t *testing.T, name string, r result, flagged bool, status, said string) {
	t.Helper()
	if !flagged {
		if r.code != 0 || strings.Contains(r.stdout, "did not check") {
			t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s%s", name, r.code, r.stdout, r.stderr)
		}
		return
	}
	if r.code != 3 || !strings.HasPrefix(r.stdout, status) || !strings.Contains(r.stdout, said) {
		t.Errorf("%s: exit %d; want 3, %s, saying %s:\n%s%s", name, r.code, status, said, r.stdout, r.stderr)
	}
}

// TestNUTErrorReplyIsNoAnswer: upsd answers a GET VAR it cannot answer
// with `ERR DATA-STALE` (the UPS's driver stopped updating), `ERR
// DRIVER-NOT-CONNECTED`, `ERR UNKNOWN-UPS` (a name misspelt) or `ERR
// VAR-NOT-SUPPORTED`, and nc exits 0. `printf 'GET VAR rack2
// ups.status\nLOGOUT\n' | nc …` read as lines, its flags looked for OB
// and LB, said `OK rack2: online (said: ERR DATA-STALE)`, Consistent,
// over a UPS whose state nobody read (testdata/wave-ups/nc-status). It is
// a not-checked item now (error-reply): UNKNOWN. Its VAR line is not.
func TestNUTErrorReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := filepath.Join(dir, "nc")
	if err := writeExec(nc, []byte("#!/bin/sh\ncat >/dev/null\nprintf \"$OUT\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"a driver gone stale", `ERR DATA-STALE\nOK Goodbye\n`, true},
		{"a driver not connected", `ERR DRIVER-NOT-CONNECTED\nOK Goodbye\n`, true},
		{"a UPS name misspelt", `ERR UNKNOWN-UPS\nOK Goodbye\n`, true},
		{"its status", `VAR rack2 ups.status "OL CHRG"\nOK Goodbye\n`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: ups
result: {kind: verdict/ups, decider: Power, nagios: {ok: online, warning: on-battery}}
stages:
  - id: q
    exec: {shell: 'printf "GET VAR rack2 ups.status\nLOGOUT\n" | `+nc+` -q 2 127.0.0.1 3493', env: {OUT: '`+tc.out+`'}, parse: lines}
  - id: power
    name: Power
    decide:
      rules: [{when: 'any(q.stdout, # contains "\"OB")', then: on-battery, label: on battery}]
      default: {branch: online, label: not on battery}
    branches:
      on-battery: [{id: b, verdict: {subject: '"rack2"', verdict: '"on-battery"'}}]
      online: [{id: o, verdict: {subject: '"rack2"', verdict: '"online"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "q" did not check its output (it printed upsd's error reply as its output though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "ups UNKNOWN") || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, said, r.stdout, r.stderr)
		}
	}
}

// TestOpenVPNManagementReplyIsNoAnswer: OpenVPN's management interface
// answers over the same TCP stream nc prints, and nc exits 0 whatever it
// says. A chart asking `status 3` of it for the clients connected said
// `CRITICAL alice: not-connected`, Consistent, over three answers that
// listed no client at all (real OpenVPN 2.6.14): the interface's
// `ENTER PASSWORD:` prompt (a management directive with a password file,
// the chart given none, or a wrong one), `ERROR: unknown command` (stauts
// for status), and its banner alone, `>INFO:OpenVPN Management Interface
// Version 5 …` with nothing after it, as `printf 'status 3\nquit\n' |
// nc` gets: the interface dropped the command it read beside quit. Each
// is a not-checked item now (error-reply): UNKNOWN. Its client list, and
// the prompt a right password answered, are not.
func TestOpenVPNManagementReplyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := echoClient(t, dir)
	const banner = `>INFO:OpenVPN Management Interface Version 5 -- type 'help' for more info\r\n`
	const list = `TITLE\tOpenVPN 2.6.14\r\nTIME\t2026-12-08 00:28:47\t1796689727\r\nHEADER\tCLIENT_LIST\tCommon Name\tReal Address\r\nCLIENT_LIST\talice\t10.77.0.2:50620\t10.8.0.2\r\nEND\r\n`
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"a password asked and not given", `ENTER PASSWORD:ENTER PASSWORD:`, true},
		{"a command misspelt", banner + `ERROR: unknown command, enter 'help' for more options\r\n`, true},
		{"the banner alone", banner, true},
		{"its client list", banner + list, false},
		{"its client list after the password", `ENTER PASSWORD:SUCCESS: password is correct\r\n` + banner + list, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: ovpn
result: {kind: verdict/ovpn, decider: Connected, nagios: {ok: connected, critical: not-connected}}
stages:
  - id: mgmt
    exec: {shell: 'printf "status 3\nquit\n" | `+nc+` -q 2 127.0.0.1 7505', env: {OUT: '`+strings.ReplaceAll(tc.out, "'", "''")+`'}, parse: lines}
  - id: connected
    name: Connected
    decide:
      rules: [{when: 'any(mgmt.stdout, # startsWith "CLIENT_LIST\talice\t")', then: connected, label: listed}]
      default: {branch: not-connected, label: not listed}
    branches:
      connected: [{id: c, verdict: {subject: '"alice"', verdict: '"connected"'}}]
      not-connected: [{id: n, verdict: {subject: '"alice"', verdict: '"not-connected"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "mgmt" did not check its output (it printed OpenVPN's management interface reply as its output though it exited 0`
		if !tc.flagged {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code == 0 || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "(not judged") {
			t.Errorf("%s: exit %d; want the row not judged, saying %s:\n%s%s", tc.name, r.code, said, r.stdout, r.stderr)
		}
	}
}
