package runbook

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/openrunbook/runbook/record"
)

// FuzzResumeRoundTrip (issue #19): a saved record, however edited, is read,
// checked and resumed without a panic; and a record that reads as sound
// and paused is byte-stable — written back, it reads as the same record
// and is written as the same bytes.
func FuzzResumeRoundTrip(f *testing.F) {
	rb, err := Open("../testdata/issue19/procs2-resume/chart.yaml")
	if err != nil {
		f.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), nil)
	if err != nil || res.Record.Status != "paused" {
		f.Fatalf("the seed run: %v, status %s", err, res.Record.Status)
	}
	paused, err := json.Marshal(res.RunRecord())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(paused)
	rec, _, err := record.ParseRecord(paused)
	if err != nil {
		f.Fatal(err)
	}
	done, err := rb.Resume(context.Background(), rec, map[string]any{"go": "yes"}, answerTime)
	if err != nil {
		f.Fatal(err)
	}
	completed, err := json.Marshal(done.RunRecord())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(completed)
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte(`{}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		rec, problems, err := record.ParseRecord(data)
		if err != nil || rec == nil {
			return
		}
		if len(problems) == 0 && rec.Result != nil && rec.Result.Status == "paused" {
			once, err := json.Marshal(rec)
			if err != nil {
				t.Fatalf("a sound paused record cannot be written back: %v", err)
			}
			again, problems, err := record.ParseRecord(once)
			if err != nil || len(problems) > 0 {
				t.Fatalf("written back, it no longer reads: %v %q\n%s", err, problems, once)
			}
			twice, err := json.Marshal(again)
			if err != nil || !bytes.Equal(once, twice) {
				t.Fatalf("not byte-stable (%v):\n%s\n%s", err, once, twice)
			}
		}
		if rb.CanResume(rec) != nil {
			return
		}
		out, err := rb.Resume(context.Background(), rec, map[string]any{"go": "yes"}, answerTime)
		if err != nil || out == nil {
			return
		}
		if _, err := json.Marshal(out.RunRecord()); err != nil {
			t.Fatalf("the resumed run's record cannot be written: %v", err)
		}
	})
}
