package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// rsync ends every failure with `rsync error: … (code N)`, its 23 over a
// source path misspelt and over a folder it may not read alike, and a
// drift check that declared 23 an answer (`{0: clean, 23: partial, 24:
// vanished}`) with rows from `rsync -n -i --delete`'s itemized lines said
// `OK - no verdict rows`, Consistent, over a source misspelt, a tree it
// never compared. Its 24 (`rsync warning: some files vanished …`) is an
// answer still, and so is a 23 the chart gave the stderr its answer goes
// with.
func TestRsyncErrorUnderDeclaredCodeIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const (
		misspelt   = "rsync: [sender] change_dir \"/srv/dtaa\" failed: No such file or directory (2)\nrsync error: some files/attrs were not transferred (see previous errors) (code 23) at main.c(1394) [sender=3.5.0]\n"
		unreadable = "rsync: [sender] opendir \"/srv/data/sub\" failed: Permission denied (13)\nrsync error: some files/attrs were not transferred (see previous errors) (code 23) at main.c(1394) [sender=3.5.0]\n"
		vanished   = "file has vanished: \"/srv/data/tmp.1\"\nrsync warning: some files vanished before they could be transferred (code 24) at main.c(1394) [sender=3.5.0]\n"
	)
	for _, tc := range []struct {
		name, stdout, stderr, exit, codes string
		reads                             bool // the chart judges dry.status
		want                              int
		line, standing                    string
	}{
		{"source misspelt", "", misspelt, "23", "{0: clean, 23: partial, 24: vanished}", false,
			3, "rsync-drift UNKNOWN - 1 stage did not check everything (dry), no verdict rows", `but rsync said on stderr that it failed, and it exits with that code over a source path misspelt as over a folder it may not read, printing only what it reached and skipping --delete, so "partial" is not known and what it printed is no whole comparison; stderr's first such line: "rsync: [sender] change_dir \"/srv/dtaa\" failed: No such file or directory (2)"`},
		{"folder not read", ">fcs....... a\n", unreadable, "23", "{0: clean, 23: partial, 24: vanished}", false,
			2, "rsync-drift CRITICAL - 1 stage did not check everything (dry), 1 differs (a)\nCRITICAL a: differs (not judged: dry did not check its answer)", "Not sure"},
		{"misspelt and judged", "", misspelt, "23", "{0: clean, 23: partial, 24: vanished}", true,
			2, "rsync-drift CRITICAL - 1 stage did not check everything (dry), 1 partial (/srv/dtaa/)", "Not sure"},
		{"files vanished", ">fcs....... a\n", vanished, "24", "{0: clean, 23: partial, 24: vanished}", false,
			2, "rsync-drift CRITICAL - 1 differs (a)", "Consistent with the run's record"},
		{"23 given its stderr", "", misspelt, "23", `{0: clean, 23: {word: partial, stderr: "some files/attrs were not transferred"}}`, true,
			2, "rsync-drift CRITICAL - 1 partial", "Consistent with the run's record"},
		{"in sync", "", "", "0", "{0: clean, 23: partial, 24: vanished}", true,
			0, "rsync-drift OK - no verdict rows", "Consistent with the run's record"},
	} {
		stages := func(reads bool) string {
			if reads {
				return rsyncJudged
			}
			return rsyncListed
		}
		name := strings.ReplaceAll(tc.name, " ", "-")
		rsync := filepath.Join(dir, name+".rsync")
		script := "#!/bin/sh\nprintf '" + strings.ReplaceAll(tc.stdout, "\n", `\n`) + "'\nprintf '%s' '" + tc.stderr + "' >&2\nexit " + tc.exit + "\n"
		if err := writeExec(rsync, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: rsync-drift
result: {kind: verdict/file, empty: answer, nagios: {critical: [differs, partial]}}
stages:
  - id: dry
    exec:
      command: [`+rsync+`, -a, -n, -i, -c, --delete, /srv/dtaa/, /mirror/]
      exitCodes: `+tc.codes+`
      parse: {as: regex, pattern: '^(?P<change>\*deleting|[<>ch.*][fdLDS][^ ]{9}) +(?P<name>.*)$'}
`+stages(tc.reads)+``)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if r.code != tc.want || !strings.HasPrefix(r.stdout, tc.line) || !strings.Contains(r.stdout, tc.standing) {
			t.Errorf("%s: exit %d; want %d, the line %q and %q:\n%s", tc.name, r.code, tc.want, tc.line, tc.standing, r.stdout)
		}
	}
}

// rsyncJudged judges the status rsync's code gave; rsyncListed reads
// its itemized lines alone.
const (
	rsyncJudged = `  - id: whole
    name: Whole
    decide:
      rules:
        - {when: 'dry.status == "partial"', then: partial, label: rsync said some files were not transferred}
      default: {branch: listed, label: the itemized list}
    branches:
      partial: [{id: p, verdict: {subject: '"/srv/dtaa/"', verdict: '"partial"'}}]
      listed:
        - id: per
          foreach:
            items: dry.stdout
            as: it
            maxBranches: 100
            stages:
              - id: d
                verdict: {subject: it.name, verdict: '"differs"'}
`
	rsyncListed = `  - id: per
    foreach:
      items: dry.stdout
      as: it
      maxBranches: 100
      stages:
        - id: d
          verdict: {subject: it.name, verdict: '"differs"'}
`
)
