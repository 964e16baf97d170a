package record_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// BenchmarkWriteRecord writes the record of a foreach of items items
// (testdata/bench/wide-foreach.yaml, run in-process in the set-up) to a
// file, the way WriteFile wrote it before issue #18 (write=marshalindent:
// the whole document built in memory, then written) and the way it
// writes it now (write=stream). B/op is the memory the write allocates;
// file-MB the size of the file, the same for both.
func BenchmarkWriteRecord(b *testing.B) {
	for _, items := range []int{10000, 100000} {
		rec := execRecord(b, "../testdata/bench/wide-foreach.yaml", map[string]any{"width": items})
		writes := []struct {
			name  string
			write func(path string, rec *record.RunRecord) error
		}{
			{"marshalindent", func(path string, rec *record.RunRecord) error {
				data, err := json.MarshalIndent(rec, "", "  ")
				if err != nil {
					return err
				}
				return os.WriteFile(path, append(data, '\n'), 0o600)
			}},
			{"stream", record.WriteFile},
		}
		for _, w := range writes {
			b.Run("items="+strconv.Itoa(items)+"/write="+w.name, func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "rec.json")
				b.ReportAllocs()
				for b.Loop() {
					if err := w.write(path, rec); err != nil {
						b.Fatal(err)
					}
				}
				if fi, err := os.Stat(path); err == nil {
					b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
				}
			})
		}
	}
}
