package rules

import (
	"strings"
	"testing"
)

// TestMemberOfAScalarSaysWhatItIs: a plugin that answered with text where
// the chart reads an object (`inv.result.missing` over "installed") made
// its rule fail with expr's "invalid operation: int(string)", and over a
// number "cannot fetch result from int": neither names the value, what it
// is, or the member read. The error says all three.
func TestMemberOfAScalarSaysWhatItIs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  mapEnv
		src  string
		want string
	}{
		{mapEnv{"inv": "installed"}, `"openssl" in inv.result.missing`, `inv is a string ("installed"), not an object, so it has no member "result"`},
		{mapEnv{"inv": map[string]any{"result": 3}}, `inv.result.missing == 1`, `inv.result is a number (3), not an object, so it has no member "missing"`},
		{mapEnv{"inv": true}, `inv.ok == true`, `inv is a boolean (true), not an object, so it has no member "ok"`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(tc.env)
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
}

// TestValueOverAMemberOfATextSaysWhatItIs: a set: read a member of a
// command's output that parse: json could not read (psql printed text
// after the JSON, so stdout was kept as the text): `xacts.stdout.hidden >
// 0` failed the stage saying `int() could not read the text it was
// given as a number`, an int() the expression never called. A rule said
// what the value is; a set:, a verdict column and envFrom now say it too.
func TestValueOverAMemberOfATextSaysWhatItIs(t *testing.T) {
	t.Parallel()
	env := mapEnv{"xacts": map[string]any{"stdout": `{"xacts": []}x`}, "d": map[string]any{"status": map[string]any{"replicas": 2}}}
	tests := []struct{ src, want string }{
		{`xacts.stdout.hidden > 0`, `xacts.stdout is a string ("{\"xacts\": []}x"), not an object, so it has no member "hidden"`},
		{`int(d.status.ready) + 1`, `d.status has no member "ready"`},
	}
	for _, tc := range tests {
		_, _, err := MustCompile(tc.src).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one saying %q", tc.src, err, tc.want)
		}
	}
}
