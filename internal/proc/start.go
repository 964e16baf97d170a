package proc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// inheritedKeys are the only keys of the runner's environment a child gets
// when Spec.BaseEnv is nil. Listed in the package doc; change both together.
var inheritedKeys = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER", "TMPDIR"}

// InheritedEnv is the minimal inherited set: of the runner's own
// environment only PATH HOME LANG LC_ALL TZ USER TMPDIR, those that are set,
// in os.Environ's order, with numbers, times and messages pinned to C
// (formatsInC). It is an exec
// child's base when Spec.BaseEnv is nil, and every plugin process's
// (plugins/host): the one home of that list.
func InheritedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(inheritedKeys, k) {
			env = append(env, kv)
		}
	}
	return formatsInC(env)
}

// CLocale says whether l, a locale variable's value, is C's (or unset):
// C, POSIX, C.UTF-8, or "", which falls back to C.
func CLocale(l string) bool {
	return l == "" || l == "C" || l == "POSIX" || strings.HasPrefix(l, "C.")
}

// formatsInC is env with LC_NUMERIC=C, LC_TIME=C, LC_MESSAGES=C and
// LC_COLLATE=C added when its locale is not C: a child then writes
// numbers, times and its own words as a chart and the run read them, with
// a decimal point, no grouping, C's month and day names and untranslated
// messages, labels and headers, and sorts by byte as the chart's author
// saw it sort, whatever the runner's locale; its characters (LC_CTYPE)
// and the rest stay the runner's, save a Turkic locale's casing of i and
// I (turkicCase), which becomes C's.
// Under de_DE.UTF-8 `uptime` printed `load average: 4,54`, a text no
// number rule orders, and `printf "%'d"` printed 1234 as `1.234`, which a
// chart read as the number 1.234, in silence; `date "+%b %e"` printed
// `Dez  7`, and a grep for today's lines of a syslog (whose stamps are
// C's, `Dec  7 01:02:03`) found none, OK over that morning's error.
// grep's `Datei oder Verzeichnis nicht gefunden` over a log rotated away
// was not the `No such file or directory` the run reads as a file it
// could not read (record.ItemMissingFile), so `grep -c ERROR app.log ||
// echo 0` said OK, Consistent, where under C it is Not sure; and mpstat's
// `Durchschn.:` for `Average:` left a chart's filter of its summary rows
// empty, and two CPUs 100% busy read as none busy, OK. `sort | head -n 1`
// over user names picked `alice` under de_DE and `Bob` under C (de_DE
// sorts case-blind), and `ls` listed a folder in another order
// (TestChildSortsInC).
// LC_ALL outranks them all, so an inherited LC_ALL becomes LANG, which
// every other category falls back to. A C or POSIX locale a runner set is
// left as it is; a runner with no locale at all gives its child UTF-8
// characters (LC_CTYPE=C.UTF-8, where this machine has it), which is what
// a terminal's chart author saw.
func formatsInC(env []string) []string {
	var lang, all string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "LANG="); ok {
			lang = v
		} else if v, ok := strings.CutPrefix(kv, "LC_ALL="); ok {
			all = v
		}
	}
	switch {
	case all == "" && lang == "":
		// No locale at all (a container, a cron or NRPE that sets none):
		// the C library's is C, whose characters are ASCII, so ps wrote
		// the ü of a process's path as ??, `pgrep -f /srv/Büro/sync`
		// found nothing, and systemctl marked a failed unit * where a
		// terminal shows ●. Its characters are UTF-8, C's casing kept.
		if cCharacters("C.UTF-8") == "C.UTF-8" {
			return append(env, "LC_CTYPE=C.UTF-8")
		}
		return env
	case all != "" && CLocale(all), all == "" && CLocale(lang):
		return env
	case all != "":
		env = slices.DeleteFunc(env, func(kv string) bool {
			return strings.HasPrefix(kv, "LC_ALL=") || strings.HasPrefix(kv, "LANG=")
		})
		env = append(env, "LANG="+all)
		lang = all
	}
	env = append(env, "LC_NUMERIC=C", "LC_TIME=C", "LC_MESSAGES=C", "LC_COLLATE=C")
	if turkicCase(lang) {
		env = append(env, "LC_CTYPE="+cCharacters(lang))
	}
	return env
}

// turkicCase says whether locale l's characters (LC_CTYPE) case the
// ASCII letter i otherwise than C does: glibc's tr_TR, and the locales
// whose LC_CTYPE copies it (az_AZ, crh_UA, ku_TR, tr_CY, tt_RU@iqtelif),
// upper-case i as İ (U+0130) and lower-case I as ı (U+0131). Under a
// runner's tr_TR.UTF-8, `grep -ic failed` counted the lines reading
// "failed" and not those reading "FAILED", and awk's toupper("file")
// gave "FiLE": a chart counting a log's failures case-blind counted
// none of systemd's upper-case ones and said OK.
func turkicCase(l string) bool {
	name, _, _ := strings.Cut(l, ".")
	name, _, _ = strings.Cut(name, "@")
	lang, _, _ := strings.Cut(name, "_")
	switch lang {
	case "tr", "az", "crh":
		return true
	case "ku":
		return name == "ku_TR"
	case "tt":
		return strings.Contains(l, "@iqtelif")
	}
	return false
}

