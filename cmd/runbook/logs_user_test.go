package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// logsUserChart is an SRE's "any errors in the syslog" check over a log
// and its rotated siblings, read with read: and glob:, as CHARTS.md's
// read section shows.
const logsUserChart = `
version: 1
runbook: syslog-errors
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: files
    SOURCE
  - id: count
    set:
      errors: 'len(filter(LINES, # contains "ERROR"))'
  - id: verdict
    name: Errors
    decide:
      rules:
        - {when: 'errors > 0', then: bad, label: errors logged}
      default: {branch: fine, label: no errors}
    branches:
      bad: [{id: b, verdict: {subject: '"syslog"', verdict: '"critical"'}}]
      fine: [{id: f, verdict: {subject: '"syslog"', verdict: '"ok"'}}]
`

// writeRotatedSyslog writes dir/var/syslog, syslog.1 and syslog.2.gz as
// logrotate leaves them (delaycompress: the newest rotation plain, older
// ones gzipped); only the gzipped one holds an ERROR line.
func writeRotatedSyslog(t *testing.T, dir string) {
	t.Helper()
	v := filepath.Join(dir, "var")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	if _, err := w.Write([]byte("Dec  5 23:10:00 web1 app[99]: ERROR payment failed\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"syslog":      []byte("Dec  6 09:58:01 web1 nginx[811]: worker ok\n"),
		"syslog.1":    []byte("Dec  6 06:10:00 web1 cron[12]: job done\n"),
		"syslog.2.gz": gz.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(v, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRotatedGzipSiblingSaysUnpackIt: a read: glob over var/syslog*
// matched syslog.2.gz, whose bytes are gzip's; the check is UNKNOWN (its
// lines were never read, so "no ERROR line" is no answer), and the words
// said to convert the file with iconv -f WINDOWS-1252, which never reads a
// gzip file. They now say it is gzip-compressed and to read it with zcat
// -f; the chart so written reads the ERROR the .gz held.
func TestRotatedGzipSiblingSaysUnpackIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeRotatedSyslog(t, dir)
	read := strings.NewReplacer("SOURCE", `read: {glob: '"var/syslog*"', parse: lines}`, "LINES", "flatten(map(files, .content))").Replace(logsUserChart)
	writeChart(t, dir, "read.yaml", read)
	r := runCLI(t, dir, "exec", "read.yaml", "-o", "nagios")
	// the ok row rests on the count set: from the files, so it is not
	// judged either
	if r.code != 3 || !strings.HasPrefix(r.stdout, "syslog-errors UNKNOWN - 1 stage did not check everything (files), 1 ok (1 not judged: syslog)\n") {
		t.Fatalf("exit %d\n%s%s\nwant UNKNOWN over a .gz never read", r.code, r.stdout, r.stderr)
	}
	want := "it is gzip-compressed (it begins with the bytes 1f 8b), so none of the lines it holds were read: unpack it where it is read, exec: {command: [zcat, -f, var/syslog.2.gz], parse: lines} in place of read:"
	if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "iconv") {
		t.Errorf("the words do not say to unpack it:\n%s\nwant them to hold %q and no iconv", r.stdout, want)
	}
	// The advice, taken, reads every file and finds the ERROR.
	unpack := strings.NewReplacer("SOURCE", `exec: {shell: zcat -f var/syslog*, parse: lines}`, "LINES", "files.stdout").Replace(logsUserChart)
	writeChart(t, dir, "unpack.yaml", unpack)
	if r := runCLI(t, dir, "exec", "unpack.yaml", "-o", "nagios"); r.code != 2 || !strings.HasPrefix(r.stdout, "syslog-errors CRITICAL - 1 critical (syslog)") {
		t.Errorf("zcat -f: exit %d\n%s%s\nwant CRITICAL over the .gz's ERROR", r.code, r.stdout, r.stderr)
	}
}

// TestSyslogNewYearWindowReadsLastYearsLines: a syslog stamp has no year,
// and date()'s error told the author to add this year; at 00:30 on New
// Year's Day that put syslog.1's week-old errors in the December to come,
// and a window rule now() - t < duration("2h") said critical over them
// (or, written t <= now(), missed last night's 23:50 error). The error a
// user sees now gives a recipe that takes last year's where this year's
// is more than a day ahead, and testdata/charttest/syslog-newyear, a
// chart written with it, passes its New Year cases in every zone.
func TestSyslogNewYearWindowReadsLastYearsLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeChart(t, dir, "noyear.yaml", `
version: 1
runbook: noyear
stages:
  - id: s
    set: {recent: 'now() - date("Dec 31 23:50:00", "Jan _2 15:04:05") < duration("2h")'}
`)
	r := runCLI(t, dir, "exec", "noyear.yaml")
	want := `let t = date(string(now().Year()) + " " + x, "2006 Jan _2 15:04:05", "Local"); t > now() + duration("24h") ? t.AddDate(-1, 0, 0) : t`
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d\n%s\nwant exit 1 and the error to give the recipe %s", r.code, r.stderr, want)
	}
	for _, tz := range []string{"UTC", "Asia/Tokyo", "America/New_York"} {
		r := runCLIEnv(t, "../..", []string{"TZ=" + tz}, "test", "testdata/charttest/syslog-newyear")
		if r.code != 0 || !strings.Contains(r.stdout, "3 passed, 0 failed") {
			t.Errorf("TZ=%s: exit %d\n%s%s", tz, r.code, r.stdout, r.stderr)
		}
	}
}

