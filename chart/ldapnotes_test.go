package chart

import "testing"

// TestLDAPSearchBaseReadsItsOptions: the base is -b's argument however
// the options are written (-bBASE, flags bundled before it, an option's
// argument that looks like -b), and none for another command.
func TestLDAPSearchBaseReadsItsOptions(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"ldapsearch", "-x", "-LLL", "-b", "ou=people,dc=x", "(uid=a)"}, "ou=people,dc=x"},
		{[]string{"/usr/bin/ldapsearch", "-xLLLbou=people,dc=x"}, "ou=people,dc=x"},
		{[]string{"ldapsearch", "-D", "-b", "-s", "base"}, ""},
		{[]string{"ldapsearch", "-H", "ldap://h", "(uid=a)"}, ""},
		{[]string{"ldapsearch", "-b", "dc=a", "-b", "dc=b"}, "dc=b"},
		{[]string{"ldapmodify", "-b", "dc=a"}, ""},
	} {
		if got := LDAPSearchBase(tc.argv); got != tc.want {
			t.Errorf("LDAPSearchBase(%q) = %q; want %q", tc.argv, got, tc.want)
		}
	}
}
