package runbook_test

import (
	"context"
	"strings"
	"testing"
)

// TestIssue19DeepJSONFromACommandIsBounded: a command printing JSON nested
// 600 deep (past jsonv.MaxDepth) is kept as text with a parse error, and
// the run completes; before, encoding/json decoded it and the record could
// then not be written.
func TestIssue19DeepJSONFromACommandIsBounded(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: deep
honesty: []
stages:
  - id: out
    exec: {shell: "printf '%600s' '' | tr ' ' '['", parse: json}
`)
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := res.Record.State["out"].(map[string]any)
	pe, _ := out["parseError"].(string)
	if res.Record.Status != "completed" || !strings.Contains(pe, "deep") && !strings.Contains(pe, "nest") {
		t.Fatalf("status %s, parseError %q; want completed and a nesting refusal", res.Record.Status, pe)
	}
}
