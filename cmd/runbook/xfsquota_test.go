package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestXFSQuotaReportOfNothingIsNoAnswer: xfs_quota's report passes in
// silence over a filesystem whose quota accounting is off (its quotactl
// fails ESRCH, and report falls back without a word): `xfs_quota -x -c
// 'report -N -b -u' MNT` over an XFS mounted without uquota printed
// nothing, exit 0, and a check of users over their limits whose rows are
// findings only (empty: answer) said `OK - no verdict rows`, Consistent
// (testdata/wave-btrfs/xfs-quota). With accounting on the report lists
// root at least. Now a not-checked item (xfs-quota-blank): Not sure,
// UNKNOWN. A report with rows is judged as before.
func TestXFSQuotaReportOfNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout, status string
		code                 int
		said                 string
	}{
		{"quota off", "", "quota UNKNOWN - 1 stage did not check everything (report), no verdict rows", 3,
			"it runs xfs_quota's report and printed nothing though it exited 0"},
		{"nobody over", "root            0          0          0     00 [--------]\nalice        1024     102400     204800     00 [--------]\n",
			"quota OK - no verdict rows", 0, "Consistent"},
		{"alice over", "root            0          0          0     00 [--------]\nalice      150000     102400     204800     00 [6 days]\n",
			"quota WARNING - 1 over-soft", 1, "Consistent"},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		tool := fakeTool(t, filepath.Join(dir, name, "xfs_quota"), tc.stdout, "", 0)
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: quota
result: {kind: verdict/quota, decider: Over, empty: answer, nagios: {warning: [over-soft], critical: [over-hard]}}
stages:
  - id: report
    exec:
      command: [`+tool+`, -x, -c, report -N -b -u, /srv]
      parse: {as: regex, pattern: '^(?P<user>\S+)\s+(?P<used>\d+)\s+(?P<soft>\d+)\s+(?P<hard>\d+)\s'}
  - id: pick
    set:
      over: 'filter(report.stdout, #.soft > 0 && #.used > #.soft || #.hard > 0 && #.used >= #.hard)'
  - id: per
    foreach:
      items: over
      as: q
      maxBranches: 1000
      stages:
        - id: judge
          name: Over
          decide:
            rules:
              - {when: q.hard > 0 && q.used >= q.hard, then: hard, label: at or over the hard limit}
            default: {branch: soft, label: over the soft limit}
          branches:
            hard: [{id: h, verdict: {subject: q.user, verdict: '"over-hard"'}}]
            soft: [{id: s, verdict: {subject: q.user, verdict: '"over-soft"'}}]
`)
		nagiosSays(t, dir, tc.name, tc.status, tc.code, tc.said, "exec", chart, "--format", "nagios")
	}
}
