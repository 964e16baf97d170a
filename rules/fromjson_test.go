package rules

import (
	"strings"
	"testing"
)

// TestFromJSONReadsAsParseJSONDoes: expr's fromJSON read JSON text with
// encoding/json: an object naming a key twice kept the last value, and a
// number past 2^53 came back rounded, where parse: json refuses the one and
// keeps the other's digits. A web check that split `curl -s -w
// "\n%{http_code}"` into the body and the code, and read the body with
// fromJSON, said a health body {"status":"DOWN",…,"status":"UP"} was up,
// Consistent. fromJSON now reads through the json parse mode.
func TestFromJSONReadsAsParseJSONDoes(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"dup":  `{"status":"DOWN","status":"UP"}`,
		"wide": `{"free": 12345678901234567891}`,
		"half": `{"name": "\ud83d"}`,
		"ok":   `{"status":"UP","n":200}`,
	}
	for _, tc := range []struct{ expr, want string }{
		{`fromJSON(dup).status`, `names the key "status" twice`},
		{`fromJSON(half).name`, `half`},
		{`fromJSON("")`, `blank`},
		{`fromJSON("<html>")`, `not JSON`},
	} {
		_, _, err := MustCompile(tc.expr).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v; want one saying %q", tc.expr, err, tc.want)
		}
	}
	v, _, err := MustCompile(`string(fromJSON(wide).free)`).Value(env)
	if err != nil || v != "12345678901234567891" {
		t.Errorf("wide number: %v, %v; want its digits", v, err)
	}
	v, _, err = MustCompile(`fromJSON(ok).status == "UP" && fromJSON(ok).n == 200`).Value(env)
	if err != nil || v != true {
		t.Errorf("plain body: %v, %v", v, err)
	}
}
