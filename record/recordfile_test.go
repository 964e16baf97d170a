package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fleetRecord runs testdata/explain/fleet.yaml (it pauses at its ask:)
// and returns its saved record's bytes.
func fleetRecord(t *testing.T) (*runbook.Runbook, []byte) {
	t.Helper()
	rb, err := runbook.Open("../runbook/testdata/explain/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), map[string]any{"host": "h1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Status != "paused" {
		t.Fatalf("status %s", res.Record.Status)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	return rb, b
}

// TestSavedRecordsValidate: a record this runbook writes is valid against
// the published schema (checked with a maintained validator) and is read
// back with no problem.
func TestSavedRecordsValidate(t *testing.T) {
	t.Parallel()
	_, b := fleetRecord(t)
	sch, err := compileRecordSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("a saved record breaks the published schema: %v", err)
	}
	rec, problems, err := record.ParseRecord(b)
	if err != nil || len(problems) > 0 {
		t.Fatalf("err %v, problems %q", err, problems)
	}
	if rec.Structure == nil || rec.Checkpoint == nil || !strings.HasPrefix(rec.ChartSHA256, "sha256:") || len(rec.Log.Commits()) != 16 {
		t.Errorf("record read back: structure %v checkpoint %v hash %q commits %d", rec.Structure != nil, rec.Checkpoint != nil, rec.ChartSHA256, len(rec.Log.Commits()))
	}
	if got := rec.Log.Inputs["token"]; got != record.Masked {
		t.Errorf("a secret input reached the record: %v", got)
	}
}

func TestParseRecordRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "empty"},
		{"not an object", `[1,2]`, "not a JSON object"},
		{"not JSON", `hello`, "not a runbook run record"},
		{"no version", `{"result":{"runbook":"x","status":"completed"},"log":{"commits":[]}}`, "no recordVersion"},
		{"version 3", `{"recordVersion":3,"log":{"commits":[]}}`, "version 3"},
		{"version fraction", `{"recordVersion":1.5}`, "whole number"},
		{"cut before version", `{"result":{"runbook":"x"`, "breaks before its recordVersion"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := record.ParseRecord([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	var ve *record.RecordVersionError
	if _, _, err := record.ParseRecord([]byte(`{"recordVersion":7}`)); !errors.As(err, &ve) || ve.Version != 7 {
		t.Errorf("err = %v: want a *RecordVersionError", err)
	}
}

// TestParseRecordDamaged: a damaged record is read as far as it is sound,
// and each problem is said.
func TestParseRecordDamaged(t *testing.T) {
	t.Parallel()
	_, good := fleetRecord(t)
	var doc map[string]any
	if err := json.Unmarshal(good, &doc); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(map[string]any)) []byte {
		var d map[string]any
		_ = json.Unmarshal(good, &d)
		f(d)
		b, _ := json.Marshal(d)
		return b
	}
	commits := func(d map[string]any) []any { return d["log"].(map[string]any)["commits"].([]any) }
	// The log is the second key written: cut the file in the middle of it.
	cut := good[:strings.Index(string(good), `"path":"per-vol~1/posture#8"`)]

	tests := []struct {
		name        string
		data        []byte
		wantCommits int
		wantProblem string
	}{
		{"cut in the log", cut, 10, "cut short"},
		{"a commit's reads of the wrong type", edit(func(d map[string]any) {
			commits(d)[5].(map[string]any)["reads"] = "oops"
		}), 16, "log.commits[5] (pick#4)"},
		{"a commit without a path", edit(func(d map[string]any) {
			delete(commits(d)[2].(map[string]any), "path")
		}), 15, "has no path"},
		{"the result of the wrong type", edit(func(d map[string]any) { d["result"] = 42 }), 16, "result"},
		{"a commit out of its place", edit(func(d map[string]any) {
			commits(d)[0].(map[string]any)["index"] = -3
		}), 16, "says it is commit -3"},
		{"a key of a later version is read past", edit(func(d map[string]any) { d["future"] = map[string]any{"x": 1} }), 16, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec, problems, err := record.ParseRecord(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Log.Commits()) != tc.wantCommits {
				t.Errorf("commits read = %d, want %d", len(rec.Log.Commits()), tc.wantCommits)
			}
			all := strings.Join(problems, "\n")
			if tc.wantProblem == "" && len(problems) > 0 {
				t.Errorf("problems: %s", all)
			}
			if tc.wantProblem != "" && !strings.Contains(all, tc.wantProblem) {
				t.Errorf("problems %q lack %q", all, tc.wantProblem)
			}
			// Whatever was read can be explained without a panic.
			x := runbook.NewExplain(rec, problems)
			if _, err := x.Answer(); err != nil && !strings.Contains(err.Error(), "never written") {
				t.Logf("answer: %v", err)
			}
			_, _ = x.WhyNot("done")
		})
	}
}

