package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGlobMatchOfADanglingLinkIsNoWholeAnswer: a check of the TLS
// certificates Apache's enabled sites name read them with `read: {glob:
// "/etc/apache2/sites-enabled/*.conf"}`. One enabled site was a symbolic
// link whose file in sites-available had been removed; the glob matched
// it, the read gave it exists: false and content null with nothing on
// the ledger, the chart said what null means (`#.content ?? []`), as the
// run's own error told it to, and the check said `OK - 2 ok`, Consistent,
// over a site whose certificate nobody looked at. A name a glob matched
// with no file behind it is a not-checked item now, the link's target
// named, the rest read: UNKNOWN.
func TestGlobMatchOfADanglingLinkIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	avail, enabled := filepath.Join(dir, "sites-available"), filepath.Join(dir, "sites-enabled")
	for _, d := range []string{avail, enabled} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"a", "b", "gone"} {
		conf := "<VirtualHost *:443>\n    SSLCertificateFile /etc/ssl/" + s + ".pem\n</VirtualHost>\n"
		if err := os.WriteFile(filepath.Join(avail, s+".conf"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../sites-available/"+s+".conf", filepath.Join(enabled, s+".conf")); err != nil {
			t.Fatal(err)
		}
	}
	chart := writeChart(t, dir, "certs.yaml", `version: 1
runbook: certs
result:
  kind: verdict/cert
  decider: Cert
  nagios: {ok: [ok], critical: [none]}
stages:
  - id: sites
    read: {glob: '"sites-enabled/*.conf"', parse: lines}
  - id: facts
    set:
      certs: 'map(filter(flatten(map(sites, #.content ?? [])), # contains "SSLCertificateFile"), trim(replace(#, "SSLCertificateFile", "")))'
  - id: per
    foreach:
      items: certs
      as: cert
      maxBranches: 100
      stages:
        - id: c
          name: Cert
          decide:
            rules:
              - {when: 'cert == ""', then: none, label: No file named}
            default: {branch: ok, label: A file named}
          branches:
            none: [{id: m1, verdict: {subject: cert, verdict: '"none"'}}]
            ok: [{id: m2, verdict: {subject: cert, verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if want := "certs OK - 3 ok"; r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("every link whole: exit %d:\n%s%s\nwant exit 0 and %q first", r.code, r.stdout, r.stderr, want)
	}
	if err := os.Remove(filepath.Join(avail, "gone.conf")); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "exec", chart, "--format", "nagios")
	want := "certs UNKNOWN - 1 stage did not check everything (sites), 2 ok"
	why := `UNKNOWN: sites did not check files matching "sites-enabled/*.conf": it could not read "sites-enabled/gone.conf" (it is a symbolic link to ../sites-available/gone.conf, which is not there)`
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, why) {
		t.Errorf("a dangling link: exit %d:\n%s%s\nwant exit 3, %q first, and %q", r.code, r.stdout, r.stderr, want, why)
	}
}

