package chart

import (
	"regexp"
	"strings"
)

// mdadmInShell finds mdadm's words in a shell: script, up to the end of
// its command (a pipe, a list, a line end).
var mdadmInShell = regexp.MustCompile(`(?:^|[\s;&|(/])mdadm((?:\s[^|;&\n]*)?)`)

// MdadmDetailScan says whether the exec runs `mdadm --detail --scan` (any
// spelling: -D, -s, clustered as -Dts), which reads every array
// /proc/mdstat lists, prints each one's detail, and under --test exits
// with the worst one's code. Over no array at all (the md driver not
// loaded, no array assembled, a container) it prints nothing and exits 0,
// the code of every array working (runbook's mdadmScanBlank,
// record.MdadmScanBlankEntry).
func (e *ExecSpec) MdadmDetailScan() bool {
	if e == nil {
		return false
	}
	if e.commandIs("mdadm") {
		return detailScan(e.Command[1:])
	}
	if e.Shell == "" {
		return false
	}
	for _, m := range mdadmInShell.FindAllStringSubmatch(e.Shell, -1) {
		if detailScan(strings.Fields(m[1])) {
			return true
		}
	}
	return false
}

// detailScan says whether mdadm's arguments ask for --detail and --scan,
// long or short (-D, -s, or a cluster of short flags holding both).
func detailScan(args []string) bool {
	detail, scan := false, false
	for _, a := range args {
		switch {
		case a == "--detail":
			detail = true
		case a == "--scan":
			scan = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			detail = detail || strings.ContainsRune(a[1:], 'D')
			scan = scan || strings.ContainsRune(a[1:], 's')
		}
	}
	return detail && scan
}