// cCharacters is the LC_CTYPE that gives a child of a runner under
// locale l C's casing of ASCII letters: C.UTF-8, which keeps UTF-8 and
// every other letter's case, where l is UTF-8 and this machine has a
// C.UTF-8 where glibc keeps its locales (a name glibc cannot load would
// make the child's whole locale C and bash say so on stderr), else C.
func cCharacters(l string) string {
	codeset := ""
	if _, c, ok := strings.Cut(l, "."); ok {
		codeset, _, _ = strings.Cut(c, "@")
	}
	if !strings.EqualFold(strings.ReplaceAll(codeset, "-", ""), "utf8") {
		return "C"
	}
	for _, n := range []string{"C.utf8", "C.UTF-8"} {
		if fi, err := os.Stat(filepath.Join("/usr/lib/locale", n)); err == nil && fi.IsDir() {
			return "C.UTF-8"
		}
	}
	return "C"
}

// pipeStatusTrap is what a shell script is run after: a trap that
// writes, when the script ends, the exit codes of the commands of the last
// pipeline it ran (bash's PIPESTATUS) into file, where Run reads them
// (Result.PipeStatus), or the codes shellRunner read after the script's
// last line (__runbook_end) when it ran to its end. The script is eval'd,
// so bash's "line N" of an error is the script's own. PIPESTATUS is read first, before
// any command of the trap's own changes it, and in a group whose stderr is
// /dev/null, with `set +x`: the trap stays out of a `set -x` trace, which
// would print the file's name. "" when file is "" or would need quoting: the
// script runs as written, with no PipeStatus. A script that sets its own
// EXIT trap replaces it, with the same end.
func pipeStatusTrap(file string) string {
	if file == "" || strings.ContainsAny(file, "'\"$`\\\n") {
		return ""
	}
	return `trap '{ __runbook_ps="${__runbook_end-${PIPESTATUS[*]}}"; set +x; } 2>/dev/null; echo "$__runbook_ps" > "` + file + `"' EXIT; `
}

// scriptKey is the environment variable a shell script reaches bash in
// (shellRunner), taken out of the environment before the script runs.
const scriptKey = "__RUNBOOK_SCRIPT"

// shellRunner is the text bash runs with -c for a shell script: the
// script itself is not in it, nor anywhere in bash's command line, but in
// its environment (scriptKey), which the runner unsets before it evals
// the script, so no command the script starts inherits it. A script's
// text in the command line of the bash that runs it is found by any
// search of command lines it makes: `pgrep -f 'java.*myapp'` matched that
// bash (its pipeStatusTrap keeps bash from handing its process over to
// the one command), and a check that the app runs said running, OK,
// Consistent, with no java running. The script's last pipeline's codes are
// read inside the eval, after its last line (an eval's own status
// replaces PIPESTATUS when it returns), and the script ends with its own
// status; a script that ends early (errexit, exit) leaves them to the
// trap, as before. Two line ends part them, so a last line ending in a
// backslash does not run on into the runner's; a script whose last
// construct is unfinished (a here-document never closed, a `&&` with
// nothing after it) would take the runner's line in, and the chart
// refuses it (chart.UnfinishedScript).
func shellRunner(file string) string {
	return pipeStatusTrap(file) + `__runbook_script=$` + scriptKey + `; unset ` + scriptKey + `; eval "$__runbook_script"$'\n\n''{ __runbook_rc=$? __runbook_end="${PIPESTATUS[*]}"; set +x; } 2>/dev/null; exit "$__runbook_rc"'`
}

