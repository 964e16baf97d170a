package main

import (
	"strings"
	"testing"
)

// TestNUTSSLNoticeIsNoStderr: NUT's client library (upsc, upslog) writes
// `Init SSL without certificate database` on stderr on every connection
// where no CERTPATH is set, whatever upsd answers. `upsc -c UPS@HOST`
// over a UPS no upsmon is logged in to prints nothing and exits 0, and a
// check that some host will shut down on a low battery said its true
// answer, `unwatched`, Not sure: "it printed nothing on stdout and wrote
// on stderr …; stderr's first line: \"Init SSL without certificate
// database\"" (testdata/wave-ups/clients). The notice is no sign of a
// failure now: the answer stands. Any other line beside it still is.
func TestNUTSSLNoticeIsNoStderr(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		flagged      bool
	}{
		{"the notice alone", `Init SSL without certificate database`, false},
		{"the notice and an error", `Init SSL without certificate database\nError: something went wrong`, true},
		{"another line alone", `upsc: warning: could not read upsmon.conf`, true},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: clients
result: {kind: verdict/clients, decider: Clients, nagios: {ok: watched, critical: unwatched}}
stages:
  - id: c
    exec: {shell: 'printf "`+tc.stderr+`\n" >&2', parse: lines}
  - id: clients
    name: Clients
    decide:
      rules: [{when: 'len(c.stdout) == 0', then: unwatched, label: no upsmon logged in}]
      default: {branch: watched, label: a upsmon logged in}
    branches:
      unwatched: [{id: u, verdict: {subject: '"ups"', verdict: '"unwatched"'}}]
      watched: [{id: w, verdict: {subject: '"ups"', verdict: '"watched"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		doubted := strings.Contains(r.stdout, "did not check its output")
		if !strings.HasPrefix(r.stdout, "clients CRITICAL") || doubted != tc.flagged {
			t.Errorf("%s: exit %d; want CRITICAL, its output doubted %v:\n%s%s", tc.name, r.code, tc.flagged, r.stdout, r.stderr)
		}
	}
}
