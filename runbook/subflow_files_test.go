package runbook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/runbook"
)

// writeMounting copies testdata/mounting (a root chart that mounts
// sub/child.yaml twice, which mounts grand.yaml beside it) to a folder of
// the test's own, whose files it may change or delete.
func writeMounting(t *testing.T) (dir, root string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/mounting")); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "root.yaml")
}

// TestSubflowFilesLoadWhereTheyAreNot: the chart files a chart mounts,
// gathered where it loaded, load it again with chart.Sources after they
// are gone from disk, and the run's record is the one the chart loaded
// from its files leaves: what a Temporal worker without the files needs.
func TestSubflowFilesLoadWhereTheyAreNot(t *testing.T) {
	dir, root := writeMounting(t)
	rb, err := runbook.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	files, err := rb.SubflowFiles()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "sub/child.yaml"), filepath.Join(dir, "sub/grand.yaml")}
	if len(files) != len(want) || files[want[0]] == nil || files[want[1]] == nil {
		t.Fatalf("gathered %d files %v; want %v", len(files), keys(files), want)
	}
	rootBytes, err := os.ReadFile(root)
	if err != nil {
		t.Fatal(err)
	}
	before := runRecord(t, rb)
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	spec, err := chart.Parse(root, rootBytes, chart.Sources(files))
	if err != nil {
		t.Fatalf("the chart from its sources: %v", err)
	}
	again, err := runbook.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := runRecord(t, again); got != before {
		t.Errorf("the record of the chart loaded from its sources differs:\n%s\nwant:\n%s", got, before)
	}

	// A source missing is a load error naming it; nothing is read from disk.
	delete(files, want[1])
	_, err = chart.Parse(root, rootBytes, chart.Sources(files))
	if err == nil || !strings.Contains(err.Error(), `subflow chart "grand.yaml"`) || !strings.Contains(err.Error(), "is not among the charts the run was given") {
		t.Errorf("a missing source: %v; want a load error naming it", err)
	}
}

// TestSubflowFilesRefuseAChangedFile: a mounted file edited after the
// chart loaded is an error, never gathered as the chart that was loaded.
func TestSubflowFilesRefuseAChangedFile(t *testing.T) {
	dir, root := writeMounting(t)
	rb, err := runbook.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub/grand.yaml"), []byte("version: 1\nrunbook: grand\nstages: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.SubflowFiles(); err == nil || !strings.Contains(err.Error(), "grand.yaml changed since the chart was loaded") {
		t.Errorf("err = %v; want the changed file named", err)
	}
}

func runRecord(t *testing.T, rb *runbook.Runbook) string {
	t.Helper()
	res, err := rb.Exec(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	return durations.ReplaceAllString(string(b), `"durationMs":0`)
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
