package runbook_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/runbook"
)

// TestRunbookInputsAreACopy: Runbook.Inputs handed out the runbook's own
// list, so a service that read it to build a form and cleared Secret
// there (or dropped a Default) changed every later run: the token was in
// the next run's record in the clear.
func TestRunbookInputsAreACopy(t *testing.T) {
	t.Parallel()
	fc, err := flow.New("login").Stage("probe", func(ctx context.Context, s *flow.Scope) error {
		s.Set("sent", s.Value("token"))
		return nil
	}).Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, runbook.WithInputs(chart.InputSpec{Name: "token", Type: "string", Secret: true, Required: true}))
	if err != nil {
		t.Fatal(err)
	}
	form := rb.Inputs()
	for i := range form {
		form[i].Secret = false
	}
	res, err := rb.Exec(context.Background(), map[string]any{"token": "s3cr3t-t0ken"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cr3t-t0ken") {
		t.Errorf("the record holds the secret input after the caller edited what Inputs returned: %s", b)
	}
}

// TestWithResultKeepsItsOwnNagiosWords: New checks result.nagios's words,
// but kept the caller's map, so an edit after New (critical listed under
// ok, which New refuses) reached the runbook past the check.
func TestWithResultKeepsItsOwnNagiosWords(t *testing.T) {
	t.Parallel()
	fc, err := flow.New("x").Stage("s", func(ctx context.Context, s *flow.Scope) error { return nil }).Build()
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]string{"degraded": "warning"}
	rb, err := runbook.New(fc, runbook.WithResult(chart.ResultSpec{Kind: "verdict/x", Nagios: words}))
	if err != nil {
		t.Fatal(err)
	}
	words["critical"] = "ok"
	if got, ok := rb.Spec().Result.Nagios["critical"]; ok {
		t.Errorf("the runbook's nagios words hold critical: %s, written into the caller's map after New checked it", got)
	}
}
