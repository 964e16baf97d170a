package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKadminQueryFailureIsNoAnswer: MIT kadmin and kadmin.local (1.20)
// run a -q query, print its failure on stderr in com_err's form
// (`get_principal: Principal does not exist while retrieving
// "carrol@TEST.LAN".`, or the request's usage line) and exit 0, with
// `Authenticating as principal root/admin@TEST.LAN with password.` on
// stdout. A check of passwords about to expire, `getprinc NAME` read for
// its `Password expiration date:` line, said `OK carrol: ok`,
// Consistent, of a principal misspelt that nobody read. Each such line
// is now a not-checked item (kind kadmin-error): Not sure, UNKNOWN. A
// whole answer, kadmin's routine `No policy specified for …` notice,
// and the same words from a tool that is not kadmin are not judged.
func TestKadminQueryFailureIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	answer := `Principal: bob@TEST.LAN
Expiration date: [never]
Password expiration date: [never]
Number of keys: 1
Key: vno 1, aes256-cts-hmac-sha1-96`
	for _, tc := range []struct {
		name, tool, stdout, stderr string
		want                       int
		line, standing             string
	}{
		{"principal misspelt", "kadmin.local", "", `get_principal: Principal does not exist while retrieving "carrol@TEST.LAN".`, 3,
			"pwexp UNKNOWN - 1 stage did not check everything (gp), 1 ok (1 not judged",
			`kadmin said on stderr, though it exited 0, that its request failed`},
		{"remote kadmin refused", "kadmin", "", `get_principal: Operation requires ` + "``get''" + ` privilege while retrieving "bob@TEST.LAN".`, 3,
			"pwexp UNKNOWN", `stderr's first such line: "get_principal: Operation requires`},
		{"request's usage", "kadmin.local", "", `usage: get_principal [-terse] principal`, 3,
			"pwexp UNKNOWN", `stderr's first such line: "usage: get_principal [-terse] principal"`},
		{"a whole answer", "kadmin.local", answer, ``, 0,
			"pwexp OK - 1 ok", "Consistent with the run's record"},
		{"a routine notice", "kadmin.local", answer, `No policy specified for bob@TEST.LAN; defaulting to no policy`, 0,
			"pwexp OK - 1 ok", "Consistent with the run's record"},
		{"not kadmin", "othertool", "", `get_principal: Principal does not exist while retrieving "carrol@TEST.LAN".`, 0,
			"pwexp OK - 1 ok", "Consistent with the run's record"},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(sub, tc.tool)
		script := "#!/bin/sh\necho 'Authenticating as principal root/admin@TEST.LAN with password.'\ncat <<'EOF'\n" + tc.stdout + "\nEOF\n"
		if tc.stderr != "" {
			script += "cat >&2 <<'EOF'\n" + tc.stderr + "\nEOF\n"
		}
		script += "exit 0\n"
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: pwexp
result: {kind: verdict/password, decider: Expiry, nagios: {critical: [expired], ok: [ok]}}
stages:
  - id: gp
    exec: {command: [`+tool+`, -q, getprinc carrol], parse: lines}
  - id: expiry
    name: Expiry
    decide:
      rules:
        - {when: 'any(gp.stdout, # startsWith "Password expiration date:" && !(# contains "[never]") && date(split(#, ": ")[1], "Mon Jan _2 15:04:05 MST 2006") < now())', then: expired, label: The password has expired}
      default: {branch: ok, label: The password has not expired}
    branches:
      expired: [{id: x, verdict: {subject: '"carrol"', verdict: '"expired"'}}]
      ok: [{id: o, verdict: {subject: '"carrol"', verdict: '"ok"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.HasPrefix(r.stdout, tc.line) || !strings.Contains(r.stdout, tc.standing) {
			t.Errorf("%s: exit %d; want %d, the line %q and %q:\n%s%s", tc.name, r.code, tc.want, tc.line, tc.standing, r.stdout, r.stderr)
		}
	}
}

// TestKDCUnreachedIsNoAnswer: kinit exits 1 over a key the KDC refused
// and as much over a KDC it never reached, so a check that each service
// keytab still gets a ticket, `kinit -k -t KEYTAB PRINCIPAL` under
// `exitCodes: {0: ok, 1: rejected}`, said `rejected` of both keytabs,
// CRITICAL, with the KDC stopped (`kinit: Cannot contact any KDC for
// realm 'TEST.LAN' while getting initial credentials`) and with the
// realm misspelt in krb5.conf (`Cannot find KDC for realm "TEST.LAN"`):
// keys nobody judged, read as keys the KDC turned down, Consistent. Each
// is now a not-checked item: Not sure, the row `rejected (not judged …)`
// and an UNKNOWN line saying no KDC was reached (a critical row not judged
// stays CRITICAL: the gate's worst-of, internal/gate). A key the KDC refused (`Password
// incorrect`, a rotated key) and a principal the keytab holds no key of
// stay the answer declared; so do the same words under exit 0, where
// nothing was refused (a `|| true` is another matter: judged as a
// refusal is). So is `Clock skew too great in KDC reply` (this host's
// clock 10 minutes ahead, kdc_timesync off): the KDC refused the
// request's time, and its key was never judged; `rejected` sent an
// operator to re-export a keytab that was fine.
func TestKDCUnreachedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		exit         int
		status       string
		code         int
		said         string
	}{
		{"KDC stopped", "kinit: Cannot contact any KDC for realm 'TEST.LAN' while getting initial credentials", 1,
			"keytab CRITICAL - 1 stage did not check everything (kinit), 1 rejected", 2,
			`which exitCodes: declares the answer "rejected", but it said on stderr that it could not reach a KDC of the realm it asks`},
		{"realm misspelt in krb5.conf", `kinit: Cannot find KDC for realm "TEST.LAN" while getting initial credentials`, 1,
			"keytab CRITICAL - 1 stage did not check everything (kinit), 1 rejected", 2,
			`stderr's first such line: "kinit: Cannot find KDC for realm \"TEST.LAN\" while getting initial credentials"`},
		{"KDC name unresolved", `kinit: Cannot resolve network address for KDC in realm "TEST.LAN" while getting initial credentials`, 1,
			"keytab CRITICAL - 1 stage did not check everything (kinit)", 2, `Not sure — stage "kinit" did not check its answer (it exited 1, which exitCodes: declares the answer "rejected", but it said on stderr that it could not reach a KDC of the realm it asks`},
		{"clock skew", "kinit: Clock skew too great in KDC reply while getting initial credentials", 1,
			"keytab CRITICAL - 1 stage did not check everything (kinit)", 2, `but it said on stderr that the KDC refused its request's time (this host's clock and the KDC's more than the realm's clockskew apart), not its key`},
		{"a rotated key", "kinit: Password incorrect while getting initial credentials", 1,
			"keytab CRITICAL - 1 rejected", 2, "Consistent"},
		{"no key for the principal", "kinit: Keytab contains no suitable keys for HTTP/wbe.test.lan@TEST.LAN while getting initial credentials", 1,
			"keytab CRITICAL - 1 rejected", 2, "Consistent"},
		{"a ticket", "", 0, "keytab OK - 1 ok", 0, "Consistent"},
	} {
		tool := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "kinit"), "", tc.stderr, tc.exit)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: keytab
