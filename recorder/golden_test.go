package recorder

import (
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// checkGolden compares got with testdata/<name>, or writes it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}
