package runbook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/runbook"
)

// issue19Secret holds the characters every encoding changes: a quote, a
// backslash, and what JSON escapes for HTML.
const issue19Secret = `tok"<9f3K\q7Zr2pXw`

// representations are the ways a secret's text can be shown: exact,
// JSON-escaped (with and without HTML escaping), Go-quoted, and its first
// eight bytes in each (what a cut leaves). Written here, not asked of the
// masker, so the test does not grade the masker by its own rule.
func representations(sec string) map[string]string {
	out := map[string]string{"exact": sec}
	j, _ := json.Marshal(sec)
	out["json"] = strings.Trim(string(j), `"`)
	out["json-no-html"] = strings.ReplaceAll(strings.ReplaceAll(out["json"], `\u003c`, "<"), `\u003e`, ">")
	out["quoted"] = strings.Trim(strconv.Quote(sec), `"`)
	for name, f := range map[string]string{"exact": sec, "json": out["json"], "quoted": out["quoted"]} {
		if len(f) > 8 {
			out[name+"-prefix"] = f[:8]
		}
	}
	return out
}

// leaks names each representation of each secret found in text.
func leaks(where, text string, secrets map[string]string) []string {
	var out []string
	for what, sec := range secrets {
		for form, r := range representations(sec) {
			if strings.Contains(text, r) {
				out = append(out, fmt.Sprintf("%s holds %s (%s: %q)", where, what, form, r))
			}
		}
	}
	return out
}

// TestIssue19SecretFormsMasked: a secret read, derived, cut, a member of a
// secret object, and printed escaped by a command is masked in the
// narrative, the events and the saved record (issue #19: the masker knew
// only the exact text, so the narrative's JSON-escaped read of the token,
// its cut copy and the member of the object were shown).
func TestIssue19SecretFormsMasked(t *testing.T) {
	t.Parallel()
	spec, err := chart.Load("../testdata/issue19/secrets-forms/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rb, err := runbook.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	c := &collect{}
	res, err := rb.Exec(context.Background(), map[string]any{
		"token": issue19Secret,
		"creds": map[string]any{"password": "pw-778899-x", "pin": 482913},
	}, runbook.WithNarrative(), runbook.WithRecorders(c))
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Status != "failed" {
		t.Fatalf("status %s, want failed at boom", res.Record.Status)
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := res.WriteRecord(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	secrets := map[string]string{
		"the token": issue19Secret, "upper(token)": strings.ToUpper(issue19Secret),
		"creds.password": "pw-778899-x", "creds.pin": "482913",
	}
	var found []string
	found = append(found, leaks("the narrative", strings.Join(res.Record.Narrative, "\n"), secrets)...)
	found = append(found, leaks("the events", strings.Join(c.lines, "\n"), secrets)...)
	found = append(found, leaks("the record", string(saved), secrets)...)
	for _, f := range found {
		t.Error(f)
	}
	// The masking did not eat the run: the narrative still tells it.
	if !strings.Contains(strings.Join(res.Record.Narrative, "\n"), "printed") {
		t.Errorf("the narrative lost its stages:\n%s", strings.Join(res.Record.Narrative, "\n"))
	}
}
