package chart

import (
	"path/filepath"
	"strings"
)

// NmapPortScan says whether the exec runs nmap to scan hosts' ports: its
// command, or a command of its shell: script, is nmap without -sn (or the
// old -sP), the ping sweep that scans no port. nmap exits 0 over a host
// that answered none of its probes, and its report then counts fewer
// hosts up than addresses (`1 IP address (0 hosts up)`): no port of that
// host was scanned, which runbook's searchedNothing files as no answer of
// none (record.SearchedNothingInOutput). A ping sweep prints the same
// line, and there the hosts down are its answer.
//
//	[nmap, -n, -p, 1-65535, -oG, -, HOST]   a port scan
//	shell: nmap -sT -p 22 "$H" | grep open   a port scan
//	[nmap, -sn, 127.0.0.0/29]               not one
//
// A run asks it of every exec stage that ended as no failure: a shell:
// script that does not name nmap is not parsed.
func (e *ExecSpec) NmapPortScan() bool {
	if e == nil || len(e.Command) == 0 && !strings.Contains(e.Shell, "nmap") {
		return false
	}
	return e.noteOfEachCommand(nmapPortScan) != ""
}

// nmapPortScan is "nmap" when argv is an nmap port scan (NmapPortScan),
// "" otherwise.
func nmapPortScan(argv []string) string {
	if len(argv) == 0 || filepath.Base(argv[0]) != "nmap" {
		return ""
	}
	for _, a := range argv[1:] {
		if a == "-sn" || a == "-sP" {
			return ""
		}
	}
	return "nmap"
}
