package record_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// FuzzReadRecord fuzzes the record reader (ReadRecord = read the file +
// ParseRecord) from real saved records (testdata/fuzz/FuzzReadRecord: runs
// of the examples, a paused one among them). It holds the reader to
// cli.md's word — "reads a damaged one as far as it is sound, never
// panicking" — which FuzzParseRecord (recordfile_test.go) checks only for
// panics:
//
//	a record or an error, never both, never neither; an error says something
//	at most MaxRecordProblems problems, and one line for the rest
//	every commit read has a path
//	cut is any prefix of a sound record: what it reads of the log is the
//	    sound record's log, commit for commit, up to where it stops
//	a sound record written back is read again, every commit of it (the
//	    schema may then find a key the input left out written as null: the
//	    Go types do not keep absent apart from null)
func FuzzReadRecord(f *testing.F) {
	f.Add([]byte(`{"recordVersion":1,"result":{"runbook":"x","status":"completed"},"log":{"commits":[{"index":0,"path":"a#0","stage":"a"}]}}`), uint16(60))
	f.Add([]byte(`{"recordVersion":2}`), uint16(5))
	f.Add([]byte(`{"log":{"commits":[]},"recordVersion":1}`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		rec, problems := readSound(t, data)
		if rec == nil || len(problems) > 0 {
			return
		}
		// A sound record: each prefix reads as a prefix of it.
		n := int(cut) % (len(data) + 1)
		part, _ := readSound(t, data[:n])
		if part != nil {
			if len(part.Log.Commits()) > len(rec.Log.Commits()) {
				t.Fatalf("the first %d bytes read %d commits; the whole record has %d", n, len(part.Log.Commits()), len(rec.Log.Commits()))
			}
			for i, c := range part.Log.Commits() {
				if w := rec.Log.Commits()[i]; c.Index != w.Index || c.Path != w.Path {
					t.Fatalf("the first %d bytes read commit %d as %d %s; the whole record has %d %s", n, i, c.Index, c.Path, w.Index, w.Path)
				}
			}
		}
		// Written back (as WriteRecord writes), it reads as sound again.
		again, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			t.Fatalf("a sound record does not encode: %v", err)
		}
		rec2, _ := readSound(t, again)
		if rec2 == nil {
			t.Fatalf("a sound record, written back, is refused:\n%s", again)
		}
		if len(rec2.Log.Commits()) != len(rec.Log.Commits()) {
			t.Fatalf("written back, %d commits became %d", len(rec.Log.Commits()), len(rec2.Log.Commits()))
		}
	})
}

// readSound parses data and checks the reader's own invariants.
func readSound(t *testing.T, data []byte) (*record.RunRecord, []string) {
	t.Helper()
	rec, problems, err := record.ParseRecord(data)
	switch {
	case err != nil && rec != nil:
		t.Fatalf("ParseRecord returned a record with its error %v", err)
	case err == nil && rec == nil:
		t.Fatal("ParseRecord returned neither a record nor an error")
	case err != nil:
		if err.Error() == "" {
			t.Fatal("an error that says nothing")
		}
		return nil, nil
	}
	if len(problems) > record.MaxRecordProblems+1 {
		t.Fatalf("%d problems; at most %d and one line for the rest", len(problems), record.MaxRecordProblems)
	}
	for i, c := range rec.Log.Commits() {
		if c.Path == "" {
			t.Fatalf("commit %d was read with no path", i)
		}
	}
	return rec, problems
}

// TestReadRecordSeeds: the committed seeds are records the runtime wrote,
// and the reader reads them whole, through the file (ReadRecord), with no
// problem — so the fuzzer starts from sound records.
func TestReadRecordSeeds(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/fuzz/FuzzReadRecord/record-*")
	if len(files) == 0 {
		t.Fatal("no record seeds")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// The seed file is the fuzz corpus format: its first value is the record.
		lines := bytes.SplitN(data, []byte("\n"), 3)
		if len(lines) < 3 {
			t.Fatalf("%s: not a corpus file", file)
		}
		raw, err := unquoteBytes(lines[1])
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		path := filepath.Join(t.TempDir(), "record.json")
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		rec, problems, err := record.ReadRecord(path)
		if err != nil || len(problems) > 0 {
			t.Errorf("%s: err %v, problems %q", file, err, problems)
			continue
		}
		if rec.Result == nil || len(rec.Log.Commits()) == 0 {
			t.Errorf("%s: read no result or no commits", file)
		}
	}
}

// unquoteBytes reads one `[]byte("…")` line of a fuzz corpus file.
func unquoteBytes(line []byte) ([]byte, error) {
	s := strings.TrimSuffix(strings.TrimPrefix(string(line), "[]byte("), ")")
	u, err := strconv.Unquote(s)
	return []byte(u), err
}
