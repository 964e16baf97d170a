package runbook_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDigTypeFromAnInputIsRefused: the loader refuses a record type
// written in the chart that dig does not know (`TXTT`), but a type given
// through an input it cannot see: `[dig, +short, "${domain}", "${type}"]`
// run with --input type=TXTT asked the domain's A records and then the
// name `TXTT.`, and a check that an old DKIM selector holds no TXT record
// read it removed, over a key still published (wave-mailauth's design
// question). Such a value fails the stage before anything runs, with the
// load error's words; a type dig knows runs.
func TestDigTypeFromAnInputIsRefused(t *testing.T) {
	t.Parallel()
	dig := filepath.Join(t.TempDir(), "dig")
	if err := os.WriteFile(dig, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rb := parse(t, fmt.Sprintf(`version: 1
runbook: dkim-retired
inputs:
  domain: {type: string, default: old._domainkey.example.com}
  type: {type: string, default: TXT}
stages:
  - id: q
    exec: {command: [%s, +short, "${domain}", "${type}"], parse: lines}
`, dig))
	for _, tc := range []struct {
		typ     string
		refused bool
	}{
		{"TXTT", true},
		{"TXT", false},
		{"txt", false},
	} {
		res, err := rb.Exec(context.Background(), map[string]any{"type": tc.typ})
		if err != nil {
			t.Fatal(err)
		}
		rec := res.Record
		if !tc.refused {
			if rec.Status != "completed" {
				t.Errorf("type %s: status %s, want completed: %+v", tc.typ, rec.Status, rec.Error)
			}
			continue
		}
		const said = `exec command argument 4 "${type}" rendered "TXTT", which is no record type dig knows, so dig asks it as a further name, and the name before it for an A record: a rule reading the records would find none of the type meant; did you mean TXT?; nothing was run`
		if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, said) {
			t.Errorf("type %s: status %s, error %+v: want the stage failed, saying %s", tc.typ, rec.Status, rec.Error, said)
		}
		if len(rec.Scripts) != 0 {
			t.Errorf("type %s: a script ran: %+v", tc.typ, rec.Scripts)
		}
	}
}
