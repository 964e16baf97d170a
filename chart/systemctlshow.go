package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// SystemctlShowWithoutLoadState is the note for an exec that runs
// `systemctl show -p PROPS UNIT…` with no LoadState among PROPS ("" otherwise):
// systemctl show prints a unit systemd does not have as it prints one it
// has, every asked property at its default, and exits 0
// (MemoryCurrent=[not set], MemoryMax=infinity, TasksMax=infinity,
// NRestarts=0, ActiveState=inactive), so a unit misspelt, removed or
// never installed reads as one with no memory limit, no restarts, not
// running. A memory check over `systemctl show -p
// MemoryCurrent,MemoryMax ngnix.service` said `unlimited`, OK,
// Consistent. Only LoadState (`not-found`) says the unit is not there, and
// no run of a stage that did not ask for it can tell, so it is a note and
// a warning, not a reason. Read in a command: stage and in each command
// of a shell: script (noteOfEachCommand); a property list bash expands
// ($P) may hold LoadState and is not noted, nor is a show of no unit (the
// manager's own properties) or of every property (no -p).
//
//	[systemctl, show, -p, "MemoryCurrent,MemoryMax", nginx.service]     noted
//	shell: systemctl show --property=TasksCurrent "$U"                  noted
//	[systemctl, show, -p, "LoadState,MemoryMax", nginx.service]         not noted
//	[systemctl, show, nginx.service]                                    not noted
func (e *ExecSpec) SystemctlShowWithoutLoadState() string {
	return e.noteOfEachCommand(showWithoutLoadState)
}

// systemctlValueOpts are systemctl's options that take the next word as
// their value, so that word is no verb and no unit.
var systemctlValueOpts = []string{"-p", "--property", "-P", "-H", "--host", "-M", "--machine", "-t", "--type", "--state", "-n", "--lines", "-o", "--output", "-s", "--signal", "--kill-whom", "--kill-value", "--root", "--image", "--job-mode", "--what", "--timestamp", "--preset-mode", "--drop-in", "--when", "--message", "--reboot-argument", "--boot-loader-menu", "--boot-loader-entry", "--check-inhibitors", "--image-policy"}

// showWithoutLoadState is SystemctlShowWithoutLoadState's note for one
// command's words.
func showWithoutLoadState(argv []string) string {
	argv = unwrap(argv)
	if len(argv) < 2 || filepath.Base(argv[0]) != "systemctl" {
		return ""
	}
	var props, words []string
	known := true // every property list given is a text, not a value bash or a template gives
	addProps := func(v string) {
		if v == "" || strings.Contains(v, "${") {
			known = false
			return
		}
		props = append(props, strings.Split(v, ",")...)
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			words = append(words, argv[i+1:]...)
			i = len(argv)
		case a == "-p" || a == "--property" || a == "-P":
			if i+1 < len(argv) {
				addProps(argv[i+1])
			}
			i++
		case strings.HasPrefix(a, "--property="):
			addProps(strings.TrimPrefix(a, "--property="))
		case len(a) > 2 && (strings.HasPrefix(a, "-p") || strings.HasPrefix(a, "-P")) && !strings.HasPrefix(a, "--"):
			addProps(a[2:])
		case slices.Contains(systemctlValueOpts, a):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			words = append(words, a)
		}
	}
	if len(words) < 2 || words[0] != "show" || len(props) == 0 || !known {
		return "" // no show, no unit (the manager's properties), or every property (LoadState among them)
	}
	for _, p := range props {
		if strings.TrimSpace(p) == "LoadState" {
			return ""
		}
	}
	return "it runs systemctl show -p " + strings.Join(props, ",") + " without LoadState, and systemctl show prints a unit systemd does not have as one it has, each property at its default (MemoryCurrent=[not set], MemoryMax=infinity, TasksMax=infinity, NRestarts=0, ActiveState=inactive), exit 0: a unit misspelt or not installed would read as one with no limit, no restart, not running; add LoadState to -p and judge LoadState != \"loaded\" first (not-found, masked)"
}
