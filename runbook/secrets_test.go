package runbook_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/openrunbook/runbook/record"

	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/runbook"
)

// collect keeps every event a recorder is given, as JSON lines.
type collect struct {
	mu    sync.Mutex
	lines []string
}

func (c *collect) Record(e recorder.Event) {
	b, _ := json.Marshal(e)
	c.mu.Lock()
	c.lines = append(c.lines, string(b))
	c.mu.Unlock()
}

// TestSecretMaskedForRecorders: the events a caller's recorder sees (the
// CLI's NDJSON stream is one) have the secret masked — the read of the
// input, a derived write, a rule's inputs, a stage's error message
// (regression: the NDJSON stream carried the secret in clear). Since issue
// #19 a value derived from the secret is masked whole: "Bearer ***" told
// that a bearer token was there, and upper(token) was shown in clear.
func TestSecretMaskedForRecorders(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-but-longer"
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs: {token: {type: string, secret: true, required: true}}
stages:
  - {id: derive, set: {header: '"Bearer " + token'}}
  - id: check
    decide:
      rules: [{when: 'token == "x"', then: a}]
      default: a
    branches: {a: []}
  - {id: boom, fail: '"bad " + token'}
`)
	c := &collect{}
	rec := exec(t, rb, map[string]any{"token": secret}, runbook.WithRecorders(c))
	if rec.Status != "failed" || rec.Error.Message != "***" {
		t.Fatalf("status %s error %+v", rec.Status, rec.Error)
	}
	all := strings.Join(c.lines, "\n")
	if strings.Contains(all, secret) {
		t.Errorf("a recorder saw the secret:\n%s", all)
	}
	if !strings.Contains(all, `"Key":"header","Value":"***"`) {
		t.Errorf("the derived write is not in the events, masked:\n%s", all)
	}
}

// TestSecretOfEveryType: a secret number, list or object is masked in the
// state, the inputs and the saved record too — not only a string
// (regression: a secret number reached the record's state in clear).
func TestSecretOfEveryType(t *testing.T) {
	t.Parallel()
	rb := parse(t, `version: 1
runbook: s
honesty: []
inputs:
  pin: {type: number, secret: true, required: true}
  keys: {type: list, secret: true, required: true}
  conf: {type: object, secret: true, required: true}
stages:
  - {id: copy, set: {p: pin, k: keys, c: conf}}
`)
	res, err := rb.Exec(context.Background(), map[string]any{"pin": "987654", "keys": `["k-1a2b3c","k-4d5e6f"]`, "conf": `{"pass":"pw-778899"}`})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	out, _ := json.Marshal(res.Record)
	for _, b := range [][]byte{out, saved} {
		for _, s := range []string{"987654", "k-1a2b3c", "pw-778899"} {
			if strings.Contains(string(b), s) {
				t.Errorf("%s is in the record:\n%s", s, b)
			}
		}
	}
	for _, k := range []string{"pin", "keys", "conf", "p", "k", "c"} {
		if res.Record.State[k] != record.Masked {
			t.Errorf("state %s = %v, want %s", k, res.Record.State[k], record.Masked)
		}
	}
}
