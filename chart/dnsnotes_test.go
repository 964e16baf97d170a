package chart

import (
	"strings"
	"testing"
)

// TestDigShortSilenceIsNoted: dig +short prints nothing and exits 0 over a
// zone that failed to load (SERVFAIL) as over a name with no record, and a
// chart that no name points at a retired address, `dig +short NAME A`
// under parse: lines, found none and said OK over a server that answered
// nothing (testdata/wave-dns/old-address). runbook plan notes dig +short,
// in a command or a shell: line, and a run warns of it once.
func TestDigShortSilenceIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"dig", "+short", "example.test", "MX"}, want: true},
		{cmd: []string{"/usr/bin/dig", "@127.0.0.1", "-p", "5353", "+short", "${name}", "A"}, want: true},
		{shell: `dig +short "$N" TXT | tr -d '"'`, want: true},
		{shell: "set -e\nfor n in $NAMES; do dig +short $n A; done", want: true},
		{cmd: []string{"dig", "+noall", "+comments", "+answer", "example.test", "MX"}, want: false},
		{shell: `dig +noall +comments +answer example.test MX | sort # +short not used`, want: false},
		{cmd: []string{"host", "+short"}, want: false},
		{shell: `dig example.test; echo +short`, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).DigShortSilence() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}

// TestDigWithoutCommentsIsNoted: dig +noall +answer, an admin's way to
// print the records alone, prints no header, and then nothing at all,
// exit 0, over a SERVFAIL or a REFUSED as over a name with no record: a
// check that an old DKIM selector is gone said removed, OK, Consistent,
// over a server that refused the zone (testdata/wave-mailauth/dkim-retired).
// Any display with no status is noted, and the option named; +comments
// after it, or +yaml, prints the status and is not.
func TestDigWithoutCommentsIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  string
	}{
		{cmd: []string{"dig", "+noall", "+answer", "-p", "5353", "@127.0.0.1", "s1._domainkey.example.test", "TXT"}, want: "+noall"},
		{cmd: []string{"dig", "+nocomments", "example.test", "TXT"}, want: "+nocomments"},
		{cmd: []string{"dig", "+nocomm", "example.test", "TXT"}, want: "+nocomm"},
		{cmd: []string{"dig", "+comments", "+noall", "+answer", "example.test", "TXT"}, want: "+noall"},
		{shell: `dig +noall +answer "_dmarc.$D" TXT | grep -i 'v=DMARC1'`, want: "+noall"},
		{cmd: []string{"dig", "+short", "+comments", "example.test"}, want: "+short"},
		{cmd: []string{"dig", "+noall", "+comments", "+answer", "example.test", "TXT"}, want: ""},
		{cmd: []string{"dig", "+noall", "+answer", "+comm", "example.test", "TXT"}, want: ""},
		{cmd: []string{"dig", "+noall", "+answer", "+yaml", "example.test", "TXT"}, want: ""},
		{cmd: []string{"dig", "+noall", "+all", "example.test"}, want: ""},
		{cmd: []string{"dig", "example.test", "TXT"}, want: ""},
		{cmd: []string{"dig", "+nocmd", "+nostats", "example.test", "TXT"}, want: ""},
	} {
		e := &ExecSpec{Command: tc.cmd, Shell: tc.shell}
		if got := e.DigStatusUnprinted(); got != tc.want {
			t.Errorf("%q %q: option %q, want %q", tc.cmd, tc.shell, got, tc.want)
		}
		if note := e.DigShortSilence(); (note != "") != (tc.want != "") || !strings.Contains(note, tc.want) {
			t.Errorf("%q %q: noted %q, want one naming %q", tc.cmd, tc.shell, note, tc.want)
		}
	}
}

// TestGetentNotFoundIsNoted: getent hosts exits 2, printing nothing, when
// the name does not exist and as much when no name server answered (a
// resolv.conf naming a server that is not there), so `exitCodes: {0:
// found, 2: missing}` says missing of a resolver that is down
// (testdata/wave-net/dns.yaml). runbook plan notes it, and a run warns of
// it once.
func TestGetentNotFoundIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		codes map[int]string
		want  bool
	}{
		{[]string{"getent", "ahosts", "${name}"}, map[int]string{0: "found", 2: "missing"}, true},
		{[]string{"/usr/bin/getent", "hosts", "old.example.test"}, map[int]string{2: "gone"}, true},
		{[]string{"getent", "hosts", "x"}, map[int]string{0: "found"}, false},
		{[]string{"getent", "passwd", "alice"}, map[int]string{0: "found", 2: "missing"}, false},
		{[]string{"host", "x"}, map[int]string{0: "found", 2: "missing"}, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, ExitCodes: tc.codes}).GetentNotFoundIsNoAnswer() != ""; got != tc.want {
			t.Errorf("%q %v: noted %v, want %v", tc.cmd, tc.codes, got, tc.want)
		}
	}
}

// TestGetentShadowCodeIsNoted: getent shadow run by a user who may not
// read /etc/shadow exits 2, printing nothing, as it does for an account
// with no entry, so `exitCodes: {0: has-entry, 2: no-entry}` said
// no-entry of every account a monitoring user asked about
// (testdata/wave-accounts/shadow-entry). runbook plan notes it, and a run
// warns of it once; the passwd and group databases anyone may read are
// not noted.
func TestGetentShadowCodeIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		codes map[int]string
		want  string
	}{
		{[]string{"getent", "shadow", "${u}"}, map[int]string{0: "has-entry", 2: "no-entry"}, "may not read /etc/shadow"},
		{[]string{"getent", "gshadow", "sudo"}, map[int]string{2: "none"}, "may not read /etc/gshadow"},
		{[]string{"getent", "shadow", "${u}"}, map[int]string{0: "has-entry"}, ""},
		{[]string{"getent", "group", "wheel"}, map[int]string{0: "found", 2: "missing"}, ""},
	} {
		got := (&ExecSpec{Command: tc.cmd, ExitCodes: tc.codes}).GetentNotFoundIsNoAnswer()
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%q %v: noted %q, want one saying %q", tc.cmd, tc.codes, got, tc.want)
		}
	}
}

