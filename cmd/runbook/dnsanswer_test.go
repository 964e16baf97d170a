package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestResolverThatGaveNoAnswerIsNoAnswer: host exits 1 over NXDOMAIN, the
// one answer that says a name does not exist, and exits 1 too over a
// server that failed (`Host broken.test not found: 2(SERVFAIL)`), refused
// the query, or could not be reached (`;; no servers could be reached`),
// saying which on stdout alone. A chart that a retired name is gone,
// `host NAME` under `exitCodes: {0: found, 1: not-found}`, said `gone OK -
// 1 gone`, Consistent, over a zone that failed to load and over a server
// that was down. Output saying the server gave no answer is a not-checked
// item now (kind no-dns-answer): Not sure, UNKNOWN; dig's header status
// and nslookup's words are read the same; NXDOMAIN and NOERROR are not
// (testdata/wave-dns/gone).
func TestResolverThatGaveNoAnswerIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, out string
		exit      string
		line      string // the line quoted, "" when not flagged
	}{
		{"host servfail", `Using domain server:\nName: 127.0.0.1\n\nHost broken.test not found: 2(SERVFAIL)\n`, "1", "Host broken.test not found: 2(SERVFAIL)"},
		{"host refused", `Host old.example.test not found: 5(REFUSED)\n`, "1", "Host old.example.test not found: 5(REFUSED)"},
		{"host no server", `;; communications error to 127.0.0.1#53: connection refused\n;; no servers could be reached\n`, "1", ";; no servers could be reached"},
		{"nslookup servfail", `Server:\t\t127.0.0.1\n\n** server can'\''t find broken.test: SERVFAIL\n`, "1", "** server can't find broken.test: SERVFAIL"},
		{"dig header servfail", `;; Got answer:\n;; ->>HEADER<<- opcode: QUERY, status: SERVFAIL, id: 48358\n;; flags: qr rd; QUERY: 1, ANSWER: 0\n`, "0", ";; ->>HEADER<<- opcode: QUERY, status: SERVFAIL, id: 48358"},
		{"a syslog scan", `Dec  7 02:10:01 web1 backup[812]: ;; no servers could be reached\nDec  7 02:10:02 web1 backup[812]: Host db.example.test not found: 2(SERVFAIL)\n`, "0", ""},
		{"host nxdomain", `Host old.example.test not found: 3(NXDOMAIN)\n`, "1", ""},
		{"dig header nxdomain", `;; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 7\n`, "0", ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: gone
result: {kind: verdict/retired, decider: Retired, nagios: {ok: [gone], critical: [still-resolves]}}
stages:
  - id: lookup
    exec:
      parse: lines
      exitCodes: {0: found, 1: not-found}
      shell: |
        printf '`+tc.out+`'
        exit `+tc.exit+`
  - id: retired
    name: Retired
    decide:
      rules:
        - {when: 'lookup.status == "found" && !any(lookup.stdout, # contains "NXDOMAIN" || # contains "ANSWER: 0")', then: still-resolves, label: the name still resolves}
      default: {branch: gone, label: no such name}
    branches:
      gone: [{id: g, verdict: {subject: '"old.example.test"', verdict: '"gone"'}}]
      still-resolves: [{id: s, verdict: {subject: '"old.example.test"', verdict: '"still-resolves"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.line == "" {
			if r.code == 3 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		said := `stage "lookup" did not check its answer (it said the name server gave no answer (it failed, refused or could not be reached) though it exited ` + tc.exit
		if r.code != 3 || !strings.HasPrefix(r.stdout, "gone UNKNOWN") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "its first such line: "+fmt.Sprintf("%q", tc.line)) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s … %q:\n%s", tc.name, r.code, said, tc.line, r.stdout)
		}
	}
}

// TestDigShortSilenceIsNoAnswer: dig +short prints nothing and exits 0
// over a REFUSED or a SERVFAIL as over a name with no such record. A
// key-rotation check asking `dig +short TXT old._domainkey.DOMAIN` of a
// server that refused the zone said the old selector removed, OK,
// Consistent, with only a warning on stderr. Its blank output is now a
// not-checked item (dig-short-blank): Not sure, UNKNOWN. Records printed
// are the server's answer and stand.
func TestDigShortSilenceIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, out string
		flagged   bool
	}{
		{"refused, nothing printed", ``, true},
		{"a revoked key", `"v=DKIM1; k=rsa; p="\n`, false},
	} {
		const said = `stage "txt" did not check its answer (it runs dig +short and printed nothing though it exited 0: +short prints nothing over a REFUSED or a SERVFAIL as over a name with no such record`
		dkimRetiredSays(t, dir, tc.name, "+short", tc.out, tc.flagged, said)
	}
}

