package chart

import (
	"path/filepath"
	"slices"
	"strings"
)

// SinceBootReport is the note for an exec that runs a sampling tool of
// procps or sysstat whose output holds no report of the last seconds, only
// one of averages since boot ("" otherwise): vmstat's and iostat's first
// report, and mpstat's and pidstat's only one without an interval, are
// averages since the machine (or the process) started, and sar without an
// interval prints the history sadc collected, not now. `iostat -x -o JSON
// 1 1` printed 2.85% util for a disk at 83.6% while it ran, and the
// 60-second checklist said `disk vda ok`, Known. The command's words are
// read in a command: stage and in each command of a shell: script (with
// shfmt's parser, after env, timeout, nice or sudo); a word bash would
// expand, or a template, is an interval or count not known here, so
// `iostat -x $N 1` is noted (one report) and `vmstat $N $C` is not.
//
//	[iostat, -x, -o, JSON, "1", "1"]     noted: its one report is since boot
//	[iostat, -x, -y, "1", "1"]           not noted: -y leaves that report out
//	[vmstat, "1", "5"]                   not noted: the rows after the first are the last seconds
//	shell: mpstat -P ALL | tail -n 3     noted: no interval
//	[sar, -n, DEV, "1", "3"]             not noted
func (e *ExecSpec) SinceBootReport() string {
	return e.noteOfEachCommand(sinceBoot)
}

// samplingArgs are each sampling tool's options that take the next word
// as their argument (a CPU list, a PID, a unit), so that word is no
// interval or count: mpstat -P 0 is CPU 0, pidstat -p 1 is PID 1.
// samplingOptArgs take it only when it is no number (sar -u ALL 1 3,
// sar -u 1 3, sar -o FILE 1 3).
var (
	samplingArgs = map[string][]string{
		"vmstat":  {"-S", "--unit", "-p", "--partition"},
		"iostat":  {"-g", "-j", "-o", "-f", "+f"},
		"mpstat":  {"-P", "-N", "-I", "-o"},
		"pidstat": {"-p", "-C", "-G", "-T"},
		"sar":     {"-n", "-P", "-I", "-m", "-i", "-s", "-e"},
	}
	samplingOptArgs = map[string][]string{
		"iostat":  {"-p"},
		"pidstat": {"-U"},
		"sar":     {"-u", "-r", "-F", "-q", "-f", "-o"},
	}
)

// wrappers run the command after their own words: env LC_ALL=C iostat …,
// timeout 5 vmstat 1 1, sudo -n mpstat.
var wrappers = []string{"env", "timeout", "nice", "ionice", "stdbuf", "sudo", "command", "exec"}

// sudoValueOptions are sudo's options whose value is the next word when
// not joined to them: `sudo -u www-data php …` runs php, not www-data.
var sudoValueOptions = []string{"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user"}

// unwrap is argv without the wrappers before the command they run: their
// options (sudo's value after one of sudoValueOptions too), env's
// VAR=value words and timeout's duration.
func unwrap(argv []string) []string {
	for len(argv) > 1 && slices.Contains(wrappers, filepath.Base(argv[0])) {
		w := filepath.Base(argv[0])
		argv = argv[1:]
		for len(argv) > 1 && (strings.HasPrefix(argv[0], "-") || w == "env" && strings.Contains(argv[0], "=")) {
			if w == "sudo" && slices.Contains(sudoValueOptions, argv[0]) && len(argv) > 2 {
				argv = argv[1:] // its value
			}
			argv = argv[1:]
		}
		if w == "timeout" && len(argv) > 1 {
			argv = argv[1:] // its duration
		}
	}
	return argv
}

// sinceBoot is SinceBootReport's note for one command's words.
func sinceBoot(argv []string) string {
	argv = unwrap(argv)
	tool := filepath.Base(argv[0])
	takes, ok := samplingArgs[tool]
	if !ok {
		return ""
	}
	var nums []string
	var flags string // the one-letter options given, grouped or not
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case tool == "pidstat" && a == "-e":
			i = len(argv) // the rest is the program pidstat runs
		case slices.Contains(takes, a):
			flags += strings.TrimLeft(a, "-+")[:1]
			i++
		case slices.Contains(samplingOptArgs[tool], a):
			flags += a[1:]
			if i+1 < len(argv) && !digits(argv[i+1]) {
				i++
			}
		case strings.HasPrefix(a, "--"):
			if a == "--no-first" {
				flags += "y"
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flags += a[1:]
		case digits(a):
			nums = append(nums, a)
		case a == "" || strings.Contains(a, "${"):
			nums = append(nums, "?") // bash's or a template's value: a number, not known here
		}
	}
	interval := len(nums) > 0 && (nums[0] == "?" || strings.Trim(nums[0], "0") != "")
	once := !interval || len(nums) > 1 && strings.TrimLeft(nums[1], "0") == "1"
	switch tool {
	case "vmstat":
		if strings.ContainsAny(flags, "dDsmfpy") || !once {
			return "" // its other modes count since boot by design; -y leaves the first report out
		}
		return "it runs vmstat with one report (no delay, or a count of 1), and vmstat's first report is the averages since boot, not the last seconds: a CPU busy now reads as its average since boot; run vmstat -y 1 1 (-y leaves that report out), or vmstat 1 5 and read the rows after the first"
	case "iostat":
		if strings.Contains(flags, "y") || !once {
			return ""
		}
		return "it runs iostat with one report and no -y, and iostat's first report is the averages since boot, not the last seconds: a disk 84% busy while it ran read 2.85% util; add -y (iostat -y -x 1 1), which leaves that report out"
	case "mpstat", "pidstat":
		if interval {
			return ""
		}
		return "it runs " + tool + " with no interval (or 0), so it prints the averages since boot, not the last seconds; give an interval and a count (" + tool + " 1 3) and read its Average: rows"
	case "sar":
		if interval || strings.Contains(flags, "f") {
			return "" // -f FILE reads a history on purpose
		}
		return "it runs sar with no interval, which prints the history sadc collected today (or fails where it collected none), not the last seconds; give an interval and a count (sar -n DEV 1 3)"
	}
	return ""
}

// digits says whether a word is a whole number as written (a word bash
// would expand is read as "", never digits).
func digits(a string) bool { return a != "" && strings.Trim(a, "0123456789") == "" }
