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
