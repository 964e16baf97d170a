package parse

import (
	"reflect"
	"strings"
	"testing"
)

// TestKVKeyInAnotherCaseIsAProblem: sshd reads its keywords in any case
// and keeps the first, so a sshd_config with `permitrootlogin yes` and,
// later, `PermitRootLogin no` lets root log in; read with {as: kv, sep: "
// "} the two were two keys, and a chart asking for
// conf.content.PermitRootLogin saw "no" and said pass, Consistent
// (testdata/wave-audit/sshd-file). A key that is an earlier key in
// another case is a problem naming both, the first value kept; keys that
// differ otherwise, and one key written alike twice, are read as before.
func TestKVKeyInAnotherCaseIsAProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     map[string]any
		problems int
		first    string
	}{
		{"sshd_config", "permitrootlogin yes\nPermitRootLogin no\n", map[string]any{"permitrootlogin": "yes"}, 1,
			`line 2: key "PermitRootLogin" is the key "permitrootlogin" in another case`},
		{"three spellings", "A 1\na 2\nA 3\n", map[string]any{"A": 1}, 2, `key "a" is the key "A" in another case`},
		{"same spelling", "A 1\nA 2\n", map[string]any{"A": 1}, 1, `key "A" repeated`},
		{"other keys", "Port 22\nPermitRootLogin no\nMaxAuthTries 4\n", map[string]any{"Port": 22, "PermitRootLogin": "no", "MaxAuthTries": 4}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := Parse(tc.in, Spec{Mode: "kv", Options: map[string]any{"sep": " "}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Value, tc.want) {
				t.Errorf("value %#v, want %#v", res.Value, tc.want)
			}
			if res.Problems != tc.problems || !strings.Contains(res.FirstProblem, tc.first) {
				t.Errorf("%d problems, first %q; want %d and %q", res.Problems, res.FirstProblem, tc.problems, tc.first)
			}
		})
	}
}

// TestKVSpaceSeparatorIsAnyBlank: sshd_config separates a keyword and its
// arguments by any whitespace, and read with sep: " " a line written with
// a tab was "no separator", one indented under a Match block "empty key":
// an audit stood Not sure over a file it could read (wave-locale's design
// question). sep: " " is any run of spaces and tabs after the indentation;
// a line with none is still a problem.
func TestKVSpaceSeparatorIsAnyBlank(t *testing.T) {
	t.Parallel()
	res, err := Parse("PermitRootLogin\tno\n  PasswordAuthentication   yes\nUseDNS\n", Spec{Mode: "kv", Options: map[string]any{"sep": " "}})
	want := map[string]any{"PermitRootLogin": "no", "PasswordAuthentication": "yes"}
	if err != nil || !reflect.DeepEqual(res.Value, want) || res.Problems != 1 {
		t.Fatalf("%v (%d problems), %v; want %v and one problem (UseDNS has no value)", res.Value, res.Problems, err, want)
	}
}
