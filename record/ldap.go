package record

import (
	"fmt"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemLDAPBaseUnfound is the kind of the not-checked item filed for an
// ldapsearch whose exit 32 (noSuchObject) the chart declares an answer
// while the server did not say that the entry asked for is what is
// missing: the search base's container, or the whole suffix, is not there
// (a typo, another server) or is hidden from this bind, and slapd answers
// 32 for each as for an entry that is gone.
//
// `ldapsearch -s base -b uid=mallory,ou=peple,dc=example,dc=com 1.1` with
// `exitCodes: {0: present, 32: gone}`, a check that a departed user's
// account is removed, said gone, OK, Consistent, over a base with ou=people
// misspelt; slapd's `Matched DN: dc=example,dc=com` said only the suffix
// was found. Over an entry really gone it names the entry's parent
// (`Matched DN: ou=people,dc=example,dc=com`); over a suffix it does not
// hold, or a container an ACL hides, it names none (cmd/runbook
// TestLDAPNoSuchObjectOfAnotherBaseIsNoAnswer, testdata/wave-ldap/gone).
const ItemLDAPBaseUnfound = "ldap-base-unfound"

// LDAPNoSuchBase says why ldapsearch's `No such object (32)` on stderr is
// no answer that the entry at base is missing, "" when it is one or
// stderr holds no such line. base is the search base from its argv (-b),
// "" when not known (a shell: script, a base from ldap.conf): then only
// a reply naming no matched DN at all is judged.
func LDAPNoSuchBase(stderr, base string) string {
	if firstLine(stderr, func(l string) bool { return strings.TrimSpace(l) == "No such object (32)" }) == "" {
		return ""
	}
	matched, named := "", false
	for _, l := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "Matched DN:"); ok {
			matched, named = strings.TrimSpace(rest), true
			break
		}
	}
	if !named || matched == "" {
		return "the server named no part of the search base as found (no \"Matched DN:\" line): it holds no such suffix, or this bind may not see the container, and it answers 32 for those as for an entry that is gone"
	}
	if base == "" {
		return ""
	}
	parent := dnParent(base)
	if parent == "" || sameDN(matched, parent) {
		return ""
	}
	return fmt.Sprintf("the server found only %q of the search base %q (its \"Matched DN:\"), not the entry's parent %q: a container on the way is not there (a name misspelt) or hidden from this bind, and it answers 32 for that as for an entry that is gone", matched, base, parent)
}

// dnParent is dn without its first RDN ("" when it has one RDN only): the
// part after its first comma that no backslash escapes.
func dnParent(dn string) string {
	for i := 0; i < len(dn); i++ {
		switch dn[i] {
		case '\\':
			i++
		case ',':
			return strings.TrimSpace(dn[i+1:])
		}
	}
	return ""
}

// sameDN says whether two DNs are the same as LDAP compares the usual
// ones: case aside, and blanks around each comma and equals sign aside.
func sameDN(a, b string) bool {
	norm := func(s string) string {
		parts := strings.Split(strings.ToLower(s), ",")
		for i, p := range parts {
			k, v, _ := strings.Cut(p, "=")
			parts[i] = strings.TrimSpace(k) + "=" + strings.TrimSpace(v)
		}
		return strings.Join(parts, ",")
	}
	return norm(a) == norm(b)
}

// LDAPBaseUnfoundEntry is the ledger's entry for such a stage: word is
// the answer the chart declared for 32, why LDAPNoSuchBase's reason
// (masked already).
func LDAPBaseUnfoundEntry(path, word, why string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited 32 (noSuchObject), which exitCodes: declares the answer %q, but %s, so %q is not known; check the base (ldapsearch -s base -b PARENT 1.1 exits 0 where the parent is there) and bind as an account that may read the container", word, why, word), ItemLDAPBaseUnfound)
}

// ItemLDAPReferral is the kind of the not-checked item filed for an
// ldapsearch that printed a search continuation reference: the server
// holds part of the tree searched elsewhere (a referral object), and
// ldapsearch, which chases none, prints `# refldap://HOST/BASE??sub` in
// place of every entry there, under -LLL too, and exits 0. A count of
// locked accounts over dc=example,dc=com left out the people delegated to
// ldap2 in silence: a chart reading the dn: lines (lines, awk, kv, which
// passes over a # line) judged the others alone (cmd/runbook
// TestLDAPReferenceIsNoWholeAnswer).
const ItemLDAPReferral = "ldap-referral"

// LDAPReference is stdout's first search continuation reference as
// ldapsearch prints it (`# refldap://…`, `# refldaps://…`,
// `# refldapi://…`, at a line's start; `ref: ldap://…` after `# search
// reference` without -L), "" when none.
func LDAPReference(stdout string) string {
	prev := ""
	return firstLine(stdout, func(l string) bool {
		t := strings.TrimSpace(l)
		was := prev
		prev = t
		if rest, ok := strings.CutPrefix(t, "# ref"); ok {
			return strings.HasPrefix(rest, "ldap://") || strings.HasPrefix(rest, "ldaps://") || strings.HasPrefix(rest, "ldapi://")
		}
		return was == "# search reference" && strings.HasPrefix(t, "ref: ")
	})
}

// LDAPReferralEntry is the ledger's entry for such a stage: line is the
// first reference it printed (masked already).
func LDAPReferralEntry(path string, exit int, line string) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("it printed a search continuation reference though it exited %d: part of the tree it searched is held by another server, which ldapsearch does not ask, so an entry there is not known to be absent; the first: %q; search that server too (the reference names it), or search below the referral's place alone", exit, cutLine(line)), ItemLDAPReferral)
}

// ItemLDIFFolded is the kind of the not-checked item filed for an
// ldapsearch that printed a folded line: LDIF continues a value past 76
// columns on the next line, after one space, unless ldapsearch is run
// with -o ldif-wrap=no, and every parse mode reads that line as a line of
// its own. A check that a service account is not in the admins group,
// `any(search.stdout, # == "member: uid=…,dc=example,dc=com")` over
// parse: lines, said not a member, OK, Consistent, over a member whose DN
// ldapsearch had folded after `ou=people` (cmd/runbook
// TestLDIFFoldedLineIsNoAnswer, testdata/wave-ldap/admins).
const ItemLDIFFolded = "ldif-folded"

// LDIFFolded is the first line of stdout that continues the line before
// it (LDIF's folding: a line beginning with one space, after a line that
// is not blank), with its line number; "" when none.
func LDIFFolded(stdout string) (string, int) {
	prev := ""
	for i, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, " ") && strings.TrimSpace(prev) != "" {
			return l, i + 1
		}
		prev = l
	}
	return "", 0
}

// LDIFFoldedEntry is the ledger's entry for such a stage: line is the
// first continuation (masked already), n its line number.
func LDIFFoldedEntry(path string, n int, line string) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("ldapsearch folded a value past 76 columns onto the next line (LDIF's continuation, a line starting with a space), which the parse read as a line of its own, so that value was read cut in two; the first continuation, line %d: %q; run it with -o ldif-wrap=no, or read it with parse: ldif, which joins the two", n, cutLine(line)), ItemLDIFFolded)
}
