package wire

import (
	"encoding/json"
	"testing"
)

// TestIssue19ResultTooLargeForAFloatStaysWritable: a plugin (of any
// language) answering `1e999` gave the scope +Inf, and the run's record
// could not be written. The value is now kept as written.
func TestIssue19ResultTooLargeForAFloatStaysWritable(t *testing.T) {
	t.Parallel()
	v, err := Decode([]byte(`{"pct": 1e999, "list": [-1e999, 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("the decoded result cannot be written: %v", err)
	}
	if string(b) != `{"list":[-1e999,2],"pct":1e999}` {
		t.Errorf("written as %s", b)
	}
}