// TestDigAnswerAloneSilenceIsNoAnswer: dig +noall +answer prints no
// header, and then nothing at all, exit 0, over a REFUSED or a SERVFAIL
// as over a name with no such record. A key-rotation check asking `dig
// +noall +answer TXT old._domainkey.DOMAIN` of a server that refused the
// zone said the old selector removed, OK, Consistent
// (testdata/wave-mailauth/dkim-retired). Its blank output is a
// not-checked item (dig-short-blank) naming the option: Not sure,
// UNKNOWN. With +comments the header is printed and read
// (no-dns-answer); records printed stand.
func TestDigAnswerAloneSilenceIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, opts, out string
		flagged         bool
	}{
		{"refused, nothing printed", "+noall +answer", ``, true},
		{"refused, nocomments", "+nocomments +nocmd +nostats +noquestion", ``, true},
		{"a revoked key", "+noall +answer", `old._domainkey.example.test. 300 IN TXT "v=DKIM1; k=rsa; p="\n`, false},
		{"nxdomain with its header", "+noall +comments +answer", `;; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: 1\n`, false},
	} {
		opt := strings.Fields(tc.opts)[0]
		said := `stage "txt" did not check its answer (it runs dig with ` + opt + ` and no +comments after it, so dig printed no header, and it printed nothing though it exited 0`
		dkimRetiredSays(t, dir, tc.name, tc.opts, tc.out, tc.flagged, said)
	}
}

