package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// stubTool writes a stand-in for a client named name in dir: it reads
// what it is sent, prints $OUT on stdout and $ERR on stderr, and exits 0,
// as cgi-fcgi and memcstat do over what the server answered.
func stubTool(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := writeExec(path, []byte("#!/bin/sh\ncat >/dev/null\nprintf \"$OUT\"\nprintf \"$ERR\" >&2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFastCGIRefusalIsNoAnswer: cgi-fcgi exits 0 whatever php-fpm
// answered. An OPcache check through a status script, read as text with
// the headers stripped (`cgi-fcgi … | sed '1,/^\r$/d'`), its rule
// `contains "\"cache_full\":true"`, asked a pool where the script was
// not deployed: php-fpm answered 404 `File not found.` and said `Primary
// script unknown`, and the check said `OK opcache: room`, Consistent,
// over a cache nobody read (testdata/wave-php/opcache-grep says the same
// of `| grep … > /dev/null` under exitCodes). The same over a pool with
// no pm.status_path, a script security.limit_extensions refuses, or one
// that died of a fatal error (opcache not loaded), said on stderr or,
// where display_errors is On, written into the page after the script's
// own headers, status 200. It is a not-checked item now (error-reply):
// UNKNOWN. A script that ran and warned is not.
func TestFastCGIRefusalIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cgi := stubTool(t, dir, "cgi-fcgi")
	for _, tc := range []struct {
		name, out, err string
		flagged        bool
	}{
		{"a script not deployed", `Status: 404 Not Found\r\nContent-type: text/html; charset=UTF-8\r\n\r\nFile not found.\n`, `Primary script unknown`, true},
		{"an extension refused", `Status: 403 Forbidden\r\n\r\nAccess denied.\n`, `Access to the script '/srv/opcache.txt' has been denied (see security.limit_extensions)`, true},
		{"a fatal error", `Status: 500 Internal Server Error\r\n\r\n`, `PHP message: PHP Fatal error:  Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:2\nStack trace:\n#0 {main}\n`, true},
		{"a fatal error written into the page", `X-Powered-By: PHP/8.2.36\r\nContent-Type: application/json\r\n\r\n<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function opcache_get_status() in /srv/opcache.php:1\n`, ``, true},
		{"its status", `Content-Type: application/json\r\n\r\n{"opcache_enabled":true,"cache_full":false}`, ``, false},
		{"a warning of a script that ran", `Content-Type: application/json\r\n\r\n{"opcache_enabled":true,"cache_full":false}`, `PHP message: PHP Warning:  Undefined variable $x in /srv/opcache.php on line 2`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: opcache
result: {kind: verdict/opcache, decider: Judge, nagios: {ok: room, critical: full}}
stages:
  - id: full
    exec:
      shell: 'SCRIPT_FILENAME=/srv/opcache.php REQUEST_METHOD=GET `+cgi+` -bind -connect 127.0.0.1:9000 | sed "1,/^\r$/d"'
      env: {OUT: '`+tc.out+`', ERR: '`+strings.ReplaceAll(tc.err, "'", "''")+`'}
      parse: text
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'full.stdout contains "\"cache_full\":true"', then: full, label: the cache is full}]
      default: {branch: room, label: room left}
    branches:
      full: [{id: f, verdict: {subject: '"opcache"', verdict: '"full"'}}]
      room: [{id: r, verdict: {subject: '"opcache"', verdict: '"room"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "full" did not check its output (it printed php-fpm's refusal though it exited 0`
		flaggedSays(t, tc.name, r, tc.flagged, "opcache UNKNOWN", said)
	}
}

// TestMemcachedAtItsConnectionLimitIsNoAnswer: memcached at its
// connection limit (-c) answers `ERROR Too many open connections` and
// closes the connection, and nc exits 0. Read as lines, a rule looking
// for a STAT evictions or listen_disabled_num line that is not 0 found
// none and said `OK mc: ok`, Consistent, of a server that refused the
// check as it refused the application: `ERROR` followed by words was no
// error reply. It is a not-checked item now (error-reply): UNKNOWN.
func TestMemcachedAtItsConnectionLimitIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nc := stubTool(t, dir, "nc")
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"at its connection limit", `ERROR Too many open connections\r\n`, true},
		{"its stats", `STAT pid 4673\r\nSTAT evictions 0\r\nSTAT listen_disabled_num 0\r\nEND\r\n`, false},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: mc
result: {kind: verdict/mc, decider: Judge, nagios: {ok: ok, warning: evicting}}
stages:
  - id: stats
    exec: {shell: 'printf "stats\r\nquit\r\n" | `+nc+` -N -w 3 127.0.0.1 11211', env: {OUT: '`+tc.out+`'}, parse: lines}
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'any(stats.stdout, (# startsWith "STAT evictions " || # startsWith "STAT listen_disabled_num ") && !(# endsWith " 0"))', then: evicting, label: evicted or refused}]
      default: {branch: ok, label: neither}
    branches:
      evicting: [{id: e, verdict: {subject: '"mc"', verdict: '"evicting"'}}]
      ok: [{id: o, verdict: {subject: '"mc"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "stats" did not check its output (it printed memcached's error reply as its output though it exited 0`
		flaggedSays(t, tc.name, r, tc.flagged, "mc UNKNOWN", said)
	}
}

// TestMemcstatThatPrintedNothingIsNoAnswer: memcstat (libmemcached-tools
// 1.1) asked for the stats of a memcached at its connection limit, which
// closed the connection, printed nothing at all and exited 0 (four runs
// of six; the others exit 1). Read with kv, rules written as the rule
// error advised (`stats.stdout?.evictions ?? 0`) said `OK cluster: ok`,
// Consistent, over a server that answered nothing
// (testdata/wave-php/memcstat). memcstat prints `Server: HOST (PORT)`
// before any server's stats, so its blank output read as data is a
// not-checked item now (error-reply): UNKNOWN. One that printed stats is
// not, nor a blank output nobody reads.
func TestMemcstatThatPrintedNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	memcstat := stubTool(t, dir, "memcstat")
	for _, tc := range []struct {
		name, parse, out string
		flagged          bool
	}{
		{"a server that closed the connection", "parse: kv", ``, true},
		{"its stats", "parse: kv", `Server: 127.0.0.1 (11211)\n\tpid: 28043\n\tevictions: 0\n\n`, false},
		{"nothing nobody reads", "", ``, false},
	} {
		parse := ""
		if tc.parse != "" {
			parse = ", " + tc.parse
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: mc
result: {kind: verdict/mc, decider: Judge, nagios: {ok: ok, warning: evicting}}
stages:
  - id: stats
    exec: {command: [`+memcstat+`, "--servers=127.0.0.1:11211"], env: {OUT: '`+tc.out+`'}`+parse+`}
  - id: judge
    name: Judge
    decide:
      rules: [{when: 'stats.exitCode > 5', then: evicting, label: odd}]
      default: {branch: ok, label: fine}
    branches:
      evicting: [{id: e, verdict: {subject: '"cluster"', verdict: '"evicting"'}}]
      ok: [{id: o, verdict: {subject: '"cluster"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		const said = `stage "stats" did not check its output (it printed nothing though memcstat exited 0`
		flaggedSays(t, tc.name, r, tc.flagged, "mc UNKNOWN", said)
	}
}
