package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestMeaningsAreSaidUnderTheWordsRowsHave: a branch that writes a
// verdict word of another name (cut writes unaudited) had its meaning
// said under the branch's name: the table said `unaudited` and the
// meanings `cut — the report has no end time`, of a word no row had, and
// nothing of `unaudited` (wave-av's and wave-scan's design question).
// The meaning is said under the word the branch's verdict stage writes;
// two branches writing one word give it both meanings; a branch whose
// verdict stage computes its word keeps its name.
func TestMeaningsAreSaidUnderTheWordsRowsHave(t *testing.T) {
	dir := t.TempDir()
	chart := `version: 1
runbook: word-vs-branch
result: {kind: verdict/report, decider: Whole}
inputs:
  end: {type: bool, required: true}
  old: {type: bool, required: true}
stages:
  - id: whole
    name: Whole
    decide:
      rules:
        - {when: '!end', then: cut, label: the report has no end time}
        - {when: old, then: old, label: the report is of an earlier run}
        - {when: 'end && !old', then: ok, label: the report is whole}
      default: {branch: odd, label: nothing decided}
    branches:
      cut: [{id: c, verdict: {subject: '"report"', verdict: '"unaudited"'}}]
      old: [{id: o, verdict: {subject: '"report"', verdict: "'unaudited'"}}]
      ok: [{id: k, verdict: {subject: '"report"', verdict: '"ok"'}}]
      odd: [{id: d, verdict: {subject: '"report"', verdict: 'end ? "odd" : "odder"'}}]
`
	path := filepath.Join(dir, "chart.yaml")
	if err := os.WriteFile(path, []byte(chart), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		end, old string
		want     map[string]string
	}{
		// every rule evaluated: each branch's label, under its word
		{"true", "false", map[string]string{
			"unaudited": "the report has no end time; the report is of an earlier run",
			"ok":        "the report is whole",
			"odd":       "nothing decided",
		}},
		// the first rule matched: the others' branches by their declared
		// names, said as branches where they are under another word
		{"false", "true", map[string]string{
			"unaudited": "the report has no end time; branch old",
			"ok":        "ok",
			"odd":       "nothing decided",
		}},
	} {
		r := runCLI(t, dir, "exec", "--format", "json", "--input", "end="+tc.end, "--input", "old="+tc.old, path)
		var rec struct {
			Verdicts struct {
				Meanings map[string]string `json:"meanings"`
			} `json:"verdicts"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		got := rec.Verdicts.Meanings
		if len(got) != len(tc.want) {
			t.Errorf("end=%s old=%s: meanings %v, want %v", tc.end, tc.old, got, tc.want)
		}
		for w, m := range tc.want {
			if got[w] != m {
				t.Errorf("end=%s old=%s: meaning of %q: %q, want %q", tc.end, tc.old, w, got[w], m)
			}
		}
	}
}
