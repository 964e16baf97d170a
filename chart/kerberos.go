package chart

import "regexp"

// kadminInShell is a shell line running MIT's kadmin or kadmin.local.
var kadminInShell = regexp.MustCompile(`(^|[\s;&|(/])kadmin(\.local)?(\s|$)`)

// RunsKadmin says whether the exec runs MIT's kadmin or kadmin.local, as
// its command or in its shell: script: a request's failure, which they
// print on stderr and exit 0 over, is then judged as theirs
// (record.KadminError).
func (e *ExecSpec) RunsKadmin() bool { return e.runs(kadminInShell, "kadmin", "kadmin.local") }
