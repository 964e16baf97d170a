package chart

import (
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
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

// KinitPasswordInScript is the note for a shell: script that feeds kinit
// (or kpasswd) a password written in the script: `echo 'PW' | kinit
// alice`, `printf '%s\n' PW | kinit …`, `kinit alice <<< 'PW'` ("" for
// none). The record keeps the script as written, so `echo 'alicepw1' |
// kinit alice` ran Consistent with the password in the record and
// nothing said (wave-krb); a value the script expands ("$PW", from
// envFrom: of a secret: true input) is masked, and is not noted. A
// service logs in with a keytab (kinit -k -t KEYTAB PRINCIPAL), which
// needs no password at all.
func (e *ExecSpec) KinitPasswordInScript() string {
	if e == nil || e.Shell == "" {
		return ""
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return ""
	}
	literal := func(words []*syntax.Word) bool {
		for _, w := range words {
			if w.Lit() == "" && !quotedLiteral(w) {
				return false
			}
		}
		return len(words) > 0
	}
	kinit := func(c *syntax.CallExpr) bool {
		if c == nil || len(c.Args) == 0 {
			return false
		}
		b := filepath.Base(c.Args[0].Lit())
		return b == "kinit" || b == "kpasswd"
	}
	call := func(s *syntax.Stmt) *syntax.CallExpr {
		if s == nil {
			return nil
		}
		c, _ := s.Cmd.(*syntax.CallExpr)
		return c
	}
	found := anyNode(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
				return false
			}
			from, to := call(x.X), call(x.Y)
			if to == nil {
				if b, ok := x.Y.Cmd.(*syntax.BinaryCmd); ok {
					to = call(b.X) // echo PW | kinit … | tail
				}
			}
			if from == nil || !kinit(to) || len(from.Args) < 2 {
				return false
			}
			name := from.Args[0].Lit()
			return (name == "echo" || name == "printf") && literal(from.Args[1:])
		case *syntax.Stmt:
			if !kinit(call(x)) {
				return false
			}
			for _, r := range x.Redirs {
				if r.Op == syntax.WordHdoc && r.Word != nil && literal([]*syntax.Word{r.Word}) {
					return true
				}
			}
		}
		return false
	})
	if !found {
		return ""
	}
	return "it feeds kinit a password written in its script (echo 'PW' | kinit …), which the record keeps as written and no run knows to mask; log a service in with a keytab (kinit -k -t KEYTAB PRINCIPAL), or give the password from a secret: true input with stdin: (or envFrom: and printf '%s' \"$PW\" | kinit …), which the run masks"
}

// quotedLiteral says whether w is one quoted text with nothing expanded
// in it ('PW', "PW").
func quotedLiteral(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.SglQuoted:
		return true
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if _, ok := q.(*syntax.Lit); !ok {
				return false
			}
		}
		return true
	}
	return false
}
