package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Every example chart has a test file beside it, and `runbook test
// ./examples/...` passes on stubs (CI machines differ; .ci/run runs the
// same command).
func TestLoop15EveryExampleIsTested(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, chart := range exampleCharts(t, root) {
		tests, _ := filepath.Glob(filepath.Join(root, filepath.Dir(chart), "*_test.yaml"))
		if len(tests) == 0 {
			t.Errorf("%s has no *_test.yaml beside it (docs/TESTING.md)", chart)
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"test", filepath.Join(root, "examples") + "/..."}, &out, &errb); code != 0 {
		t.Fatalf("runbook test ./examples/...: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), " 0 failed") {
		t.Errorf("output:\n%s", out.String())
	}
}
