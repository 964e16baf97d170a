package chart

import (
	"path/filepath"
	"strings"
)

// SysctlIgnoresMissing notes a sysctl told -e (--ignore): over a key this
// kernel does not have it prints nothing, says nothing on stderr and
// exits 0, so the key's absence reads as an empty value, and a rule such
// as `out.stdout != "0"` (a hardening key not set to 0) passed over a key
// not there at all (testdata/wave-kernel/sysctl-keys;
// TestSysctlIgnoringMissingKeysIsNoted). Without -e, sysctl says `cannot
// stat /proc/sys/…: No such file or directory` and exits non-zero (1 with
// procps-ng 4.0.2). "" for none.
func (e *ExecSpec) SysctlIgnoresMissing() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "sysctl" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "--ignore" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 'e') {
				return "it runs sysctl -e (--ignore), which prints nothing, says nothing and exits 0 for a key this kernel does not have: the key's absence reads as an empty value, and a rule over it judges nothing; leave -e out, and sysctl says the key is not there (cannot stat …: No such file or directory, exit 1), an answer you can declare: exitCodes: {1: {word: absent, stderr: \"No such file or directory\"}}"
			}
		}
		return ""
	})
}
