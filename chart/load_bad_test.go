package chart

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/golden"
)

// TestLoadBad loads every chart of the bad-input catalogue (../testdata/bad,
// shared with cmd/runbook) and compares the
// full error text (every error, one a line) with NAME.golden.
func TestLoadBad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/bad/*.yaml")
	if err != nil || len(files) < 30 {
		t.Fatalf("want ≥ 30 refusals under ../testdata/bad, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec, err := Load(f)
			if err == nil {
				t.Fatalf("Load(%s) = nil error; want a refusal", f)
			}
			if spec != nil {
				t.Errorf("Load(%s) returned a Spec with its errors", f)
			}
			var les LoadErrors
			if !errors.As(err, &les) {
				t.Fatalf("error is %T, want LoadErrors", err)
			}
			// The catalogue is shared with the CLI's test, which runs from the
			// repository root: messages name files as it sees them.
			msg := strings.ReplaceAll(err.Error(), "../testdata/bad/", "testdata/bad/")
			golden.Check(t, strings.TrimSuffix(f, ".yaml")+".golden", []byte(msg+"\n"))
		})
	}
}
