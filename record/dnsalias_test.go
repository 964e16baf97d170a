package record

import "testing"

// TestAliasUnfollowedIsTheDanglingCNAMEOfANonRecursiveServer: an
// authoritative server answers an alias to a zone it does not serve with
// the CNAME alone; a server that recursed, an alias followed in the same
// answer, a query for the CNAME itself and output with no flags line are
// answers. Output with no flags line says nothing of recursion, and its
// alias is read as unfollowed.
func TestAliasUnfollowedIsTheDanglingCNAMEOfANonRecursiveServer(t *testing.T) {
	t.Parallel()
	const alias = "_dmarc.ext.mail.test.\t300\tIN\tCNAME\t_dmarc.provider.example."
	for _, tc := range []struct {
		name, out, qtype, want string
	}{
		{"authoritative, alias out of zone", ";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available\n\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", alias},
		{"recursive, target has none", ";; flags: qr rd ra; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", ""},
		{"followed in the answer", ";; flags: qr aa rd; QUERY: 1, ANSWER: 2\n;; ANSWER SECTION:\n_dmarc.cname.mail.test. 300 IN CNAME _dmarc.good.mail.test.\n_dmarc.good.mail.test. 300 IN TXT \"v=DMARC1; p=reject\"\n", "TXT", ""},
		{"followed to no record in the server's zone, its SOA in authority", ";; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 1, ADDITIONAL: 1\n\n;; ANSWER SECTION:\nalias2.mail.test.\t300\tIN\tCNAME\tnullmx.mail.test.\n\n;; AUTHORITY SECTION:\nmail.test.\t\t300\tIN\tSOA\tns.mail.test. hostmaster.mail.test. 3 3600 600 86400 300\n", "TXT", ""},
		{"the CNAME asked for", ";; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "CNAME", ""},
		{"no flags line (+noall +answer)", alias + "\n", "TXT", alias},
		{"no flags line, followed", "_dmarc.cname.mail.test. 300 IN CNAME _dmarc.good.mail.test.\n_dmarc.good.mail.test. 300 IN TXT \"v=DMARC1; p=reject\"\n", "TXT", ""},
		{"second query of two", ";; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\ngood.mail.test. 300 IN TXT \"v=spf1 -all\"\n\n;; flags: qr aa rd; QUERY: 1, ANSWER: 1\n;; ANSWER SECTION:\n" + alias + "\n", "TXT", alias},
	} {
		if got, _ := AliasUnfollowed(tc.out, tc.qtype); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAliasUnfollowedShortIsATargetNameLast: dig +short prints an alias
// as its target's name, then the records; a name alone at the end, for a
// type whose records are never a bare name, is an alias no one followed.
func TestAliasUnfollowedShortIsATargetNameLast(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, out, qtype, want string
	}{
		{"alias alone", "_dmarc.provider.example.\n", "TXT", "_dmarc.provider.example."},
		{"alias then its record", "_dmarc.good.mail.test.\n\"v=DMARC1; p=reject\"\n", "TXT", ""},
		{"an address", "www.example.test.\n192.0.2.1\n", "A", ""},
		{"an NS answer is names", "ns1.example.test.\n", "NS", ""},
		{"nothing", "", "TXT", ""},
	} {
		if got := AliasUnfollowedShort(tc.out, tc.qtype); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHostAliasUnfollowedIsAnAliasWithNothingAfter: host prints an alias,
// then its target's records or that it has none; the alias alone is
// one no one followed.
func TestHostAliasUnfollowedIsAnAliasWithNothingAfter(t *testing.T) {
	t.Parallel()
	const alias = "_dmarc.ext.mail.test is an alias for _dmarc.provider.example."
	for _, tc := range []struct {
		name, out, want string
	}{
		{"alias alone", "Using domain server:\nName: 127.0.0.1\nAddress: 127.0.0.1#5353\nAliases: \n\n" + alias + "\n", alias},
		{"alias then the target's record", "_dmarc.cname.mail.test is an alias for _dmarc.good.mail.test.\n_dmarc.good.mail.test descriptive text \"v=DMARC1; p=reject\"\n", ""},
		{"alias then none at the target", "www.example.test is an alias for web.example.test.\nweb.example.test has no TXT record\n", ""},
		{"no alias", "good.mail.test descriptive text \"v=spf1 mx -all\"\n", ""},
		{"nslookup's alias alone", "Server:\t\t127.0.0.1\nAddress:\t127.0.0.1#5353\n\n_dmarc.ext.mail.test\tcanonical name = _dmarc.provider.example.\n\n", "_dmarc.ext.mail.test\tcanonical name = _dmarc.provider.example."},
		{"nslookup's alias then the record", "_dmarc.cname.mail.test\tcanonical name = _dmarc.good.mail.test.\n_dmarc.good.mail.test\ttext = \"v=DMARC1; p=reject\"\n", ""},
	} {
		if got := HostAliasUnfollowed(tc.out); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
