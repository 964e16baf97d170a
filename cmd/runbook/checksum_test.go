package main

import (
	"strings"
	"testing"
)

// checksumChart is a manifest check as a configuration manager writes
// it: `sha256sum --quiet -c` prints only the files that failed, so no row
// is the answer "every file matches" (result.empty: answer), and its exit
// 1 is the answer "some failed". The script stands in for sha256sum: it
// prints out, says stderr and exits exit.
func checksumChart(out, stderr, exit string) string {
	return `version: 1
runbook: manifest
result:
  kind: verdict/checksum
  decider: Checksum
  empty: answer
  nagios: {critical: [mismatch, unreadable]}
stages:
  - id: check
    exec:
      exitCodes: {0: all-ok, 1: some-failed}
      parse: {as: regex, pattern: '^(?P<file>.+): (?P<result>OK|FAILED open or read|FAILED)$'}
      shell: |
        printf '` + out + `'
        printf '` + stderr + `' >&2
        exit ` + exit + `
  - id: per
    foreach:
      items: check.stdout
      as: f
      maxBranches: 100
      stages:
        - id: judge
          name: Checksum
          decide:
            rules:
              - {when: f.result == "FAILED", then: mismatch, label: its digest differs}
              - {when: f.result == "FAILED open or read", then: unreadable, label: it could not be read}
            default: {branch: ok, label: its digest matches}
          branches:
            mismatch: [{id: m, verdict: {subject: f.file, verdict: '"mismatch"'}}]
            unreadable: [{id: u, verdict: {subject: f.file, verdict: '"unreadable"'}}]
            ok: [{id: o, verdict: {subject: f.file, verdict: '"ok"'}}]
`
}

// TestChecksumListThatCheckedNothingIsNoAnswer: `sha256sum --quiet -c
// SUMS` over an empty manifest (or one written by another tool: md5sum's
// digests, BSD tags) prints nothing, says `no properly formatted checksum
// lines found` and exits 1; with --ignore-missing over a manifest whose
// every file is missing it says `no file was verified`, exit 1. Under
// `exitCodes: {1: some-failed}` and `empty: answer` the check said `OK -
// no verdict rows`, Consistent: every file matches, over no file checked.
// Its words are a searched-nothing item now: UNKNOWN, Not sure. A real
// mismatch (stderr's `computed checksum did NOT match`) is still
// CRITICAL, Consistent, under --ignore-missing too, where coreutils 9.1
// says `no file was verified` over a file that did not match
// (testdata/wave-drift/quiet).
func TestChecksumListThatCheckedNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, out, stderr string
		want              int
		standing          string
	}{
		{"empty manifest", ``, `sha256sum: SUMS: no properly formatted checksum lines found\n`, 3, `Not sure — stage "check" did not check its answer (it said on stderr that it found no line of its list it could read`},
		{"every file missing", ``, `sha256sum: SUMS: no file was verified\n`, 3, `Not sure — stage "check" did not check its answer (it said on stderr that it checked no file`},
		{"one mismatch", `etc/app.conf: FAILED\n`, `sha256sum: WARNING: 1 computed checksum did NOT match\n`, 2, "Consistent with the run's record"},
		// coreutils 9.1 says it under --ignore-missing when no file
		// matched, over a mismatch it printed too: the row is the answer
		{"one mismatch, ignore missing", `etc/app.conf: FAILED\n`, `sha256sum: WARNING: 1 computed checksum did NOT match\nsha256sum: SUMS: no file was verified\n`, 2, "Consistent with the run's record"},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", checksumChart(tc.out, tc.stderr, "1"))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.Contains(r.stdout, "\n"+tc.standing) {
			t.Errorf("%s: exit %d; want %d and the standing %s:\n%s", tc.name, r.code, tc.want, tc.standing, r.stdout)
		}
	}
}

// TestChecksumLineNotReadIsNoWholeAnswer: a manifest line sha256sum
// cannot read (a digest cut short, a line a hand edited) is skipped: it
// says `WARNING: 1 line is improperly formatted` and checks the others,
// exit 0 (1 under --strict, the code of a mismatch too). The check said
// `OK - 4 ok`, Consistent, over a file nobody checked. It is a not-checked
// item now, under exit 0 and under the declared 1 alike: UNKNOWN, Not sure.
func TestChecksumLineNotReadIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, exit := range []string{"0", "1"} {
		chart := writeChart(t, dir, "exit"+exit+".yaml", checksumChart(`a: OK\nb: OK\n`, `sha256sum: WARNING: 1 line is improperly formatted\n`, exit))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != 3 || !strings.Contains(r.stdout, "\n"+`Not sure — stage "check" did not check its output (it said on stderr that it skipped lines of its list it could not read`) {
			t.Errorf("exit %s: exit %d; want 3 and the standing to say a line was skipped:\n%s", exit, r.code, r.stdout)
		}
	}
}

// TestChecksumListNotThereIsNoAnswer: `sha256sum --quiet -c LIST` over a
// list that is not there (a path misspelt, a manifest never written)
// prints nothing, says `LIST: No such file or directory` and exits 1, its
// code for a mismatch; a missing file the list names is a `FAILED open or
// read` line on stdout instead. Under `exitCodes: {1: some-failed}` and
// `empty: answer` the check said `OK - no verdict rows`, Consistent, over
// no list read. A checksum check that exited with a declared code,
// printed nothing and said a file was not there (or was a folder) is a
// searched-nothing item now: UNKNOWN, Not sure. `stat` with `{1:
// missing}` over a missing file is still the answer missing
// (TestRefusalUnderDeclaredCodeIsNoAnswer's chart).
func TestChecksumListNotThereIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stderr string
		want         int
	}{
		{"list not there", `sha256sum: /var/lib/drift/app.sha256: No such file or directory\n`, 3},
		{"list a folder", `sha256sum: /var/lib/drift: Is a directory\n`, 3},
	} {
		// the script stands in for sha256sum by a function of its name
		body := checksumChart("", tc.stderr, "1")
		body = strings.Replace(body, "        printf ''\n", "        sha256sum() {\n", 1)
		body = strings.Replace(body, "        exit 1\n", "        return 1\n        }\n        sha256sum --quiet -c /var/lib/drift/app.sha256\n", 1)
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", body)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.Contains(r.stdout, "\n"+`Not sure — stage "check" did not check its answer (it said on stderr that it could not open a file it was given`) {
			t.Errorf("%s: exit %d; want %d, Not sure, saying it could not open the list:\n%s", tc.name, r.code, tc.want, r.stdout)
		}
	}
}