result: {kind: verdict/keytab, decider: Login, nagios: {ok: [ok], critical: [rejected]}}
stages:
  - id: kinit
    exec:
      command: [`+tool+`, -k, -t, /etc/krb5.keytab, -c, "MEMORY:probe", HTTP/web.test.lan@TEST.LAN]
      exitCodes: {0: ok, 1: rejected}
  - id: login
    name: Login
    decide:
      rules:
        - {when: kinit.status == "rejected", then: rejected, label: The KDC gave the keytab no ticket}
      default: {branch: ok, label: The keytab got a ticket}
    branches:
      rejected: [{id: r, verdict: {subject: '"HTTP/web.test.lan"', verdict: '"rejected"'}}]
      ok: [{id: o, verdict: {subject: '"HTTP/web.test.lan"', verdict: '"ok"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestKlistSilentExitIsNoAnswer: `klist -s` prints nothing and exits 1
// over a cache with no valid ticket, and as much over a cache it may not
// read (another user's, mode 600) or one not there; a check that each
// service's ticket cache holds a valid ticket, run by the monitoring
// user under `exitCodes: {0: valid, 1: expired}`, said `expired`,
// Consistent, of a ticket valid for ten more hours. Its 1 is now a
// not-checked item (kind klist-silent): Not sure, the row not judged.
// Without -s, klist says why on stderr, and MIT's `Credentials cache
// permissions incorrect` is read as the refusal it is, where `No
// credentials cache found` stays the answer declared.
func TestKlistSilentExitIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, tc := range []struct {
		name, args, stderr string
		exit               int
		status             string
		code               int
		said               string
	}{
		{"klist -s, exit 1", "-s, -c, 'FILE:/tmp/krb5cc_svc'", "", 1,
			"ccache CRITICAL - 1 stage did not check everything (ks), 1 expired", 2,
			`Not sure — stage "ks" did not check its answer (klist -s prints nothing and exits 1 over a cache`},
		{"klist -s, exit 0", "-s, -c, 'FILE:/tmp/krb5cc_svc'", "", 0,
			"ccache OK - 1 valid", 0, "Consistent"},
		{"klist over a cache it may not read", "-c, 'FILE:/tmp/krb5cc_svc'", "klist: Credentials cache permissions incorrect (filename: /tmp/krb5cc_svc)", 1,
			"ccache CRITICAL - 1 stage did not check everything (ks), 1 expired", 2,
			`it said on stderr that it was refused access`},
		{"klist over no cache", "-c, 'FILE:/tmp/krb5cc_svc'", "klist: No credentials cache found (filename: /tmp/krb5cc_svc)", 1,
			"ccache CRITICAL - 1 expired", 2, "Consistent"},
	} {
		sub := fmt.Sprintf("case%d", i)
		tool := fakeTool(t, filepath.Join(dir, sub, "klist"), "", tc.stderr, tc.exit)
		chart := writeChart(t, dir, sub+".yaml", `version: 1
runbook: ccache
result: {kind: verdict/ccache, decider: Ticket, nagios: {ok: [valid], critical: [expired]}}
stages:
  - id: ks
    exec:
      command: [`+tool+`, `+tc.args+`]
      exitCodes: {0: valid, 1: expired}
  - id: ticket
    name: Ticket
    decide:
      rules:
        - {when: ks.status == "expired", then: expired, label: No valid ticket in the cache}
      default: {branch: valid, label: The cache holds a valid ticket}
    branches:
      expired: [{id: x, verdict: {subject: '"svc"', verdict: '"expired"'}}]
      valid: [{id: v, verdict: {subject: '"svc"', verdict: '"valid"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
