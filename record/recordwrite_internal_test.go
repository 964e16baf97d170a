package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// failAfter is a writer that takes n bytes, then fails: a disk that fills
// in the middle of a record.
type failAfter struct {
	w io.Writer
	n int
}

var errDiskFull = errors.New("no space left on device (test)")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errDiskFull
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// bigRecord is a record whose file is several times the write buffer.
func bigRecord() *RunRecord {
	rec := &RunRecord{RecordVersion: RecordVersion, Result: &Record{Runbook: "big", Status: "completed"}}
	for i := range 3000 {
		rec.Log.SetCommits(append(rec.Log.Commits(), flow.Commit{Index: i, Path: fmt.Sprintf("each~%d/size#%d", i, i), Stage: "size",
			Reads: []flow.Read{{Key: "n", Value: float64(i)}}}))
	}
	return rec
}

// TestWriteFileFailingWriterLeavesNoTemp: a write that fails anywhere in
// the record (before the first buffer is flushed, in the middle, at the
// last byte) returns the error, leaves no temporary file beside path, and
// leaves a record already at path as it was — never half a record.
func TestWriteFileFailingWriterLeavesNoTemp(t *testing.T) {
	t.Parallel()
	rec := bigRecord()
	whole, err := os.ReadFile(writeOK(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) < 3*recordBufferSize {
		t.Fatalf("the record is %d bytes: too small to fail past the first buffer", len(whole))
	}
	for _, n := range []int{0, 1, recordBufferSize - 1, recordBufferSize, recordBufferSize + 1, len(whole) / 2, len(whole) - 1} {
		for _, existing := range []bool{false, true} {
			t.Run(fmt.Sprintf("after %d bytes, existing %v", n, existing), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "rec.json")
				const old = "the record of an earlier run\n"
				if existing {
					if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				err := writeFile(path, rec, func(w io.Writer) io.Writer { return &failAfter{w: w, n: n} })
				if !errors.Is(err, errDiskFull) {
					t.Fatalf("writeFile = %v, want the writer's error", err)
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != "rec.json" {
						t.Errorf("left behind: %s", e.Name())
					}
				}
				got, rerr := os.ReadFile(path)
				switch {
				case existing && string(got) != old:
					t.Errorf("the existing record was changed: %d bytes (%v)", len(got), rerr)
				case !existing && !errors.Is(rerr, os.ErrNotExist):
					t.Errorf("a failed write left a file at path: %d bytes (%v)", len(got), rerr)
				}
			})
		}
	}
	t.Run("exactly enough", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "rec.json")
		if err := writeFile(path, rec, func(w io.Writer) io.Writer { return &failAfter{w: w, n: len(whole)} }); err != nil {
			t.Fatalf("a writer that takes every byte failed: %v", err)
		}
	})
}

