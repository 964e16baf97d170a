package record

import "testing"

// TestLDAPReferenceIsReadWhereLdapsearchPrintsIt: a reference is read at
// a line's start, as -LLL prints it or after `# search reference`; the
// words elsewhere (an attribute's value) are none.
func TestLDAPReferenceIsReadWhereLdapsearchPrintsIt(t *testing.T) {
	for _, tc := range []struct{ stdout, want string }{
		{"dn: ou=a,dc=x\n\n# refldaps://h/ou=b,dc=x??sub\n", "# refldaps://h/ou=b,dc=x??sub"},
		{"# search reference\nref: ldap://h/ou=b,dc=x??sub\n", "ref: ldap://h/ou=b,dc=x??sub"},
		{"dn: cn=r,dc=x\nref: ldap://h/ou=b,dc=x\n", ""},
		{"dn: cn=r,dc=x\ndescription: # refldap://h\n", ""},
		{"", ""},
	} {
		if got := LDAPReference(tc.stdout); got != tc.want {
			t.Errorf("LDAPReference(%q) = %q; want %q", tc.stdout, got, tc.want)
		}
	}
}

// TestLDIFFoldedIsAContinuationAfterALine: a line starting with a space
// after a line that is not blank is LDIF's continuation; one after a
// blank line, or none, is not.
func TestLDIFFoldedIsAContinuationAfterALine(t *testing.T) {
	for _, tc := range []struct {
		stdout string
		n      int
	}{
		{"dn: cn=a\nmember: uid=x,ou=p\n ,dc=x\n", 3},
		{"dn: cn=a\nmember: uid=x,dc=x\n\n", 0},
		{"\n x\n", 0},
	} {
		if _, n := LDIFFolded(tc.stdout); n != tc.n {
			t.Errorf("LDIFFolded(%q) line %d; want %d", tc.stdout, n, tc.n)
		}
	}
}