func TestRecordSchemaIsJSON(t *testing.T) {
	t.Parallel()
	var v map[string]any
	if err := json.Unmarshal(record.RecordSchema(), &v); err != nil {
		t.Fatal(err)
	}
	if _, err := compileRecordSchema(); err != nil {
		t.Fatal(err)
	}
	if v["properties"].(map[string]any)["recordVersion"].(map[string]any)["const"] != float64(record.RecordVersion) {
		t.Error("the schema's recordVersion is not RecordVersion: bump them together")
	}
}

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"recordVersion":1,"log":{"commits":[{"index":0,"path":"a#0","stage":"a"}]}}`))
	f.Add([]byte(`{"recordVersion":1,"result":{"runbook":"x","status":"paused"},"log":{"commits":[{"index":0,"path":"a#0","reads":[{"key":"k","writer":"b#9"}]}]}}`))
	f.Add([]byte(`{"recordVersion":1,"log":{"commits":[{"index":0,"path":"x~0/a#0","stage":"a","writes":[{"key":"verdicts","value":[1],"from":"q"}]},{"index":1,"path":"x#1","stage":"x","writes":[{"key":"verdicts","value":[1,2]}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, problems, err := record.ParseRecord(data)
		if err != nil {
			return
		}
		x := runbook.NewExplain(rec, problems)
		_, _ = x.Answer()
		_, _ = x.Query("verdicts[1]", -1)
		_, _ = x.WhyNot("a")
		_, _ = x.Stage("x")
	})
}

func TestReadRecordMissingFile(t *testing.T) {
	t.Parallel()
	_, _, err := record.ReadRecord(filepath.Join(t.TempDir(), "none.json"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

// compileRecordSchema compiles the published record schema with
// santhosh-tekuri/jsonschema: the schema is checked here, in tests, and
// never on a run's path.
func compileRecordSchema() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(record.RecordSchema()))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("record.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("record.schema.json")
}

// TestCheckWritable: the paths a record plainly cannot be written to are
// refused with the cause, before any run; a new file, or a regular file
// to replace, passes; the check leaves nothing behind.
func TestCheckWritable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "old.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, want string }{
		{"a new file", filepath.Join(dir, "new.json"), ""},
		{"a regular file", file, ""},
		{"a directory", dir, "is a directory"},
		{"a device", os.DevNull, "is not a regular file (a character device)"},
		{"a missing directory", filepath.Join(dir, "nope", "run.json"), "no file can be made in " + filepath.Join(dir, "nope") + ": no such file or directory: make it before the run (mkdir -p " + filepath.Join(dir, "nope") + ")"},
		{"under a file", filepath.Join(file, "run.json"), "not a directory"},
	}
	for _, tc := range tests {
		err := record.CheckWritable(tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".runbook-record-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if b, _ := os.ReadFile(file); string(b) != "{}" {
		t.Errorf("the regular file was changed: %q", b)
	}
}

// TestRecordPathIntoProcRefused: a --record path that leads into /proc —
// /dev/stdout, /dev/fd/3, a link of one's own to /proc/self/fd/1 — is
// refused, by CheckWritable and by WriteFile alike. Before, when stdout was
// a file (a CI job's log), /dev/stdout passed the check as a regular file
// and the record was renamed over the link: run as root, /dev/stdout and
// /dev/stderr became plain files for every process on the machine; the
// link of one's own was replaced by a file the same way.
func TestRecordPathIntoProcRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd is Linux's")
	}
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "out")
	if err := os.Symlink("/proc/self/fd/1", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{link, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/2"} {
		err := record.CheckWritable(path)
		if !errors.Is(err, record.ErrProcessFile) || !strings.Contains(err.Error(), "--format json prints") {
			t.Errorf("CheckWritable(%s): got %v, want ErrProcessFile saying --format json", path, err)
		}
	}
	if err := record.WriteFile(link, &record.RunRecord{}); !errors.Is(err, record.ErrProcessFile) {
		t.Errorf("WriteFile through a link to /proc/self/fd/1: got %v, want ErrProcessFile", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st.Mode(), err)
	}
}

// TestRecordThroughSymlink: a record path that is a link to a file
// (latest.json -> runs/today.json) writes the file it names and keeps the
// link, as CheckWritable, Waiting and the check against the chart read it.
// Before, the rename replaced the link with a file, and runs/today.json,
// which a dashboard reads, stayed yesterday's record with nothing said.
func TestRecordThroughSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "runs", "today.json")
	if err := os.WriteFile(target, []byte("yesterday"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.json")
	dangling := filepath.Join(dir, "next.json")
	if err := os.Symlink("runs/today.json", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("runs/tomorrow.json", dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, dangling} {
		if err := record.CheckWritable(p); err != nil {
			t.Fatalf("CheckWritable(%s): %v", p, err)
		}
		if err := record.WriteFile(p, &record.RunRecord{}); err != nil {
			t.Fatalf("WriteFile(%s): %v", p, err)
		}
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced by a file", p)
		}
	}
	for _, p := range []string{target, filepath.Join(dir, "runs", "tomorrow.json")} {
		if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), "{") {
			t.Errorf("%s holds %q (%v), want the record", p, b, err)
		}
	}
}

