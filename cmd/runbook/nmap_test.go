package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNmapHostNotScannedIsNoAnswerOfNone: nmap exits 0 over a host it did
// not scan. A name it could not resolve (`localhots`) is `Failed to
// resolve "localhots".` and `WARNING: No targets were specified, so 0
// hosts scanned.` on stderr; a host that answered none of its probes is
// `Note: Host seems down.` and `1 IP address (0 hosts up)` in its report,
// on stdout, -oG's and -oX's too; an IPv6 address given without -6 (`::1
// looks like an IPv6 target specification -- you have to use the -6
// option.`, on stderr, the IPv4 host beside it scanned); a host it gave up
// on at --host-timeout
// is `Status: Timeout` in -oG (`Skipping host … due to host timeout`,
// `timedout="true"`), counted up. Each way it prints no port. A check
// that no port but the allowed ones is open, `nmap -n -p 1-65535 -oG -
// HOST` read into a row per unexpected port under `result.empty: answer`,
// said `OK - no verdict rows`, Consistent, exit 0, over no port scanned
// (testdata/wave-scan/unexpected). Its words are a not-checked item now
// (searched-nothing): Not sure, UNKNOWN. A host up with nothing
// unexpected is still OK; a ping sweep (-sn), whose down hosts are its
// answer, is not judged so.
func TestNmapHostNotScannedIsNoAnswerOfNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const head = "# Nmap 7.93 scan initiated Mon Dec  7 16:51:41 2026 as: nmap -n -p 22 -oG - HOST\n"
	for _, tc := range []struct {
		name, stdout, stderr, args, status string
		code                               int
		said                               string
	}{
		{"a name not resolved", head + "# Nmap done at Mon Dec  7 16:51:41 2026 -- 0 IP addresses (0 hosts up) scanned in 0.03 seconds\n",
			"Failed to resolve \"localhots\".\nWARNING: No targets were specified, so 0 hosts scanned.\n", "-p, 1-65535",
			"scan UNKNOWN - 1 stage did not check everything (nmap), no verdict rows", 3,
			`it said on stderr that it could not resolve a host name it was given and scanned no port of that host though it exited 0, so its answer of none found says nothing of whether there is such a thing; stderr's first such line: "Failed to resolve \"localhots\"."`},
		{"a host down", head + "# Nmap done at Mon Dec  7 16:51:44 2026 -- 1 IP address (0 hosts up) scanned in 3.03 seconds\n", "", "-p, 1-65535",
			"scan UNKNOWN - 1 stage did not check everything (nmap), no verdict rows", 3,
			`it said in its report that a host it was asked to scan answered none of its probes (down, or dropping them) and it scanned no port of that host though it exited 0, so its answer of none found says nothing of whether there is such a thing; its report's first such line: "# Nmap done at Mon Dec  7 16:51:44 2026 -- 1 IP address (0 hosts up) scanned in 3.03 seconds"`},
		{"one host of two down, XML", `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<runstats><finished time="1796489504" timestr="Mon Dec  7 16:51:44 2026" summary="Nmap done at Mon Dec  7 16:51:44 2026; 2 IP addresses (1 host up) scanned in 3.03 seconds" elapsed="3.03" exit="success"/><hosts up="1" down="1" total="2"/>` + "\n</runstats>\n", "", "-p, 1-65535",
			"scan UNKNOWN - 1 stage did not check everything (nmap), no verdict rows", 3, `(1 host up)`},
		{"an IPv6 address without -6 beside an IPv4 one", head + "Host: 127.0.0.1 ()\tStatus: Up\nHost: 127.0.0.1 ()\tPorts: 19448/closed/tcp/////\n# Nmap done at Mon Dec  7 17:18:33 2026 -- 1 IP address (1 host up) scanned in 0.06 seconds\n",
			"::1 looks like an IPv6 target specification -- you have to use the -6 option.\n", "-p, 1-65535",
			"scan UNKNOWN - 1 stage did not check everything (nmap), no verdict rows", 3,
			`it said on stderr that it was given an IPv6 address without -6 and scanned no port of it though it exited 0`},
		{"a host given up at --host-timeout", head + "Host: 127.0.0.1 ()\tStatus: Up\nHost: 127.0.0.1 ()\tStatus: Timeout\n# Nmap done at Mon Dec  7 17:09:11 2026 -- 1 IP address (1 host up) scanned in 0.17 seconds\n", "", "-p, 1-65535, --host-timeout, 100ms",
			"scan UNKNOWN - 1 stage did not check everything (nmap), no verdict rows", 3,
			`it said in its report that it gave up on a host at its --host-timeout before it had scanned its ports, and listed none of them though it exited 0`},
		{"a host up", head + "Host: 127.0.0.1 ()\tStatus: Up\nHost: 127.0.0.1 ()\tPorts: 22/open/tcp//ssh///\n# Nmap done at Mon Dec  7 16:51:07 2026 -- 1 IP address (1 host up) scanned in 0.08 seconds\n", "", "-p, 1-65535",
			"scan OK - no verdict rows", 0, "Consistent"},
		{"a ping sweep", head + "# Nmap done at Mon Dec  7 16:51:44 2026 -- 1 IP address (0 hosts up) scanned in 3.03 seconds\n", "", "-sn",
			"scan OK - no verdict rows", 0, "Consistent"},
	} {
		nmap := fakeTool(t, filepath.Join(dir, strings.NewReplacer(" ", "-", ",", "").Replace(tc.name), "nmap"), tc.stdout, tc.stderr, 0)
		chart := writeChart(t, dir, strings.ReplaceAll(strings.ReplaceAll(tc.name, " ", "-"), ",", "")+".yaml", `version: 1
runbook: scan
result: {kind: verdict/exposure, empty: answer, nagios: {critical: [unexpected]}}
stages:
  - id: nmap
    exec:
      command: [`+nmap+`, -n, `+tc.args+`, -oG, "-", 127.0.0.1]
      parse: lines
  - id: per
    foreach:
      items: 'filter(nmap.stdout, # contains "/open/" && !(# contains "22/open/"))'
      as: line
      maxBranches: 100
      stages:
        - {id: u, verdict: {subject: line, verdict: '"unexpected"'}}
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}

// TestRowMadeThroughASiblingSetKeyIsNotJudged: a set: stage whose key is
// made of another key the same stage wrote just before (`open` of
// `found`, `found` of nmap's output) rests on what that key read. A check
// that the forbidden ports are closed, over nmap given a host name it
// could not resolve (exit 0, no port scanned), wrote `OK 23/tcp: closed`
// and listed no row under verdicts.unjudgedRows: the lineage stopped at
// the stage's own earlier write, and a program trusting the rows the JSON
// does not list read telnet closed. Each row is marked now, as a row made
// through two set: stages is.
func TestRowMadeThroughASiblingSetKeyIsNotJudged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	nmap := fakeTool(t, filepath.Join(dir, "nmap"),
		"# Nmap 7.93 scan initiated Mon Dec  7 16:51:07 2026 as: nmap -n -p 23,3389 -oG - localhots\n# Nmap done at Mon Dec  7 16:51:07 2026 -- 0 IP addresses (0 hosts up) scanned in 0.03 seconds\n",
		"Failed to resolve \"localhots\".\nWARNING: No targets were specified, so 0 hosts scanned.\n", 0)
	chart := writeChart(t, dir, "forbidden.yaml", `version: 1
runbook: forbidden
result: {kind: verdict/exposure, decider: Port, nagios: {critical: [open], ok: [closed]}}
stages:
  - id: scan
    exec:
      command: [`+nmap+`, -n, -p, "23,3389", -oG, "-", localhots]
      parse: lines
  - id: facts
    set:
      found: 'flatten(map(filter(scan.stdout, # contains "\tPorts: "), map(split(split(#, "\tPorts: ")[1], ", "), split(#, "/"))))'
      open: 'map(filter(found, #[1] == "open"), int(#[0]))'
  - id: per
    foreach:
      items: '[23, 3389]'
      as: port
      maxBranches: 10
      stages:
        - id: port
          name: Port
          decide:
            rules:
              - {when: 'port in open', then: open, label: nmap found it open}
            default: {branch: closed, label: not open}
          branches:
            open: [{id: o, verdict: {subject: 'string(port) + "/tcp"', verdict: '"open"'}}]
            closed: [{id: c, verdict: {subject: 'string(port) + "/tcp"', verdict: '"closed"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if !strings.Contains(r.stdout, "UNKNOWN 23/tcp: closed (not judged: ") {
		t.Errorf("the row 23/tcp is not marked:\n%s", r.stdout)
	}
	_, vs := verdictsOf(t, runCLI(t, dir, "exec", chart, "-o", "json").stdout)
	var subjects []any
	us, _ := vs["unjudgedRows"].([]any)
	for _, u := range us {
		subjects = append(subjects, u.(map[string]any)["subject"])
	}
	if want := []any{"23/tcp", "3389/tcp"}; !reflect.DeepEqual(subjects, want) {
		t.Errorf("unjudgedRows of %v, want %v", subjects, want)
	}
}

// TestSClientFailureUnderDeclaredCodeSaysWhichStderr: `openssl s_client
// -verify_return_error` exits 1 over a certificate its verification
// refused and as much over a connection refused or a port that speaks no
// TLS, its error stack on stderr each time. Under `exitCodes: {0: valid,
// 1: invalid}` each is a tool-error item (Not sure), as it should be, but
// the item said x509 -checkend's case: `give it a certificate it can read,
// or judge what it printed beside the code (-checkend prints "Certificate
// will expire" …)`, no help to a TLS endpoint check. It says now what
// s_client's 1 covers and the exitCodes: that tells them apart, whose
// stderr text the verification's failure holds and a refusal does not.
func TestSClientFailureUnderDeclaredCodeSaysWhichStderr(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, stderr string }{
		{"refused", "40777A3D0E7F0000:error:8000006F:system library:BIO_connect:Connection refused:../crypto/bio/bio_sock2.c:117:calling connect()\n40777A3D0E7F0000:error:10000067:BIO routines:BIO_connect:connect error:../crypto/bio/bio_sock2.c:119:\nconnect:errno=111\n"},
		{"no TLS", "40F72202497F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../ssl/record/ssl3_record.c:350:\n"},
	} {
		openssl := fakeTool(t, filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"), "openssl"), "CONNECTED(00000003)\n", tc.stderr, 1)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: tls
result: {kind: verdict/tls, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: hs
    exec:
      command: [`+openssl+`, s_client, -connect, "127.0.0.1:19460", -verify_return_error]
      stdin: '""'
      exitCodes: {0: valid, 1: invalid}
  - {id: v, verdict: {subject: '"127.0.0.1:19460"', verdict: hs.status}}
`)
		nagiosSays(t, dir, tc.name, "tls CRITICAL - 1 stage did not check everything (hs), 1 invalid", 2,
			`s_client exits with that code over a certificate its verification refused (-verify_return_error) and as much over a connection refused, a port that speaks no TLS or a handshake cut short, so "invalid" is not known`,
			"exec", chart, "--format", "nagios")
		nagiosSays(t, dir, tc.name, "tls CRITICAL", 2, `{1: {word: invalid, stderr: "certificate verify failed"}}`, "exec", chart, "--format", "nagios")
	}
}
