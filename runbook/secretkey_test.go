package runbook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// TestGoStageKeyNamedFromASecretIsMasked: a Go stage that names a key
// from a secret input (s.Set("seen-"+token, true)) had the state's key
// masked ("seen-***") but the commit log's write (and the next stage's
// read) held "seen-tok-93c1f" in the clear, in the saved record and in
// every event a caller's recorder (the NDJSON stream) saw.
func TestGoStageKeyNamedFromASecretIsMasked(t *testing.T) {
	const secret = "tok-93c1f"
	fc, err := flow.New("seen").
		Stage("note", func(ctx context.Context, s *flow.Scope) error {
			s.Set("seen-"+s.Value("token").(string), true)
			return nil
		}).
		Stage("check", func(ctx context.Context, s *flow.Scope) error {
			s.Set("ok", s.Value("seen-"+s.Value("token").(string)))
			return nil
		}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.New(fc, runbook.WithInputs(chart.InputSpec{Name: "token", Type: "string", Secret: true, Required: true}))
	if err != nil {
		t.Fatal(err)
	}
	var events bytes.Buffer
	res, err := rb.Exec(context.Background(), map[string]any{"token": secret}, runbook.WithRecorders(recorder.NewNDJSON(&events)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Run.Err != nil || res.Run.State()["ok"] != true {
		t.Fatalf("the run: %v, ok = %v", res.Run.Err, res.Run.State()["ok"])
	}
	saved, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), secret) {
		t.Errorf("the saved record holds the secret: %s", saved)
	}
	if !strings.Contains(string(saved), `"key":"seen-***"`) {
		t.Errorf("the log has no masked write of seen-***: %s", saved)
	}
	if strings.Contains(events.String(), secret) {
		t.Errorf("a recorder saw the secret:\n%s", events.String())
	}
}
