package record

import "testing"

// TestAliasUnfollowedIsTheDanglingCNAMEOfANonRecursiveServer: an
// authoritative server answers an alias to a zone it does not serve with
// the CNAME alone; a server that recursed, an alias followed in the same
// answer, a query for the CNAME itself and output with no flags line are
// answers.
func TestAliasUnfollowedIsTheDanglingCNAMEOfANonRecursiveServer(t *testing.T) {
	t.Parallel()
	const alias = "_dmarc.ext.mail.test.\t300\tIN\tCNAME\t_dmarc.provider.example."
	for _, tc := range []struct {
		name, out, qtype, want string
	}{
		{"authoritative, alias out of zone", ";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", alias},
		{"recursive, target has none", ";; flags: qr rd ra; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", ""},
		{"followed in the answer", ";; flags: qr aa rd; QUERY: 1, ANSWER: 2\n;; ANSWER SECTION:\n_dmarc.cname.mail.test. 300 IN CNAME _dmarc.good.mail.test.\n_dmarc.good.mail.test. 300 IN TXT \"v=DMARC1; p=reject\"\n", "TXT", ""},
		{"the CNAME asked for", ";; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "CNAME", ""},
		{"no flags line", alias + "\n", "TXT", ""},
		{"second query of two", ";; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\ngood.mail.test. 300 IN TXT \"v=spf1 -all\"\n\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", alias},
	} {
		if got := AliasUnfollowed(tc.out, tc.qtype); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