// journalChart counts the journal's ERROR lines over the last hours, from
// journalctl -o json (a stand-in on PATH).
const journalChart = `
version: 1
runbook: journal-errors
inputs:
  since: {type: duration, default: 2h}
result: {kind: verdict/errors, decider: Errors}
stages:
  - id: j
    exec: {command: [journalctl, -o, json, --since, "-${since}"], parse: jsonl}
  - id: count
    set:
      errors: 'len(filter(j.stdout, int(#.PRIORITY) <= 3 && #.MESSAGE contains "ERROR"))'
  - id: verdict
    name: Errors
    decide:
      rules:
        - {when: 'errors > 0', then: bad, label: errors logged}
      default: {branch: fine, label: no errors}
    branches:
      bad: [{id: b, verdict: {subject: '"journal"', verdict: '"critical"'}}]
      fine: [{id: f, verdict: {subject: '"journal"', verdict: '"ok"'}}]
`

// TestJournalMessageTooLongIsNoOk: journalctl -o json writes a field over
// 4096 bytes as null, so an error whose stack trace was long has
// "MESSAGE": null; expr's contains gave false over it and the check said
// journal-errors OK, Consistent, exit 0, over an error of priority 3 in
// the window. The run now stops at the stage with words that say the
// message is null, why journalctl writes one and what to write; a
// message journalctl wrote as its bytes (not UTF-8) is said as bytes,
// where it was Go's "interface conversion" panic text.
func TestJournalMessageTooLongIsNoOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	stand := "#!/bin/sh\n# journalctl -o json, as a journal holding these entries prints them\ncat journal.jsonl\n"
	if err := writeExec(filepath.Join(bin, "journalctl"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{
		"long": `{"__REALTIME_TIMESTAMP":"1796551322123456","PRIORITY":"6","_SYSTEMD_UNIT":"nginx.service","MESSAGE":"started"}
{"__REALTIME_TIMESTAMP":"1796555000000000","PRIORITY":"3","_SYSTEMD_UNIT":"app.service","MESSAGE":null}
`,
		"bytes": `{"__REALTIME_TIMESTAMP":"1796555000000000","PRIORITY":"3","_SYSTEMD_UNIT":"app.service","MESSAGE":[69,82,82,79,82,32,100,98,255]}
`,
	}
	for name, text := range entries {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "journal.jsonl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		writeChart(t, filepath.Join(dir, name), "journal.yaml", journalChart)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	// The same chart written with matches, as a case-insensitive scan is.
	writeChart(t, filepath.Join(dir, "long"), "matches.yaml", strings.Replace(journalChart, `#.MESSAGE contains "ERROR"`, `#.MESSAGE matches "(?i)error"`, 1))
	for _, tc := range []struct{ fixture, chart, want string }{
		{"long", "journal.yaml", `.MESSAGE contains "ERROR": contains reads text, and its left side is null: a member the object holds as null or lacks (journalctl -o json writes a field over 4096 bytes as null; --all keeps it)`},
		{"bytes", "journal.yaml", `.MESSAGE contains "ERROR": contains reads text, and its left side is a list of 9 numbers from 0 to 255: bytes, as journalctl -o json writes a field that is not UTF-8`},
		{"long", "matches.yaml", `.MESSAGE matches "(?i)error": matches reads text, and its left side is null`},
	} {
		r := runCLIEnv(t, filepath.Join(dir, tc.fixture), []string{path}, "exec", tc.chart, "--input", "since=2h", "-o", "nagios")
		if r.code != 3 || !strings.HasPrefix(r.stdout, "journal-errors UNKNOWN - ") || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("%s %s: exit %d\n%s%s\nwant UNKNOWN, exit 3, saying %s", tc.fixture, tc.chart, r.code, r.stdout, r.stderr, tc.want)
		}
	}
}

// TestGlobDoubleStarIsNoOk: glob: '"g/**/*.log"', meant as bash's
// globstar reads it, read g/app/a.log alone (Go's glob reads "**" as
// "*"), so the ERROR lines of g/top.log and g/app/2026/12/b.log were never
// read: `g3 OK - 1 ok`, Consistent, exit 0. The check is UNKNOWN now,
// naming the pattern and the depths to write.
func TestGlobDoubleStarIsNoOk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"g/top.log": "ERROR top\n", "g/app/a.log": "ok\n", "g/app/2026/12/b.log": "ERROR deep\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeChart(t, dir, "g3.yaml", strings.NewReplacer("SOURCE", `read: {glob: '"g/**/*.log"', parse: lines}`, "LINES", "flatten(map(files, .content))", "syslog-errors", "g3").Replace(logsUserChart))
	r := runCLI(t, dir, "exec", "g3.yaml", "-o", "nagios")
	want := `g3 UNKNOWN - the run failed at files: read glob "g/**/*.log": "**" does not match folders at any depth here`
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, `name each depth in a read: of its own (glob: '"g/*.log"', then '"g/*/*.log"', …)`) {
		t.Errorf("exit %d\n%s%s\nwant exit 3 and %s", r.code, r.stdout, r.stderr, want)
	}
}
