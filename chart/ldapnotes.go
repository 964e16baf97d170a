package chart

import (
	"path/filepath"
	"regexp"
	"strings"
)

// ldapsearchInShell is a shell line running ldapsearch.
var ldapsearchInShell = regexp.MustCompile(`(^|[\s;&|(/])ldapsearch(\s|$)`)

// LDAPSearch says whether the exec runs OpenLDAP's ldapsearch, as its
// command or in its shell: script: its exit 32 (noSuchObject) is the
// same over an entry gone as over a search base whose container or
// suffix is not there (runbook's ldapBaseUnfound,
// record.LDAPNoSuchBase).
func (e *ExecSpec) LDAPSearch() bool {
	return e.runs(ldapsearchInShell, "ldapsearch")
}

// ldapsearchArgs are the OpenLDAP clients' options that take an argument.
const ldapsearchArgs = "abDdeEfFhHlOoPpRsSTUwXyYz"

// LDAPSearchBase is the search base an ldapsearch argv gives (-b BASE,
// -bBASE; the last one given), "" when argv is no ldapsearch or gives
// none (ldap.conf's BASE is not read here).
func LDAPSearchBase(argv []string) string {
	if len(argv) == 0 || filepath.Base(argv[0]) != "ldapsearch" {
		return ""
	}
	base := ""
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if !strings.ContainsRune(ldapsearchArgs, rune(c)) {
				continue
			}
			arg := a[j+1:]
			if arg == "" && i+1 < len(args) {
				i++
				arg = args[i]
			}
			if c == 'b' {
				base = arg
			}
			break
		}
	}
	return base
}

// LDAPSearchCommand says whether the exec's command: is ldapsearch, whose
// stdout is then ldapsearch's own LDIF (a shell: script's may be what a
// filter after it made of it: runbook's ldifFolded reads this alone).
func (e *ExecSpec) LDAPSearchCommand() bool {
	return e.commandIs("ldapsearch")
}
