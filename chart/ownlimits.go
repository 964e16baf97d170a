package chart

import (
	"path/filepath"
	"strings"
)

// OwnLimits is the note for an exec that reads resource limits with
// `ulimit` (no value: `ulimit -n`, `ulimit -a`) or with `prlimit` of no
// process (no --pid, no command to run), "" otherwise: both print the
// limits of the process they run in, the shell this stage starts, which
// has runbook's own as it inherited them, not a service's. A check that
// postgres may open 65536 files, `shell: ulimit -n` with a rule `>=
// 65536`, said ok over runbook's 1048576 while postgres.service ran
// with its unit's LimitNOFILE=1024. A service's limits are in
// /proc/PID/limits, `prlimit --pid PID` or `systemctl show -p
// LimitNOFILE,LoadState UNIT`. Read in a command: stage and in each
// command of a shell: script (noteOfEachCommand); a ulimit that sets a
// limit (`ulimit -n 4096; exec app`) and a prlimit that runs a command
// under limits are not noted.
//
//	shell: ulimit -n                          noted
//	[prlimit, --nofile, --raw, -o, SOFT]      noted
//	[prlimit, --pid, "${pid}", --nofile]      not noted
//	shell: ulimit -n 4096 && ./app --check    not noted
func (e *ExecSpec) OwnLimits() string {
	return e.noteOfEachCommand(ownLimits)
}

// ownLimits is OwnLimits' note for one command's words.
func ownLimits(argv []string) string {
	argv = unwrap(argv)
	tool := filepath.Base(argv[0])
	switch tool {
	case "ulimit":
		for _, a := range argv[1:] {
			if a == "" || !strings.HasPrefix(a, "-") {
				return "" // a value (or one bash gives): it sets a limit
			}
		}
	case "prlimit":
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			switch {
			case a == "-p" || a == "--pid" || strings.HasPrefix(a, "--pid=") || strings.HasPrefix(a, "-p") && len(a) > 2 && !strings.HasPrefix(a, "--"):
				return "" // a process's limits
			case a == "-o" || a == "--output":
				i++
			case !strings.HasPrefix(a, "-"):
				return "" // a command it runs under limits
			}
		}
	default:
		return ""
	}
	return "it runs " + tool + " of no process, which prints the limits of the shell this stage starts, runbook's own as it inherited them, not a service's: a service systemd starts has its unit's (LimitNOFILE=), whatever this shell has; read the service's process, /proc/PID/limits or prlimit --pid PID, or ask systemd (systemctl show -p LoadState,LimitNOFILE UNIT)"
}

// OneFrame is the note for an exec that runs a tool that measures rates
// between two frames for one frame alone, "" otherwise: systemd-cgtop
// (-n 1, --iterations=1) prints - for every group's %CPU and I/O rates
// in its first table, and top's first frame (top -b -n 1) measures its
// %Cpu(s) line over no interval: it said 100.0 id on a box whose CPUs
// were all busy. A check of busy services guarded against the - that a
// group without CPU accounting shows (`string(g.cpu) != "-" && g.cpu >=
// 80`) read every group as not busy, with / at 101.8%. Without -n,
// either never ends in batch mode (the stage's timeout ends it).
//
//	[systemd-cgtop, -b, -n, "1", --raw]            noted
//	shell: systemd-cgtop -b --iterations=1 | sort  noted
//	shell: top -bn1 | grep '^%Cpu'                 noted
//	[systemd-cgtop, -b, -n, "2", -d, "1"]          not noted
//	shell: top -bn2 -d 0.5 | grep '^%Cpu' | tail -n 1   not noted
func (e *ExecSpec) OneFrame() string {
	return e.noteOfEachCommand(oneFrame)
}

// frameFlags are each such tool's one-letter options that take no value,
// which may stand before -n in a cluster (-bn1).
var frameFlags = map[string]string{"systemd-cgtop": "bptcmirPk", "top": "bcHiSs1"}

// oneFrame is OneFrame's note for one command's words.
func oneFrame(argv []string) string {
	argv = unwrap(argv)
	tool := filepath.Base(argv[0])
	flags, ok := frameFlags[tool]
	if !ok {
		return ""
	}
	n := ""
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-n" || a == "--iterations":
			if i+1 < len(argv) {
				n = argv[i+1]
			}
			i++
		case strings.HasPrefix(a, "--iterations="):
			n = strings.TrimPrefix(a, "--iterations=")
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// -n1, or a cluster of flags before it: -bn 1, -bn1
			j := strings.IndexByte(a, 'n')
			if j < 0 || strings.Trim(a[1:j], flags) != "" {
				continue
			}
			if n = a[j+1:]; n == "" && i+1 < len(argv) {
				n = argv[i+1]
				i++
			}
		}
	}
	if strings.TrimLeft(n, "0") != "1" {
		return ""
	}
	if tool == "top" {
		return "it runs top for one frame, and top's first frame measures its %Cpu(s) line over no interval (it said 100.0 id on a box whose CPUs were all busy): give -n 2 -d 0.5 and read the second frame (top -bn2 -d 0.5 | grep '^%Cpu' | tail -n 1), or vmstat 1 2's last row"
	}
	return "it runs systemd-cgtop for one iteration, and cgtop measures %CPU and the I/O rates between two iterations, so its first table prints - in those columns for every group: no group's CPU is read; give -n 2 -d 1 and read the second table (after the blank line), or read each group's cpu.stat"
}
