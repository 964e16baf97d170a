package runbook_test

import (
	"strings"
	"testing"
)

// TestReadGlobDoubleStarIsRefused: an SRE's glob: '"logs/**/*.log"', as
// bash's globstar reads it, meant every .log at any depth; Go's glob read
// "**" as "*", one folder name, and the stage read logs/app/a.log alone:
// logs/top.log and logs/app/2026/12/b.log, whose ERROR lines were the
// answer, were passed over, and the run completed with nothing on the
// ledger. The stage now fails saying what the pattern reads and what to
// write; a "**" inside a name ("logs/**.log", which globstar reads as
// "*.log" too) and the single-depth patterns it suggests still read.
func TestReadGlobDoubleStarIsRefused(t *testing.T) {
	t.Parallel()
	files := map[string]string{"logs/top.log": "ERROR top\n", "logs/app/a.log": "ok\n", "logs/app/2026/12/b.log": "ERROR deep\n"}
	rb, _ := open14(t, "version: 1\nrunbook: deep\nstages:\n  - {id: all, read: {glob: '\"logs/**/*.log\"', parse: lines}}\n", files)
	rec := run14(t, rb, nil)
	want := `read glob "logs/**/*.log": "**" does not match folders at any depth here, as bash's globstar does: a glob reads it as "*", one folder name, so it would read logs/*/*.log and not logs/*.log nor a file two folders down`
	if rec.Status != "failed" || rec.Error == nil || !strings.Contains(rec.Error.Message, want) {
		t.Fatalf("status %s error %+v\nwant the stage failed saying %q", rec.Status, rec.Error, want)
	}
	for _, pattern := range []string{"logs/*.log", "logs/*/*.log", "logs/**.log"} {
		rb, _ := open14(t, "version: 1\nrunbook: one\nstages:\n  - {id: all, read: {glob: '\""+pattern+"\"', parse: lines}}\n", files)
		if rec := run14(t, rb, nil); rec.Status != "completed" || len(rec.State["all"].([]any)) != 1 {
			t.Errorf("%s: status %s error %+v state %v", pattern, rec.Status, rec.Error, rec.State["all"])
		}
	}
}
