package chart

import (
	"path/filepath"
	"strings"
)

// XFSQuotaReport says whether the exec runs xfs_quota with a `report`
// command (-c 'report …'): xfs_quota reports each filesystem it is given
// whose quota accounting of the kind asked is on, and over one whose is
// off (mounted without uquota, gquota or pquota; a kernel without quota
// support), or over a path it does not take for an XFS, prints nothing
// and exits 0, so its silence is no report of nobody over a limit: with
// accounting on, the report lists root at least, who owns the
// filesystem's root folder (runbook's xfsQuotaBlank,
// record.XFSQuotaBlankEntry). A report of a range of ids (-L, -U) may
// leave root out and hold none, and is not judged so.
func (e *ExecSpec) XFSQuotaReport() bool {
	return e.noteOfEachCommand(xfsQuotaReport) != ""
}

// xfsQuotaReport is "xfs_quota" when argv is such an xfs_quota
// (XFSQuotaReport), "" otherwise.
func xfsQuotaReport(argv []string) string {
	if len(argv) == 0 || filepath.Base(argv[0]) != "xfs_quota" {
		return ""
	}
	for i, a := range argv[1:] {
		cmd := ""
		switch {
		case a == "-c" && i+2 < len(argv):
			cmd = argv[i+2]
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			cmd = a[2:]
		default:
			continue
		}
		f := strings.Fields(cmd)
		if len(f) == 0 || f[0] != "report" {
			continue
		}
		for _, o := range f[1:] {
			if strings.HasPrefix(o, "-L") || strings.HasPrefix(o, "-U") {
				// a range of ids may hold none with usage, root left out
				return ""
			}
		}
		return "xfs_quota"
	}
	return ""
}
