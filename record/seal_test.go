package record_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestEditedRecordIsFlagged: a completed record whose verdict was edited
// by hand ("full" made "ok", in the table a reviewer reads and in the log
// explain reads) was explained as if the run had written it: nothing said
// it was not the run's. WriteFile seals the file (its recordDigest), and
// the reader says when the bytes no longer match it, or when the file was
// re-encoded; a whole record, and one written before the seal, say
// nothing.
func TestEditedRecordIsFlagged(t *testing.T) {
	rec := execRecord(t, "../testdata/bench/wide-foreach.yaml", map[string]any{"width": 20})
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	if err := record.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	problemsOf := func(t *testing.T, data []byte) []string {
		t.Helper()
		_, problems, err := record.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		return problems
	}
	if p := problemsOf(t, whole); len(p) != 0 {
		t.Fatalf("the record as written has problems: %q", p)
	}
	// one verdict word changed everywhere it stands
	verdict := regexpFirstVerdict(t, whole)
	edited := bytes.ReplaceAll(whole, []byte(`"verdict": "`+verdict+`"`), []byte(`"verdict": "x`+verdict+`"`))
	if bytes.Equal(edited, whole) {
		t.Fatal("the edit changed nothing: this test tests nothing")
	}
	if p := problemsOf(t, edited); len(p) == 0 || !strings.Contains(p[0], "do not match the recordDigest") {
		t.Errorf("an edited record: problems %q, want one saying its bytes do not match its recordDigest", p)
	}
	// re-encoded with another indent: the seal no longer closes the file
	var plain any
	if err := json.Unmarshal(whole, &plain); err != nil {
		t.Fatal(err)
	}
	reencoded, _ := json.MarshalIndent(plain, "", "\t")
	if p := problemsOf(t, reencoded); len(p) == 0 || !strings.Contains(p[0], "re-encoded or edited") {
		t.Errorf("a re-encoded record: problems %q, want one saying it was re-encoded or edited", p)
	}
	// written before the seal: not checked
	unsealed, _ := json.MarshalIndent(rec, "", "  ")
	if p := problemsOf(t, unsealed); len(p) != 0 {
		t.Errorf("a record with no seal: problems %q, want none", p)
	}
}

// regexpFirstVerdict is the verdict word of the record's first row.
func regexpFirstVerdict(t *testing.T, data []byte) string {
	t.Helper()
	_, rest, ok := bytes.Cut(data, []byte(`"verdict": "`))
	if !ok {
		t.Fatal("the record has no verdict row")
	}
	word, _, _ := bytes.Cut(rest, []byte(`"`))
	return string(word)
}

// TestWrittenBytesAreSealed: a record a Temporal workflow encoded, saved
// by runbook-temporal and runbook with os.WriteFile, had no seal, so an
// edit to it was explained as the run's own. WriteBytes saves the bytes
// as WriteFile saves a record: the same file, sealed; bytes already
// sealed are saved as they are, not sealed twice.
func TestWrittenBytesAreSealed(t *testing.T) {
	rec := execRecord(t, "../testdata/bench/wide-foreach.yaml", map[string]any{"width": 3})
	dir := t.TempDir()
	want := filepath.Join(dir, "want.json")
	if err := record.WriteFile(want, rec); err != nil {
		t.Fatal(err)
	}
	wantBytes, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	encoded, _ := json.MarshalIndent(rec, "", "  ")
	encoded = append(encoded, '\n') // as the workflow encodes its record
	for what, b := range map[string][]byte{"encoded": encoded, "already sealed": wantBytes} {
		got := filepath.Join(dir, "got.json")
		if err := record.WriteBytes(got, b); err != nil {
			t.Fatal(err)
		}
		gotBytes, err := os.ReadFile(got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gotBytes, wantBytes) {
			t.Errorf("%s: WriteBytes wrote\n%s\nwant WriteFile's\n%s", what, tail(gotBytes), tail(wantBytes))
		}
	}
}

func tail(b []byte) []byte { return b[max(0, len(b)-160):] }
