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
	if r.code != 3 || !strings.HasPrefix(r.stdout, "syslog-errors UNKNOWN - 1 stage did not check everything (files), 1 ok\n") {
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