// TestWriteFileUnencodable: a value encoding/json refuses (NaN) is an
// error, with no file left behind, as when the record was marshalled
// whole before the file was opened.
func TestWriteFileUnencodable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.json")
	rec := bigRecord()
	rec.Log.Commits()[2000].Reads[0].Value = math.NaN()
	if err := WriteFile(path, rec); err == nil {
		t.Fatal("a NaN in the record was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func writeOK(t *testing.T, rec *RunRecord) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWriteRecordCycleIsAnError: a value that holds itself is an error
// from encoding/json's cycle check, not a walk without end.
func TestWriteRecordCycleIsAnError(t *testing.T) {
	t.Parallel()
	loop := map[string]any{}
	loop["self"] = loop
	rec := &RunRecord{RecordVersion: RecordVersion, Result: &Record{State: loop}}
	if err := writeRecord(io.Discard, rec); err == nil {
		t.Fatal("a record holding a cycle was written")
	}
}

// TestWriteRecordStreamsTheLog: the log is written commit by commit, not
// handed whole to encoding/json (flow.Log has a MarshalJSON, which would
// build the whole log in memory): the encoder's buffer stays the size of
// one value however many commits the log holds.
func TestWriteRecordStreamsTheLog(t *testing.T) {
	rec := bigRecord()
	sw := &streamWriter{w: io.Discard}
	sw.enc = json.NewEncoder(&sw.buf)
	sw.value(reflect.ValueOf(rec), 0)
	if sw.err != nil {
		t.Fatal(sw.err)
	}
	whole, _ := json.Marshal(rec.Log)
	if c := sw.buf.Cap(); c > len(whole)/10 {
		t.Fatalf("the writer's buffer grew to %d bytes for a %d-byte log: the log was encoded whole", c, len(whole))
	}
}

// walked is what the record's walk writes of v.
func walked(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	sw := &streamWriter{w: &b}
	sw.enc = json.NewEncoder(&sw.buf)
	sw.value(reflect.ValueOf(v), 0)
	sw.flush()
	if sw.err != nil {
		t.Fatal(sw.err)
	}
	return b.String()
}

type inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
}

type (
	embeds struct {
		inner
		C bool
	}
	embedsTagged struct {
		inner `json:"in"`
		C     bool
	}
	embedsPointer struct {
		*inner
		C bool
	}
	collides struct {
		inner
		A string `json:"a"`
	}
	deeper struct {
		embeds
		D []Row `json:"d"`
	}
)

// TestWalkIsMarshalIndentOverStructShapes: the walk writes what
// json.MarshalIndent writes of embedded structs (promoted in their place,
// tagged, by pointer, colliding) and of verdict rows (keys in their order,
// numbers and text as encoding/json spells them), which it now walks
// rather than hand to encoding/json whole.
func TestWalkIsMarshalIndentOverStructShapes(t *testing.T) {
	row := Row{Keys: []string{"z", "a", "m"}, Values: map[string]any{"z": 1e21, "a": "<b>&\"x\"\u2028", "m": []any{1.5e-7, map[string]any{"k": nil}}}}
	for _, v := range []any{
		embeds{inner{1, "x"}, true},
		embeds{inner{A: 2}, false},
		embedsTagged{inner{3, "y"}, true},
		embedsPointer{&inner{4, "z"}, true},
		embedsPointer{nil, true},
		collides{inner{5, "w"}, "outer"},
		deeper{embeds{inner{6, ""}, true}, []Row{row, {}}},
		[]Row{row},
		rules.Outcome{Matched: true, Expr: "n > 1000", Result: true, Inputs: rules.Inputs{{Path: "n", Value: 1001}, {Path: "a.b", Value: "<x>"}}},
		rules.Outcome{Expr: "true", Inputs: rules.Inputs{}},
		map[string]any{"in": rules.Inputs(nil)},
	} {
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := walked(t, v); got != string(want) {
			t.Errorf("%T: the walk wrote\n%s\nMarshalIndent\n%s", v, got, want)
		}
	}
}

// TestRecordIsSyncedBeforeItReplacesTheLast: the record's temporary file
// was renamed over the path unsynced, so a machine that went down soon
// after could hold an empty file there (XFS) and neither record, and a
// write error a file system reports only at its sync was a record said
// written. The file is synced first; a sync that fails is the write's
// error, and the earlier record stays as it was.
func TestRecordIsSyncedBeforeItReplacesTheLast(t *testing.T) {
	rec := &RunRecord{RecordVersion: RecordVersion, Result: &Record{Runbook: "synced", Status: "completed"}}
	path := filepath.Join(t.TempDir(), "rec.json")
	const old = "the record of an earlier run\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	errIO := errors.New("input/output error (test)")
	var synced []string
	was := syncRecord
	t.Cleanup(func() { syncRecord = was })
	syncRecord = func(f *os.File) error {
		synced = append(synced, f.Name())
		return errIO
	}
	if err := WriteFile(path, rec); !errors.Is(err, errIO) {
		t.Errorf("WriteFile over a sync that failed = %v, want its error", err)
	}
	if len(synced) != 1 || filepath.Dir(synced[0]) != filepath.Dir(path) {
		t.Errorf("synced %v, want the temporary file beside %s once", synced, path)
	}
	if got, _ := os.ReadFile(path); string(got) != old {
		t.Errorf("the earlier record was replaced by one whose sync failed: %q", got)
	}
	syncRecord = was
	if err := WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	if _, problems, err := ReadRecord(path); err != nil || len(problems) > 0 {
		t.Errorf("the synced record reads back with %v, %v", err, problems)
	}
}
