package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// BlkidOfDevices says whether the exec runs blkid over devices it names,
// through its cache (no -p), asking for every tag or for TYPE: such a
// blkid prints a line for each device it identified, exits 2 over one
// that holds nothing it knows, and prints nothing and exits 0 over one it
// could not open (a user's run over a device not in the cache, a
// container's device cgroup), so its silence under exit 0 is no answer
// of the device (runbook's blkidBlank, record.BlkidBlankEntry). A tag
// asked for with -s other than TYPE (LABEL) is blank over a filesystem
// that has none, and -L, -U look a device up: neither is judged so.
func (e *ExecSpec) BlkidOfDevices() bool {
	return e.noteOfEachCommand(blkidOfDevices) != ""
}

// blkidArgs are blkid's options that take an argument, short and long.
var (
	blkidShortArgs = "cosLUtnuOSw"
	blkidLongArgs  = []string{"cache-file", "output", "match-tag", "match-token", "label", "uuid", "match-types", "usages", "offset", "size"}
)

// blkidOfDevices is "blkid" when argv is such a blkid (BlkidOfDevices),
// "" otherwise.
func blkidOfDevices(argv []string) string {
	if len(argv) == 0 || filepath.Base(argv[0]) != "blkid" {
		return ""
	}
	probe, lookup, devices := false, false, 0
	var tags []string
	opt := func(name, arg string) {
		switch name {
		case "p", "probe":
			probe = true
		case "s", "match-tag":
			tags = append(tags, strings.ToUpper(arg))
		case "L", "U", "label", "uuid":
			lookup = true
		}
	}
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--":
			devices += len(args) - i - 1
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, arg, eq := strings.Cut(a[2:], "=")
			if !eq && slices.Contains(blkidLongArgs, name) {
				arg = next()
			}
			opt(name, arg)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := string(a[j])
				if strings.Contains(blkidShortArgs, c) {
					arg := a[j+1:]
					if arg == "" {
						arg = next()
					}
					opt(c, arg)
					break
				}
				opt(c, "")
			}
		default:
			devices++
		}
	}
	if probe || lookup || devices == 0 || len(tags) > 0 && !slices.Contains(tags, "TYPE") {
		return ""
	}
	return "blkid"
}
