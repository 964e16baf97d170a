package record

import (
	"strings"
	"testing"
)

// TestLDAPNoSuchBaseTrustsOnlyTheEntrysParent: ldapsearch's noSuchObject
// is an answer that the entry is gone only when the server's Matched DN
// is the entry's parent.
func TestLDAPNoSuchBaseTrustsOnlyTheEntrysParent(t *testing.T) {
	const base = `uid=a\,b,ou=people,dc=example,dc=com`
	for _, tc := range []struct {
		stderr, base, want string
	}{
		{"No such object (32)\nMatched DN: ou=people,dc=example,dc=com\n", base, ""},
		{"No such object (32)\nMatched DN: OU=People, DC=example, DC=com\n", base, ""},
		{"No such object (32)\nMatched DN: dc=example,dc=com\n", base, `found only "dc=example,dc=com"`},
		{"No such object (32)\n", base, "named no part"},
		{"No such object (32)\n", "", "named no part"},
		{"No such object (32)\nMatched DN: dc=example,dc=com\n", "", ""},
		{"ldap_sasl_bind(SIMPLE): Can't contact LDAP server (-1)\n", base, ""},
	} {
		got := LDAPNoSuchBase(tc.stderr, tc.base)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("LDAPNoSuchBase(%q, %q) = %q; want %q", tc.stderr, tc.base, got, tc.want)
		}
	}
}
