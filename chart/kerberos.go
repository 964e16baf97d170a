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

// KadminPasswordInArgv is the note for an exec that gives MIT kadmin a
// password with -w ("" otherwise), a literal written in the chart or a
// template's value: argv is what ps shows every user of the host, and
// the record keeps it as the run rendered it, so `[kadmin, -p,
// root/admin, -w, adminpw1, -q, getprinc bob]` ran Consistent with the
// admin password in the record and nothing said (wave-krb). kadmin reads
// a password from no environment variable, and asks a terminal a run
// does not have (`Cannot read password while initializing kadmin
// interface`, exit 1): give it a keytab (-k -t KEYTAB, a principal the
// ACL lets get), or run kadmin.local on the KDC.
//
//	[kadmin, -p, root/admin, -w, PW, -q, "getprinc bob"]       noted
//	shell: kadmin -p root/admin -w "$PW" -q "getprinc bob"     noted
//	shell: kadmin.local -q "getprinc -w"                        not noted (-q's request)
//	[kadmin, -k, -t, /etc/monitor.keytab, -p, monitor/admin, -q, …]   not noted
func (e *ExecSpec) KadminPasswordInArgv() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if b := filepath.Base(argv[0]); b != "kadmin" && b != "kadmin.local" {
			return ""
		}
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-w") {
				return "it gives kadmin a password with -w, where ps shows it to every user of the host and the record keeps it as the run rendered it, a password written in the chart unmasked; kadmin reads a password from no environment variable and asks a terminal a run does not have, so give it a keytab (kadmin -k -t KEYTAB -p PRINCIPAL, a principal kadm5.acl lets get) or run kadmin.local on the KDC"
			}
		}
		return ""
	})
}
