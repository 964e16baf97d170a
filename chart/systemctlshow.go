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

// systemctlShow is what a `systemctl show` command asks: the properties
// its -p, --property and -P give, whether it prints their values alone
// (--value, -P), and whether every property list is a text (not one
// bash or a template gives, which may hold any property).
type systemctlShow struct {
	props []string
	value bool
	known bool
}

// readShow reads a command's words as systemctl show of at least one
// unit; ok is false for another command, another verb, or a show of no
// unit (the manager's own properties).
func readShow(argv []string) (sh systemctlShow, ok bool) {
	argv = unwrap(argv)
	if len(argv) < 2 || filepath.Base(argv[0]) != "systemctl" {
		return sh, false
	}
	sh.known = true
	var words []string
	addProps := func(v string) {
		if v == "" || strings.Contains(v, "${") {
			sh.known = false
			return
		}
		sh.props = append(sh.props, strings.Split(v, ",")...)
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			words = append(words, argv[i+1:]...)
			i = len(argv)
		case a == "--value":
			sh.value = true
		case a == "-p" || a == "--property" || a == "-P":
			sh.value = sh.value || a == "-P"
			if i+1 < len(argv) {
				addProps(argv[i+1])
			}
			i++
		case strings.HasPrefix(a, "--property="):
			addProps(strings.TrimPrefix(a, "--property="))
		case len(a) > 2 && (strings.HasPrefix(a, "-p") || strings.HasPrefix(a, "-P")) && !strings.HasPrefix(a, "--"):
			sh.value = sh.value || a[1] == 'P'
			addProps(a[2:])
		case slices.Contains(systemctlValueOpts, a):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			words = append(words, a)
		}
	}
	return sh, len(words) >= 2 && words[0] == "show"
}

// showWithoutLoadState is SystemctlShowWithoutLoadState's note for one
// command's words.
func showWithoutLoadState(argv []string) string {
	sh, ok := readShow(argv)
	if !ok || len(sh.props) == 0 || !sh.known {
		return "" // every property (LoadState among them), or a list not known here
	}
	for _, p := range sh.props {
		if strings.TrimSpace(p) == "LoadState" {
			return ""
		}
	}
	return "it runs systemctl show -p " + strings.Join(sh.props, ",") + " without LoadState, and systemctl show prints a unit systemd does not have as one it has, each property at its default (MemoryCurrent=[not set], MemoryMax=infinity, TasksMax=infinity, NRestarts=0, ActiveState=inactive), exit 0: a unit misspelt or not installed would read as one with no limit, no restart, not running; add LoadState to -p and judge LoadState != \"loaded\" first (not-found, masked)"
}

// SystemctlShowValuesByPosition is the note for an exec that runs
// `systemctl show --value` (or -P) of more than one property, "" otherwise:
// systemctl prints the properties in its own order, the order of its
// D-Bus interfaces, not the order -p gives them (systemd#4907, closed
// as not to be changed), and --value drops their names, so a value read
// by its line is another property's where the orders differ: `-P
// Id,MemoryMax` prints MemoryMax's line first. Read in a command: stage
// and in each command of a shell: script (noteOfEachCommand).
//
//	[systemctl, show, --value, -p, "MemoryMax,MemoryCurrent", "${u}"]  noted
//	shell: systemctl show -P Id,MemoryMax "$u" | paste -sd' '          noted
//	[systemctl, show, --value, -p, MemoryMax, "${u}"]                 not noted
//	[systemctl, show, -p, "MemoryMax,MemoryCurrent", "${u}"]          not noted
func (e *ExecSpec) SystemctlShowValuesByPosition() string {
	return e.noteOfEachCommand(showValuesByPosition)
}

// showValuesByPosition is SystemctlShowValuesByPosition's note for one
// command's words.
func showValuesByPosition(argv []string) string {
	sh, ok := readShow(argv)
	if !ok || !sh.value || !sh.known || len(sh.props) < 2 {
		return ""
	}
	return "it runs systemctl show --value of " + strings.Join(sh.props, ",") + ", and systemctl prints properties in its own order, not the order -p gives (systemd#4907), with --value nothing naming them: a value read by its line may be another property's; leave --value out and read the lines as kv (parse: kv), each value under its name"
}
