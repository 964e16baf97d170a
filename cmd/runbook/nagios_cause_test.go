package main

import (
	"strings"
	"testing"
)

// TestNagiosQuotesTheCauseNotTheHint: git run over a repository another
// user owns (etckeeper's /etc, checked by a monitoring user) exits 128,
// says `fatal: detected dubious ownership in repository at '/etc'`, then
// `To add an exception for this directory, call:` and the command,
// indented. The check's line quoted stderr's last line, the command
// `git config --global --add safe.directory /etc`, as if that were why
// it failed. A line that is indented (a command, a hint's body) or ends
// with ':' (what introduces one) is passed over for the last line before
// it that is neither; stderr of such lines alone is quoted by its last
// (testdata/wave-drift/etc-git).
func TestNagiosQuotesTheCauseNotTheHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, stderr, want string }{
		{"git", `fatal: detected dubious ownership in repository at '"'"'/etc'"'"'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /etc\n`, `"fatal: detected dubious ownership in repository at '/etc'"`},
		{"indented alone", `\tonly an indented line\n`, `"only an indented line"`},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: etc-drift
result: {kind: verdict/tracked-file, empty: answer}
stages:
  - id: status
    exec:
      parse: lines
      shell: |
        printf '`+tc.stderr+`' >&2
        exit 128
  - id: v
    verdict: {subject: '"etc"', verdict: '"clean"'}
`)
		r := runCLI(t, dir, "exec", chart, "-o", "nagios")
		want := "UNKNOWN: script status completed with failure, exit 128: the rows rest on no answer of it; its stderr's last line: " + tc.want
		if want2 := strings.Replace(want, "its stderr's last line", "its stderr's last line before a hint", 1); !strings.Contains(r.stdout, want+"\n") && !strings.Contains(r.stdout, want2+"\n") {
			t.Errorf("%s: want the line %q:\n%s", tc.name, want, r.stdout)
		}
	}
}