// TestAliasAnswerUnfollowedIsNoAnswer: a domain whose DMARC record is an
// alias to its provider's (`_dmarc.DOMAIN CNAME _dmarc.provider.example.`),
// asked of its own authoritative server, is answered with the CNAME
// alone, NOERROR: a DMARC check read no DMARC record, CRITICAL missing,
// Consistent (testdata/wave-mailauth/dmarc). An alias the server did not
// follow is a not-checked item (alias-unfollowed): Not sure, its row not
// judged. An alias followed in the same answer stands.
func TestAliasAnswerUnfollowedIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const header = `;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 16852\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; ANSWER SECTION:\n`
	for _, tc := range []struct {
		name, opts, out, said string
	}{
		{"alias to another zone", "+noall +comments +answer", header + `_dmarc.ext.mail.test.\t300\tIN\tCNAME\t_dmarc.provider.example.\n`, `from a server that does not recurse (no "ra" among its flags), though it exited 0`},
		{"alias followed", "+noall +comments +answer", header + `_dmarc.cname.mail.test.\t300\tIN\tCNAME\t_dmarc.good.mail.test.\n_dmarc.good.mail.test.\t300\tIN\tTXT\t"v=DMARC1; p=reject"\n`, ``},
		{"alias with no header", "+noall +answer", `_dmarc.ext.mail.test.\t300\tIN\tCNAME\t_dmarc.provider.example.\n`, `with no header saying whether the server recursed`},
		{"alias under +short", "+short", `_dmarc.provider.example.\n`, `which dig +short printed as the target's name with no record after it`},
		{"alias and record under +short", "+short", `_dmarc.good.mail.test.\n"v=DMARC1; p=reject"\n`, ``},
		{"alias alone from host", "host -t txt", `_dmarc.ext.mail.test is an alias for _dmarc.provider.example.\n`, `after which it printed nothing of the target`},
		{"alias alone from nslookup", "nslookup -type=txt", `_dmarc.ext.mail.test\tcanonical name = _dmarc.provider.example.\n\n`, `after which it printed nothing of the target`},
		{"alias and record from host", "host -t txt", `_dmarc.cname.mail.test is an alias for _dmarc.good.mail.test.\n_dmarc.good.mail.test descriptive text "v=DMARC1; p=reject"\n`, ``},
	} {
		tool, opts, ok := strings.Cut(tc.opts, " ")
		if !ok || tool != "host" && tool != "nslookup" {
			tool, opts = "dig", tc.opts
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: dmarc
result: {kind: verdict/dmarc, decider: DMARC, nagios: {ok: [enforced], critical: [missing]}}
stages:
  - id: txt
    exec:
      parse: lines
      shell: |
        `+tool+`() { printf '`+tc.out+`'; }
        `+tool+` `+opts+` _dmarc.example.test TXT
  - id: judge
    name: DMARC
    decide:
      rules:
        - {when: 'any(txt.stdout, # contains "v=DMARC1")', then: enforced, label: a DMARC record}
      default: {branch: missing, label: no DMARC record}
    branches:
      enforced: [{id: e, verdict: {subject: '"example.test"', verdict: '"enforced"'}}]
      missing: [{id: m, verdict: {subject: '"example.test"', verdict: '"missing"'}}]
`)
		r := runCLI(t, dir, "exec", chart)
		said := `stage "txt" did not check its answer (its answer ends at an alias, ` + tc.said
		if tc.said == "" {
			if r.code != 0 || strings.Contains(r.stdout, "did not check") || !strings.Contains(r.stdout, "| enforced |") {
				t.Errorf("%s: exit %d; want 0, enforced, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if !strings.Contains(r.stdout, "missing (not judged)") || !strings.Contains(r.stdout, said) || !strings.Contains(r.stdout, "Not sure") {
			t.Errorf("%s: exit %d; want missing (not judged), Not sure, saying %s:\n%s", tc.name, r.code, said, r.stdout)
		}
	}
}

// dkimRetiredSays runs a key-rotation check (is the old DKIM selector
// removed?) over a stand-in dig that prints out under opts, and checks
// what the case named name wants: UNKNOWN saying said when flagged, else
// exit 0 with nothing flagged.
func dkimRetiredSays(t *testing.T, dir, name, opts, out string, flagged bool, said string) {
	t.Helper()
	chart := writeChart(t, dir, strings.ReplaceAll(name, " ", "-")+".yaml", `version: 1
runbook: dkim-retired
result: {kind: verdict/dkim, decider: Retired, nagios: {ok: [removed, revoked], critical: [live]}}
stages:
  - id: txt
    exec:
      parse: lines
      shell: |
        dig() { printf '`+out+`'; }
        dig `+opts+` old._domainkey.example.test TXT
  - id: retired
    name: Retired
    decide:
      rules:
        - {when: 'len(filter(txt.stdout, !(# startsWith ";"))) == 0', then: removed, label: no TXT record at the selector}
        - {when: 'any(txt.stdout, # contains "p=\"")', then: revoked, label: its p= is empty}
      default: {branch: live, label: the selector still publishes a key}
    branches:
      removed: [{id: r, verdict: {subject: '"old"', verdict: '"removed"'}}]
      revoked: [{id: v, verdict: {subject: '"old"', verdict: '"revoked"'}}]
      live: [{id: l, verdict: {subject: '"old"', verdict: '"live"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if !flagged {
		if r.code != 0 || strings.Contains(r.stdout, "did not check") {
			t.Errorf("%s: exit %d; want 0, nothing flagged:\n%s", name, r.code, r.stdout)
		}
		return
	}
	if r.code != 3 || !strings.HasPrefix(r.stdout, "dkim-retired UNKNOWN") || !strings.Contains(r.stdout, said) {
		t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s", name, r.code, said, r.stdout)
	}
}
