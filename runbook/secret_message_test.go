package runbook

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestSecretSliceInAnErrorIsMasked: a set: that sliced a secret input and
// failed on the slice (`token[3:] + 1`) failed the run with `a number
// cannot be used in "+" with the text "rus-Key-77xq"`: twelve of the
// secret's fifteen bytes in the record's error, the rule and event errors,
// the command line's "run failed" and an MCP tool's answer. So did
// upper(token), in capitals.
func TestSecretSliceInAnErrorIsMasked(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{"token[3:] + 1", "upper(token) + 1"} {
		rb := openYAMLChart(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: n, set: {n: '`+expr+`'}}
`)
		res, err := rb.Exec(context.Background(), map[string]any{"token": "Walrus-Key-77xq"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Record.Status != "failed" || res.Record.Error == nil {
			t.Fatalf("%s: status %s, want failed", expr, res.Record.Status)
		}
		b, err := json.Marshal(res.RunRecord())
		if err != nil {
			t.Fatal(err)
		}
		for _, piece := range []string{"rus-Key-77xq", "WALRUS-KEY-77XQ"} {
			if strings.Contains(res.Record.Error.Message, piece) || strings.Contains(string(b), piece) {
				t.Errorf("%s: the run's error or record shows %q: %s", expr, piece, res.Record.Error.Message)
			}
		}
	}
}

// TestSecretSliceInACheckErrorIsMasked: an answer check that cut a secret
// (int(token[3:])) and failed put the piece in the standing line: `could
// not be evaluated (int() could not read the text "rus-Key-77xq" …)`.
func TestSecretSliceInACheckErrorIsMasked(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
result:
  kind: verdict/x
  checks: ['len(verdicts) > int(token[3:])']
stages:
  - {id: v, verdict: {subject: '"x"', verdict: '"ok"'}}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"token": "Walrus-Key-77xq"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	a := res.Record.Assessment
	if a == nil || !strings.Contains(a.Line, "could not be evaluated") {
		t.Fatalf("the check did not fail: %+v", a)
	}
	if strings.Contains(a.Line, "rus-Key-77xq") || strings.Contains(string(b), "rus-Key-77xq") {
		t.Errorf("the standing line or the record shows the piece: %s", a.Line)
	}
}

// TestQuestionMadeFromAPieceOfASecretIsMasked: an ask:'s question built
// from slices of a secret input ("Rotate the key ending " + token[9:])
// showed the slices to the person, in the record and, through runbook
// mcp, in the agent's text and elicitation form.
func TestQuestionMadeFromAPieceOfASecretIsMasked(t *testing.T) {
	t.Parallel()
	rb := openYAMLChart(t, `version: 1
runbook: s
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: q, ask: {question: '"Rotate the key ending " + token[9:] + " (starts " + upper(token[0:6]) + ")?"', expects: {ok: bool}}}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"token": "Walrus-Key-77xq"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Pause == nil || res.Record.Pause.Question != "Rotate the key ending *** (starts ***)?" {
		t.Fatalf("the question = %+v, want its pieces of the secret masked", res.Record.Pause)
	}
	b, err := json.Marshal(res.RunRecord())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "y-77xq") || strings.Contains(string(b), "WALRUS") {
		t.Errorf("the record holds a piece of the secret")
	}
}
