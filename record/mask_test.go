package record_test

import (
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/record"
)

// TestMaskerLogCopiesOnlyToMask: with no secret the saved log is the
// run's own (a copy of a wide foreach's log was most of a run's memory);
// with one, the log is a masked copy and the run's own is untouched.
func TestMaskerLogCopiesOnlyToMask(t *testing.T) {
	log := flow.Log{Inputs: map[string]any{"token": "s3cr3t-value"}, Commits: []flow.Commit{
		{Path: "a#0", Stage: "a", Reads: []flow.Read{{Key: "token", Value: "s3cr3t-value"}}},
	}}
	out := record.Masker(secret.New()).Log(log)
	if &out.Commits[0] != &log.Commits[0] {
		t.Fatal("with no secret the log was copied")
	}
	s := secret.New()
	s.Add("s3cr3t-value")
	out = record.Masker(s).Log(log)
	if &out.Commits[0] == &log.Commits[0] || out.Commits[0].Reads[0].Value == "s3cr3t-value" {
		t.Fatalf("with a secret the log was not masked: %+v", out.Commits[0].Reads)
	}
	if log.Commits[0].Reads[0].Value != "s3cr3t-value" {
		t.Fatal("masking changed the run's own log")
	}
}