// TestWaitingDoesNotOpenAPipe: a named pipe at a record's path was opened
// to read before its kind was looked at, and opening a pipe to read waits
// for a writer: the run hung before it started. A pipe is no record.
func TestWaitingDoesNotOpenAPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.paused.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan bool, 1)
	go func() {
		w, _, _ := record.Waiting(path)
		done <- w
	}()
	select {
	case w := <-done:
		if w {
			t.Error("a named pipe was read as a waiting record")
		}
	case <-time.After(30 * time.Second):
		// Free the reader so the test binary can end: a writer opens it.
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Waiting did not return: it opened the pipe and waited for a writer")
	}
}

// TestWaitingReadsAWideRecordWithoutHoldingIt: Waiting is asked of the
// file every `exec --record` is about to replace, and json.Decoder read
// that file whole into memory to fill four fields: a 100,000-item
// foreach's record cost the next run two seconds and 270 MB before it
// started. A 24 MB record is probed in a small buffer now; its answer is
// the same (waiting, the runbook, the pause).
func TestWaitingReadsAWideRecordWithoutHoldingIt(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"recordVersion": 2, "result": {"runbook": "wide", "state": {"each": [`)
	for i := range 300000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"index": %d, "n": "item \"%d\" [x]"}`, i, i)
	}
	b.WriteString(`]}, "pause": {"stage": "ask", "question": "go on?"}}, "log": {"commits": []}, "checkpoint": {"at": "ask#2"}}`)
	path := filepath.Join(t.TempDir(), "wide.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	waiting, name, pause := record.Waiting(path)
	runtime.ReadMemStats(&after)
	if !waiting || name != "wide" || pause == nil || pause.Question != "go on?" {
		t.Fatalf("Waiting = %v, %q, %+v; want the paused run of wide", waiting, name, pause)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("Waiting allocated %d bytes probing a %d-byte record: it held the record", got, b.Len())
	}
}