// TestResolverExitAnswerIsNoted: host and nslookup exit 0 over a name
// that exists with no record of the type asked (`www.example.test has no
// MX record`), so `host -t MX DOMAIN` under `exitCodes: {0: has-mx, 1:
// no-mx}` said has-mx, OK, of a domain with no MX record
// (testdata/wave-dns/mx). runbook plan notes a declared exit of host or
// nslookup, and a run warns of it once.
func TestResolverExitAnswerIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		codes map[int]string
		want  bool
	}{
		{[]string{"host", "-t", "MX", "${domain}"}, map[int]string{0: "has-mx", 1: "no-mx"}, true},
		{[]string{"/usr/bin/nslookup", "-type=MX", "example.test"}, map[int]string{0: "found"}, true},
		{[]string{"host", "-t", "MX", "${domain}"}, nil, false},
		{[]string{"dig", "MX", "example.test"}, map[int]string{0: "found"}, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, ExitCodes: tc.codes}).ResolverExitAnswer() != ""; got != tc.want {
			t.Errorf("%q %v: noted %v, want %v", tc.cmd, tc.codes, got, tc.want)
		}
	}
}

// TestDigQueryTypeIsTheTypeAsked: the type dig asks for is its argument
// naming one, -t's value, PTR under -x, and A when none is named; an exec
// that runs no dig has none.
func TestDigQueryTypeIsTheTypeAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  string
		dig   bool
	}{
		{cmd: []string{"dig", "+noall", "+comments", "+answer", "-p", "5353", "@127.0.0.1", "_dmarc.example.test", "txt"}, want: "TXT", dig: true},
		{cmd: []string{"/usr/bin/dig", "-t", "cname", "www.example.test"}, want: "CNAME", dig: true},
		{cmd: []string{"dig", "-x", "192.0.2.1"}, want: "PTR", dig: true},
		{cmd: []string{"dig", "example.test"}, want: "A", dig: true},
		{shell: `for d in $DOMAINS; do dig +noall +comments +answer "_dmarc.$d" TXT; done`, want: "TXT", dig: true},
		{cmd: []string{"host", "-t", "TXT", "example.test"}, want: "", dig: false},
	} {
		got, dig := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).DigQueryType(tc.cmd)
		if got != tc.want || dig != tc.dig {
			t.Errorf("%q %q: %q %v, want %q %v", tc.cmd, tc.shell, got, dig, tc.want, tc.dig)
		}
	}
}

// TestDigMisspeltTypeIsALoadError: dig reads a word it does not know as a
// type as a further name, and asks the name before it for an A record:
// `[dig, …, revoked._domainkey.DOMAIN, TXTT]` asked the selector's A
// records (none, NOERROR) and `TXTT.` (NXDOMAIN from a resolver), and a
// check that the old selector holds no TXT record said removed, OK,
// Consistent, of a selector still publishing its key. A word near a type
// after the name is refused at load, with the type meant; so is -t's
// value that is no type, which dig ignores, warning on stderr alone, exit
// 0, and asks for an A record.
func TestDigMisspeltTypeIsALoadError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv       []string
		word, near string
	}{
		{[]string{"dig", "+noall", "+comments", "+answer", "-p", "5353", "@127.0.0.1", "${sel}._domainkey.${domain}", "TXTT"}, "TXTT", "TXT"},
		{[]string{"dig", "example.test", "mxx"}, "mxx", "MX"},
		{[]string{"/usr/bin/dig", "_dmarc.example.test", "txtt"}, "txtt", "TXT"},
		{[]string{"dig", "example.test", "txt"}, "", ""},
		{[]string{"dig", "db"}, "", ""},
		{[]string{"dig", "-p", "53", "example.test", "CDS"}, "", ""},
		{[]string{"dig", "example.test", "TYPE65"}, "", ""},
		{[]string{"dig", "example.test", "IN", "TXT"}, "", ""},
		{[]string{"dig", "-t", "TXT", "example.test"}, "", ""},
		{[]string{"dig", "-t", "TXTT", "example.test"}, "TXTT", "TXT"},
		{[]string{"dig", "-t", "spf1", "example.test"}, "spf1", "SPF"},
		{[]string{"dig", "-t", "bogusword", "example.test"}, "bogusword", ""},
		{[]string{"dig", "-t", "${type}", "example.test"}, "", ""},
		{[]string{"host", "-t", "TXTT", "example.test"}, "", ""},
	} {
		if w, n := DigMisspeltType(tc.argv); w != tc.word || n != tc.near {
			t.Errorf("%q: %q near %q, want %q near %q", tc.argv, w, n, tc.word, tc.near)
		}
	}
	_, err := Parse("chart.yaml", []byte(`version: 1
runbook: typo
stages:
  - id: txt
    exec:
      command: [dig, +noall, +comments, +answer, old._domainkey.example.test, TXTT]
`))
	const want = `exec command argument 6 "TXTT" is no record type dig knows, so dig asks it as a further name, and the name before it for an A record`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "did you mean TXT?") || !strings.Contains(err.Error(), "chart.yaml:6:") {
		t.Errorf("got %v, want an error at its place saying %s … did you mean TXT?", err, want)
	}
}
