// Package golden is the one home of the golden-file check every package's
// tests use: compare what a test got with a file under testdata, or rewrite
// the file when the test binary runs with -update.
//
// It owns only the comparison and the flag; what goes into a golden file
// (and what is masked first, such as durations) is each test's business.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is registered once, by this package, in every test binary that
// imports it: `go test ./... -update` rewrites every golden file the run
// compares.
var update = flag.Bool("update", false, "rewrite golden files under testdata with what the tests got")

// Updating says whether this run rewrites golden files instead of
// comparing them.
func Updating() bool { return *update }

// Check compares got with the file at path, or writes it there under
// -update. A missing file is a failure that names the flag.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (go test -update writes it)", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