// defaultPath is searched for a command when the child's environment has no
// PATH.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// command builds the exec.Cmd for s, bound to ctx (Run sets its Cancel), or
// says why s cannot be run. tag is the run's mark, put in the child's
// environment as tagKey=tag (see sweep).
func (s Spec) command(ctx context.Context, tag, pipeFile string) (*exec.Cmd, error) {
	var argv []string
	switch {
	case len(s.Argv) > 0 && s.Shell != "":
		return nil, errors.New("proc: the spec sets both argv and shell; a stage runs one of them")
	case s.Shell != "":
		argv = []string{"bash", "-e", "-o", "pipefail", "-c", shellRunner(pipeFile)}
	case len(s.Argv) == 0 || s.Argv[0] == "":
		return nil, errors.New("proc: no command given (argv is empty and no shell script is set)")
	default:
		argv = s.Argv
	}
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, &startError{what: argv[0], err: errors.New("an argument holds a NUL byte, which no process can receive")}
		}
	}
	env, err := s.environ(tag)
	if err == nil && s.Shell != "" {
		if strings.IndexByte(s.Shell, 0) >= 0 {
			return nil, &startError{what: argv[0], err: errors.New("the script holds a NUL byte, which no process can receive")}
		}
		env = append(env, scriptKey+"="+s.Shell)
	}
	if err != nil {
		return nil, &startError{what: argv[0], err: err}
	}
	if s.Dir != "" {
		fi, err := os.Stat(s.Dir)
		switch {
		case err != nil:
			return nil, &startError{what: argv[0], err: fmt.Errorf("%w: %w", ErrWorkDir, err)}
		case !fi.IsDir():
			return nil, &startError{what: argv[0], err: fmt.Errorf("%w %q is not a directory", ErrWorkDir, s.Dir)}
		}
	}

	path := argv[0]
	if !strings.Contains(path, "/") {
		search := envValue(env, "PATH")
		if search == "" {
			search = defaultPath
		}
		if path, err = lookPath(argv[0], search); err != nil {
			if s.Shell != "" {
				// Never /bin/sh instead: without pipefail a failing command
				// inside a pipeline would report the last command's exit.
				err = fmt.Errorf("%w in PATH %q", ErrNoBash, search)
			}
			return nil, &startError{what: argv[0], err: err}
		}
	}
	// path is absolute or holds a slash, so CommandContext looks nothing up.
	cmd := exec.CommandContext(ctx, path)
	cmd.Args = slices.Clone(argv)
	cmd.Env = env
	cmd.Dir = s.Dir
	cmd.SysProcAttr = sysProcAttr()
	return cmd, nil
}

// environ is BaseEnv (or the inherited set) with Env laid over it, then
// the run's tag (which neither may replace), sorted by key, one entry per
// key.
func (s Spec) environ(tag string) ([]string, error) {
	base := s.BaseEnv
	if base == nil {
		base = InheritedEnv()
	}
	vars := map[string]string{}
	for _, kv := range base {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue // not KEY=VALUE: nothing a child could read
		}
		vars[k] = v // a later duplicate wins, as in a shell
	}
	for k, v := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("environment variable name %q is not valid", k)
		}
		vars[k] = v
	}
	if tag != "" {
		vars[tagKey] = tag
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		if strings.IndexByte(v, 0) >= 0 {
			return nil, fmt.Errorf("environment variable %s holds a NUL byte, which no process can receive", k)
		}
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env, nil
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

// lookPath finds file in the absolute directories of search. A file found
// without execute permission is reported as such when no executable one is
// found, as a shell does.
func lookPath(file, search string) (string, error) {
	denied := ""
	for _, dir := range filepath.SplitList(search) {
		if !filepath.IsAbs(dir) {
			continue // "" and relative entries would run whatever is in the working directory
		}
		p := filepath.Join(dir, file)
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if fi.Mode()&0o111 != 0 {
			return p, nil
		}
		if denied == "" {
			denied = p
		}
	}
	if denied != "" {
		return "", fmt.Errorf("%s is not executable (permission denied): %w", denied, fs.ErrPermission)
	}
	return "", fmt.Errorf("not found in PATH %q: %w", search, exec.ErrNotFound)
}

// ErrNoBash is the cause of a StartErr for a Spec.Shell script when no bash
// is in the child's PATH: a shell script runs only under bash with pipefail,
// never under another shell.
var ErrNoBash = errors.New("bash was not found")

// ErrWorkDir is the cause of a StartErr when Spec.Dir does not exist or is
// not a directory.
var ErrWorkDir = errors.New("working directory")

// startError says which command could not be started and why.
type startError struct {
	what string
	err  error
}

func (e *startError) Error() string { return fmt.Sprintf("exec %q: %v", e.what, e.err) }
func (e *startError) Unwrap() error { return e.err }

// describeStart turns an error from exec.Cmd.Start into one that names the
// likely cause.
func describeStart(cmd *exec.Cmd, s Spec, err error) error {
	path := cmd.Path
	if !filepath.IsAbs(path) && s.Dir != "" {
		path = filepath.Join(s.Dir, path)
	}
	var why string
	switch {
	case errors.Is(err, syscall.ENOENT):
		if _, statErr := os.Stat(path); statErr == nil {
			why = fmt.Sprintf("%s exists, so the interpreter named on its #! line was not found", cmd.Path)
		} else {
			why = fmt.Sprintf("%s: no such file", cmd.Path)
		}
	case errors.Is(err, syscall.EACCES):
		why = fmt.Sprintf("%s: permission denied (not executable, a directory on its path not searchable, or a noexec mount)", cmd.Path)
	case errors.Is(err, syscall.ENOEXEC):
		why = fmt.Sprintf("%s: exec format error (built for another architecture, or a script with no #! line)", cmd.Path)
	case errors.Is(err, syscall.E2BIG):
		why = "the argument list and environment are too long"
	case errors.Is(err, syscall.ETXTBSY):
		why = fmt.Sprintf("%s is open for writing (text file busy)", cmd.Path)
	default:
		return &startError{what: cmd.Args[0], err: err}
	}
	return &startError{what: cmd.Args[0], err: fmt.Errorf("%s: %w", why, err)}
}
