package chart

import (
	"path/filepath"
	"regexp"
	"strings"
)

// kadminInShell is a shell line running MIT's kadmin or kadmin.local.
var kadminInShell = regexp.MustCompile(`(^|[\s;&|(/])kadmin(\.local)?(\s|$)`)

// RunsKadmin says whether the exec runs MIT's kadmin or kadmin.local, as
// its command or in its shell: script: a request's failure, which they
// print on stderr and exit 0 over, is then judged as theirs
// (record.KadminError).
func (e *ExecSpec) RunsKadmin() bool { return e.runs(kadminInShell, "kadmin", "kadmin.local") }

// KlistSilent says whether the exec runs `klist -s` (-s alone or in a
// cluster of klist's short options, as its command or a command of its
// shell: script): its exit 1 says nothing of why, and is judged as no
// answer under a word the chart declared for it (record.ItemKlistSilent).
func (e *ExecSpec) KlistSilent() bool {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "klist" {
			return ""
		}
		for _, a := range argv[1:] {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 's') {
				return "klist -s"
			}
		}
		return ""
	}) != ""
}
