package rules

import (
	"strings"
	"testing"
)

// TestFromPairsKeyTwiceWithTwoValuesIsAnError: expr's fromPairs kept the
// last pair of a key given twice, so an object of pod phases by name held
// one of two StatefulSet pods named db-0 (staging's Running, prod's
// Failed) and the failed one was gone with nothing said. Two values for
// one key are an error, as parse: json's object that names a key twice
// is; the same value twice is one meaning, and is read.
func TestFromPairsKeyTwiceWithTwoValuesIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{"pods": []any{
		map[string]any{"ns": "staging", "name": "db-0", "phase": "Running"},
		map[string]any{"ns": "prod", "name": "db-0", "phase": "Failed"},
		map[string]any{"ns": "prod", "name": "web", "phase": "Running"},
	}}
	_, _, err := MustCompile(`fromPairs(map(pods, [.name, .phase]))`).Value(env)
	want := `fromPairs: the key "db-0" is given twice, by pairs 0 and 1, with two values ("Running" and "Failed")`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v; want one saying %s", err, want)
	}
	v, _, err := MustCompile(`fromPairs(map(pods, [.ns + "/" + .name, .phase]))`).Value(env)
	if err != nil || len(v.(map[string]any)) != 3 {
		t.Fatalf("unique keys: %v, %v", v, err)
	}
	v, _, err = MustCompile(`fromPairs([["a", 1], ["a", 1.0], [404, "missing"]])`).Value(env)
	if m, _ := v.(map[string]any); err != nil || len(m) != 2 || m["404"] != "missing" {
		t.Fatalf("the same value twice, a number key: %v, %v", v, err)
	}
	if _, _, err := MustCompile(`fromPairs(nil)`).Value(env); err == nil || !strings.Contains(err.Error(), "write x ?? []") {
		t.Fatalf("null list: %v", err)
	}
}
