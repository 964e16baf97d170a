package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUTF16TextIsNotSure: a config exported as UTF-16 with no byte
// order mark (SQL Server's bcp -w, a .NET writer with none) is valid
// UTF-8, every other byte NUL, so it reached the scope as
// "P\x00a\x00s\x00s…": `"PasswordAuthentication yes" in conf.content`
// was a plain no, and an audit said pass, Consistent, over a file that
// allows passwords. It is a not-utf8 item now, naming the order and the
// iconv that reads it; UTF-16 with its mark says so in the same item, not
// "WINDOWS-1252"; a plain text, and a NUL-ended list, are not flagged.
func TestUTF16TextIsNotSure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	le := func(s string) []byte {
		var b []byte
		for _, c := range []byte(s) {
			b = append(b, c, 0)
		}
		return b
	}
	const conf = "PasswordAuthentication yes\nPort 22\n"
	for _, tc := range []struct {
		name string
		body []byte
		said string
	}{
		{"utf-16le", le(conf), "it is UTF-16LE, two bytes a character"},
		{"utf-16le with its mark", append([]byte{0xff, 0xfe}, le(conf)...), "it begins with the bytes ff fe, UTF-16's byte order mark"},
		{"utf-8", []byte(conf), ""},
		{"nul-ended list", []byte("/etc/passwd\x00/etc/shadow\x00/etc/group\x00"), ""},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".conf")
		if err := os.WriteFile(file, tc.body, 0o600); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: sshd-passwords
result: {kind: verdict/audit, decider: Audit}
stages:
  - id: conf
    read: {path: '"`+file+`"', parse: lines}
  - id: audit
    name: Audit
    decide:
      rules:
        - {when: '"PasswordAuthentication yes" in conf.content', then: fail, label: takes passwords}
      default: {branch: pass, label: no line takes passwords}
    branches:
      fail: [{id: f, verdict: {subject: '"sshd"', verdict: '"fail"'}}]
      pass: [{id: p, verdict: {subject: '"sshd"', verdict: '"pass"'}}]
`)
		r := runCLI(t, dir, "exec", chart)
		if tc.said == "" {
			if strings.Contains(r.stdout, "Not sure") {
				t.Errorf("%s: flagged:\n%s", tc.name, r.stdout)
			}
			continue
		}
		if !strings.Contains(r.stdout, `Not sure — stage "conf" did not check the file `+file) || !strings.Contains(r.stdout, tc.said) || strings.Contains(r.stdout, "WINDOWS-1252") {
			t.Errorf("%s: want Not sure, saying %q and no WINDOWS-1252:\n%s", tc.name, tc.said, r.stdout)
		}
	}
}
