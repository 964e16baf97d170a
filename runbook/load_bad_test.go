package runbook

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadBad loads every chart under testdata/load/bad and compares the
// full error text (every error, one a line) with NAME.golden.
func TestLoadBad(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/load/bad/*.yaml")
	if err != nil || len(files) < 30 {
		t.Fatalf("want ≥ 30 refusals under testdata/load/bad, got %d (%v)", len(files), err)
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
			golden(t, strings.TrimSuffix(f, ".yaml")+".golden", []byte(err.Error()+"\n"))
		})
	}
}
