package flow

import (
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// checkGolden compares got with testdata/<name> (name may hold folders,
// e.g. "render/chart.mmd"), or writes it under -update (internal/golden).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", filepath.FromSlash(name)), got)
}
