package record_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/rules"
)

// TestMaskerLogCopiesOnlyToMask: with no secret the saved log is the
// run's own (a copy of a wide foreach's log was most of a run's memory);
// with one, the log is a masked copy and the run's own is untouched.
func TestMaskerLogCopiesOnlyToMask(t *testing.T) {
	log := flow.NewLog(map[string]any{"token": "s3cr3t-value"}, []flow.Commit{
		{Path: "a#0", Stage: "a", Reads: []flow.Read{{Key: "token", Value: "s3cr3t-value"}}},
	})
	out := record.Masker(secret.New()).Log(log)
	if &out.Commits()[0] != &log.Commits()[0] {
		t.Fatal("with no secret the log was copied")
	}
	s := secret.New()
	s.Add("s3cr3t-value")
	out = record.Masker(s).Log(log)
	if &out.Commits()[0] == &log.Commits()[0] || out.Commits()[0].Reads[0].Value == "s3cr3t-value" {
		t.Fatalf("with a secret the log was not masked: %+v", out.Commits()[0].Reads)
	}
	if log.Commits()[0].Reads[0].Value != "s3cr3t-value" {
		t.Fatal("masking changed the run's own log")
	}
}

// TestMaskerLogRebuildsCompactDecisionsBeforeMasking: a decision a run
// kept compact is rebuilt from the values it read, not from their masked
// copies (which would make the rebuilt marks disagree with the run and
// the evidence say so), and its evidence is then masked.
func TestMaskerLogRebuildsCompactDecisionsBeforeMasking(t *testing.T) {
	c, err := flow.New("secret-decision").
		Decide("check", []decide.Rule{{When: rules.MustFilter(rules.Where("token", rules.OpStartsWith, "s3")), Then: "ok", Label: "a token"}},
			decide.Default{Branch: "none", Label: "no token"}, []flow.Branch{{Name: "ok"}, {Name: "none"}}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), flow.WithInputs(map[string]any{"token": "s3cr3t-value"}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Log.Commits()[0].Compact() {
		t.Fatal("the decision was not kept compact: this test tests nothing")
	}
	s := secret.New()
	s.Add("s3cr3t-value")
	out := record.Masker(s).Log(res.Log)
	ev := out.Commits()[0].Decision
	if ev == nil || ev.Chosen[0] != "ok" {
		t.Fatalf("masked decision = %+v", ev)
	}
	r := ev.Rules[0]
	if r.Err != "" || !r.Matched || r.Conditions[0].Actual == "s3cr3t-value" {
		t.Fatalf("masked rule evidence = %+v; want it rebuilt from the real read (no error, matched) and its value masked", r)
	}
}

// TestAssembleMasksPluginAssumptions: a plugin's assumed argument is kept
// in the record (so a resumed run still says it was assumed) behind the
// run's one masker, and the run's own list is not rewritten.
func TestAssembleMasksPluginAssumptions(t *testing.T) {
	secrets := secret.New()
	secrets.Add("s3cr3t-value")
	own := []record.AssumedArg{{Path: "age", Name: "token", Value: "s3cr3t-value"}, {Path: "age", Name: "maxAge", Value: "24h"}}
	rec := record.Assemble(record.Run{
		Runbook: "c",
		Flow:    &flow.Result{},
		Secrets: secrets,
		Plugins: []record.PluginRun{{Name: "file-age", Assumed: own}},
	})
	got := rec.Plugins[0].Assumed
	if len(got) != 2 || got[0].Value != record.Masked || got[1].Value != "24h" {
		t.Errorf("assumed %v, want the secret masked and 24h kept", got)
	}
	if own[0].Value != "s3cr3t-value" {
		t.Errorf("the run's own list was rewritten: %v", own)
	}
}

// A secret that is an object's key was shown in the clear: Value masked
// an object's values only. Keys masked alike stay apart, the same way
// every time.
func TestMaskerValueMasksASecretKey(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Key-Secret-0042")
	s.Add("Other-Secret-77")
	m := record.Masker(s)
	v := map[string]any{
		"Key-Secret-0042":            true,
		"Other-Secret-77":            1,
		"id Key-Secret-0042 at host": "x",
		"plain":                      map[string]any{"Key-Secret-0042": []any{map[string]any{"Other-Secret-77": 2}}},
	}
	want := `{"***":true,"***#2":1,"id *** at host":"x","plain":{"***":[{"***":2}]}}`
	for range 20 {
		b, err := json.Marshal(m.Value(v))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Fatalf("Value = %s\nwant    %s", b, want)
		}
	}
	if !s.Holds(map[string]any{"Key-Secret-0042": true}) {
		t.Error("Holds says an object keyed by a secret holds none")
	}
}

// The record lists a resumed run's answers beside its log, and the log's
// masking never saw them: an answer a person pasted the token into was
// kept as typed (cmd/runbook TestMCPAnswerHoldingASecretIsMaskedInTheRecord).
func TestMaskerAnswersMasksWhatWasGiven(t *testing.T) {
	t.Parallel()
	s := secret.New()
	s.Add("Tok-Secret-0042")
	m := record.Masker(s)
	given := []record.AnswerRecord{{Stage: "why", Question: "Rotate Tok-Secret-0042?", By: "MCP client c", At: "t",
		Answers: map[string]any{"note": "pasted Tok-Secret-0042", "ok": true}, Rejected: "no: Tok-Secret-0042"}}
	b, err := json.Marshal(m.Answers(given))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"stage":"why","asked":"","answered":"","question":"Rotate ***?","answers":{"note":"pasted ***","ok":true},"by":"MCP client c","at":"t","rejected":"no: ***"}]`
	if string(b) != want {
		t.Errorf("Answers = %s\nwant      %s", b, want)
	}
	if given[0].Answers["note"] != "pasted Tok-Secret-0042" {
		t.Error("Answers changed the answers it was given")
	}
}

// TestRanMasksSecretFormsWithNoSecretInput: a chart that wrote
// squidclient's cache manager password in its argv (`squidclient
// mgr:info@s3cretPW`, the one way but -w squidclient takes it) was given
// no secret input, and the record's script row kept the argv whole:
// Ran returned the row unmasked when the run held no secret, though
// every other text of the record is masked by its form whatever the
// inputs (secret.ByForm), and `runbook plan` showed `mgr:info@***`. The
// argv, the script and the output tails are masked by form always.
func TestRanMasksSecretFormsWithNoSecretInput(t *testing.T) {
	t.Parallel()
	var m record.Masker
	r := m.Ran(&label.Ran{Argv: []string{"squidclient", "-p", "3128", "mgr:info@s3cretPW"}, Shell: "", StderrTail: "Processing: cachemgr_passwd s3cretPW all"})
	for _, s := range append(slices.Clone(r.Argv), r.StderrTail) {
		if strings.Contains(s, "s3cretPW") {
			t.Errorf("Ran kept the password: %q", s)
		}
	}
	if r.Argv[0] != "squidclient" || r.Argv[3] != "mgr:info@***" {
		t.Errorf("Ran argv = %q; want the password alone masked", r.Argv)
	}
}
