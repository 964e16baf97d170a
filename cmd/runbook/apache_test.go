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

// TestOpenSSLFailureUnderDeclaredCodeIsNoAnswer: a check that the
// certificate each Apache site names outlives two weeks ran `openssl x509
// -noout -checkend 1209600 -in FILE` with `exitCodes: {0: ok, 1:
// expiring}`. OpenSSL exits 1 over a certificate that expires and as much
// over a file it could not read: a path misspelt, SSLCertificateFile
// pointing at the key, a broken PEM. Both said `expiring`, Consistent,
// over a certificate nobody read. OpenSSL's own failure lines (its error
// stack, `Could not open file or uri for loading …`, `Could not read
// certificate from …`) under a declared code are a not-checked item now
// (kind tool-error): Not sure; an expiring certificate, which OpenSSL
// says on stdout with nothing on stderr, stays Consistent.
func TestOpenSSLFailureUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout, stderr string
		standing, says       string
	}{
		{"not there", "", "Could not open file or uri for loading certificate from /etc/ssl/nope.pem\n" +
			"40B7437AE67F0000:error:16000069:STORE routines:ossl_store_get0_loader_int:unregistered scheme:../crypto/store/store_register.c:237:scheme=file\n" +
			"40B7437AE67F0000:error:80000002:system library:file_open:No such file or directory:../providers/implementations/storemgmt/file_store.c:266:calling stat(/etc/ssl/nope.pem)\n" +
			"Unable to load certificate\n",
			"Not sure", `stderr's first such line: "Could not open file or uri for loading certificate from /etc/ssl/nope.pem"`},
		{"a key in its place", "", "Could not read certificate from /etc/ssl/site.key\n" +
			"40F75BA26E7F0000:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:../crypto/store/store_result.c:149:\n" +
			"Unable to load certificate\n",
			"Not sure", `but OpenSSL said on stderr that it failed`},
		{"openssl 1.1", "", "unable to load certificate\n140234567890:error:0909006C:PEM routines:get_name:no start line:crypto/pem/pem_lib.c:745:Expecting: TRUSTED CERTIFICATE\n",
			"Not sure", `stderr's first such line: "unable to load certificate"`},
		{"expiring", "Certificate will expire\n", "", "Consistent with the run's record", "| expiring |"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		openssl := filepath.Join(dir, name+".openssl")
		script := "#!/bin/sh\nprintf '" + strings.ReplaceAll(tc.stdout, "\n", `\n`) + "'\nprintf '%s' '" + tc.stderr + "' >&2\nexit 1\n"
		if err := writeExec(openssl, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: cert
result: {kind: verdict/cert, decider: Expiry, nagios: {ok: ok, warning: expiring}}
stages:
  - id: check
    exec: {command: [`+openssl+`, x509, -noout, -checkend, "1209600", -in, /etc/ssl/site.pem], exitCodes: {0: ok, 1: expiring}}
  - id: judge
    name: Expiry
    decide:
      rules:
        - {when: 'check.status == "expiring"', then: expiring, label: Expires within two weeks}
      default: {branch: ok, label: Valid two weeks more}
    branches:
      expiring: [{id: e, verdict: {subject: '"site"', verdict: '"expiring"'}}]
      ok: [{id: o, verdict: {subject: '"site"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart)
		if !strings.Contains(r.stdout, tc.standing) || !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: exit %d:\n%s\nwant %q and %q", tc.name, r.code, r.stdout, tc.standing, tc.says)
		}
	}
}

// TestRefusalBesideTheAnswersStderrIsNoAnswer: a config check ran
// `apache2ctl configtest` with `exitCodes: {0: valid, 1: {word: invalid,
// stderr: Syntax error}}`, giving the answer the stderr it goes with as
// the docs advise. Run as a user who may not read one enabled site,
// Apache says `Syntax error on line 225 of /etc/apache2/apache2.conf:
// Could not open configuration file …: Permission denied`, exit 1, and
// the check said `invalid`, CRITICAL, Consistent, over a config nobody
// read whole. A stderr text that names no refusal vouches for none now:
// a refusal beside it is a not-checked item (kind denied), Not sure. A
// real syntax error stays invalid, Consistent, and a text that IS the
// refusal (`{1: {word: not-readable, stderr: Permission denied}}`) stays
// the answer.
func TestRefusalBesideTheAnswersStderrIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr, keyed, word string
		says                      string
	}{
		{"a site it may not read", "apache2: Syntax error on line 225 of /etc/apache2/apache2.conf: Could not open configuration file /etc/apache2/sites-enabled/secret.conf: Permission denied\nAction 'configtest' failed.\nThe Apache error log may have more information.\n",
			"Syntax error", "invalid", `Not sure — stage "check" did not check its answer (it exited 1, which exitCodes: declares the answer "invalid" where stderr says "Syntax error", and it did, but it said on stderr too that it was refused access`},
		{"a directive misspelt", "AH00526: Syntax error on line 1 of /etc/apache2/conf-enabled/typo.conf:\nInvalid command 'ServerNme', perhaps misspelled or defined by a module not included in the server configuration\nAction 'configtest' failed.\nThe Apache error log may have more information.\n",
			"Syntax error", "invalid", "Consistent with the run's record"},
		{"the refusal is the answer", "cat: /etc/shadow: Permission denied\n",
			"Permission denied", "not-readable", "Consistent with the run's record"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := filepath.Join(dir, name+".sh")
		script := "#!/bin/sh\ncat >&2 <<'END'\n" + tc.stderr + "END\nexit 1\n"
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: config
result: {kind: verdict/config, decider: Config, nagios: {ok: valid, critical: [`+tc.word+`]}}
stages:
  - id: check
    exec: {command: [`+tool+`], exitCodes: {0: valid, 1: {word: `+tc.word+`, stderr: "`+tc.keyed+`"}}}
  - id: judge
    name: Config
    decide:
      rules:
        - {when: 'check.status == "`+tc.word+`"', then: bad, label: Refused}
      default: {branch: ok, label: Accepted}
    branches:
      bad: [{id: b, verdict: {subject: '"apache2"', verdict: '"`+tc.word+`"'}}]
      ok: [{id: o, verdict: {subject: '"apache2"', verdict: '"valid"'}}]
`)
		r := runCLI(t, dir, "exec", chart)
		if !strings.Contains(r.stdout, "| apache2 | "+tc.word) || !strings.Contains(r.stdout, tc.says) {
			t.Errorf("%s: exit %d:\n%s%s\nwant the row %q and %q", tc.name, r.code, r.stdout, r.stderr, tc.word, tc.says)
		}
	}
}
