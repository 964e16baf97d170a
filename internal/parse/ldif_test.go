package parse

import (
	"encoding/json"
	"testing"
)

// TestLDIFReadsEntriesWhole: ldapsearch's LDIF read as entries, each
// attribute a list of its values, with what a line-by-line parse read
// wrong read whole (a folded value, a base64 one) and what is no entry
// left out or counted.
func TestLDIFReadsEntriesWhole(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // the value as JSON
		problems   int
		first      string
	}{
		{"ldapsearch's own frame", "# extended LDIF\n#\n# LDAPv3\n# base <dc=example,dc=org> with scope subtree\n#\n\n# ann, people, example.org\ndn: uid=ann,ou=people,dc=example,dc=org\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\nuid: ann\nuidNumber: 1000\n\n# search result\nsearch: 2\nresult: 0 Success\n\n# numResponses: 2\n# numEntries: 1\n",
			`[{"dn":"uid=ann,ou=people,dc=example,dc=org","objectClass":["inetOrgPerson","posixAccount"],"uid":["ann"],"uidNumber":["1000"]}]`, 0, ""},
		{"a value folded past 76 columns is one value", "dn: cn=admins,ou=groups,dc=example,dc=org\nmember: uid=a-rather-long-user-name,ou=people,dc=exa\n mple,dc=org\nmember: uid=bob,ou=people,dc=example,dc=org\n",
			`[{"dn":"cn=admins,ou=groups,dc=example,dc=org","member":["uid=a-rather-long-user-name,ou=people,dc=example,dc=org","uid=bob,ou=people,dc=example,dc=org"]}]`, 0, ""},
		{"a base64 value is its text", "dn: uid=ann,dc=x\ncn:: QW5uIMOYc3Rlcg==\nmember:: dWlkPcOYLGRjPXg=\n",
			`[{"cn":["Ann Øster"],"dn":"uid=ann,dc=x","member":["uid=Ø,dc=x"]}]`, 0, ""},
		{"a base64 dn", "dn:: dWlkPcOYLGRjPXg=\nuid: x\n", `[{"dn":"uid=Ø,dc=x","uid":["x"]}]`, 0, ""},
		{"a binary value is kept as its base64", "dn: uid=ann,dc=x\njpegPhoto:: /9j/4AAQ\n", `[{"dn":"uid=ann,dc=x","jpegPhoto;base64":["/9j/4AAQ"]}]`, 0, ""},
		{"a version line and two entries", "version: 1\n\ndn: a=1\nx: 1\n\ndn: a=2\nx: 2\n", `[{"dn":"a=1","x":["1"]},{"dn":"a=2","x":["2"]}]`, 0, ""},
		{"nothing found (-LLL)", "", `[]`, 0, ""},
		{"an entry with no dn", "uid: ann\ncn: Ann\n", `[]`, 1, `line 1: an entry that does not begin with its dn: line: "uid: ann"`},
		{"a line that is no pair", "dn: a=1\nthis is not ldif\nx: 1\n", `[{"dn":"a=1","x":["1"]}]`, 1, `line 2: not an LDIF line (name: value): "this is not ldif"`},
		{"a value by URL", "dn: a=1\njpegPhoto:< file:///tmp/a.jpg\n", `[{"dn":"a=1"}]`, 1, `line 2: a value given by URL (jpegPhoto:<), which the parse does not fetch: "jpegPhoto:< file:///tmp/a.jpg"`},
		{"base64 that does not decode", "dn: a=1\ncn:: !!!\n", `[{"dn":"a=1"}]`, 1, ""},
		{"a continuation with nothing to continue", " stray\ndn: a=1\n", `[{"dn":"a=1"}]`, 1, ""},
		{"a second dn in one block", "dn: a=1\ndn: a=2\n", `[{"dn":"a=1"}]`, 1, ""},
		{"a search that did not end in success", "dn: a=1\n\n# search result\nsearch: 2\nresult: 4 Size limit exceeded\n",
			`[{"dn":"a=1"}]`, 1, `line 5: ldapsearch's result says the search did not end in success: the entries above may not be all there are: "result: 4 Size limit exceeded"`},
		{"CRLF line ends", "dn: a=1\r\nx: 1\r\n y\r\n", `[{"dn":"a=1","x":["1y"]}]`, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(tc.text, Spec{Mode: "ldif"})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(r.Value)
			if string(got) != tc.want {
				t.Errorf("value:\n got %s\nwant %s", got, tc.want)
			}
			if r.Problems != tc.problems {
				t.Errorf("problems %d (%s), want %d", r.Problems, r.FirstProblem, tc.problems)
			}
			if tc.first != "" && r.FirstProblem != tc.first {
				t.Errorf("first problem %q, want %q", r.FirstProblem, tc.first)
			}
		})
	}
}
