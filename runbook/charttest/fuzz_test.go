package charttest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// FuzzLoad: a test file is outside input too: any bytes end in a File
// or in LoadErrors that each name a position and say something, never a
// panic. The chart it names is the svc chart, beside it.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/charttest/*/*_test.yaml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("version: 1\nchart: chart.yaml\ncases:\n  - name: a\n    stubs:\n      probe: [{exitCode: 0}, {stdout: x}]\n"))
	chartSrc, err := os.ReadFile("../../testdata/charttest/svc/chart.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz_test.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// chart: is relative to the test file: point it at the svc chart.
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), "chart.yaml"), chartSrc, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := Load(path)
		if err == nil {
			if file == nil {
				t.Fatal("Load returned neither a File nor an error")
			}
			return
		}
		var les chart.LoadErrors
		if !errors.As(err, &les) || len(les) == 0 {
			t.Fatalf("error %T is not a non-empty LoadErrors: %v", err, err)
		}
		for _, e := range les {
			if e.Msg == "" || e.Pos.File == "" {
				t.Fatalf("an error with no position or no words: %+v", e)
			}
		}
	})
}
